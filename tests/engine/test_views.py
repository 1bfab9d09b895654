"""What each seat and each spectator is shown: exactly RULES.md "Turn", never another rack."""

from __future__ import annotations

import json

import pytest

from games.engine.deck import deal
from games.engine.errors import EngineError
from games.engine.hand import declare_pairs, discard, draw, finish, show_indicator, view_for
from games.engine.rules import RuleSet
from games.engine.tiles import format_tile

from .conftest import assert_view_is_private, hand_with, tiles_in

READY = "S1 S2 S3 S4 M5 M6 M7 Y8 Y9 Y10 K11 S11 M11 Y11 Y13"
# Seat 2 alone holds the two M13s: nobody else may ever see an M13 before it is played.
SECRET = "M13 M13 K3 K4 K5 S6 S7 S8 M9 M10 Y2 Y3 Y4 Y12"


def table():
    return hand_with([READY, None, SECRET, None], "K1")


def test_a_seat_sees_its_rack_and_the_public_table():
    view = view_for(table(), 0)
    assert view["seat"] == 0 and view["players"] == 4
    assert view["rack"] == READY.split()
    assert view["rack_counts"] == [15, 14, 14, 14]
    assert view["pile_count"] == 48
    assert view["indicator"] == "K1" and view["okey"] == "K2"
    assert view["turn"] == 0 and view["phase"] == "discard" and view["starting_seat"] == 0
    assert view["discard_tops"] == [None, None, None, None]
    assert view["available_discard"] is None
    assert view["shown_indicators"] == [] and view["declared_pairs"] == []
    assert view["move"] == 0 and view["result"] is None
    assert view["rules"] == RuleSet().to_dict()
    assert view["actions"] == ["declare_pairs", "discard", "finish"]


def test_no_seat_and_no_spectator_sees_another_rack():
    state = table()
    for seat in (0, 1, 3, None):
        view = assert_view_is_private(state, seat)
        assert "M13" not in tiles_in(view)
    assert "M13" in tiles_in(view_for(state, 2))


def test_a_spectator_gets_the_public_view_only():
    view = assert_view_is_private(table(), None)
    assert view["seat"] is None and view["rack"] is None and view["actions"] == []
    assert view["rack_counts"] == [15, 14, 14, 14]


def test_the_pile_order_the_deck_and_the_seed_never_reach_a_view():
    state = deal(RuleSet(), seed="do-not-tell")
    for seat in (0, 1, 2, 3, None):
        text = json.dumps(view_for(state, seat))
        assert "do-not-tell" not in text
        assert_view_is_private(state, seat)


def test_the_top_of_each_discard_pile_is_public_and_the_next_seat_is_told_what_it_may_take():
    state = discard(table(), 0, "Y13")
    for seat in (0, 1, 2, 3, None):
        view = assert_view_is_private(state, seat)
        assert view["discard_tops"] == ["Y13", None, None, None]
        assert view["available_discard"] == "Y13" and view["available_discard_from"] == 0
        assert view["turn"] == 1 and view["phase"] == "draw"
    assert {"draw_pile", "draw_discard"} <= set(view_for(state, 1)["actions"])


def test_a_tile_taken_from_a_discard_pile_uncovers_the_older_one_but_it_cannot_be_taken():
    state = discard(table(), 0, "Y13")
    state = discard(draw(state, 1, "pile"), 1, state.pile[0])       # seat 1 gives away what it drew
    given = state.discards[1][-1]
    state = discard(draw(state, 2, "discard"), 2, "M13")
    view = view_for(state, 3)
    assert view["discard_tops"] == ["Y13", None, "M13", None]
    assert view["available_discard"] == "M13"
    assert format_tile(given) in view_for(state, 2)["rack"]


def test_a_seat_that_declared_pairs_sees_every_discard_of_the_hand_even_the_taken_ones():
    state = discard(table(), 0, "Y13")
    state = discard(draw(state, 1, "discard"), 1, "Y13")
    state = discard(draw(state, 2, "pile"), 2, "M13")
    before = view_for(state, 3)
    assert before["discard_history"] is None
    assert before["discard_tops"] == [None, "Y13", "M13", None]  # seat 0's Y13 was taken
    declared = declare_pairs(state, 3)
    view = assert_view_is_private(declared, 3)
    assert view["discard_history"] == [
        {"seat": 0, "tile": "Y13", "taken_by": 1},
        {"seat": 1, "tile": "Y13", "taken_by": None},
        {"seat": 2, "tile": "M13", "taken_by": None},
    ]
    assert view["declared_pairs"] == [3]
    # The others learn that seat 3 goes for pairs, not the history.
    for seat in (0, 1, 2, None):
        assert assert_view_is_private(declared, seat)["declared_pairs"] == [3]


def test_everyone_sees_who_showed_the_indicator():
    state = show_indicator(hand_with([READY.replace("Y11", "K1"), None, None, None], "K1"), 0)
    for seat in (0, 1, 2, 3, None):
        assert assert_view_is_private(state, seat)["shown_indicators"] == [0]


def test_after_a_finish_the_finisher_s_sets_and_discard_are_public_but_other_racks_stay_private():
    state = finish(hand_with([READY, None, SECRET, None], "K1"), 0, "Y13")
    for seat in (0, 1, 2, 3, None):
        view = assert_view_is_private(state, seat)
        result = view["result"]
        assert result["reason"] == "finished" and result["finisher"] == 0
        assert result["finish"]["discard"] == "Y13" and result["finish"]["kind"] == "sets"
        shown = sorted(tile for group in result["finish"]["groups"] for tile in group)
        assert shown == sorted(READY.split()[:-1])
        assert view["phase"] == "over" and view["actions"] == []
        assert view["centre"] == ["Y13"]
        if seat != 2:
            assert "M13" not in tiles_in(view)


def test_a_pile_out_is_shown_without_a_finisher():
    state = discard(hand_with([READY, None, None, None], "K1", pile_size=0), 0, "Y13")
    view = view_for(draw(state, 1, "pile"), None)
    assert view["result"]["reason"] == "pile_out" and view["result"]["finisher"] is None
    assert view["result"]["finish"] is None and view["pile_count"] == 0


@pytest.mark.parametrize("seat", [4, -1, "0"])
def test_a_view_for_a_seat_off_the_table_is_refused(seat):
    with pytest.raises(EngineError) as info:
        view_for(table(), seat)
    assert info.value.code == "bad_seat"


def test_two_player_views():
    state = deal(RuleSet(players=2), seed=4, starting_seat=1)
    view = assert_view_is_private(state, 0)
    assert view["rack_counts"] == [14, 15] and view["pile_count"] == 76
