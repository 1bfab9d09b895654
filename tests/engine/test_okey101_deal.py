"""The 101 deal, RULES.md "101 Okey" rules 1 and 2: 21 each, the starter 22 and discards without
drawing, an indicator that is out of play, 20 tiles in the pile; deterministic from the deck."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine.deck import shuffled_deck
from games.engine.errors import EngineError
from games.engine.okey101.hand import apply_turn, deal_from_deck, view_for
from games.engine.okey101.rules import Rules101
from games.engine.tiles import FALSE_JOKER, format_tile, full_set, parse_tile

from .test_okey101_support import accounted, rejects, roundtrip


@pytest.mark.parametrize("starting_seat", range(4))
def test_rule1_everyone_gets_21_the_starter_22_and_20_stay_in_the_pile(starting_seat):
    state = deal_from_deck(shuffled_deck("101"), Rules101(), starting_seat=starting_seat)
    assert [len(rack) for rack in state.racks] == [22 if seat == starting_seat else 21 for seat in range(4)]
    assert len(state.pile) == 20
    assert state.turn == starting_seat and state.first_turn
    assert accounted(state)


def test_rule1_the_deal_is_a_pure_function_of_the_deck_and_the_starting_seat():
    deck = shuffled_deck(7)
    first, second = (deal_from_deck(deck, Rules101(), starting_seat=2) for _ in range(2))
    assert first.to_dict() == second.to_dict()
    assert roundtrip(first).to_dict() == first.to_dict()
    # Top of the deck: the indicator, then 22 to the starter, then 21 each in play order.
    assert first.indicator == deck[0]
    assert first.racks[2] == deck[1:23] and first.racks[3] == deck[23:44] and first.racks[0] == deck[44:65]


def test_rule2_a_false_joker_turned_up_goes_under_the_pile_and_the_next_tile_is_the_indicator():
    deck = full_set()
    deck.remove(FALSE_JOKER)
    deck = [FALSE_JOKER, *deck]
    state = deal_from_deck(deck, Rules101(), starting_seat=0)
    assert state.indicator != FALSE_JOKER and state.pile[-1] == FALSE_JOKER
    assert accounted(state)


def test_a_deck_that_is_not_the_106_tiles_or_a_seat_not_at_the_table_is_refused():
    with pytest.raises(ValueError):
        deal_from_deck(full_set()[:-1], Rules101())
    with pytest.raises(EngineError) as info:
        deal_from_deck(full_set(), Rules101(), starting_seat=4)
    assert info.value.code == "bad_seat"


def test_rule1_the_starter_discards_without_drawing_and_play_passes_in_seat_order():
    state = deal_from_deck(shuffled_deck(3), Rules101(), starting_seat=1)
    tile = format_tile(state.racks[1][0])
    rejects(state, 1, {"draw": "pile", "discard": tile}, code="no_draw_first_turn")
    rejects(state, 2, {"draw": "pile", "discard": tile}, code="not_your_turn")
    after = apply_turn(state, 1, {"discard": tile})
    assert len(after.racks[1]) == 21 and len(after.pile) == 20
    assert after.turn == 2 and not after.first_turn
    assert view_for(after, 2)["available_discard"] == tile


def test_rule2_the_indicator_is_out_of_play_and_showing_it_is_no_action():
    state = deal_from_deck(shuffled_deck(11), Rules101(), starting_seat=0)
    assert parse_tile(view_for(state, 0)["indicator"]) == state.indicator
    # It lies apart: the racks and the pile hold the other 105 tiles.
    in_play = Counter(t for rack in state.racks for t in rack) + Counter(state.pile)
    assert sum(in_play.values()) == 105
    assert in_play + Counter([state.indicator]) == Counter(full_set())
    assert view_for(state, 0)["actions"] == ["turn"]
