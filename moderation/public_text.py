"""Screening of user-written text that others read outside the chat: room names, removal reasons.

The chat filter decides for chat lines (masked, held, blocked). A public name is not a line that
can be masked or held: anything the filter would not let through as typed is refused, with the
reason, so the owner can write another one ("siktir git bedavaokey.com" is not a room name).
Every stored text is also stripped of invisible characters (see ``accounts.usertext``).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from accounts.errors import ServiceError

from .chatfilter.normalize import strip_invisible

_CATEGORY_WHY = {
    "insult": _("küfür ve hakaret yasaktır"),
    "politics": _("siyaset ve tartışma yasaktır"),
    "advertising": _("reklam yasaktır (bağlantı, alan adı, telefon numarası, sosyal medya hesabı)"),
    "custom": _("salon sorumlularının yasakladığı bir ifade var"),
}


def public_text_problem(text: str) -> str | None:
    """Why ``text`` may not be shown publicly (translated), or None when it may."""
    from . import selectors

    cleaned = strip_invisible(text)
    # "_" and "-" join words in names ("siktir_git"): read them as spaces too
    for candidate in (cleaned, cleaned.replace("_", " ").replace("-", " ")):
        verdict = selectors.try_sentence(candidate)
        if verdict.action != "allow":
            return "; ".join(str(_CATEGORY_WHY.get(c, c)) for c in verdict.categories)
    return None


def check_public_text(text: Any, *, code: str = "text_not_allowed") -> str:
    """For services: the text without invisible characters, or ``ServiceError`` saying why not."""
    cleaned = strip_invisible(str(text))
    why = public_text_problem(cleaned)
    if why is not None:
        raise ServiceError(code, _("Bu yazı herkese açık ve uygun değil: %(why)s. Başka bir şey yazın.") % {"why": why})
    return cleaned


def validate_public_text(value: str) -> None:
    """For form fields: the same check as a field error."""
    why = public_text_problem(str(value))
    if why is not None:
        raise ValidationError(
            _("Bu yazı herkese açık ve uygun değil: %(why)s. Başka bir şey yazın."),
            code="text_not_allowed",
            params={"why": why},
        )
