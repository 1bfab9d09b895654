"""Two requests racing for the same move: exactly one applies, the other is told it is stale."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from games import services
from games.engine import hand as engine_hand
from games.models import Move

from .conftest import make_table

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_racing_discards_for_the_same_move_apply_once():
    table, users = make_table()
    match = services.start_match(user=table.room.owner, table_id=table.id)
    hand = match.hands.get()
    state = engine_hand.HandState.from_dict(hand.state)
    player = users[state.turn]
    tiles = [engine_hand.format_tile(t) for t in state.racks[state.turn][:2]]
    barrier = threading.Barrier(2)
    results: list[object] = []

    def attempt(tile: str) -> None:
        barrier.wait()
        try:
            results.append(services.play(user=player, table_id=table.id, action="discard", move=0, args={"tile": tile}))
        except services.GameError as error:
            results.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=attempt, args=(tile,)) for tile in tiles]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    applied = [r for r in results if isinstance(r, services.Outcome)]
    refused = [r for r in results if isinstance(r, services.GameError)]
    assert len(applied) == 1 and len(refused) == 1
    assert refused[0].code == "stale" and refused[0].details["move"] == 1
    hand.refresh_from_db()
    assert hand.move == 1
    assert Move.objects.filter(hand=hand).count() == 2  # the deal and one discard
