"""A complete hand over four real WebSocket connections, with a real Celery worker resolving a
player's timeout (on Redis in CI, on the in-memory broker by default)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from celery.contrib.testing.worker import start_worker
from django.utils import timezone

from games import services, tasks
from games.models import Hand, Match, Move
from okeysite.celery import app

from .conftest import make_table, rig_hand
from .test_consumer import connected

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.real_celery]

WINNING = "K1 K2 K3 K4 M5 M6 M7 S9 S10 S11 Y2 K2 M2 S2 Y13"
OTHERS = [
    "M9 M10 M11 K5 K6 K7 S3 S4 S5 Y6 Y7 Y8 Y9 Y10",
    "M1 M3 M4 K8 K9 K10 S6 S7 S8 Y3 Y4 Y5 Y11 Y12",
    "M12 M13 K11 K12 K13 S12 S13 Y1 M8 K9 S6 Y3 Y4 M3",
]


def start_rigged(table, users) -> Hand:
    match = services.start_match(user=table.room.owner, table_id=table.id)
    hand = match.hands.get()
    starter = hand.turn_seat
    others = list(OTHERS)
    # The starter holds a finished rack but keeps playing; the seat after it will time out once.
    racks = [WINNING if seat == starter else others.pop() for seat in range(4)]
    rig_hand(hand, racks=racks, indicator="S7")
    return hand


async def state_at(socket, move: int) -> dict:
    """The first state frame at ``move`` or later (older frames still queued are passed over)."""
    while True:
        frame = await socket.receive_json_from(timeout=20)
        assert frame["type"] != "error", frame
        if frame["type"] == "state" and frame.get("move", -1) >= move:
            return frame


async def test_a_hand_is_played_to_its_end_with_a_timeout_resolved_by_the_worker():
    await sync_to_async(app.control.purge)()
    table, users = await sync_to_async(make_table)()
    hand = await sync_to_async(start_rigged)(table, users)
    sockets = [await connected(user, table.id) for user in users]
    starter = hand.turn_seat
    # The worker starts and stops outside the event loop (its Django fixup closes DB connections).
    worker = start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10)
    await sync_to_async(worker.__enter__)()
    try:
        # 1. The starter discards a tile it does not need.
        await sockets[starter].send_json_to({"type": "discard", "move": 0, "tile": "Y13"})
        for socket in sockets:
            assert (await state_at(socket, 1))["move"] == 1
        # 2. The next player lets the clock run out: the worker draws and discards for them.
        late = (starter + 1) % 4
        await sync_to_async(Hand.objects.filter(pk=hand.pk).update)(deadline=timezone.now() - timedelta(seconds=1))
        await sync_to_async(tasks.turn_clock.delay)()  # beat's tick
        frames = [await state_at(socket, 2) for socket in sockets]
        assert all(frame["move"] == 3 for frame in frames)
        auto_moves = await sync_to_async(
            lambda: list(Move.objects.filter(hand=hand, auto=True).values_list("action", flat=True)))()
        assert auto_moves == ["draw", "discard"]
        assert frames[late]["hand"]["rack_counts"][late] == 14
        # 3. The other two play by hand, then the starter draws and finishes.
        move = 3
        for seat in ((starter + 2) % 4, (starter + 3) % 4):
            await sockets[seat].send_json_to({"type": "draw", "move": move, "source": "pile"})
            frame = await state_at(sockets[seat], move + 1)
            move = frame["move"]
            await sockets[seat].send_json_to({"type": "discard", "move": move, "tile": frame["hand"]["rack"][-1]})
            move = (await state_at(sockets[seat], move + 1))["move"]
        await sockets[starter].send_json_to({"type": "draw", "move": move, "source": "pile"})
        frame = await state_at(sockets[starter], move + 1)
        drawn = frame["hand"]["rack"][-1]
        await sockets[starter].send_json_to({"type": "finish", "move": move + 1, "tile": drawn})
        final = None
        for socket in sockets:
            frame = await state_at(socket, move + 2)
            assert frame["hand"]["phase"] == "over"
            final = frame
            assert frame["hand"]["result"]["finisher"] == starter
            assert len([t for group in frame["hand"]["result"]["finish"]["groups"] for t in group]) == 14
    finally:
        await sync_to_async(worker.__exit__)(None, None, None)
    match = await sync_to_async(Match.objects.get)(table=table)
    assert final["match"]["scores"][starter] == 20
    assert sorted(final["match"]["scores"]) == [18, 18, 18, 20]
    assert match.status == Match.Status.RUNNING  # countdown goes on to the next hand
    for socket in sockets:
        await socket.disconnect()
