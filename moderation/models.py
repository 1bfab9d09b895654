"""Moderation data: the staff word lists, what the chat filter did, reports, sanctions, the log.

Every row here is written by ``moderation.services``; the admin only reads, or calls a service.
Two tables are evidence and therefore append-only: ``ModerationLog`` (refuses updates and deletes
at the model level, not only in the admin) and the evidence snapshot inside each ``Report``.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from salons.models import ChatMessage, Room, RoomRemoval, Salon, Table

# --- the chat filter's staff lists ----------------------------------------------------------------


class FilterCategory(models.TextChoices):
    INSULT = "insult", _("hakaret / küfür")
    POLITICS = "politics", _("siyaset")
    ADVERTISING = "advertising", _("reklam")
    CUSTOM = "custom", _("sorumlu kelimesi")


class FilterAction(models.TextChoices):
    """What happens to a line (Discourse's watched-word actions)."""

    ALLOW = "allow", _("geçir")
    FLAG = "flag", _("gönder ve sorumlulara bildir")
    CENSOR = "censor", _("*** ile gönder")
    HOLD = "hold", _("onaya kadar beklet")
    BLOCK = "block", _("gönderme")


class WatchedWord(models.Model):
    """A word staff want caught, with its own action; added to the filter's built-in lists."""

    class Match(models.TextChoices):
        AUTO = "", _("otomatik (kısa kelime ekli, uzun kelime başlangıç)")
        EXACT = "exact", _("tam kelime")
        SUFFIX = "suffix", _("kelime + Türkçe ekler")
        PREFIX = "prefix", _("ile başlayan")
        CONTAINS = "contains", _("içinde geçen")

    word = models.CharField(_("kelime ya da ifade"), max_length=80, unique=True)
    category = models.CharField(_("kategori"), max_length=16, choices=FilterCategory.choices, default=FilterCategory.CUSTOM)
    # Blank: the category's default (insult censor, politics hold, advertising block, custom censor).
    action = models.CharField(
        _("işlem"),
        max_length=8,
        blank=True,
        choices=[(value, label) for value, label in FilterAction.choices if value != FilterAction.ALLOW],
    )
    match = models.CharField(_("eşleşme"), max_length=8, blank=True, choices=Match.choices, default=Match.AUTO)
    note = models.CharField(_("not"), max_length=200, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("ekleyen")
    )
    created_at = models.DateTimeField(_("eklenme"), auto_now_add=True)
    updated_at = models.DateTimeField(_("güncelleme"), auto_now=True)

    class Meta:
        ordering = ["category", "word"]
        verbose_name = _("izlenen kelime")
        verbose_name_plural = _("izlenen kelimeler")

    def __str__(self) -> str:
        return self.word


class AllowedWord(models.Model):
    """A false positive staff let through: a place name, an okey term, an allowed domain."""

    word = models.CharField(_("kelime, ifade ya da alan adı"), max_length=80, unique=True)
    note = models.CharField(_("not"), max_length=200, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("ekleyen")
    )
    created_at = models.DateTimeField(_("eklenme"), auto_now_add=True)
    updated_at = models.DateTimeField(_("güncelleme"), auto_now=True)

    class Meta:
        ordering = ["word"]
        verbose_name = _("izin verilen kelime")
        verbose_name_plural = _("izin verilen kelimeler")

    def __str__(self) -> str:
        return self.word


# --- what the filter did -------------------------------------------------------------------------


class FilteredLine(models.Model):
    """One chat line the filter acted on: the original words, what others saw, and the review.

    Held and flagged lines wait here for staff ("pending"); censored and blocked lines are kept
    as evidence only ("none"). A blocked line has no ``message``: it was never sent.
    """

    class Review(models.TextChoices):
        NONE = "none", _("inceleme gerekmez")
        PENDING = "pending", _("inceleme bekliyor")
        APPROVED = "approved", _("onaylandı")
        REJECTED = "rejected", _("reddedildi")

    message = models.OneToOneField(
        ChatMessage, on_delete=models.CASCADE, null=True, blank=True, related_name="filtered", verbose_name=_("mesaj")
    )
    salon = models.ForeignKey(Salon, on_delete=models.CASCADE, related_name="+", verbose_name=_("salon"))
    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="+", verbose_name=_("oda"))
    table = models.ForeignKey(Table, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("masa"))
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="filtered_lines", verbose_name=_("yazan")
    )
    original = models.CharField(_("yazılan"), max_length=500)
    shown = models.CharField(_("gösterilen"), max_length=500, blank=True)
    action = models.CharField(_("işlem"), max_length=8, choices=FilterAction.choices)
    categories = models.JSONField(_("kategoriler"), default=list)
    reasons = models.JSONField(_("gerekçeler"), default=list)
    review = models.CharField(_("inceleme"), max_length=8, choices=Review.choices, default=Review.NONE, db_index=True)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("inceleyen")
    )
    reviewed_at = models.DateTimeField(_("inceleme zamanı"), null=True, blank=True)
    created_at = models.DateTimeField(_("zaman"), default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("süzülen mesaj")
        verbose_name_plural = _("süzülen mesajlar")
        indexes = [models.Index(fields=["salon", "review", "-created_at"])]

    def __str__(self) -> str:
        return f"{self.author}: {self.original[:40]} ({self.action})"


# --- reports -------------------------------------------------------------------------------------


class Report(models.Model):
    class Reason(models.TextChoices):
        INSULT = "insult", _("hakaret / küfür")
        POLITICS = "politics", _("siyaset / tartışma")
        ADVERTISING = "advertising", _("reklam")
        CHEATING = "cheating", _("hile")
        LEAVING = "leaving", _("oyunu yarıda bırakma")
        UNFAIR_REMOVAL = "unfair_removal", _("oda sahibinin haksız yere çıkarması")
        OTHER = "other", _("diğer")

    class Source(models.TextChoices):
        TABLE = "table", _("masa")
        ROOM = "room", _("oda")
        PROFILE = "profile", _("profil")

    class Status(models.TextChoices):
        OPEN = "open", _("açık")
        ACTIONED = "actioned", _("işlem yapıldı")
        DISMISSED = "dismissed", _("reddedildi")

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_made", verbose_name=_("şikayet eden")
    )
    reported = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_received", verbose_name=_("şikayet edilen")
    )
    # Null for profile reports: those go to site admins, as nothing ties them to a salon.
    salon = models.ForeignKey(Salon, on_delete=models.CASCADE, null=True, blank=True, related_name="+", verbose_name=_("salon"))
    room = models.ForeignKey(Room, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("oda"))
    table = models.ForeignKey(Table, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("masa"))
    source = models.CharField(_("nereden"), max_length=8, choices=Source.choices)
    reason = models.CharField(_("sebep"), max_length=16, choices=Reason.choices)
    note = models.CharField(_("not"), max_length=500, blank=True)
    # A snapshot of the chat around the report, taken when it was filed (later edits can't erase it).
    evidence = models.JSONField(_("kanıt"), default=list, blank=True)
    priority = models.PositiveIntegerField(_("öncelik"), default=1, db_index=True)
    status = models.CharField(_("durum"), max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("ilgilenen")
    )
    handled_at = models.DateTimeField(_("ilgilenme zamanı"), null=True, blank=True)
    resolution = models.CharField(_("sonuç"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("zaman"), default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-priority", "-created_at"]
        verbose_name = _("şikayet")
        verbose_name_plural = _("şikayetler")
        indexes = [models.Index(fields=["status", "salon", "-priority"]), models.Index(fields=["reported", "status"])]

    def __str__(self) -> str:
        return f"#{self.pk} {self.reporter} → {self.reported} ({self.get_reason_display()})"


# --- sanctions -----------------------------------------------------------------------------------


class SanctionQuerySet(models.QuerySet):
    def active(self, now: datetime | None = None) -> SanctionQuerySet:
        """In force right now. Time decides, not only ``status``: a sanction past its end stops
        applying at once, even before the expiry task has marked it."""
        now = now or timezone.now()
        return self.filter(status=Sanction.Status.ACTIVE).filter(Q(expires_at__isnull=True) | Q(expires_at__gt=now))


class Sanction(models.Model):
    """A measure against a player. ``salon`` means different things per kind, on purpose:

    * mute: the salon whose chat is closed to them (none: every chat);
    * salon ban: the salon they may not enter; room removal: the room's salon;
    * warning and site ban: the salon where it happened (staff of that salon see it).
    """

    class Kind(models.TextChoices):
        WARNING = "warning", _("uyarı")
        MUTE = "mute", _("susturma")
        ROOM_REMOVAL = "room_removal", _("odadan uzaklaştırma")
        SALON_BAN = "salon_ban", _("salon yasağı")
        SITE_BAN = "site_ban", _("site yasağı")

    class Status(models.TextChoices):
        ACTIVE = "active", _("etkin")
        EXPIRED = "expired", _("süresi doldu")
        LIFTED = "lifted", _("kaldırıldı")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sanctions", verbose_name=_("oyuncu")
    )
    kind = models.CharField(_("tür"), max_length=16, choices=Kind.choices)
    salon = models.ForeignKey(Salon, on_delete=models.CASCADE, null=True, blank=True, related_name="+", verbose_name=_("salon"))
    room = models.ForeignKey(Room, on_delete=models.CASCADE, null=True, blank=True, related_name="+", verbose_name=_("oda"))
    reason = models.CharField(_("sebep"), max_length=200)
    starts_at = models.DateTimeField(_("başlangıç"), default=timezone.now)
    expires_at = models.DateTimeField(_("bitiş"), null=True, blank=True, db_index=True, help_text=_("Boş: kalıcı"))
    status = models.CharField(_("durum"), max_length=8, choices=Status.choices, default=Status.ACTIVE, db_index=True)
    report = models.ForeignKey(
        Report, on_delete=models.SET_NULL, null=True, blank=True, related_name="sanctions", verbose_name=_("şikayet")
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("uygulayan")
    )
    created_at = models.DateTimeField(_("zaman"), default=timezone.now)
    ended_at = models.DateTimeField(_("sona erme"), null=True, blank=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("kaldıran")
    )
    lift_reason = models.CharField(_("kaldırma sebebi"), max_length=200, blank=True)
    # Warnings: when the player closed the banner (it stays on every page until then).
    seen_at = models.DateTimeField(_("görülme"), null=True, blank=True)

    objects = SanctionQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("yaptırım")
        verbose_name_plural = _("yaptırımlar")
        indexes = [models.Index(fields=["user", "kind", "status"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} · {self.user}"

    def is_active(self, now: datetime | None = None) -> bool:
        now = now or timezone.now()
        return self.status == self.Status.ACTIVE and (self.expires_at is None or self.expires_at > now)


# --- the log -------------------------------------------------------------------------------------


class ModerationLog(models.Model):
    """Append-only record of every moderation step: who did what to whom, where, and why."""

    class Action(models.TextChoices):
        REPORT_FILED = "report_filed", _("şikayet edildi")
        REPORT_DISMISSED = "report_dismissed", _("şikayet reddedildi")
        SANCTION_APPLIED = "sanction_applied", _("yaptırım uygulandı")
        SANCTION_LIFTED = "sanction_lifted", _("yaptırım kaldırıldı")
        SANCTION_EXPIRED = "sanction_expired", _("yaptırımın süresi doldu")
        CHAT_APPROVED = "chat_approved", _("mesaj onaylandı")
        CHAT_REJECTED = "chat_rejected", _("mesaj reddedildi")
        CHAT_HIDDEN = "chat_hidden", _("mesaj gizlendi")
        CHAT_SHOWN = "chat_shown", _("mesaj yeniden gösterildi")
        WORD_CHANGED = "word_changed", _("kelime listesi değişti")
        STAFF_GRANTED = "staff_granted", _("yönetim paneli erişimi verildi")
        # A staff member tried something outside their powers (nothing changed).
        REFUSED = "refused", _("yetki dışı girişim reddedildi")
        # A private room's password limit was reached (salons.services.enter_room); the owner is told.
        PASSWORD_ATTACK = "password_attack", _("oda şifresine saldırı")

    action = models.CharField(_("işlem"), max_length=20, choices=Action.choices, db_index=True)
    # Null: the system (expiry task).
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("yapan")
    )
    target = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("hedef")
    )
    salon = models.ForeignKey(Salon, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("salon"))
    sanction = models.ForeignKey(Sanction, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("yaptırım"))
    report = models.ForeignKey(Report, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("şikayet"))
    reason = models.CharField(_("sebep"), max_length=200, blank=True)
    details = models.JSONField(_("ayrıntılar"), default=dict, blank=True)
    created_at = models.DateTimeField(_("zaman"), default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("moderasyon kaydı")
        verbose_name_plural = _("moderasyon kayıtları")

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.get_action_display()}"

    def save(self, *args: object, **kwargs: object) -> None:
        if self.pk is not None:
            raise PermissionError("ModerationLog is append-only")
        super().save(*args, **kwargs)  # type: ignore[arg-type]

    def delete(self, *args: object, **kwargs: object) -> tuple[int, dict[str, int]]:
        raise PermissionError("ModerationLog is append-only")


# --- sessions ------------------------------------------------------------------------------------


class UserSession(models.Model):
    """Session keys of a user, recorded at login, so a site ban can end every one of them at once
    whatever the session engine (scanning and decoding every session row would not scale)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    session_key = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("oturum")
        verbose_name_plural = _("oturumlar")


# --- proxies for the salon-scoped admin views ---------------------------------------------------


class ChatLine(ChatMessage):
    """Chat history as staff search it, limited to their salons."""

    class Meta:
        proxy = True
        verbose_name = _("sohbet geçmişi")
        verbose_name_plural = _("sohbet geçmişi")


class OwnerRemoval(RoomRemoval):
    """Room owners' removals, for staff looking for unfair removers."""

    class Meta:
        proxy = True
        verbose_name = _("oda sahibi çıkarması")
        verbose_name_plural = _("oda sahibi çıkarmaları")


class RemovingOwner(User):
    """Room owners with how many people they removed, most first."""

    class Meta:
        proxy = True
        verbose_name = _("çıkaran oda sahibi")
        verbose_name_plural = _("çıkaran oda sahipleri (sayılarla)")


class Player(User):
    """A player's moderation history (reports, sanctions, removals) for staff."""

    class Meta:
        proxy = True
        verbose_name = _("oyuncu geçmişi")
        verbose_name_plural = _("oyuncu geçmişleri")
