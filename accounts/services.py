"""Account use cases: chip movements, game results, signing a user out everywhere.

Every balance change goes through ``change_chips`` so the ledger (ChipTransaction) always
explains the balance; the row is locked so two finishing hands can never lose an update.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext_lazy as _

from .errors import ServiceError
from .models import ChipTransaction, User


@transaction.atomic
def change_chips(*, user: User, amount: int, kind: str = ChipTransaction.Kind.GAME, note: str = "") -> ChipTransaction:
    """Add (or, negative, take) play-money chips; refuses to go below zero."""
    if kind not in ChipTransaction.Kind.values:
        raise ServiceError("bad_chip_kind", _("Geçersiz çip hareketi türü."))
    locked = User.objects.select_for_update().get(pk=user.pk)
    balance = locked.chips + amount
    if balance < 0:
        raise ServiceError("not_enough_chips", _("Yeterli çipiniz yok."), needed=-amount, balance=locked.chips)
    User.objects.filter(pk=user.pk).update(chips=balance)
    user.chips = balance
    return ChipTransaction.objects.create(user=user, amount=amount, balance_after=balance, kind=kind, note=note[:200])


def end_every_session(*, user: User) -> None:
    """Sign the user out everywhere: every session (whatever its key) and every socket connect
    after this is refused, as the session hash includes the generation raised here."""
    User.objects.filter(pk=user.pk).update(session_generation=F("session_generation") + 1)


@transaction.atomic
def record_game_result(*, user: User, won: bool, score_delta: int = 0) -> None:
    """Count a finished match in the player's public stats (called by the live-play services)."""
    User.objects.filter(pk=user.pk).update(
        games_played=F("games_played") + 1,
        games_won=F("games_won") + (1 if won else 0),
        score=F("score") + score_delta,
    )
    user.refresh_from_db(fields=["games_played", "games_won", "score"])


def record_welcome_chips(*, user: User) -> ChipTransaction:
    """The first ledger line: the starting balance the account was created with."""
    return ChipTransaction.objects.create(
        user=user, amount=user.chips, balance_after=user.chips, kind=ChipTransaction.Kind.WELCOME
    )
