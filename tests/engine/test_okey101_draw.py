"""A 101 turn in two messages (rules 5, 6, 12): the pile's top is drawn as a fact of its own, because
the drawer must see the tile before composing; the rest of the turn is then applied whole. Taking the
previous discard stays inside the turn (that tile is known), so "geri bırak" never reaches anyone."""

from __future__ import annotations

import pytest

from games.engine.errors import EngineError
from games.engine.okey101 import Okey101
from games.engine.okey101.hand import apply_turn, clock_move, draw_from_pile, view_for
from games.engine.tiles import format_tile, parse_tile

from .test_okey101_support import accounted, rejects, table

GAME = Okey101()


def mid_hand(**kwargs):
    return table([None, None, None, None], turn=1, discard=(0, "S9"), **kwargs)


def test_rule5_a_pile_draw_puts_the_top_in_the_rack_and_tells_the_others_only_that_a_tile_was_drawn():
    state = mid_hand(pile_top="M3")
    after = draw_from_pile(state, 1)
    assert after.racks[1][-1] == parse_tile("M3") and len(after.racks[1]) == 22 and after.drawn
    assert after.move == state.move + 1 and after.turn == 1
    assert after.events[-1] == {"move": after.move, "type": "draw", "seat": 1, "source": "pile"}
    accounted(after)
    own = view_for(after, 1)
    assert own["drawn"] and own["drawn_tile"] == "M3" and own["actions"] == ["turn"]
    for seat in (0, 2, 3, None):
        other = view_for(after, seat)
        assert other["drawn"] and other["drawn_tile"] is None and "M3" not in str(other["last_turn"])
    # the input state is untouched
    assert not state.drawn and len(state.racks[1]) == 21


def test_rule6_after_a_pile_draw_the_discard_can_no_longer_be_taken():
    after = draw_from_pile(mid_hand(), 1)
    assert after.available_discard is None and view_for(after, 1)["available_discard"] is None
    rejects(after, 1, {"draw": "discard", "discard": format_tile(after.racks[1][0])}, code="already_drew")


def test_rule5_the_rest_of_the_turn_follows_without_a_draw_and_ends_with_the_discard():
    after = draw_from_pile(mid_hand(pile_top="M3"), 1)
    rejects(after, 1, {"draw": "pile", "discard": "M3"}, code="already_drew")
    done = apply_turn(after, 1, {"discard": "M3"})
    assert done.turn == 2 and not done.drawn and done.takeable and done.discards[1][-1] == parse_tile("M3")
    assert done.events[-1]["type"] == "turn" and done.events[-1]["draw"] is None
    accounted(done)


@pytest.mark.parametrize("why, state_of, code", [
    ("not your turn", lambda: mid_hand(), "not_your_turn"),
    ("twice in a turn", lambda: draw_from_pile(mid_hand(), 1), "already_drew"),
    ("the starter's first turn", lambda: table([None, None, None, None]), "no_draw_first_turn"),
])
def test_a_draw_out_of_place_is_refused_and_changes_nothing(why, state_of, code):
    state = state_of()
    seat = 2 if code == "not_your_turn" else state.turn
    before = state.to_dict()
    with pytest.raises(EngineError) as info:
        draw_from_pile(state, seat)
    assert info.value.code == code, why
    assert state.to_dict() == before


def test_rule12_the_draw_of_the_last_tile_then_the_discard_ends_the_hand_as_pile_out():
    state = mid_hand(pile_size=1)
    after = draw_from_pile(state, 1)
    assert after.pile == [] and not after.is_over
    done = apply_turn(after, 1, {"discard": format_tile(after.racks[1][0])})
    assert done.is_over and done.result.reason == "pile_out"


def test_the_turn_clock_after_a_draw_only_discards():
    after = draw_from_pile(mid_hand(), 1)
    done = clock_move(after, 1)
    assert len(done.racks[1]) == 21 and len(done.pile) == len(after.pile) and done.turn == 2


def test_the_game_type_applies_a_draw_and_refuses_a_draw_of_the_discard_outside_the_turn():
    state = mid_hand()
    assert GAME.apply(state, 1, "draw").drawn
    assert GAME.apply(state, 1, "draw", source="pile").drawn
    with pytest.raises(EngineError) as info:
        GAME.apply(state, 1, "draw", source="discard")
    assert info.value.code == "bad_turn"


def test_a_drawn_state_round_trips():
    after = draw_from_pile(mid_hand(), 1)
    assert GAME.hand_from_dict(after.to_dict()).to_dict() == after.to_dict()
