"""Players and their play-money chips.

``User.username`` is the public nickname (rumuz). It is the only thing about a player that other
players ever see, together with the public stats kept here; e-mail, real name and IP stay private
(a salon rule: "Kullanıcı bilgileriniz bir başkası tarafından asla bilinmez").
"""

from __future__ import annotations

from collections.abc import Iterator

from django.conf import settings
from django.contrib.auth.models import AbstractUser, UserManager
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Lower
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext_lazy as _

from .nicknames import NICKNAME_KEY_MAX_LENGTH, NICKNAME_MAX_LENGTH, nickname_key, validate_nickname_format


def starting_chips() -> int:
    """A callable default so the amount follows settings (and tests may override it)."""
    return settings.OKEY_STARTING_CHIPS


class PlayerManager(UserManager):
    def get_by_natural_key(self, username: str) -> User:
        # Logging in as "ali" finds "Ali": nicknames are unique case-insensitively.
        return self.get(username__iexact=username)


#: Columns only their services write, each with one atomic statement: the chip balance (with its
#: ledger line, ``accounts.services.change_chips``), the public game counters
#: (``record_game_result``) and the session generation (``end_every_session``).
SERVICE_OWNED_FIELDS = frozenset({"chips", "games_played", "games_won", "score", "session_generation"})

# Django's own salt for the session hash (``AbstractBaseUser.get_session_auth_hash``).
SESSION_HASH_SALT = "django.contrib.auth.models.AbstractBaseUser.get_session_auth_hash"


class User(AbstractUser):
    """A player. ``username`` is the public nickname (rumuz); everything else stays private."""

    username = models.CharField(
        _("rumuz"),
        max_length=NICKNAME_MAX_LENGTH,
        unique=True,
        validators=[validate_nickname_format],
        help_text=_("3–20 karakter: harf, rakam, nokta, tire ve alt çizgi."),
        error_messages={"unique": _("Bu rumuz zaten kullanılıyor.")},
    )
    # Two nicknames with one key look alike on screen ("аdmin" with a Cyrillic а, "Ｖictim" next to
    # "victim"): the constraint keeps one per key. Set on every save from ``username``.
    nickname_key = models.CharField(
        _("rumuz anahtarı"), max_length=NICKNAME_KEY_MAX_LENGTH, unique=True, null=True, editable=False
    )
    # Play money only: never bought, never paid out.
    chips = models.PositiveBigIntegerField(_("çip"), default=starting_chips)
    games_played = models.PositiveIntegerField(_("oynanan oyun"), default=0)
    games_won = models.PositiveIntegerField(_("kazanılan oyun"), default=0)
    # Sum of match scores, for a public ranking (the live-play issue adds to it).
    score = models.IntegerField(_("puan"), default=0)
    # Bots fill seats and play for away players; they are shown as bots everywhere and never log in.
    is_bot = models.BooleanField(_("bot"), default=False)
    # Part of the session hash: raising it ends every session and socket of the user at their next
    # request or connect, whatever the session key (``accounts.services.end_every_session``).
    session_generation = models.PositiveIntegerField(_("oturum kuşağı"), default=0, editable=False)

    objects = PlayerManager()

    class Meta(AbstractUser.Meta):
        verbose_name = _("oyuncu")
        verbose_name_plural = _("oyuncular")
        constraints = [
            models.UniqueConstraint(Lower("username"), name="accounts_user_username_ci_unique"),
            models.CheckConstraint(condition=models.Q(chips__gte=0), name="accounts_user_chips_non_negative"),
        ]

    def __str__(self) -> str:
        return self.username

    # Django keeps this hash in the session at login (and ``update_session_auth_hash`` after a
    # password change); its auth, and Channels' on every socket connect, drop a session whose hash
    # no longer matches. Mixing in the generation lets a ban end sessions it cannot list.
    def get_session_auth_hash(self) -> str:
        return self._session_hash(secret=None)

    def get_session_auth_fallback_hash(self) -> Iterator[str]:
        for secret in settings.SECRET_KEY_FALLBACKS:
            yield self._session_hash(secret=secret)

    def save(self, *args: object, **kwargs: object) -> None:
        self.nickname_key = nickname_key(self.username)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "username" in update_fields:
            kwargs["update_fields"] = {*update_fields, "nickname_key"}
        # A full save of an existing row writes back every column as it was when this copy was
        # loaded: a password change that hashed for a second would write the chip balance of a
        # second ago over a buy-in taken meanwhile (issue 18). The columns services move with
        # atomic ``UPDATE … SET x = x + n`` are therefore never written by a full save.
        if update_fields is not None and SERVICE_OWNED_FIELDS.intersection(update_fields):
            raise ValueError(f"{sorted(SERVICE_OWNED_FIELDS.intersection(update_fields))} are written by services only")
        if not self._state.adding and self.pk is not None and kwargs.get("update_fields") is None:
            kwargs["update_fields"] = [
                field.name for field in self._meta.concrete_fields
                if not field.primary_key and field.name not in SERVICE_OWNED_FIELDS
            ]
        super().save(*args, **kwargs)  # type: ignore[arg-type]

    def _session_hash(self, *, secret: str | None) -> str:
        # Generation 0 hashes exactly as Django does, so existing sessions survive this change.
        value = self.password if not self.session_generation else f"{self.password}|{self.session_generation}"
        return salted_hmac(SESSION_HASH_SALT, value, secret=secret, algorithm="sha256").hexdigest()

    def clean(self) -> None:
        """Forms that edit accounts (the admin) refuse a look-alike before the constraint would."""
        super().clean()
        key = nickname_key(self.username or "")
        if User.objects.filter(nickname_key=key).exclude(pk=self.pk).exists():
            raise ValidationError(
                {"username": _("Bu rumuz kullanılan bir rumuza çok benziyor, başka bir rumuz seçin.")}
            )

    @property
    def games_lost(self) -> int:
        return max(self.games_played - self.games_won, 0)

    @property
    def win_rate(self) -> int:
        """Percentage of games won, rounded; 0 before the first game."""
        if not self.games_played:
            return 0
        return round(100 * self.games_won / self.games_played)


class ChipTransaction(models.Model):
    """Append-only ledger of chip movements, so every balance can be explained to staff."""

    class Kind(models.TextChoices):
        WELCOME = "welcome", _("hoş geldin çipi")
        GAME = "game", _("oyun")
        ADMIN = "admin", _("yönetici düzeltmesi")
        HOLD = "hold", _("el teminatı")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chip_transactions", verbose_name=_("oyuncu")
    )
    amount = models.BigIntegerField(_("miktar"))
    balance_after = models.PositiveBigIntegerField(_("sonraki bakiye"))
    kind = models.CharField(_("tür"), max_length=16, choices=Kind.choices)
    note = models.CharField(_("not"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("zaman"), auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("çip hareketi")
        verbose_name_plural = _("çip hareketleri")

    def __str__(self) -> str:
        return f"{self.user} {self.amount:+d} ({self.get_kind_display()})"


class ChipHold(models.Model):
    """Chips set aside for what a player may owe: the most a chip hand can cost them, held when the
    hand is dealt and released when it is settled. Held chips are out of the balance (a ``hold``
    ledger line each way), so nothing else (a tournament buy-in) can spend them, and the winner of
    the hand is always paid in full (issue 18)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="chip_holds",
                             verbose_name=_("oyuncu"))
    # What the chips are held for, e.g. "match 12 hand 3": one hold per user and reference.
    reference = models.CharField(_("ne için"), max_length=64)
    amount = models.PositiveBigIntegerField(_("miktar"))
    created_at = models.DateTimeField(_("zaman"), auto_now_add=True)

    class Meta:
        verbose_name = _("tutulan çip")
        verbose_name_plural = _("tutulan çipler")
        constraints = [models.UniqueConstraint(fields=["user", "reference"], name="chip_hold_once_per_reference")]

    def __str__(self) -> str:
        return f"{self.user} {self.amount} ({self.reference})"
