"""Publishing to Channels groups, called only after a transaction commits.

Each seated player gets a frame built for their seat (group ``table-<id>-user-<uid>``, so several
tabs of one player all follow); spectators share one public frame (``table-<id>-watch``).
"""

from __future__ import annotations

import asyncio
import threading

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games import selectors
from games.models import Hand


def user_group(table_id: int, user_id: int) -> str:
    return f"table-{table_id}-user-{user_id}"


def watch_group(table_id: int) -> str:
    return f"table-{table_id}-watch"


# The event loop serving the sockets. A publish from a thread that loop does not know (the
# in-process Celery worker) must run on it: the in-memory layer's queues belong to one loop.
_server_loop: asyncio.AbstractEventLoop | None = None
_server_thread: int | None = None


def remember_server_loop() -> None:
    global _server_loop, _server_thread
    _server_loop = asyncio.get_running_loop()
    _server_thread = threading.get_ident()


def _send(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    loop = _server_loop
    foreign_thread = threading.get_ident() != _server_thread
    if loop is not None and loop.is_running() and foreign_thread and not _called_from_loop_executor():
        asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop).result(timeout=10)
    else:
        async_to_sync(layer.group_send)(group, message)


def _called_from_loop_executor() -> bool:
    """sync_to_async threads already hand async_to_sync calls back to their own loop."""
    from asgiref.sync import SyncToAsync

    return SyncToAsync.threadlocal.__dict__.get("main_event_loop") is not None


def publish_hand(hand_id: int, *, since: int) -> None:
    hand = Hand.objects.select_related("match").filter(pk=hand_id).first()
    if hand is None:
        return
    match = hand.match
    players = selectors.players_public(match)
    table_id = match.table_id
    seats = dict(match.players.values_list("seat", "user_id"))
    for seat, user_id in seats.items():
        frame = selectors.table_frame(match=match, hand=hand, seat=seat, players=players, since=since)
        _send(user_group(table_id, user_id), {"type": "game.frame", "frame": frame})
    public = selectors.table_frame(match=match, hand=hand, seat=None, players=players, since=since)
    _send(watch_group(table_id), {"type": "game.frame", "frame": public, "public": True})


def publish_match_abandoned(table_id: int, reason: str) -> None:
    _send(watch_group(table_id), {"type": "game.refresh", "reason": reason})


def publish_table_lobby(table_id: int) -> None:
    """Ready marks changed: every client of the table refreshes its pre-game view."""
    _send(watch_group(table_id), {"type": "game.refresh", "reason": "ready"})
