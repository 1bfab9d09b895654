"""Nickname (rumuz) rules.

Two layers: ``validate_nickname_format`` is on the model field (it holds for every account, even
those site admins create), ``validate_nickname_policy`` runs at sign-up through allauth
(``ACCOUNT_USERNAME_VALIDATORS``): reserved names and impersonation of staff. Other apps add
checks with ``register_nickname_check`` — the moderation app plugs its offensive-word filter in
there from its ``AppConfig.ready()``, so this module never needs to know about word lists.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

NICKNAME_MIN_LENGTH = 3
NICKNAME_MAX_LENGTH = 20

# Letters (Turkish ones included), digits, and . _ - inside; must start with a letter or digit.
_FORMAT = re.compile(r"^[^\W_][\w.\-]*$", re.UNICODE)

# Exact names nobody may take (compared after normalising look-alikes).
RESERVED_NICKNAMES = frozenset(
    {
        "admin", "administrator", "root", "system", "sistem", "moderator", "mod", "yonetici",
        "yonetim", "sorumlu", "salonsorumlusu", "destek", "support", "staff", "personel", "okey",
        "okeysalonu", "bot", "anonymous", "anonim", "misafir", "guest", "null", "none", "undefined",
        "herkes", "everyone", "server", "sunucu", "info", "bilgi", "webmaster", "postmaster", "abuse",
    }
)

# Parts that make a name look like staff wherever they appear ("Admin_Ali", "m0derator").
STAFF_MARKERS = (
    "admin", "moderat", "yonetici", "yonetim", "sorumlu", "destek", "support", "staff",
    "official", "resmi", "sistem", "system", "operator",
)

_LOOKALIKES = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "@": "a", "$": "s", "|": "i", "!": "i"})
_TURKISH = str.maketrans({"ı": "i", "İ": "i", "ş": "s", "Ş": "s", "ğ": "g", "Ğ": "g", "ü": "u", "Ü": "u", "ö": "o", "Ö": "o", "ç": "c", "Ç": "c"})

NicknameCheck = Callable[[str], None]
_extra_checks: list[NicknameCheck] = []


def normalize_nickname(value: str) -> str:
    """A comparison key that folds case, Turkish letters, accents, digits-for-letters and separators.

    "ADM1N", "Admin_", "âdmın" all become "admin": impersonators pick exactly these tricks.
    """
    folded = value.translate(_TURKISH).casefold().translate(_LOOKALIKES)
    folded = unicodedata.normalize("NFKD", folded)
    folded = "".join(ch for ch in folded if not unicodedata.combining(ch))
    return re.sub(r"[\W_]+", "", folded)


def validate_nickname_format(value: str) -> None:
    if not NICKNAME_MIN_LENGTH <= len(value) <= NICKNAME_MAX_LENGTH:
        raise ValidationError(
            _("Rumuz %(min)d–%(max)d karakter olmalı."),
            code="nickname_length",
            params={"min": NICKNAME_MIN_LENGTH, "max": NICKNAME_MAX_LENGTH},
        )
    if not _FORMAT.match(value):
        raise ValidationError(
            _("Rumuzda yalnızca harf, rakam, nokta, tire ve alt çizgi olabilir; harf ya da rakamla başlamalı."),
            code="nickname_format",
        )


def validate_nickname_policy(value: str) -> None:
    key = normalize_nickname(value)
    if key in RESERVED_NICKNAMES:
        raise ValidationError(_("Bu rumuz ayrılmış, başka bir rumuz seçin."), code="nickname_reserved")
    if any(marker in key for marker in STAFF_MARKERS) or _looks_like_staff_member(key):
        raise ValidationError(
            _("Bu rumuz site görevlisi izlenimi veriyor, başka bir rumuz seçin."), code="nickname_impersonation"
        )
    for check in list(_extra_checks):
        check(value)


def _looks_like_staff_member(key: str) -> bool:
    """True when the name is a look-alike of an existing staff member's nickname ("Ay5e" for "Ayşe")."""
    from django.contrib.auth import get_user_model
    from django.db.models import Q

    User = get_user_model()
    staff_names = User.objects.filter(Q(is_staff=True) | Q(salon_roles__isnull=False)).values_list("username", flat=True)
    return any(normalize_nickname(name) == key for name in staff_names.distinct())


def register_nickname_check(check: NicknameCheck) -> None:
    """Add a check run at sign-up; it raises ``ValidationError`` to refuse a nickname."""
    if check not in _extra_checks:
        _extra_checks.append(check)


def unregister_nickname_check(check: NicknameCheck) -> None:
    if check in _extra_checks:
        _extra_checks.remove(check)


# allauth runs these (ACCOUNT_USERNAME_VALIDATORS) on sign-up and nickname changes.
NICKNAME_VALIDATORS: list[NicknameCheck] = [validate_nickname_format, validate_nickname_policy]
