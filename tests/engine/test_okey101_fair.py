"""101's fair deal (RULES.md "Verifiable deals", rule 10 of Kart Okey's "as at a tile table"): the
hand's public events replay on the revealed deck to the same table and the same scores; a changed
deck, a changed move or a changed score is found and named."""

from __future__ import annotations

import copy
from itertools import combinations

from games.engine.deck import shuffled_deck
from games.engine.errors import EngineError
from games.engine.fairness import new_salt
from games.engine.okey101 import Okey101
from games.engine.okey101.fair import replay, turn_of_event
from games.engine.okey101.hand import apply_turn, draw_from_pile
from games.engine.okey101.melds import read_meld
from games.engine.okey101.rules import Rules101
from games.engine.tiles import format_tile

GAME = Okey101()


def first_meld(rack, okey):
    for trio in combinations(rack, 3):
        try:
            read_meld(trio, okey)
        except EngineError:
            continue
        return list(trio)
    return None


def played_hand(seed: int = 3):
    """A hand played to its end by pile draws and the clock's discards; each seat tries to open with
    the first meld it holds (refused as too low, it changes nothing and the clock's turn is played)."""
    state = GAME.deal_from_deck(shuffled_deck(seed), Rules101(), starting_seat=1)
    state = GAME.clock_move(state, state.turn)
    while not state.is_over:
        state = draw_from_pile(state, state.turn)
        seat = state.turn
        meld = first_meld(state.racks[seat], state.okey) if state.opened[seat] is None else None
        if meld is not None:
            rest = list(state.racks[seat])
            for tile in meld:
                rest.remove(tile)
            try:
                # Rising to 101 with one meld is rare: most tries are refused (opening_too_low) and change nothing.
                state = apply_turn(state, seat, {"actions": [{"type": "open", "melds": [meld]}],
                                                 "discard": format_tile(rest[-1])})
                continue
            except EngineError:
                pass
        state = GAME.clock_move(state, seat)
    return state


def test_the_events_replay_to_the_same_hand():
    state = played_hand()
    states = replay(state.deck, state.rules, state.starting_seat, state.events)
    assert states[-1].to_dict() == state.to_dict()


def test_a_turn_event_names_every_tile_it_laid_so_it_rebuilds_the_turn():
    event = {"type": "turn", "seat": 2, "draw": "discard", "discard": "S2", "took": "K7",
             "actions": [{"type": "open", "kind": "melds", "melds": [1], "total": 33,
                          "laid": [{"kind": "run", "tiles": ["K7", "K8", "K9"]}]},
                         {"type": "lay_off", "meld": 1, "tile": "K10"}]}
    assert turn_of_event(event) == {"draw": "discard", "discard": "S2", "actions": [
        {"type": "open", "melds": [{"tiles": ["K7", "K8", "K9"], "kind": "run"}]},
        {"type": "lay_off", "meld": 1, "tile": "K10"}]}


def test_an_honest_hand_verifies():
    state = played_hand()
    salt = new_salt()
    report = GAME.verify_hand(GAME.public_deck(state), salt, GAME.commitment(state, salt), rules=state.rules,
                              starting_seat=None, moves=state.events)
    assert report.valid, report.problems
    assert report.moves_checked >= len(state.events) - 1 and report.draws_checked > 0
    assert report.result["scores"] == list(state.result.scores)


def test_a_deck_changed_after_the_deal_fails_the_commitment_and_the_replay():
    state = played_hand()
    salt = new_salt()
    commitment = GAME.commitment(state, salt)
    deck = GAME.public_deck(state)
    deck[40], deck[80] = deck[80], deck[40]
    report = GAME.verify_hand(deck, salt, commitment, rules=state.rules, starting_seat=None, moves=state.events)
    assert not report.valid and not report.commitment_ok


def test_a_changed_score_or_move_is_named():
    state = played_hand()
    salt = new_salt()
    commitment = GAME.commitment(state, salt)
    events = copy.deepcopy(state.events)
    events[-1]["scores"] = [0, 0, 0, 0]
    report = GAME.verify_hand(GAME.public_deck(state), salt, commitment, rules=state.rules, starting_seat=None,
                              moves=events)
    assert not report.valid and any("scores written" in problem for problem in report.problems)
    events = copy.deepcopy(state.events)
    turn = next(event for event in events if event["type"] == "turn" and event["seat"] == 3)
    turn["discard"] = "J" if turn["discard"] != "J" else "K1"
    report = GAME.verify_hand(GAME.public_deck(state), salt, commitment, rules=state.rules, starting_seat=None,
                              moves=events)
    assert not report.valid


def test_replay_steps_show_every_step_with_all_racks_and_the_melds():
    state = played_hand()
    steps = GAME.replay_steps(state, state.events, None)
    assert len(steps) == 1 + sum(1 for event in state.events if event["type"] in ("draw", "turn"))
    assert steps[0]["event"]["type"] == "deal" and steps[-1]["result"] is not None
    assert all(len(step["racks"]) == 4 and "melds" in step for step in steps)
    assert steps[-1]["melds"] == GAME.view_for(state, None)["melds"]
