"""Game types (issue 20): the site asks the registry for the game a rule set plays, and classic
Okey, the first game type, plays exactly what the engine's modules play."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from games.engine import bots, game_types, hand, match
from games.engine.errors import EngineError
from games.engine.rules import RuleSet

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"


def classic():
    return game_types.game_type_of({})


def test_a_rule_set_without_a_game_is_classic_okey_and_so_is_one_that_names_it():
    assert classic().name == "okey"
    assert game_types.game_type_of(RuleSet().to_dict()) is classic()
    assert game_types.game_type_of({**RuleSet().to_dict(), "game": "okey"}) is classic()
    assert game_types.game_type_of(RuleSet()) is classic()
    assert "okey" in game_types.names()


@pytest.mark.parametrize("stored", [{"game": "satranc"}, {"game": 7}, {"game": None}, {"game": ["okey"]}])
def test_an_unknown_game_in_stored_rules_is_a_clear_error(stored):
    with pytest.raises(EngineError) as error:
        game_types.game_type_of(stored)
    assert error.value.code == "unknown_game" and "okey" in str(error.value)


def test_a_second_game_type_under_a_taken_name_is_refused():
    class Impostor(game_types.ClassicOkey):
        pass

    with pytest.raises(ValueError):
        game_types.register(Impostor())
    assert game_types.game_type("okey").__class__ is game_types.ClassicOkey


def test_classic_rules_ignore_the_game_key_and_keep_refusing_unknown_options():
    okey = classic()
    assert okey.rules({**RuleSet.preset("penalty").to_dict(), "game": "okey"}) == RuleSet.preset("penalty")
    with pytest.raises(ValueError):
        okey.rules({"game": "okey", "jokers": 3})


def test_classic_okey_plays_a_whole_match_through_the_protocol_as_the_modules_do():
    """Deal, legal actions, apply, views, the clock's move and a bot's: the same states as calling
    the engine's modules directly."""
    okey = classic()
    rules = okey.rules(RuleSet().to_dict())
    through_protocol = okey.start_match(rules, seed="protocol")
    direct = match.start_match(rules, seed="protocol")
    for _ in range(2):
        state = okey.deal(through_protocol)
        assert state.to_dict() == match.start_next_hand(direct).to_dict()
        rng = random.Random(4)
        moves = 0
        while state.result is None and moves < 400:
            seat = state.turn
            assert okey.legal_actions(state, seat) == hand.legal_actions(state, seat)
            assert okey.view_for(state, seat) == hand.view_for(state, seat)
            if moves % 3 == 0:
                state = okey.clock_move(state, seat)
            else:
                state = okey.bot_move(state, seat, level="normal", rng=rng)
            moves += 1
        assert state.result is not None, "the hand ended"
        assert okey.view_for(state, None) == hand.view_for(state, None)
        restored = okey.hand_from_dict(state.to_dict())
        assert restored.to_dict() == state.to_dict()
        through_protocol = okey.record_hand(through_protocol, state)
        direct = match.record_hand(direct, state)
        assert through_protocol.to_dict() == direct.to_dict()
        if match.is_over(through_protocol):
            break
    assert okey.match_from_dict(through_protocol.to_dict()).to_dict() == through_protocol.to_dict()


def test_the_clock_never_finishes_for_a_seat_even_with_a_winning_rack():
    okey = classic()
    state = okey.deal(okey.start_match(RuleSet(), seed=3))
    seat = state.turn
    before = len(state.events)
    after = okey.clock_move(state, seat)
    assert [event["type"] for event in after.events[before:]] in (["discard"], ["draw", "discard"])


def test_classic_okey_apply_and_verify_match_a_replayed_hand():
    from games.engine import fairness

    okey = classic()
    rules = RuleSet()
    tiles = sorted(list(range(53)) * 2)
    random.Random(11).shuffle(tiles)
    state = okey.deal_from_deck(tiles, rules, starting_seat=1)
    state = okey.apply(state, 1, "discard", tile=state.racks[1][0])
    salt = fairness.new_salt()
    report = okey.verify_hand(tiles, salt, fairness.commitment(tiles, salt), rules=rules, starting_seat=1,
                              moves=state.events)
    assert report.commitment_ok and report.deck_ok and report.problems == []


def test_classic_okey_lists_every_error_code_its_modules_raise():
    """The site translates each listed code; a new code raised in the engine must be listed."""
    raised = set()
    for path in ENGINE.glob("*.py"):
        if path.name in ("game_types.py", "check.py", "__main__.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.keyword) and node.arg == "code" and isinstance(node.value, ast.Constant):
                raised.add(node.value.value)
    # Rule-set codes are the room form's, not a move's (rules_catalog words them).
    raised -= {"option_outside_preset", "bad_rules", "bad_option", "partners_need_four", "partners_no_chips"}
    assert raised <= set(classic().error_codes), sorted(raised - set(classic().error_codes))


def test_the_bot_protocol_move_is_the_bots_own_turn():
    okey = classic()
    state = okey.deal(okey.start_match(RuleSet(), seed=9))
    seat = state.turn
    mine = okey.bot_move(state, seat, level="hard", rng=random.Random(1))
    theirs = bots.play_bot_turn(state, seat, level="hard", rng=random.Random(1),
                                memory=game_types.bot_memory(state, seat))
    assert mine.to_dict() == theirs.to_dict()


def test_the_site_words_every_error_code_of_every_game_type(db):
    from games.services import ENGINE_MESSAGES, PLAYER_ACTIONS

    for name in game_types.names():
        game = game_types.game_type(name)
        assert set(game.error_codes) | {"unknown_game"} <= set(ENGINE_MESSAGES), name
        assert set(game.actions) <= set(PLAYER_ACTIONS)
