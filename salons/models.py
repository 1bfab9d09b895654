"""Salons, rooms, tables, seats, room chat and the removal log.

Integration contract (the live-play app relies on these names): ``Room.rules`` holds
``games.engine.rules.RuleSet.to_dict()``; players per table is ``rules["players"]``, the stake
``rules["stake"]``; ``Table.status`` is "waiting" or "playing"; a seat is (table, position) with a
nullable user, and a user holds at most one seat per table.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth.hashers import check_password, make_password
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from games.engine.game_types import UnknownGameType, game_type_of
from games.engine.rules import RuleSet

# The hidden salon of every practice room (``salons.practice`` makes it): never listed anywhere.
PRACTICE_SALON_SLUG = "_pratik"

TURN_SECONDS_MIN = 10
TURN_SECONDS_MAX = 60
TURN_SECONDS_DEFAULT = 20


def default_rules() -> dict[str, Any]:
    return RuleSet().to_dict()


def new_invite_token() -> str:
    return secrets.token_urlsafe(16)


class Salon(models.Model):
    """A hall of rooms, created by site admins, with its own staff."""

    name = models.CharField(_("ad"), max_length=60, unique=True)
    slug = models.SlugField(_("kısa ad"), max_length=60, unique=True)
    description = models.CharField(_("açıklama"), max_length=200, blank=True)
    # The same in English, for pages shown in English (empty: the Turkish one is shown).
    description_en = models.CharField(_("açıklama (İngilizce)"), max_length=200, blank=True)
    position = models.PositiveSmallIntegerField(_("sıra"), default=0)
    is_active = models.BooleanField(_("açık"), default=True)
    # Chip tables in this salon may only use stakes in this range (play money).
    min_stake = models.PositiveIntegerField(_("en düşük bahis"), default=10)
    max_stake = models.PositiveIntegerField(_("en yüksek bahis"), default=1000)
    max_rooms = models.PositiveIntegerField(_("en çok oda"), default=200)

    class Meta:
        ordering = ["position", "name"]
        verbose_name = _("salon")
        verbose_name_plural = _("salonlar")
        constraints = [
            models.CheckConstraint(condition=models.Q(min_stake__lte=models.F("max_stake")), name="salon_stake_range"),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("salons:salon", kwargs={"slug": self.slug})

    @property
    def is_practice(self) -> bool:
        """The hidden salon of practice rooms (``salons.practice``): never named on a page."""
        return self.slug == PRACTICE_SALON_SLUG

    @property
    def shown_description(self) -> str:
        """The description in the active language: English when the page is English and the salon
        has one, else the Turkish source."""
        if self.description_en and (get_language() or "").startswith("en"):
            return self.description_en
        return self.description


class SalonStaff(models.Model):
    """A salon moderator ("salon sorumlusu"). The moderation app gives them their powers."""

    salon = models.ForeignKey(Salon, on_delete=models.CASCADE, related_name="staff", verbose_name=_("salon"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="salon_roles", verbose_name=_("oyuncu")
    )
    created_at = models.DateTimeField(_("atanma"), auto_now_add=True)

    class Meta:
        verbose_name = _("salon sorumlusu")
        verbose_name_plural = _("salon sorumluları")
        constraints = [models.UniqueConstraint(fields=["salon", "user"], name="salon_staff_unique")]

    def __str__(self) -> str:
        return f"{self.salon} · {self.user}"


class Room(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("açık")
        CLOSED = "closed", _("kapalı")

    salon = models.ForeignKey(Salon, on_delete=models.PROTECT, related_name="rooms", verbose_name=_("salon"))
    name = models.CharField(_("oda adı"), max_length=40)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="owned_rooms", verbose_name=_("oda sahibi")
    )
    rules = models.JSONField(_("kurallar"), default=default_rules)
    turn_seconds = models.PositiveSmallIntegerField(
        _("hamle süresi (sn)"),
        default=TURN_SECONDS_DEFAULT,
        validators=[MinValueValidator(TURN_SECONDS_MIN), MaxValueValidator(TURN_SECONDS_MAX)],
    )
    # 0 = never; else empty seats are filled with bots this long after the first player sits down.
    bot_fill_seconds = models.PositiveSmallIntegerField(_("boş yerlere bot (saniye)"), default=0)
    is_private = models.BooleanField(_("özel oda"), default=False)
    # A Django password hash (never the password itself); empty = invite link only.
    password = models.CharField(_("şifre"), max_length=128, blank=True)
    invite_token = models.CharField(_("davet anahtarı"), max_length=32, unique=True, default=new_invite_token)
    # When wrong passwords from everyone together last reached the room's limit; shown to the owner
    # until the password changes.
    password_attack_at = models.DateTimeField(_("şifre saldırısı"), null=True, blank=True)
    status = models.CharField(_("durum"), max_length=8, choices=Status.choices, default=Status.OPEN, db_index=True)
    created_at = models.DateTimeField(_("açılış"), auto_now_add=True)
    updated_at = models.DateTimeField(_("güncelleme"), auto_now=True)
    closed_at = models.DateTimeField(_("kapanış"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("oda")
        verbose_name_plural = _("odalar")
        indexes = [models.Index(fields=["salon", "status"])]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(turn_seconds__gte=TURN_SECONDS_MIN, turn_seconds__lte=TURN_SECONDS_MAX),
                name="room_turn_seconds_range",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("salons:room", kwargs={"room_id": self.pk})

    @property
    def rule_set(self) -> RuleSet:
        """The rules as the room's game type reads them (``UnknownGameType``: a game not played here)."""
        return game_type_of(self.rules).rules(self.rules)

    @property
    def players(self) -> int:
        return int(self.rules.get("players", 4))

    @property
    def stake(self) -> int:
        return int(self.rules.get("stake", 0))

    @property
    def chip_cover(self) -> int:
        """What a player must hold to sit here: the most one hand can cost them (0 but at chips),
        set aside as each hand is dealt (``accounts.models.ChipHold``)."""
        from games.engine.game_types import game_type_of

        try:
            return game_type_of(self.rules).hand_cover(self.rule_set)
        except UnknownGameType:
            return 0  # nobody plays there: starting a match is refused (unknown_game)

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN

    def set_password(self, raw: str) -> None:
        self.password = make_password(raw) if raw else ""

    def check_password(self, raw: str) -> bool:
        return bool(self.password) and check_password(raw, self.password)


class Table(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("bekliyor")
        PLAYING = "playing", _("oyunda")

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="tables", verbose_name=_("oda"))
    number = models.PositiveSmallIntegerField(_("masa no"))
    status = models.CharField(_("durum"), max_length=8, choices=Status.choices, default=Status.WAITING, db_index=True)
    created_at = models.DateTimeField(_("açılış"), auto_now_add=True)

    class Meta:
        ordering = ["room", "number"]
        verbose_name = _("masa")
        verbose_name_plural = _("masalar")
        constraints = [models.UniqueConstraint(fields=["room", "number"], name="table_number_unique")]

    def __str__(self) -> str:
        return f"{self.room} · {self.number}"

    def get_absolute_url(self) -> str:
        # The live table page belongs to the games app.
        return f"/tables/{self.pk}/"

    @property
    def is_playing(self) -> bool:
        return self.status == self.Status.PLAYING


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats", verbose_name=_("masa"))
    position = models.PositiveSmallIntegerField(_("yer"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="seats",
        verbose_name=_("oyuncu"),
    )
    taken_at = models.DateTimeField(_("oturma"), null=True, blank=True)

    class Meta:
        ordering = ["table", "position"]
        verbose_name = _("koltuk")
        verbose_name_plural = _("koltuklar")
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
            models.UniqueConstraint(
                fields=["table", "user"], condition=models.Q(user__isnull=False), name="seat_one_per_user_per_table"
            ),
            models.CheckConstraint(condition=models.Q(position__lt=4), name="seat_position_range"),
        ]

    def __str__(self) -> str:
        return f"{self.table} #{self.position}"


class RoomAccess(models.Model):
    """A user who unlocked a private room (password or invite link); checked by pages and sockets.

    Rows go when the password or the privacy changes (all of them) or the owner makes a new invite
    link (those that came through the old link): an old secret never keeps anyone in.
    """

    class Via(models.TextChoices):
        PASSWORD = "password", _("şifre")
        INVITE = "invite", _("davet bağlantısı")

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="accesses")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="room_accesses")
    via = models.CharField(_("giriş yolu"), max_length=8, choices=Via.choices, default=Via.PASSWORD)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("oda izni")
        verbose_name_plural = _("oda izinleri")
        constraints = [models.UniqueConstraint(fields=["room", "user"], name="room_access_unique")]


class RoomPresence(models.Model):
    """One open room socket. Counts come from rows seen recently, so a crashed server's rows expire."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="presences")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="room_presences")
    channel_name = models.CharField(max_length=200, unique=True)
    seen_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("odadaki kişi")
        verbose_name_plural = _("odadaki kişiler")


class ChatMessage(models.Model):
    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="messages", verbose_name=_("oda"))
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, null=True, blank=True, related_name="messages", verbose_name=_("masa")
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages", verbose_name=_("yazan")
    )
    text = models.CharField(_("mesaj"), max_length=500)
    created_at = models.DateTimeField(_("zaman"), auto_now_add=True, db_index=True)
    # For the moderation app: hidden messages stay stored (evidence) but are shown to nobody.
    visible = models.BooleanField(_("görünür"), default=True)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("gizleyen"),
    )
    hidden_at = models.DateTimeField(_("gizlenme"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("sohbet mesajı")
        verbose_name_plural = _("sohbet mesajları")
        indexes = [models.Index(fields=["room", "table", "-created_at"])]

    def __str__(self) -> str:
        return f"{self.author}: {self.text[:40]}"


class RoomRemoval(models.Model):
    """Who removed whom from which room, when and why — staff read it to find unfair removals."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="removals", verbose_name=_("oda"))
    removed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="removals_made", verbose_name=_("çıkaran")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="removals_received", verbose_name=_("çıkarılan")
    )
    reason = models.CharField(_("sebep"), max_length=200)
    created_at = models.DateTimeField(_("zaman"), auto_now_add=True, db_index=True)
    until = models.DateTimeField(_("şu zamana kadar"))

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("odadan çıkarma")
        verbose_name_plural = _("odadan çıkarmalar")
        indexes = [models.Index(fields=["room", "user", "until"])]

    def __str__(self) -> str:
        return f"{self.removed_by} → {self.user} ({self.room})"

    @property
    def is_active(self) -> bool:
        return self.until > timezone.now()
