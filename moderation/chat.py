"""The chat screening steps that ``salons.services.post_chat_message`` runs on every line.

Apart from ``moderation.services`` so the dependency between the apps runs one way: salons call the
chat filter and the mute check here; moderation's services (sanctions, reviews) call salons'
services to enforce what staff decided. Nothing here imports a service of either app.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.errors import ServiceError
from accounts.models import User
from salons.models import ChatMessage, Room, Table

from . import selectors
from .chatfilter import FilterResult
from .models import FilteredLine


class ScreenedText(str):
    """The text to store (censored when the filter censored it), carrying the filter's verdict.

    A ``str`` so ``salons.services.screen_chat_text`` keeps its contract ("returns the text to
    store"), while ``post_chat_message`` can still read whether the line is held or flagged.
    """

    verdict: FilterResult
    original: str

    def __new__(cls, shown: str, *, original: str, verdict: FilterResult) -> ScreenedText:
        obj = super().__new__(cls, shown)
        obj.original = original
        obj.verdict = verdict
        return obj

    @property
    def visible(self) -> bool:
        return self.verdict.action != "hold"


class ChatBlocked(ServiceError):
    """A line the filter blocked; ``post_chat_message`` records it for staff after the rollback."""

    def __init__(self, *, original: str, verdict: FilterResult) -> None:
        super().__init__("chat_blocked", _blocked_message(verdict.categories), categories=list(verdict.categories))
        self.original = original
        self.verdict = verdict


_CATEGORY_WHY = {
    "insult": _("küfür ve hakaret yasaktır"),
    "politics": _("siyaset ve tartışma yasaktır"),
    "advertising": _("reklam yasaktır (bağlantı, alan adı, telefon numarası, sosyal medya hesabı)"),
    "custom": _("salon sorumlularının yasakladığı bir ifade var"),
}


class _Reasons:
    """Lazy join of the category reasons, rendered in the language active when shown."""

    def __init__(self, categories: list[str]) -> None:
        self.categories = categories

    def __str__(self) -> str:
        return "; ".join(str(_CATEGORY_WHY.get(c, c)) for c in self.categories)


class _LazyFormat:
    def __init__(self, template: Any, **values: Any) -> None:
        self.template = template
        self.values = values

    def __str__(self) -> str:
        return str(self.template) % {key: str(value) for key, value in self.values.items()}


def _blocked_message(categories: list[str]) -> Any:
    return _LazyFormat(_("Mesajınız gönderilmedi: %(why)s."), why=_Reasons(categories))


def check_can_chat(*, user: User, room: Room, now: datetime | None = None) -> None:
    """Refuse a muted player (in this salon or everywhere), saying until when and why."""
    mute = selectors.active_mute(user, room.salon_id, now)
    if mute is not None:
        raise ServiceError(
            "muted",
            _("Susturuldunuz: %(until)s tarihine kadar sohbete yazamazsınız. Sebep: %(reason)s.")
            % {"until": selectors.until_text(mute), "reason": mute.reason},
        )


def screen_chat_text(*, user: User, text: str) -> ScreenedText:
    """Run one (already trimmed) line through the filter with today's staff lists.

    Blocked lines raise ``ChatBlocked`` (the sender reads why); everything else comes back as
    the text to store: censored text with ``*``, or the original for allow/flag/hold.
    """
    verdict = selectors.try_sentence(text)
    if verdict.action == "block":
        raise ChatBlocked(original=text, verdict=verdict)
    return ScreenedText(verdict.text, original=text, verdict=verdict)


def record_chat_verdict(*, message: ChatMessage, screened: str) -> FilteredLine | None:
    """Called by ``post_chat_message`` in its transaction: keep what the filter did, queue held and
    flagged lines for staff. Allowed lines leave no trace here."""
    verdict = getattr(screened, "verdict", None)
    if verdict is None or verdict.action == "allow":
        return None
    review = FilteredLine.Review.PENDING if verdict.action in ("hold", "flag") else FilteredLine.Review.NONE
    return FilteredLine.objects.create(
        message=message,
        salon_id=message.room.salon_id,
        room_id=message.room_id,
        table_id=message.table_id,
        author=message.author,
        original=getattr(screened, "original", str(screened))[:500],
        shown=str(screened)[:500],
        action=verdict.action,
        categories=list(verdict.categories),
        reasons=list(verdict.reasons),
        review=review,
    )


@transaction.atomic
def record_blocked_chat(*, error: ChatBlocked, user: User, room: Room, table: Table | None = None) -> FilteredLine:
    """A blocked line is never sent, but staff should see who keeps trying (ad spam)."""
    return FilteredLine.objects.create(
        message=None,
        salon_id=room.salon_id,
        room=room,
        table=table,
        author=user,
        original=error.original[:500],
        shown="",
        action="block",
        categories=list(error.verdict.categories),
        reasons=list(error.verdict.reasons),
    )


