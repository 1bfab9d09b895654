"""Nicknames (rumuz) as text: their format and their look-alike key. No database: the user model
uses these on its fields, and the sign-up policy (``accounts.validators``) builds on them.

The key uses the chat filter's fold (``moderation.chatfilter.normalize``: plain Python with no
Django import, used here like a library) and the Unicode confusables skeleton (UTS #39).
"""

from __future__ import annotations

import re

import disarm
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from moderation.chatfilter.normalize import fold

NICKNAME_MIN_LENGTH = 3
NICKNAME_MAX_LENGTH = 20
NICKNAME_KEY_MAX_LENGTH = 255  # compatibility forms can expand a 20-character name

# Letters (Turkish ones included), digits, and . _ - inside; must start with a letter or digit.
_FORMAT = re.compile(r"^[^\W_][\w.\-]*$", re.UNICODE)

# Digits and symbols for letters, and the letter pairs TR39 reads as one letter in most fonts.
_KEY_LOOKALIKES = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "@": "a",
                                 "$": "s", "|": "i", "!": "i", "l": "i"})
_KEY_PAIRS = (("rn", "m"), ("vv", "w"))


def nickname_key(value: str) -> str:
    """The comparison key of a nickname: two names with one key look alike on screen.

    Folds case (Turkish dotted and dotless i together), accents, every script's look-alikes of
    Latin letters (NFKD + the confusables skeleton of UTS #39), invisible characters, digits and
    symbols for letters, "l"/"I"/"1" (one stroke in most fonts), "rn"/"m", and separators: "ADM1N",
    "Admin_", "âdmın", "аdmin" all become "admin".
    """
    key = disarm.skeleton_key(fold(value).text).translate(_KEY_LOOKALIKES)
    for pair, letter in _KEY_PAIRS:
        key = key.replace(pair, letter)
    key = re.sub(r"[\W_]+", "", key)
    return (key or value.casefold())[:NICKNAME_KEY_MAX_LENGTH]


# Kept under its old name for callers of the first version.
normalize_nickname = nickname_key

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
