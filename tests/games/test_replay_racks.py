"""The replay drawn as a table: every rack (sorted) and every discard pile at each step of a
finished hand, the hands as they ended grouped into sets; and one tile drawing for both pages."""

from __future__ import annotations

import pathlib
from collections import Counter

import pytest

from games import selectors, services
from games.engine import hand as engine_hand
from games.engine.rules import RuleSet
from games.engine.tiles import format_tile, parse_tile, sort_key
from games.models import Hand

from .conftest import make_table, make_user, play_hand_out

pytestmark = pytest.mark.django_db
ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture
def finished():
    table, users = make_table(rules=RuleSet.preset("penalty", hands_per_match=1))
    services.start_match(user=table.room.owner, table_id=table.id)
    hand = play_hand_out(Hand.objects.get(match__table=table, status=Hand.Status.PLAYING))
    return users, hand


def test_every_step_shows_every_rack_sorted_and_every_discard_pile(finished):
    users, hand = finished
    data = selectors.replay_frames(hand=hand, viewer=make_user())  # a watcher: the hand is over
    stored = engine_hand.HandState.from_dict(hand.state)
    for step in data["steps"]:
        assert len(step["racks"]) == len(step["discards"]) == step["players"]
        assert [len(rack) for rack in step["racks"]] == step["rack_counts"]
        for rack in step["racks"]:
            plain = [parse_tile(t) for t in rack if t != step["okey"]]
            assert plain == sorted(plain, key=sort_key)
            assert all(t == step["okey"] for t in rack[len(plain):])  # the okeys last
        assert [pile[-1] if pile else None for pile in step["discards"]] == step["discard_tops"]
    last = data["steps"][-1]
    assert [Counter(rack) for rack in last["racks"]] == [Counter(format_tile(t) for t in rack) for rack in stored.racks]
    # The end: each rack split into groups (sets, then the loose tiles), every tile once.
    assert [Counter(t for group in groups for t in group) for groups in last["groups"]] == [Counter(r) for r in last["racks"]]
    assert "groups" not in data["steps"][0]


def test_the_replay_page_draws_tiles_with_the_tables_script(finished, client):
    users, hand = finished
    client.force_login(users[0])
    page = client.get(f"/hands/{hand.id}/").content.decode()
    assert 'type="module"' in page and "js/replay.js" in page
    replay = (ROOT / "static/js/replay.js").read_text()
    table = (ROOT / "static/js/table.js").read_text()
    # One drawing: neither page script draws a tile itself.
    for script in (replay, table):
        assert "okey-badge" not in script and "as-value" not in script
        assert 'import { okeyTiles } from "./tiles.js";' in script and "okeyTiles(T)" in script
