"""101's fair deal (RULES.md "Verifiable deals", rule 10 of Kart Okey's "as at a tile table"): the
hand's public events replay on the revealed deck to the same table and the same scores; a changed
deck, a changed move or a changed score is found and named."""

from __future__ import annotations

import copy
import random

from games.engine.deck import shuffled_deck
from games.engine.fairness import new_salt
from games.engine.okey101 import Okey101
from games.engine.okey101.fair import replay, turn_of_event
from games.engine.okey101.rules import Rules101

GAME = Okey101()


def played_hand(seed: int = 3):
    """A hand four normal bots play to its end (they draw, open, lay off and discard), seeded."""
    rng = random.Random(seed)
    for attempt in range(20):
        state = GAME.deal_from_deck(shuffled_deck(seed * 100 + attempt), Rules101(), starting_seat=1)
        while not state.is_over:
            state = GAME.bot_move(state, state.turn, level="normal", rng=rng)
        if state.melds and state.result.reason != "cancelled":
            return state
    raise AssertionError("no seeded hand put a meld on the table")


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
    assert steps[-1]["melds"] == GAME.view_for(state, None)["melds"] and steps[-1]["melds"]
    # A step after an opening shows that opening's melds with their owner.
    opened = next(index for index, step in enumerate(steps) if step["melds"])
    assert steps[opened]["event"]["type"] == "turn" and steps[opened - 1]["melds"] == []
