"""Publishing to Channels groups, called only after a transaction commits.

A move goes to the table's group (every socket of the table page) as one message: each seated
player's frame built for their seat (so several tabs of one player all follow) and one public frame
the spectators share.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
from dataclasses import dataclass
from typing import Any

import orjson
from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

from games import selectors
from games.models import Hand, Match, MatchPlayer

# Every socket of the table page, players and watchers (salons.events sends seats and chat there too).
from salons.events import table_group

log = logging.getLogger(__name__)


# The event loop serving the sockets. A publish from a thread that loop does not know (the
# in-process Celery worker) must run on it: the in-memory layer's queues belong to one loop.
_server_loop: asyncio.AbstractEventLoop | None = None
_server_thread: int | None = None

# Frames repeat the events of this many moves before the ones they report. Two servers may publish
# consecutive moves of one table and the later frame can overtake the earlier; the socket then passes
# the later frame on with the events its client has not seen and drops the earlier one
# (TableConsumer.unseen), so every client still sees every move once and in order.
EVENT_OVERLAP = 4

# Channel-layer calls in flight per server process (publishing, sockets joining and leaving groups):
# a burst (a thousand sockets closing at once) waits its turn rather than exhausting Redis's pool.
LAYER_CONCURRENCY = 64
# Table sockets reading their first state at once per server process. A tournament round opens
# hundreds in the same second; unbounded, their reads filled the thread pool's queue and every move
# of the tables already playing waited behind them (p99 0.8 s, BENCHMARKS.md). The pool has
# min(32, cores + 4) threads: half stay free for moves.
OPENING_CONCURRENCY = 3
_gates: dict[tuple[asyncio.AbstractEventLoop, str], asyncio.Semaphore] = {}


def _loop_gate(name: str, size: int) -> asyncio.Semaphore:
    """One semaphore per event loop (tests run several loops; a semaphore belongs to one)."""
    loop = asyncio.get_running_loop()
    gate = _gates.get((loop, name))
    if gate is None:
        for old in [key for key in _gates if key[0].is_closed()]:
            del _gates[old]
        gate = _gates[(loop, name)] = asyncio.Semaphore(size)
    return gate


def layer_gate() -> asyncio.Semaphore:
    return _loop_gate("layer", LAYER_CONCURRENCY)


def opening_gate() -> asyncio.Semaphore:
    return _loop_gate("opening", OPENING_CONCURRENCY)


# Per table, the last batch of sends handed to the server loop: the next waits for it, so one
# table's frames leave in the order they were published while other tables' go out alongside.
_chains: dict[Any, asyncio.Task] = {}


def remember_server_loop() -> None:
    global _server_loop, _server_thread
    _server_loop = asyncio.get_running_loop()
    _server_thread = threading.get_ident()


def _send(group: str, message: dict, *, key: Any = None) -> None:
    _send_many([(group, message)], key=key if key is not None else group)


def _send_many(messages: list[tuple[str, dict]], *, key: Any) -> None:
    """Send to several groups at once, in order with earlier sends of the same ``key``.

    On a server, the sends are handed to the loop serving the sockets and this returns at once: the
    thread that committed the move (a consumer's database thread, the in-process worker) is not held
    while Redis answers, and a move's frames go out concurrently rather than one round trip each.
    Elsewhere (a Celery worker process, a management command) they are sent before returning.
    """
    layer = get_channel_layer()
    if layer is None or not messages:
        return
    loop = _server_loop
    if loop is not None and loop.is_running() and threading.get_ident() != _server_thread:
        loop.call_soon_threadsafe(_chain, layer, key, messages)
    elif loop is not None and loop.is_running():
        _chain(layer, key, messages)
    elif _caller_loop_stopped():
        # A database thread of a server that is shutting down: async_to_sync would wait forever for
        # the stopped loop (and keep the process from exiting). Its sockets are closing anyway.
        log.warning("server loop stopped; %d frames not published", len(messages))
    elif isinstance(layer, InMemoryChannelLayer):
        async_to_sync(_send_all)(layer, messages)
    else:
        # A Celery worker or a command: one long-lived loop per process keeps its Redis connections
        # (async_to_sync would build a new loop, and new connections, for every publish).
        asyncio.run_coroutine_threadsafe(_send_all(layer, messages), _publisher_loop()).result(timeout=30)


def _caller_loop_stopped() -> bool:
    """True in a sync_to_async thread whose event loop is no longer running."""
    from asgiref.sync import SyncToAsync

    loop = SyncToAsync.threadlocal.__dict__.get("main_event_loop")
    return loop is not None and not loop.is_running()


_publisher: tuple[int, asyncio.AbstractEventLoop] | None = None
_publisher_lock = threading.Lock()


def _publisher_loop() -> asyncio.AbstractEventLoop:
    global _publisher
    with _publisher_lock:
        # Per process: a prefork worker child inherits the object but not the thread running it.
        if _publisher is None or _publisher[0] != os.getpid():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="okey-publisher", daemon=True).start()
            _publisher = (os.getpid(), loop)
        return _publisher[1]


def _chain(layer, key: Any, messages: list[tuple[str, dict]]) -> None:
    previous = _chains.get(key)
    task = asyncio.ensure_future(_send_after(previous, layer, messages))
    _chains[key] = task
    task.add_done_callback(lambda done: _chains.pop(key, None) if _chains.get(key) is done else None)


async def _send_after(previous: asyncio.Task | None, layer, messages: list[tuple[str, dict]]) -> None:
    # (A task left pending by another, closed loop — a test's — says nothing about this one.)
    if previous is not None and not previous.done() and previous.get_loop() is asyncio.get_running_loop():
        await asyncio.wait([previous])
    await _send_all(layer, messages)


async def _send_all(layer, messages: list[tuple[str, dict]]) -> None:
    gate = layer_gate()

    async def send(group: str, message: dict) -> None:
        async with gate:
            await layer.group_send(group, message)

    results = await asyncio.gather(*(send(group, message) for group, message in messages), return_exceptions=True)
    for (group, _message), result in zip(messages, results, strict=True):
        if isinstance(result, BaseException):
            log.error("publishing to %s failed: %r", group, result)


@dataclass(frozen=True)
class Snapshot:
    """What a move's transaction wrote, kept to publish from after commit (no reading it back)."""

    match: Match
    hand: Hand
    hand_state: Any  # the game type's hand state
    players: list[MatchPlayer]  # by seat, from selectors.match_players (nickname, bot flag)


def publish_hand(hand_id: int, *, since: int, snapshot: Snapshot | None = None) -> None:
    """Send every seat its own frame of the hand and the watchers theirs (after commit)."""
    if snapshot is not None:
        match, hand, hand_state = snapshot.match, snapshot.hand, snapshot.hand_state
        players, seats = selectors.public_players(snapshot.players)
    else:
        hand = Hand.objects.select_related("match").filter(pk=hand_id).first()
        if hand is None:
            return
        match = hand.match
        hand_state = selectors.game_of(match).hand_from_dict(hand.state)
        players, seats = selectors.players_and_seats(match)
    table_id = match.table_id
    # Parsed once for the five frames of this move (four seats and the watchers).
    game = selectors.game_of(match)
    parsed = {"match_state": game.match_from_dict(match.state), "hand_state": hand_state}
    # What every seat and watcher sees of the match is the same for the five frames: built once.
    parsed["public_match"] = game.public_match(parsed["match_state"])
    if hand_state.is_over and parsed["match_state"].hands_played > hand.number:
        # The hand's explained result, read once for the five frames (games.outcome).
        from games.outcome import hand_outcome

        parsed["outcome"] = hand_outcome(match=match, hand=hand, match_state=parsed["match_state"])
    since = max(0, since - EVENT_OVERLAP)
    # One message to every socket of the table: each seat's frame keyed by its player's user id and
    # the watchers' frame beside them, each already JSON without its events (the same for every
    # seat, carried once). One publish a move, not one per seat; each server decodes it once for all
    # its sockets of the table (okeysite.channel_layer), a few byte strings rather than five nested
    # frames; every socket then passes on its own user's frame, or the public one, with the events
    # its client has not seen (TableConsumer.game_frames).
    # The frames are built without events (``since`` None), which are read from the hand once.
    def body(seat: int | None) -> bytes:
        return frame_body(selectors.table_frame(match=match, hand=hand, seat=seat, players=players, **parsed))

    _send(table_group(table_id), {
        "type": "game.frames", "hand": hand.id, "move": hand.move, "events": selectors.events_since(hand_state, since),
        "frames": {str(user_id): body(seat) for seat, user_id in seats.items()}, "public": body(None),
    }, key=table_id)


def frame_body(frame: dict[str, Any]) -> bytes:
    """A frame as JSON without its ``events`` (``frame_text`` puts them back)."""
    return orjson.dumps({key: value for key, value in frame.items() if key != "events"},
                        option=orjson.OPT_NON_STR_KEYS)


def frame_text(body: bytes, events: list[dict[str, Any]]) -> str:
    """The frame a socket sends: ``body`` (from ``frame_body``) with ``events`` as its first member."""
    return (b'{"events":' + orjson.dumps(events, option=orjson.OPT_NON_STR_KEYS) + b"," + body[1:]).decode()


def publish_match_abandoned(table_id: int, reason: str) -> None:
    _send(table_group(table_id), {"type": "game.refresh", "reason": reason, "at": time.time()}, key=table_id)


def publish_table_lobby(table_id: int) -> None:
    """Ready marks changed: every client of the table refreshes its pre-game view.

    ``at``: when this was published (after the commit). A socket that has read the state since
    skips it (TableConsumer.game_refresh): four players getting ready one after another would
    otherwise make each of the four sockets read the whole state four times as the match starts.
    """
    _send(table_group(table_id), {"type": "game.refresh", "reason": "ready", "at": time.time()}, key=table_id)


def publish_seat_players_changed(table_id: int, reason: str) -> None:
    """A player left a running match or came back: no move was made, so a move frame (which sockets
    pass on only when its move is newer) would be dropped; every client re-reads its state instead."""
    _send(table_group(table_id), {"type": "game.refresh", "reason": reason, "at": time.time()}, key=table_id)
