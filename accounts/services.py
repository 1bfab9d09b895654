"""Account use cases: chip movements, game results, signing a user out everywhere.

Every balance change goes through ``change_chips`` so the ledger (ChipTransaction) always
explains the balance; the balance moves in one ``UPDATE … SET chips = chips + n`` statement, so no
concurrent movement (two finishing hands, a buy-in during a password change) can lose an update.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection, transaction
from django.db.models import F
from django.utils.translation import gettext_lazy as _

from .errors import ServiceError
from .models import ChipHold, ChipTransaction, User
from .selectors import LedgerDifference, ledger_differences

logger = logging.getLogger(__name__)


@transaction.atomic
def change_chips(*, user: User, amount: int, kind: str = ChipTransaction.Kind.GAME, note: str = "") -> ChipTransaction:
    """Add (or, negative, take) play-money chips; refuses to go below zero.

    One statement moves the balance (``SET chips = chips + n … RETURNING``), so no copy of the row
    loaded earlier can ever write an older balance back, and its ledger line is written in the
    same transaction: the ledger always explains the balance (``selectors.ledger_differences``).
    """
    if kind not in ChipTransaction.Kind.values:
        raise ServiceError("bad_chip_kind", _("Geçersiz çip hareketi türü."))
    balance = _add_to_balance(user_id=user.pk, amount=amount)
    if balance is None:
        held = User.objects.filter(pk=user.pk).values_list("chips", flat=True).first() or 0
        raise ServiceError("not_enough_chips", _("Yeterli çipiniz yok."), needed=-amount, balance=held)
    user.chips = balance
    return ChipTransaction.objects.create(user=user, amount=amount, balance_after=balance, kind=kind, note=note[:200])


def _add_to_balance(*, user_id: int, amount: int) -> int | None:
    """The new balance, or None when it would go below zero (nothing changed then)."""
    table = connection.ops.quote_name(User._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET chips = chips + %s WHERE id = %s AND chips + %s >= 0 RETURNING chips",
            [amount, user_id, amount],
        )
        row = cursor.fetchone()
    return None if row is None else row[0]


@transaction.atomic
def hold_chips(*, user: User, amount: int, reference: str) -> ChipHold:
    """Set ``amount`` chips aside for ``reference``; ``not_enough_chips`` when the balance is short
    (nothing is held then)."""
    change_chips(user=user, amount=-amount, kind=ChipTransaction.Kind.HOLD, note=f"held for {reference}")
    return ChipHold.objects.create(user_id=user.pk, reference=reference, amount=amount)


@transaction.atomic
def release_holds(*, reference: str, user_ids: list[int] | None = None) -> dict[int, int]:
    """Give back what is held for ``reference`` (of these users, or all): {user id: chips}.
    Idempotent: a hold is released once, a second call finds nothing."""
    holds = ChipHold.objects.select_for_update().filter(reference=reference)
    if user_ids is not None:
        holds = holds.filter(user_id__in=user_ids)
    released: dict[int, int] = {}
    for hold in holds.select_related("user").order_by("user_id"):
        change_chips(user=hold.user, amount=hold.amount, kind=ChipTransaction.Kind.HOLD,
                     note=f"released from {reference}")
        released[hold.user_id] = hold.amount
        hold.delete()
    return released


def end_every_session(*, user: User) -> None:
    """Sign the user out everywhere: every session (whatever its key) and every socket connect
    after this is refused, as the session hash includes the generation raised here."""
    User.objects.filter(pk=user.pk).update(session_generation=F("session_generation") + 1)


def user_sockets_group(user_id: int) -> str:
    """The channel-layer group every open socket of one signed-in user joins."""
    return f"user-{user_id}"


def password_changed(*, user: User) -> None:
    """A new password (changed, set or reset, on the site or in the admin) ends every other session
    and socket of the user, as a ban does: whoever knew the old password is out.

    The generation raised here is read back into ``user``, so the browser that changed the password
    keeps its session (allauth and the admin call ``update_session_auth_hash`` with this object).
    Open sockets are told to reconnect (close 4001): the user's own pages come back at once on the
    new session, a socket on any other session is then refused as logged out (4401).
    """
    end_every_session(user=user)
    user.refresh_from_db(fields=["session_generation"])
    group = user_sockets_group(user.pk)
    transaction.on_commit(lambda: _send_to_sockets(group, {"type": "user.reauthenticate"}))


def _send_to_sockets(group: str, message: dict[str, object]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # the sessions are ended already; a socket left open is refused at its reconnect
        logger.exception("could not tell the sockets of %s to reconnect", group)


@transaction.atomic
def record_game_result(*, user: User, won: bool, score_delta: int = 0) -> None:
    """Count a finished match in the player's public stats (called by the live-play services)."""
    User.objects.filter(pk=user.pk).update(
        games_played=F("games_played") + 1,
        games_won=F("games_won") + (1 if won else 0),
        score=F("score") + score_delta,
    )
    user.refresh_from_db(fields=["games_played", "games_won", "score"])


def report_ledger_differences() -> list[LedgerDifference]:
    """The ledger check of the command and the periodic job: each difference is logged as an
    error (an alert for whoever watches the logs), with the account and the unexplained chips."""
    differences = ledger_differences()
    for difference in differences:
        logger.error("chip balance differs from its ledger: user %s balance %s ledger %s (%+d unexplained)",
                     difference.user_id, difference.balance, difference.ledger, difference.unexplained)
    return differences


def record_welcome_chips(*, user: User) -> ChipTransaction:
    """The first ledger line: the starting balance the account was created with."""
    return ChipTransaction.objects.create(
        user=user, amount=user.chips, balance_after=user.chips, kind=ChipTransaction.Kind.WELCOME
    )
