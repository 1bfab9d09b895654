"""Nickname (rumuz) rules.

Two layers: ``validate_nickname_format`` is on the model field (it holds for every account, even
those site admins create), ``validate_nickname_policy`` runs at sign-up through allauth
(``ACCOUNT_USERNAME_VALIDATORS``): reserved names, bot names, look-alikes of existing players and
impersonation of staff. Other apps add checks with ``register_nickname_check`` — the moderation
app plugs its offensive-word filter in there from its ``AppConfig.ready()``, so this module never
needs to know about word lists.

Look-alikes are compared through :func:`nickname_key`, stored in ``User.nickname_key`` under a
unique constraint: "аdmin" (Cyrillic а), "ΒotCem" (Greek Β), "Ｖictim" (fullwidth) and "v1ctim"
all have the key of "admin", "botcem", "victim". The key uses the chat filter's fold
(``moderation.chatfilter.normalize``: plain Python with no Django import, used here like a
library) and the Unicode confusables skeleton (UTS #39).
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

# The format and the key live apart (no database there), so the user model can use them without
# importing this policy, which looks accounts up; re-exported for the callers of this module.
from .nicknames import (  # noqa: F401
    NICKNAME_KEY_MAX_LENGTH,
    NICKNAME_MAX_LENGTH,
    NICKNAME_MIN_LENGTH,
    nickname_key,
    normalize_nickname,
    validate_nickname_format,
)

# Exact names nobody may take (compared through their keys, so look-alikes are taken too).
RESERVED_NICKNAMES = frozenset(
    {
        "admin", "administrator", "root", "system", "sistem", "moderator", "mod", "yonetici",
        "yonetim", "sorumlu", "salonsorumlusu", "destek", "support", "staff", "personel", "okey",
        "okeysalonu", "bot", "anonymous", "anonim", "misafir", "guest", "null", "none", "undefined",
        "herkes", "everyone", "server", "sunucu", "info", "bilgi", "webmaster", "postmaster", "abuse",
        # words of the site and its pages
        "okeysalon", "salon", "salonlar", "lobi", "lobby", "pratik", "practice", "kurallar", "rules", "yardim",
        "help", "iletisim", "contact", "rapor", "report", "sikayet", "odasahibi", "accounts", "hesap", "giris",
        "login", "kayit", "signup", "api",
    }
)
# The bots' names (``accounts.bots.BOT_NAMES``); a name that starts like one ("BotAyla_2") looks like a bot.
BOT_NAME_PREFIXES = ("BotAyla", "BotCem", "BotDeniz", "BotEce", "BotFatih", "BotGizem", "BotHakan", "BotIpek",
                     "BotKerem", "BotLale", "BotMert", "BotNil")

# Parts that make a name look like staff wherever they appear ("Admin_Ali", "m0derator").
STAFF_MARKERS = (
    "admin", "moderat", "yonetici", "yonetim", "sorumlu", "destek", "support", "staff",
    "official", "resmi", "sistem", "system", "operator",
)

NicknameCheck = Callable[[str], None]
_extra_checks: list[NicknameCheck] = []


_RESERVED_KEYS = frozenset(nickname_key(name) for name in RESERVED_NICKNAMES)
_STAFF_MARKER_KEYS = tuple(nickname_key(marker) for marker in STAFF_MARKERS)
_BOT_KEYS = tuple(nickname_key(name) for name in BOT_NAME_PREFIXES)


def validate_nickname_policy(value: str) -> None:
    key = nickname_key(value)
    if key in _RESERVED_KEYS or key.startswith(_BOT_KEYS):
        raise ValidationError(_("Bu rumuz ayrılmış, başka bir rumuz seçin."), code="nickname_reserved")
    if any(marker in key for marker in _STAFF_MARKER_KEYS):
        raise ValidationError(
            _("Bu rumuz site görevlisi izlenimi veriyor, başka bir rumuz seçin."), code="nickname_impersonation"
        )
    holder = _holder_of_key(key)
    if holder is not None:
        if holder.is_bot:
            raise ValidationError(_("Bu rumuz ayrılmış, başka bir rumuz seçin."), code="nickname_reserved")
        if holder.is_staff or holder.is_superuser or holder.salon_roles.exists():
            raise ValidationError(
                _("Bu rumuz site görevlisi izlenimi veriyor, başka bir rumuz seçin."), code="nickname_impersonation"
            )
        raise ValidationError(
            _("Bu rumuz kullanılan bir rumuza çok benziyor, başka bir rumuz seçin."), code="nickname_lookalike"
        )
    for check in list(_extra_checks):
        check(value)


def _holder_of_key(key: str):
    """The account whose nickname looks like this key ("Ｖictim" for "victim"), if any. A sign-up
    that never verified its address within 48 hours holds nothing (``accounts.signups``)."""
    from django.contrib.auth import get_user_model

    from .signups import holds_nickname

    return next((user for user in get_user_model().objects.filter(nickname_key=key) if holds_nickname(user)), None)


def register_nickname_check(check: NicknameCheck) -> None:
    """Add a check run at sign-up; it raises ``ValidationError`` to refuse a nickname."""
    if check not in _extra_checks:
        _extra_checks.append(check)


def unregister_nickname_check(check: NicknameCheck) -> None:
    if check in _extra_checks:
        _extra_checks.remove(check)


# allauth runs these (ACCOUNT_USERNAME_VALIDATORS) on sign-up and nickname changes.
NICKNAME_VALIDATORS: list[NicknameCheck] = [validate_nickname_format, validate_nickname_policy]
