"""Tournaments: many tables playing one rule set in rounds (RULES.md, "Tournaments").

``Tournament.next_step_at`` is the one column the beat sweep reads: whatever the tournament is
waiting for (its start, the next round, seating free arena players, the end of the arena) is due
at that time, so a tournament always resumes from the database after a lost task or a dead worker.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from tournaments import logic


class Format(models.TextChoices):
    KNOCKOUT = logic.KNOCKOUT, _("eleme")
    ARENA = logic.ARENA, _("süreli (arena)")


class TournamentSettings(models.Model):
    """What a tournament and a recurring schedule share."""

    salon = models.ForeignKey("salons.Salon", on_delete=models.PROTECT, related_name="+", verbose_name=_("salon"))
    name = models.CharField(_("ad"), max_length=60)
    format = models.CharField(_("biçim"), max_length=10, choices=Format.choices, default=Format.KNOCKOUT)
    rules = models.JSONField(_("kurallar"))
    turn_seconds = models.PositiveSmallIntegerField(_("hamle süresi (sn)"), default=20)
    registration_minutes = models.PositiveIntegerField(_("kayıt süresi (dakika)"), default=60)
    min_players = models.PositiveIntegerField(_("en az oyuncu"), default=2)
    max_players = models.PositiveIntegerField(_("en çok oyuncu"), default=256)
    buy_in = models.PositiveIntegerField(_("giriş ücreti (çip)"), default=0)
    added_chips = models.PositiveIntegerField(_("ödüle eklenen çip"), default=0)
    duration_minutes = models.PositiveIntegerField(_("süre (dakika, arena)"), default=30)
    go_on = models.PositiveSmallIntegerField(_("masadan üst tura çıkan"), default=1,
                                             choices=[(1, _("birinci")), (2, _("ilk iki"))])
    # The salon's own staff may not play for its prizes unless a site admin said so (issue 18).
    staff_may_play = models.BooleanField(_("salon görevlileri oynayabilir"), default=False)

    class Meta:
        abstract = True


# ISO weekday digit -> short name (forms and pages).
WEEKDAYS = [("1", _("Pzt")), ("2", _("Sal")), ("3", _("Çar")), ("4", _("Per")), ("5", _("Cum")),
            ("6", _("Cmt")), ("7", _("Paz"))]


class Schedule(TournamentSettings):
    """A recurring tournament (e.g. every evening at 21:00): the sweep creates each one ahead."""

    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    time_of_day = models.TimeField(_("saat"))
    # ISO weekdays as digits, 1 = Monday … 7 = Sunday.
    weekdays = models.CharField(_("günler"), max_length=7, default="1234567")
    is_active = models.BooleanField(_("etkin"), default=True)

    class Meta:
        verbose_name = _("turnuva takvimi")
        verbose_name_plural = _("turnuva takvimleri")

    def __str__(self) -> str:
        return f"{self.name} {self.time_of_day:%H:%M}"

    @property
    def weekdays_display(self) -> str:
        names = ", ".join(str(name) for digit, name in WEEKDAYS if digit in self.weekdays)
        return f"{names} {self.time_of_day:%H:%M}"


class Tournament(TournamentSettings):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("kayıtlar açık")
        RUNNING = "running", _("sürüyor")
        FINISHED = "finished", _("bitti")
        CANCELLED = "cancelled", _("iptal")

    status = models.CharField(_("durum"), max_length=10, choices=Status.choices, default=Status.SCHEDULED,
                              db_index=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    schedule = models.ForeignKey(Schedule, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournaments")
    starts_at = models.DateTimeField(_("başlangıç"))
    ends_at = models.DateTimeField(_("bitiş (arena)"), null=True, blank=True)
    # The room its tables live in (made at the start, public so anyone can watch).
    room = models.ForeignKey("salons.Room", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    round = models.PositiveSmallIntegerField(_("tur"), default=0)
    pool = models.PositiveBigIntegerField(_("ödül havuzu"), default=0)
    next_step_at = models.DateTimeField(null=True, blank=True, db_index=True)
    cancel_reason = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["starts_at", "pk"]
        verbose_name = _("turnuva")
        verbose_name_plural = _("turnuvalar")
        constraints = [
            models.UniqueConstraint(fields=["schedule", "starts_at"], condition=models.Q(schedule__isnull=False),
                                    name="one_tournament_per_schedule_time"),
            models.CheckConstraint(condition=models.Q(min_players__gte=2, max_players__gte=models.F("min_players")),
                                   name="tournament_player_range"),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:detail", kwargs={"tournament_id": self.pk})

    @property
    def registration_opens_at(self):
        from datetime import timedelta

        return self.starts_at - timedelta(minutes=self.registration_minutes)

    @property
    def table_size(self) -> int:
        return int(self.rules.get("players", 4))

    @property
    def is_knockout(self) -> bool:
        return self.format == Format.KNOCKOUT


class Entry(models.Model):
    """One registered player and their tournament so far."""

    class State(models.TextChoices):
        REGISTERED = "registered", _("kayıtlı")
        PLAYING = "playing", _("masada")
        WAITING = "waiting", _("sırada")        # knockout: through to the next round; arena: free
        PAUSED = "paused", _("ara verdi")      # arena: not seated again until they return
        OUT = "out", _("elendi")               # knockout: lost a table
        LEFT = "left", _("ayrıldı")            # arena: left for good (keeps their points)
        REMOVED = "removed", _("çıkarıldı")    # banned or disqualified: no prize
        WON = "won", _("kazandı")              # finished tournament: first place
        COMPLETED = "completed", _("tamamladı")  # finished tournament: played to the end, not first

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournament_entries")
    state = models.CharField(max_length=10, choices=State.choices, default=State.REGISTERED, db_index=True)
    paid = models.PositiveBigIntegerField(default=0)  # the buy-in taken (refunded on cancel/unregister)
    rating = models.FloatField(default=0.0)          # at the start, for seeding
    seed = models.PositiveIntegerField(null=True, blank=True)
    points = models.IntegerField(default=0)          # arena points
    hands_won = models.PositiveIntegerField(default=0)
    tables_played = models.PositiveIntegerField(default=0)
    free_since = models.DateTimeField(null=True, blank=True)
    wants_pause = models.BooleanField(default=False)  # arena: pause once the table in play is over
    place = models.PositiveIntegerField(null=True, blank=True)
    prize = models.PositiveBigIntegerField(default=0)
    removed_reason = models.CharField(max_length=200, blank=True)
    registered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "place", "-points", "seed", "pk"]
        verbose_name = _("turnuva kaydı")
        verbose_name_plural = _("turnuva kayıtları")
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="one_entry_per_tournament_user")]

    def __str__(self) -> str:
        return f"{self.tournament_id}:{self.user}"


class TournamentTable(models.Model):
    """One table of a round (knockout) or one seating (arena), with its match and its result."""

    class Status(models.TextChoices):
        PLAYING = "playing", _("oynanıyor")
        FINISHED = "finished", _("bitti")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="tables")
    round = models.PositiveSmallIntegerField()
    table = models.ForeignKey("salons.Table", on_delete=models.PROTECT, related_name="+")
    match = models.OneToOneField("games.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING, db_index=True)
    # Seat order: a user id, or null for a bot.
    players = models.JSONField(default=list)
    # Finished: seats best to worst, the match scores, and who went on (knockout).
    ranking = models.JSONField(default=list)
    scores = models.JSONField(default=list)
    went_on = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "round", "pk"]
        constraints = [models.UniqueConstraint(fields=["table"], condition=models.Q(status="playing"),
                                               name="one_playing_tournament_table")]

    def __str__(self) -> str:
        return f"{self.tournament_id} r{self.round} {self.table_id}"


class TournamentLog(models.Model):
    """Staff actions and automatic removals, with the reason (append-only)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="log")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+")
    action = models.CharField(max_length=20)
    reason = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("turnuva kaydı (yönetim)")
        verbose_name_plural = _("turnuva yönetim kayıtları")
