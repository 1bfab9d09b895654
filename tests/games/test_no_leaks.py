"""Every frame one player receives through a whole match, scanned for tiles that player cannot know."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from games import services
from games.engine import hand as engine_hand
from games.engine.rules import RuleSet
from games.engine.tiles import format_tile
from games.models import Hand, Match

from .conftest import make_table
from .test_consumer import connected, drain

pytestmark = [pytest.mark.django_db(transaction=True)]

TILE = re.compile(r"^(?:[KSMY](?:1[0-3]|[1-9])|J)$")


def tiles_in(value) -> set[str]:
    if isinstance(value, str):
        return {value} if TILE.match(value) else set()
    if isinstance(value, dict):
        return set().union(*(tiles_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(tiles_in(v) for v in value)) if value else set()
    return set()


def knowable(state: engine_hand.HandState, seat: int) -> set[str]:
    """Faces seat may know at this point: its rack, the indicator and okey, every discard ever made
    (each was face up), the centre, and the finisher's shown tiles once the hand is over."""
    known = {format_tile(t) for t in state.racks[seat]}
    known |= {format_tile(state.indicator), format_tile(state.okey)}
    known |= {format_tile(tile) for _, tile, _ in state.discard_log}
    known |= {format_tile(t) for t in state.centre}
    if state.result is not None and state.result.finish is not None:
        known |= {format_tile(t) for group in state.result.finish.groups for t in group}
        if state.result.finish.discard is not None:
            known.add(format_tile(state.result.finish.discard))
    return known


def play_turn_by_timeout(table_id: int) -> engine_hand.HandState | None:
    hand = Hand.objects.filter(match__table_id=table_id, status=Hand.Status.PLAYING).first()
    if hand is None:
        return None
    Hand.objects.filter(pk=hand.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    services.resolve_timeout(hand_id=hand.id, move=hand.move)
    hand.refresh_from_db()
    return engine_hand.HandState.from_dict(hand.state)


async def test_a_player_never_sees_another_rack_or_the_pile_through_a_whole_match():
    rules = RuleSet.preset("penalty", hands_per_match=1)
    table, users = await sync_to_async(make_table)(rules=rules)
    observer_seat = 0
    socket = await connected(users[observer_seat], table.id)
    await sync_to_async(services.start_match)(user=table.room.owner, table_id=table.id)
    frames = await drain(socket)
    checked = turns = 0
    state = await sync_to_async(
        lambda: engine_hand.HandState.from_dict(Hand.objects.get(match__table=table).state))()
    while True:
        for frame in frames:
            if frame.get("type") != "state" or not frame.get("hand"):
                continue
            assert frame["hand"]["seat"] == observer_seat
            assert sorted(frame["hand"]["rack"]) == sorted(format_tile(t) for t in state.racks[observer_seat])
            leaked = tiles_in(frame) - knowable(state, observer_seat)
            assert not leaked, f"move {frame['move']}: {leaked}"
            assert "pile" not in frame["hand"] and "deck" not in frame["hand"]
            checked += 1
        if state.is_over:
            break
        state = await sync_to_async(play_turn_by_timeout)(table.id)
        turns += 1
        frames = [await socket.receive_json_from(timeout=5)]
    match = await sync_to_async(Match.objects.get)(table=table)
    assert match.status == Match.Status.FINISHED
    # Every turn of the hand was seen and checked (players go away after three timeouts and the
    # bot plays for them, so the hand ends with a finish or with the pile running out).
    assert checked == turns + 1 and turns > 12
    await socket.disconnect()
