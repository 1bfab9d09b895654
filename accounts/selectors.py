"""Read side of accounts, and the one place that decides what of a user is public."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import F, Sum
from django.db.models.functions import Coalesce
from django.shortcuts import get_object_or_404

from .models import User


def display_name(user: Any) -> str:
    """What allauth and templates show for a user: the nickname, never the e-mail."""
    return getattr(user, "username", "") or ""


def public_user(user: User | None) -> dict[str, Any] | None:
    """The only shape in which a user leaves the server towards other users (pages, JSON, sockets)."""
    if user is None:
        return None
    if user.is_bot:
        return {"id": user.pk, "nickname": user.username, "is_bot": True}  # a bot badge everywhere
    return {"id": user.pk, "nickname": user.username}


def public_profile(user: User) -> dict[str, Any]:
    return {
        **(public_user(user) or {}),
        "games_played": user.games_played,
        "games_won": user.games_won,
        "win_rate": user.win_rate,
        "score": user.score,
        "chips": user.chips,
    }


def get_player(*, nickname: str) -> User:
    return get_object_or_404(User, username__iexact=nickname, is_active=True)


def recent_chip_transactions(*, user: User, limit: int = 10):
    return user.chip_transactions.all()[:limit]


@dataclass(frozen=True)
class LedgerDifference:
    """An account whose balance its chip ledger does not explain."""

    user_id: int
    nickname: str
    balance: int
    ledger: int

    @property
    def unexplained(self) -> int:
        return self.balance - self.ledger


def ledger_differences() -> list[LedgerDifference]:
    """Every account whose chip balance differs from the sum of its ledger lines (should be none:
    ``docs/security.md``, "Chips")."""
    rows = (User.objects.annotate(ledger=Coalesce(Sum("chip_transactions__amount"), 0))
            .exclude(chips=F("ledger")).order_by("pk").values_list("pk", "username", "chips", "ledger"))
    return [LedgerDifference(user_id=pk, nickname=name, balance=chips, ledger=ledger)
            for pk, name, chips, ledger in rows]
