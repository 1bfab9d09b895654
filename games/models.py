"""Matches, hands and the append-only move log.

The engine's state lives in JSON (``Hand.state``: racks, pile, deck — server-side only); the move
counter and deadline are columns so that services can check a client's move number and Celery can
find overdue turns with one indexed query. Every hand can be rebuilt from its deal and ``Move`` rows.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Match(models.Model):
    class Status(models.TextChoices):
        RUNNING = "running", _("sürüyor")
        FINISHED = "finished", _("bitti")
        ABANDONED = "abandoned", _("yarıda kaldı")

    table = models.ForeignKey("salons.Table", on_delete=models.CASCADE, related_name="matches")
    rules = models.JSONField(_("kurallar"))
    turn_seconds = models.PositiveSmallIntegerField(_("hamle süresi"), default=20)
    status = models.CharField(_("durum"), max_length=12, choices=Status.choices, default=Status.RUNNING)
    # The engine's MatchState (scores, hands played, next starting seat).
    state = models.JSONField(default=dict)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("maç")
        verbose_name_plural = _("maçlar")
        indexes = [models.Index(fields=["table", "status"])]
        constraints = [
            models.UniqueConstraint(
                fields=["table"], condition=models.Q(status="running"), name="one_running_match_per_table"
            )
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.table}"


class MatchPlayer(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="players")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="match_seats")
    score = models.IntegerField(default=0)
    timeouts_in_row = models.PositiveSmallIntegerField(default=0)
    away = models.BooleanField(default=False)
    is_winner = models.BooleanField(default=False)
    # Moves of the seat in the match's recorded hands: made by the player themselves, and made by
    # the turn clock for them (time out, away, left). RULES.md "Absent players never win": a person
    # the clock played for all through (``absent``) is not counted, rated, a winner or a qualifier.
    own_moves = models.PositiveIntegerField(default=0)
    clock_moves = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="one_player_per_match_seat"),
            models.UniqueConstraint(fields=["match", "user"], name="one_seat_per_match_user"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id}:{self.seat} {self.user}"

    @property
    def absent(self) -> bool:
        """The turn clock played every move of this seat: the player never played the match."""
        return self.own_moves == 0 and self.clock_moves > 0

    @property
    def played_by_clock(self) -> bool:
        """The turn clock played most of this seat's moves (the profile says "played for you")."""
        return self.clock_moves > self.own_moves


class Hand(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", _("oynanıyor")
        OVER = "over", _("bitti")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    # Engine HandState.to_dict(): holds every rack and the pile. Never sent to a client as is.
    state = models.JSONField()
    move = models.PositiveIntegerField(default=0)
    # Verifiable deal: SHA-256 of the deck order and a secret salt, published when the hand is
    # dealt; deck and salt are revealed once the hand is over (games.engine.fairness).
    commitment = models.CharField(max_length=64, blank=True)
    salt = models.CharField(max_length=64, blank=True)
    turn_seat = models.PositiveSmallIntegerField(default=0)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="one_hand_number_per_match")]

    def __str__(self) -> str:
        return f"{self.match_id}/{self.number}"


class Move(models.Model):
    """Append-only: who did what, when, at which move number. Never updated or deleted."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="moves")
    number = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField(null=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    action = models.CharField(max_length=20)
    args = models.JSONField(default=dict)
    auto = models.BooleanField(default=False, help_text="played by the server for a player out of time")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["hand", "number"]
        constraints = [models.UniqueConstraint(fields=["hand", "number"], name="one_move_per_number")]

    def __str__(self) -> str:
        return f"{self.hand_id}#{self.number} {self.action}"


class ReadyMark(models.Model):
    """A seated player said they are ready to start; all seated and ready starts the match."""

    table = models.ForeignKey("salons.Table", on_delete=models.CASCADE, related_name="ready_marks")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "user"], name="one_ready_mark_per_user")]


class PlayerRating(models.Model):
    """A player's rating (OpenSkill, Weng-Lin Plackett-Luce) overall (salon null) or in one salon."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    salon = models.ForeignKey("salons.Salon", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    mu = models.FloatField(default=25.0)
    sigma = models.FloatField(default=25.0 / 3)
    # mu - 3 sigma: what leaderboards sort by, so a lucky newcomer does not top the list.
    ordinal = models.FloatField(default=0.0, db_index=True)
    matches = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "salon"], name="one_rating_per_user_salon"),
            models.UniqueConstraint(fields=["user"], condition=models.Q(salon__isnull=True),
                                    name="one_overall_rating_per_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.salon or 'overall'} {self.ordinal:.1f}"


class PracticeTable(models.Model):
    """A player's table against bots. It lives outside the salons (its room belongs to the hidden
    practice salon, ``salons.practice``): never listed, counted or rated. One open per player: a
    second click resumes it; leaving, sitting at a real table or the match's end closes it."""

    class Level(models.TextChoices):
        EASY = "easy", _("kolay")
        NORMAL = "normal", _("orta")
        HARD = "hard", _("zor")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="practice_tables")
    table = models.OneToOneField("salons.Table", on_delete=models.CASCADE, related_name="practice")
    level = models.CharField(_("bot seviyesi"), max_length=8, choices=Level.choices, default=Level.NORMAL)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("pratik masası")
        verbose_name_plural = _("pratik masaları")
        constraints = [
            models.UniqueConstraint(fields=["user"], condition=models.Q(closed_at__isnull=True),
                                    name="one_open_practice_table_per_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.level}"

    @property
    def is_open(self) -> bool:
        return self.closed_at is None


class RatingPoint(models.Model):
    """A player's overall rating after one rated match: the profile draws its history from these."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_points")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    ordinal = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["user", "created_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["user", "match"], name="one_rating_point_per_match")]
