"""``Okey101`` behind the GameType protocol (docs/game-types.md), not yet registered; the turn
clock's move (RULES.md "Absent players never win": draw and discard, never an opening)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from games.engine import game_types
from games.engine.deck import shuffled_deck
from games.engine.okey101 import Okey101
from games.engine.okey101.hand import MELDS, PILE, Hand101, clock_turn
from games.engine.okey101.rules import Rules101
from games.engine.tiles import format_tile

from .test_okey101_support import accounted, rejects, table

GAME = Okey101()
PACKAGE = Path(__file__).resolve().parents[2] / "games" / "engine" / "okey101"


def test_it_is_a_game_type_named_okey101_whose_turn_is_a_pile_draw_then_the_rest_applied_whole():
    assert (GAME.name, GAME.actions) == ("okey101", ("draw", "turn"))
    for member in ("rules", "start_match", "match_from_dict", "deal", "deal_from_deck", "hand_from_dict",
                   "legal_actions", "apply", "view_for", "clock_move", "scoring", "record_hand", "stored_rules",
                   "public_match", "live_scores", "is_over", "winners", "hand_deltas", "public_deck"):
        assert callable(getattr(GAME, member)), member


def test_it_is_registered_so_a_room_whose_rules_name_it_plays_it():
    assert "okey101" in game_types.names()
    assert isinstance(game_types.game_type_of({"game": "okey101", "hands": 5}), Okey101)


def test_every_error_code_the_package_raises_is_listed():
    raised = set()
    for path in PACKAGE.glob("*.py"):
        raised |= set(re.findall(r'code="([a-z_]+)"', path.read_text(encoding="utf-8")))
    raised.add("bad_meld")
    assert raised <= set(GAME.error_codes), raised - set(GAME.error_codes)


def test_rules_are_read_from_a_stored_rule_set_that_names_its_game():
    rules = Rules101(hands=11, partners=True)
    stored = GAME.stored_rules(rules)
    assert stored["game"] == "okey101" and GAME.rules(stored) == rules
    assert GAME.scoring(rules).teams == ((0, 2), (1, 3)) and not GAME.scoring(rules).higher_is_better


def test_a_hand_round_trips_through_json():
    match = GAME.start_match(Rules101(), seed="g")
    hand = GAME.deal(match)
    for _ in range(5):
        hand = GAME.clock_move(hand, hand.turn)
    again = GAME.hand_from_dict(json.loads(json.dumps(hand.to_dict())))
    assert again.to_dict() == hand.to_dict() and isinstance(again, Hand101)
    with pytest.raises(ValueError):
        GAME.hand_from_dict({**hand.to_dict(), "game": "okey"})


def test_apply_delegates_the_turn_and_refuses_any_other_action():
    state = GAME.deal_from_deck(shuffled_deck(5), Rules101(), starting_seat=3)
    turn = {"discard": format_tile(state.racks[3][0])}
    after = GAME.apply(state, 3, "turn", turn=turn)
    assert after.turn == 0 and GAME.legal_actions(after, 0) == ["draw", "turn"] and GAME.legal_actions(after, 3) == []
    assert GAME.apply(state, 3, "turn", **turn).to_dict() == after.to_dict()
    rejects(state, 3, {"draw": "pile", "discard": turn["discard"]}, code="no_draw_first_turn")
    with pytest.raises(game_types.EngineError) as info:
        GAME.apply(state, 3, "discard", tile="K1")
    assert info.value.code == "bad_action"


def test_a_malformed_turn_is_refused_with_a_code():
    state = table([None, "K2 K3", None, None], turn=1)
    rejects(state, 1, {"draw": "pile", "discard": "K2", "finish": True}, code="bad_turn")
    rejects(state, 1, {"draw": "pile", "actions": [{"type": "fly"}], "discard": "K2"}, code="bad_action")
    rejects(state, 1, {"draw": "pile", "discard": "X9"}, code="bad_tile")
    rejects(state, 1, {"draw": "pile", "discard": "M9"}, code="tile_not_in_rack")
    rejects(state, 5, {"draw": "pile", "discard": "K2"}, code="bad_seat")
    rejects(state, 1, "draw", code="bad_turn")


def test_the_clock_draws_from_the_pile_and_discards_a_tile_that_costs_no_penalty():
    # Seat 2's run S5 S6 S7 is on the table: S8 (işlek) and the okey K6 would cost 101; M9 costs nothing.
    state = table([None, "S8 K6 M9", None, None], turn=1, pile_top="S4", melds=[(2, "S5 S6 S7")],
                  opened={2: (MELDS, 120)})
    assert clock_turn(state, 1) == {"draw": PILE, "actions": [], "discard": "M9"}
    after = GAME.clock_move(state, 1)
    assert after.penalties == [] and after.opened[1] is None and accounted(after)


def test_the_clock_on_the_starters_first_turn_does_not_draw_and_never_opens():
    state = GAME.deal_from_deck(shuffled_deck("first"), Rules101(), starting_seat=0)
    assert clock_turn(state, 0)["draw"] is None
    after = GAME.clock_move(state, 0)
    assert after.melds == [] and len(after.racks[0]) == 21


def test_with_nothing_but_penalised_tiles_the_clock_still_discards():
    state = table([None, "S8 K6", None, None], turn=1, pile_top="S4", melds=[(2, "S5 S6 S7")],
                  opened={2: (MELDS, 120)})
    after = GAME.clock_move(state, 1)
    assert len(after.penalties) == 1 and after.penalties[0]["reason"] == "islek"


def test_a_whole_match_of_clock_hands_is_recorded_and_ends_in_a_four_way_tie():
    match = GAME.start_match(Rules101(hands=3), seed="whole")
    while not GAME.is_over(match):
        hand = GAME.deal(match)
        while hand.result is None:
            hand = GAME.clock_move(hand, hand.turn)
        assert GAME.hand_deltas(hand) == [202] * 4
        match = GAME.record_hand(match, hand)
    assert GAME.winners(match) == [0, 1, 2, 3] and GAME.public_match(match)["over"]
    assert len(GAME.public_deck(hand)) == 106
