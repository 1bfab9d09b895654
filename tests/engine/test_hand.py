"""The hand as a state machine, told as small stories: every action, and every way to get one wrong.

Unless a story says otherwise the indicator is K1, so the okey (wild) is K2, and seat 0 starts.
Every refused action is checked to leave the state exactly as it was (``rejects``).
"""

from __future__ import annotations

import json

import pytest

from games.engine.errors import EngineError
from games.engine.finish import PAIRS, SETS
from games.engine.hand import (
    FINISHED,
    PHASE_DISCARD,
    PHASE_DRAW,
    PHASE_OVER,
    PILE_OUT,
    HandState,
    apply,
    declare_pairs,
    describe,
    discard,
    draw,
    finish,
    lay_first_okey,
    legal_actions,
    show_indicator,
    take_indicator,
    view_for,
)
from games.engine.rules import RuleSet
from games.engine.tiles import parse_tile, parse_tiles

from .conftest import accounted, hand_with, rejects, roundtrip

T = parse_tile

# Seat 0 can finish at once by putting Y13 on the centre: S1-S4, M5-M7, Y8-Y10, four 11s.
READY = "S1 S2 S3 S4 M5 M6 M7 Y8 Y9 Y10 K11 S11 M11 Y11 Y13"
# Seven pairs and a spare Y13.
PAIRS_RACK = "K3 K3 S4 S4 M5 M5 Y6 Y6 K7 K7 S8 S8 M9 M9 Y13"


def opening(**kwargs) -> HandState:
    return hand_with([READY, None, None, None], "K1", **kwargs)


def pass_turn(state: HandState, seat: int) -> HandState:
    """Draw from the pile and give the drawn tile straight away: a turn that changes nothing else."""
    state = draw(state, seat, "pile")
    return discard(state, seat, state.racks[seat][-1])


# -- the first turn ------------------------------------------------------------------------------


def test_the_starter_discards_first_without_drawing_and_the_tile_goes_to_the_next_seat():
    state = opening()
    assert (state.turn, state.phase, state.move) == (0, PHASE_DISCARD, 0)
    after = discard(state, 0, "Y13")
    assert after.racks[0] == parse_tiles(READY)[:-1]
    assert after.discards[0] == [T("Y13")]
    assert (after.turn, after.phase, after.move) == (1, PHASE_DRAW, 1)
    assert after.available_discard == T("Y13")
    assert after.events[-1] == {"move": 1, "type": "discard", "seat": 0, "tile": "Y13"}
    assert state.move == 0 and len(state.racks[0]) == 15, "the input state is never changed"


def test_the_starter_may_not_draw():
    rejects(draw, opening(), 0, "pile", code="already_drew")


def test_a_tile_can_be_given_as_notation_or_as_its_number():
    assert discard(opening(), 0, T("Y13")) == discard(opening(), 0, "y13")


# -- drawing -------------------------------------------------------------------------------------


def test_the_next_seat_may_take_the_discard_it_was_just_given():
    state = discard(opening(), 0, "Y13")
    after = draw(state, 1, "discard")
    assert after.racks[1][-1] == T("Y13") and len(after.racks[1]) == 15
    assert after.discards[0] == []
    assert after.discard_log == [[0, T("Y13"), 1]]
    assert after.phase == PHASE_DISCARD and after.available_discard is None
    assert after.events[-1] == {"move": 2, "type": "draw", "seat": 1, "source": "discard", "tile": "Y13"}


def test_drawing_from_the_pile_takes_the_top_and_does_not_tell_the_table_which_tile():
    state = discard(hand_with([READY, None, None, None], "K1", pile_top="M13"), 0, "Y13")
    after = draw(state, 1, "pile")
    assert after.racks[1][-1] == T("M13")
    assert after.pile == state.pile[1:]
    assert after.events[-1] == {"move": 2, "type": "draw", "seat": 1, "source": "pile"}


def test_only_the_most_recent_discard_can_be_taken_older_ones_are_gone():
    state = discard(opening(), 0, "Y13")
    state = pass_turn(state, 1)           # seat 1 gives seat 2 the tile it drew
    given_by_1 = state.discards[1][-1]
    assert state.available_discard == given_by_1
    state = pass_turn(state, 2)
    state = pass_turn(state, 3)
    # Back to seat 0: it may take what seat 3 just gave, never its own old Y13 or seat 1's tile.
    assert state.turn == 0
    assert state.available_discard == state.discards[3][-1]
    assert state.discards[0] == [T("Y13")] and state.discards[1] == [given_by_1]
    after = draw(state, 0, "discard")
    assert after.racks[0][-1] == state.discards[3][-1]


def test_only_the_seat_to_play_may_draw():
    state = discard(opening(), 0, "Y13")
    rejects(draw, state, 2, "pile", code="not_your_turn")
    rejects(draw, state, 0, "discard", code="not_your_turn")


def test_a_seat_draws_once_per_turn():
    state = draw(discard(opening(), 0, "Y13"), 1, "pile")
    rejects(draw, state, 1, "pile", code="already_drew")
    rejects(draw, state, 1, "discard", code="already_drew")


@pytest.mark.parametrize("source", ["deck", "", None, "PILE"])
def test_the_draw_source_is_pile_or_discard(source):
    rejects(draw, discard(opening(), 0, "Y13"), 1, source, code="bad_source")


@pytest.mark.parametrize("seat", [-1, 4, "1", None, True, 1.0])
def test_a_seat_off_the_table_is_refused(seat):
    state = discard(opening(), 0, "Y13")
    rejects(draw, state, seat, "pile", code="bad_seat")
    rejects(declare_pairs, state, seat, code="bad_seat")


def test_an_empty_pile_ends_the_hand_with_no_finisher():
    state = discard(hand_with([READY, None, None, None], "K1", pile_size=0), 0, "Y13")
    assert state.pile == []
    over = draw(state, 1, "pile")
    assert over.phase == PHASE_OVER and over.is_over
    assert over.result.reason == PILE_OUT and over.result.finisher is None and over.result.finish is None
    assert over.events[-1] == {"move": 2, "type": "pile_out", "seat": 1}
    assert accounted(over)
    rejects(draw, over, 1, "discard", code="hand_over")


def test_with_an_empty_pile_the_discard_can_still_be_taken():
    state = discard(hand_with([READY, None, None, None], "K1", pile_size=0), 0, "Y13")
    after = draw(state, 1, "discard")
    assert not after.is_over and after.racks[1][-1] == T("Y13")


def test_the_last_pile_tile_can_be_drawn_and_played_then_a_discard_nobody_can_use_ends_the_hand():
    state = discard(hand_with([READY, None, None, None], "K1", pile_size=1), 0, "Y13")
    state = draw(state, 1, "pile")
    assert state.pile == [] and not state.is_over and "discard" in legal_actions(state, 1)
    over = discard(state, 1, state.racks[1][-1])
    assert over.result.reason == PILE_OUT and over.result.finisher is None
    assert [event["type"] for event in over.events[-2:]] == ["discard", "pile_out"]
    assert over.events[-1]["seat"] == 2


# -- the centre pile runs out (RULES.md, source 001) ---------------------------------------------

# With Y13 (seat 0's spare) seat 1 finishes: K3-K6, S6-S8, M9-M12, Y11-Y13, putting S13 on the centre.
WAITS_FOR_Y13 = "K3 K4 K5 K6 S6 S7 S8 M9 M10 M11 M12 Y11 Y12 S13"


def pile_gone(discarded: str = "Y13") -> HandState:
    """The pile is empty and seat 0 has just discarded ``discarded`` to seat 1."""
    return discard(hand_with([READY, WAITS_FOR_Y13, None, None], "K1", pile_size=0), 0, discarded)


def test_after_the_pile_runs_out_a_discard_the_next_seat_cannot_finish_with_ends_the_hand_at_once():
    over = pile_gone("S1")
    assert over.is_over and over.result.reason == PILE_OUT and over.result.finisher is None
    assert over.events[-1] == {"move": 2, "type": "pile_out", "seat": 1}
    assert accounted(over)
    rejects(draw, over, 1, "discard", code="hand_over")


def test_after_the_pile_runs_out_the_next_seat_may_take_the_discard_only_to_finish_with_it():
    state = pile_gone()
    assert not state.is_over
    assert legal_actions(state, 1) == ["declare_pairs", "draw_pile", "draw_discard"]
    taken = draw(state, 1, "discard")
    assert taken.must_finish and roundtrip(taken) == taken
    assert legal_actions(taken, 1) == ["declare_pairs", "finish"]
    rejects(discard, taken, 1, "S13", code="must_finish")
    rejects(finish, taken, 1, "K3", code="invalid_finish")
    over = finish(taken, 1, "S13")
    assert over.result.reason == FINISHED and over.result.finisher == 1 and not over.must_finish


def test_after_the_pile_runs_out_the_next_seat_may_decline_and_the_hand_ends():
    over = draw(pile_gone(), 1, "pile")
    assert over.result.reason == PILE_OUT and over.events[-1] == {"move": 2, "type": "pile_out", "seat": 1}


def test_declaring_pairs_after_the_pile_ran_out_ends_the_hand_when_pairs_cannot_finish():
    over = declare_pairs(pile_gone(), 1)
    assert over.result.reason == PILE_OUT
    assert [event["type"] for event in over.events[-2:]] == ["declare_pairs", "pile_out"]
    taken = draw(pile_gone(), 1, "discard")
    assert declare_pairs(taken, 1).result.reason == PILE_OUT
    # Another seat declaring changes nothing for the seat to play.
    assert not declare_pairs(pile_gone(), 3).is_over


# -- discarding ----------------------------------------------------------------------------------


def test_a_seat_must_draw_before_it_discards_or_finishes():
    state = discard(opening(), 0, "Y13")
    tile = state.racks[1][0]
    rejects(discard, state, 1, tile, code="must_draw_first")
    rejects(finish, state, 1, tile, code="must_draw_first")


def test_a_seat_can_only_give_a_tile_it_holds():
    state = opening()
    error = rejects(discard, state, 0, "K13", code="tile_not_in_rack")
    assert error.details["tile"] == "K13"


@pytest.mark.parametrize("tile", ["X9", "K14", "", 53, -1, True, None])
def test_something_that_is_not_a_tile_is_refused_with_bad_tile(tile):
    rejects(discard, opening(), 0, tile, code="bad_tile")


def test_only_the_seat_to_play_may_discard():
    rejects(discard, opening(), 1, "K1", code="not_your_turn")


# -- finishing -----------------------------------------------------------------------------------


def test_a_valid_finish_ends_the_hand_and_the_server_finds_the_sets():
    state = opening()
    over = finish(state, 0, "Y13")
    result = over.result
    assert over.phase == PHASE_OVER and result.reason == FINISHED and result.finisher == 0
    assert result.finish.kind == SETS and not result.finish.okey_finish and result.finish.discard == T("Y13")
    assert sorted(tile for group in result.finish.groups for tile in group) == sorted(parse_tiles(READY)[:-1])
    assert over.centre == [T("Y13")]
    assert over.events[-1]["type"] == "finish" and over.events[-1]["discard"] == "Y13"
    assert accounted(over)


def test_a_finish_that_leaves_a_loose_tile_is_refused_with_a_reason():
    error = rejects(finish, opening(), 0, "S1", code="invalid_finish")
    assert error.details["reason"] == "no_valid_split"
    assert "S1" in str(error)


def test_a_seat_may_finish_after_drawing():
    rack = "S1 S2 S3 S4 M5 M6 M7 Y8 Y9 Y10 K11 S11 M11 Y11"
    state = hand_with([None, rack, None, None], "K1", pile_top="M13")
    state = discard(state, 0, state.racks[0][0])
    over = finish(draw(state, 1, "pile"), 1, "M13")
    assert over.result.finisher == 1


def test_putting_a_wild_okey_on_the_centre_is_an_okey_finish():
    rack = READY.replace("Y13", "K2")
    over = finish(hand_with([rack, None, None, None], "K1"), 0, "K2")
    assert over.result.finish.okey_finish


def test_a_false_joker_on_the_centre_is_not_an_okey_finish():
    rack = READY.replace("Y13", "J")
    over = finish(hand_with([rack, None, None, None], "K1"), 0, "J")
    assert not over.result.finish.okey_finish


def test_seven_pairs_finish_as_pairs():
    over = finish(hand_with([PAIRS_RACK, None, None, None], "K1"), 0, "Y13")
    assert over.result.finish.kind == PAIRS and len(over.result.finish.groups) == 7


def test_after_declaring_pairs_only_pairs_can_finish():
    state = declare_pairs(opening(), 0)
    error = rejects(finish, state, 0, "Y13", code="invalid_finish")
    assert error.details["reason"] == "not_pairs"
    paired = declare_pairs(hand_with([PAIRS_RACK, None, None, None], "K1"), 0)
    assert finish(paired, 0, "Y13").result.finish.kind == PAIRS


def test_pairs_may_finish_without_being_declared():
    assert finish(hand_with([PAIRS_RACK, None, None, None], "K1"), 0, "Y13").result.declared_pairs == ()


def test_nothing_can_happen_after_the_hand_is_over():
    over = finish(opening(), 0, "Y13")
    for action, args in [
        (draw, (1, "pile")), (discard, (1, "K1")), (finish, (1, "K1")), (show_indicator, (1,)),
        (declare_pairs, (2,)),
    ]:
        rejects(action, over, *args, code="hand_over")


# -- showing the indicator -----------------------------------------------------------------------


def twin_with(seat: int) -> HandState:
    """Seat ``seat`` was dealt K1, the twin of the indicator K1."""
    racks: list[str | None] = [READY if seat != 0 else READY.replace("Y11", "K1"), None, None, None]
    if seat != 0:
        racks[seat] = "K1 K3 K4 K5 S6 S7 S8 M9 M10 M12 Y2 Y3 Y4 Y12"
    return hand_with(racks, "K1")


def test_the_starter_shows_the_indicator_in_its_first_turn_and_plays_on():
    state = twin_with(0)
    after = show_indicator(state, 0)
    assert after.shown_indicators == [0]
    assert after.events[-1] == {"move": 1, "type": "show_indicator", "seat": 0, "tile": "K1"}
    assert after.turn == 0 and after.phase == PHASE_DISCARD and T("K1") in after.racks[0]
    rejects(show_indicator, after, 0, code="already_shown")
    assert discard(after, 0, "Y13").turn == 1


def test_a_later_seat_shows_in_its_first_turn_before_or_after_drawing():
    state = discard(twin_with(1), 0, "Y13")
    assert show_indicator(state, 1).shown_indicators == [1]
    drawn = draw(state, 1, "pile")
    assert show_indicator(drawn, 1).shown_indicators == [1]


def test_the_indicator_cannot_be_shown_out_of_turn():
    rejects(show_indicator, twin_with(1), 1, code="not_your_turn")


def test_the_indicator_cannot_be_shown_after_the_first_discard():
    state = twin_with(0)
    state = discard(state, 0, "Y13")
    for seat in (1, 2, 3):
        state = pass_turn(state, seat)
    rejects(show_indicator, state, 0, code="not_first_turn")


def test_only_the_seat_dealt_the_twin_can_show_it():
    rejects(show_indicator, opening(), 0, code="no_indicator_tile")


def test_a_twin_drawn_from_the_pile_does_not_count():
    racks = [READY, "K3 K4 K5 S6 S7 S8 M9 M10 M12 Y2 Y3 Y4 Y12 Y12", None, None]
    state = hand_with(racks, "K1", pile_top="K1")
    assert state.twin_dealt_to is None
    drawn = draw(discard(state, 0, "Y13"), 1, "pile")
    assert T("K1") in drawn.racks[1]
    rejects(show_indicator, drawn, 1, code="no_indicator_tile")


# -- going for pairs -----------------------------------------------------------------------------


def test_any_seat_may_declare_pairs_at_any_time_but_once():
    state = opening()
    after = declare_pairs(state, 2)  # not seat 2's turn: declaring is not a turn action
    assert after.declared_pairs == [2] and after.turn == 0 and after.move == 1
    assert after.events[-1] == {"move": 1, "type": "declare_pairs", "seat": 2}
    rejects(declare_pairs, after, 2, code="already_declared")
    assert declare_pairs(after, 0).declared_pairs == [2, 0]


# -- option: the indicator binds a pair ------------------------------------------------------------

# Two players. Seat 0 holds the twin K1, six pairs, and two spares.
BIND_RACK = "K1 K3 K3 S4 S4 M5 M5 Y6 Y6 K7 K7 S8 S8 Y13 M12"
BIND_RULES = RuleSet(players=2, indicator_binds_pair=True)


def bind_story() -> HandState:
    """Seat 0 shows the indicator, goes for pairs, discards; seat 1 plays a turn: seat 0 to draw."""
    state = hand_with([BIND_RACK, None], "K1", rules=BIND_RULES)
    state = declare_pairs(show_indicator(state, 0), 0)
    state = discard(state, 0, "M12")
    return pass_turn(state, 1)


def test_the_shown_indicator_can_be_taken_instead_of_drawing_and_pairs_with_the_twin():
    state = bind_story()
    after = take_indicator(state, 0)
    assert after.racks[0].count(T("K1")) == 2 and len(after.racks[0]) == 15
    assert after.indicator_taken_by == 0 and after.phase == PHASE_DISCARD
    assert after.okey == T("K2"), "the okey stays what the indicator made it"
    assert after.events[-1] == {"move": after.move, "type": "take_indicator", "seat": 0, "tile": "K1"}
    assert accounted(after)
    over = finish(after, 0, "Y13")
    assert over.result.finish.kind == PAIRS
    assert (T("K1"), T("K1")) in over.result.finish.groups


def test_after_the_pile_runs_out_the_indicator_cannot_be_taken_instead_of_the_last_discard():
    state = hand_with([BIND_RACK, "Y13 K9 K10 S1 S2 M1 M2 M3 Y1 Y2 Y3 Y4 S10 S11"], "K1", rules=BIND_RULES,
                      pile_size=1)
    state = discard(declare_pairs(show_indicator(state, 0), 0), 0, "M12")
    state = discard(draw(state, 1, "pile"), 1, "Y13")
    assert state.pile == [] and not state.is_over  # seat 0 finishes with pairs if it takes Y13
    assert "take_indicator" not in legal_actions(state, 0)
    rejects(take_indicator, state, 0, code="pile_empty")
    over = finish(draw(state, 0, "discard"), 0, "K1")
    assert over.result.finish.kind == PAIRS


def test_taking_the_indicator_needs_the_option():
    state = hand_with([BIND_RACK, None], "K1", rules=RuleSet(players=2))
    state = declare_pairs(show_indicator(state, 0), 0)
    state = pass_turn(discard(state, 0, "M12"), 1)
    rejects(take_indicator, state, 0, code="option_off")


def test_taking_the_indicator_needs_showing_it_and_going_for_pairs():
    state = hand_with([BIND_RACK, None], "K1", rules=BIND_RULES)
    state = pass_turn(discard(state, 0, "M12"), 1)
    rejects(take_indicator, state, 0, code="not_shown")
    shown = hand_with([BIND_RACK, None], "K1", rules=BIND_RULES)
    shown = pass_turn(discard(show_indicator(shown, 0), 0, "M12"), 1)
    rejects(take_indicator, shown, 0, code="not_declared")


def test_the_indicator_is_taken_instead_of_a_draw_on_a_later_turn_only_once():
    state = bind_story()
    rejects(take_indicator, draw(state, 0, "pile"), 0, code="already_drew")
    rejects(take_indicator, state, 1, code="not_your_turn")
    taken = discard(take_indicator(state, 0), 0, "M5")
    taken = pass_turn(taken, 1)
    rejects(take_indicator, taken, 0, code="indicator_taken")


def test_the_indicator_cannot_be_taken_in_the_turn_it_was_shown():
    racks = [None, "K1 K3 K3 S4 S4 M5 M5 Y6 Y6 K7 K7 S8 S8 Y13"]
    state = hand_with(racks, "K1", rules=BIND_RULES)
    state = discard(state, 0, state.racks[0][0])
    state = declare_pairs(show_indicator(state, 1), 1)
    rejects(take_indicator, state, 1, code="too_early")


def test_the_indicator_binds_only_while_the_twin_is_held():
    state = hand_with([BIND_RACK, None], "K1", rules=BIND_RULES)
    state = declare_pairs(show_indicator(state, 0), 0)
    state = pass_turn(discard(state, 0, "K1"), 1)
    rejects(take_indicator, state, 0, code="no_indicator_tile")


# -- option: double okey -------------------------------------------------------------------------

# Both okeys (K2): discarding one would finish (S1-S4, M5-M7, Y8-Y10, K11 S11 M11 + okey).
DOUBLE_RACK = "K2 K2 S1 S2 S3 S4 M5 M6 M7 Y8 Y9 Y10 K11 S11 M11"
DOUBLE_RULES = RuleSet(double_okey=True)


def test_the_first_okey_is_laid_on_the_centre_and_play_goes_on():
    state = hand_with([DOUBLE_RACK, None, None, None], "K1", rules=DOUBLE_RULES)
    after = lay_first_okey(state, 0)
    assert after.centre == [T("K2")] and after.first_okey_by == 0
    assert after.racks[0].count(T("K2")) == 1 and len(after.racks[0]) == 14
    assert (after.turn, after.phase) == (1, PHASE_DRAW)
    assert after.events[-1] == {"move": 1, "type": "lay_first_okey", "seat": 0, "tile": "K2"}
    assert accounted(after)
    # Nothing was discarded to seat 1, so it has nothing to take.
    rejects(draw, after, 1, "discard", code="discard_pile_empty")


def test_finishing_later_with_the_second_okey_is_a_double_okey():
    state = hand_with([DOUBLE_RACK, None, None, None], "K1", rules=DOUBLE_RULES, pile_top="M1 M2 M3 Y11")
    state = lay_first_okey(state, 0)
    for seat in (1, 2, 3):
        state = pass_turn(state, seat)
    state = draw(state, 0, "pile")
    assert state.racks[0][-1] == T("Y11")
    over = finish(state, 0, "K2")
    assert over.result.double_okey and over.result.finish.okey_finish
    assert over.centre == [T("K2"), T("K2")]


def test_finishing_later_with_another_tile_is_not_a_double_okey():
    state = hand_with([DOUBLE_RACK, None, None, None], "K1", rules=DOUBLE_RULES, pile_top="M1 M2 M3 Y13")
    state = lay_first_okey(state, 0)
    for seat in (1, 2, 3):
        state = pass_turn(state, seat)
    over = finish(draw(state, 0, "pile"), 0, "Y13")
    assert not over.result.double_okey and not over.result.finish.okey_finish


def test_if_someone_else_finishes_first_the_laid_okey_is_lost():
    ready = "S5 S6 S7 M1 M2 M3 M4 Y5 Y6 Y7 K9 S9 M9 Y9"
    state = hand_with([DOUBLE_RACK, ready, None, None], "K1", rules=DOUBLE_RULES, pile_top="Y13")
    state = lay_first_okey(state, 0)
    over = finish(draw(state, 1, "pile"), 1, "Y13")
    assert over.result.finisher == 1 and not over.result.double_okey
    assert over.centre == [T("K2"), T("Y13")]


def test_a_first_okey_laid_on_the_last_turn_leaves_nothing_to_take_so_the_pile_out_ends_the_hand():
    state = hand_with([DOUBLE_RACK, None, None, None], "K1", rules=DOUBLE_RULES, pile_size=0)
    over = lay_first_okey(state, 0)
    assert over.result.reason == PILE_OUT
    assert [event["type"] for event in over.events[-2:]] == ["lay_first_okey", "pile_out"]


def test_after_the_pile_runs_out_a_taken_discard_cannot_be_answered_with_a_first_okey():
    waits = "K2 K2 S1 S2 S3 S4 M5 M6 M7 Y8 Y9 Y10 K11 S11"  # + M11 finishes with either okey
    opener = "M11 K3 K4 K5 S6 S7 S8 M9 M10 M12 Y11 Y12 Y13 S13 K13"
    state = hand_with([opener, waits, None, None], "K1", rules=DOUBLE_RULES, pile_size=0)
    taken = draw(discard(state, 0, "M11"), 1, "discard")
    assert "lay_first_okey" not in legal_actions(taken, 1)
    rejects(lay_first_okey, taken, 1, code="must_finish")
    assert finish(taken, 1, "K2").result.finish.okey_finish


def test_laying_the_first_okey_needs_the_option_both_okeys_and_a_ready_rack():
    rejects(lay_first_okey, hand_with([DOUBLE_RACK, None, None, None], "K1"), 0, code="option_off")
    one_okey = DOUBLE_RACK.replace("K2 K2", "K2 Y11")
    rejects(lay_first_okey, hand_with([one_okey, None, None, None], "K1", rules=DOUBLE_RULES), 0,
            code="need_both_okeys")
    not_ready = DOUBLE_RACK.replace("M11", "M13")
    error = rejects(lay_first_okey, hand_with([not_ready, None, None, None], "K1", rules=DOUBLE_RULES), 0,
                    code="invalid_finish")
    assert error.details["reason"] == "no_valid_split"


def test_a_first_okey_is_laid_once_a_hand():
    state = hand_with([DOUBLE_RACK, None, None, None], "K1", rules=DOUBLE_RULES, pile_top="M1 M2 M3 Y11")
    state = lay_first_okey(state, 0)
    for seat in (1, 2, 3):
        state = pass_turn(state, seat)
    state = draw(state, 0, "pile")
    rejects(lay_first_okey, state, 0, code="already_laid")


def test_laying_the_first_okey_follows_the_turn():
    state = hand_with([None, DOUBLE_RACK.replace("M11", ""), None, None], "K1", rules=DOUBLE_RULES)
    rejects(lay_first_okey, state, 1, code="not_your_turn")
    state = discard(state, 0, state.racks[0][0])
    rejects(lay_first_okey, state, 1, code="must_draw_first")


# -- bookkeeping -----------------------------------------------------------------------------------


def test_every_applied_action_counts_one_move_and_logs_one_event_refusals_count_nothing():
    state = twin_with(0)
    steps = [
        lambda s: show_indicator(s, 0),
        lambda s: declare_pairs(s, 3),
        lambda s: discard(s, 0, "Y13"),
        lambda s: draw(s, 1, "discard"),
        lambda s: discard(s, 1, "Y13"),
    ]
    for number, step in enumerate(steps, start=1):
        with pytest.raises(EngineError):
            discard(state, 2, "K13")
        state = step(state)
        assert state.move == number and len(state.events) == number + 1
        assert [event["move"] for event in state.events] == list(range(number + 1))


def test_the_state_round_trips_through_json_exactly_in_every_phase():
    states = [opening()]
    states.append(discard(states[-1], 0, "Y13"))
    states.append(draw(states[-1], 1, "discard"))
    states.append(declare_pairs(states[-1], 2))
    states.append(finish(opening(), 0, "Y13"))
    states.append(draw(discard(hand_with([READY, None, None, None], "K1", pile_size=0), 0, "Y13"), 1, "pile"))
    for state in states:
        assert roundtrip(state) == state
        assert json.loads(json.dumps(state.to_dict())) == state.to_dict()


def test_an_unknown_state_version_is_refused():
    data = opening().to_dict()
    data["version"] = 99
    with pytest.raises(ValueError):
        HandState.from_dict(data)


def test_apply_dispatches_client_messages_by_type():
    state = apply(opening(), 0, "discard", tile="Y13")
    assert state.discards[0] == [T("Y13")]
    state = apply(state, 1, "draw", source="discard")
    assert state.racks[1][-1] == T("Y13")
    rejects(apply, state, 1, "fly", code="bad_action")
    rejects(apply, state, 1, "discard", code="bad_action")  # no tile given
    rejects(apply, state, 1, "discard", tile="K1", colour="red", code="bad_action")


def test_legal_actions_follow_turn_and_phase():
    state = twin_with(0)
    # READY with K1 in place of Y11 cannot finish: "finish" is listed only for a rack that can.
    assert legal_actions(state, 0) == ["declare_pairs", "show_indicator", "discard"]
    assert legal_actions(opening(), 0) == ["declare_pairs", "discard", "finish"]
    assert legal_actions(state, 1) == ["declare_pairs"]
    state = discard(state, 0, "Y13")
    assert legal_actions(state, 1) == ["declare_pairs", "draw_pile", "draw_discard"]
    assert legal_actions(finish(opening(), 0, "Y13"), 0) == []


@pytest.mark.parametrize("declared", [False, True])
def test_finish_is_listed_exactly_when_the_engine_would_accept_a_finish(declared):
    ready_for_pairs = PAIRS_RACK
    for rack in (READY, PAIRS_RACK, READY.replace("Y11", "K1"), ready_for_pairs.replace("K3 K3", "K3 K4")):
        state = hand_with([rack, None, None, None], "K1")
        if declared:
            state = declare_pairs(state, 0)
        accepted = []
        for tile in set(state.racks[0]):
            try:
                finish(state, 0, tile)
                accepted.append(tile)
            except EngineError as error:
                assert error.code == "invalid_finish"
        assert ("finish" in legal_actions(state, 0)) == bool(accepted), rack
        assert ("finish" in view_for(state, 0)["actions"]) == bool(accepted)


def test_lay_first_okey_is_listed_only_when_laying_it_would_be_accepted():
    ready = hand_with([DOUBLE_RACK, None, None, None], "K1", rules=DOUBLE_RULES)
    assert "lay_first_okey" in legal_actions(ready, 0)
    lay_first_okey(ready, 0)
    not_ready = hand_with([DOUBLE_RACK.replace("M11", "Y13"), None, None, None], "K1", rules=DOUBLE_RULES)
    assert "lay_first_okey" not in legal_actions(not_ready, 0)
    rejects(lay_first_okey, not_ready, 0, code="invalid_finish")


def test_describe_is_a_readable_dump_for_logs():
    text = describe(opening())
    assert "indicator K1" in text and "okey K2" in text and "seat 0: S1 S2" in text
