"""RULES.md "Kart Okey" rule 10: the fair deal, the replay, the turn clock and bots work as at a tile
table. The deck is committed before the hand; its public events replay on the revealed deck to the
same table and scores (reshuffles included); a changed deck, move or score is found."""

from __future__ import annotations

import copy
import hashlib

from games.engine.fairness import new_salt
from games.engine.kart import KartOkey
from games.engine.kart.fair import canonical_deck, replay, turn_of_event
from games.engine.kart.hand import clock_turn

from .test_kart_support import played_hand, table

GAME = KartOkey()


def long_hand():
    """A seeded hand of bots whose stock ran out at least once (a reshuffle to replay) and in which a
    discard was taken."""
    for seed in range(60):
        state = played_hand(seed, players=4, levels=("easy", "normal", "easy", "easy"))
        if state.stock_outs and any(event.get("took") for event in state.events):
            return state
    raise AssertionError("no seed ran the stock out")


def test_rule10_the_commitment_is_sha256_of_the_canonical_deck_and_the_salt():
    state = played_hand(1)
    salt = new_salt()
    text = canonical_deck(state.deck)
    assert len(text.split()) == 104 and text.split()[0] == GAME.public_deck(state)[0]
    assert GAME.commitment(state, salt) == hashlib.sha256(f"{text} {salt}".encode()).hexdigest()


def test_rule10_an_honest_hand_replays_and_verifies_reshuffles_included():
    state = long_hand()
    assert any(event["type"] == "reshuffle" for event in state.events)
    assert replay(state.deck, state.rules, state.starting_seat, state.events)[-1].to_dict() == state.to_dict()
    salt = new_salt()
    report = GAME.verify_hand(GAME.public_deck(state), salt, GAME.commitment(state, salt), rules=state.rules,
                              starting_seat=None, moves=state.events)
    assert report.valid, report.problems
    assert report.draws_checked > 0 and report.result["scores"] == list(state.result.scores)


def test_rule10_a_changed_deck_score_or_move_is_found():
    state = long_hand()
    salt = new_salt()
    commitment = GAME.commitment(state, salt)
    deck = GAME.public_deck(state)
    deck[50], deck[90] = deck[90], deck[50]
    assert not GAME.verify_hand(deck, salt, commitment, rules=state.rules, starting_seat=None,
                                moves=state.events).valid
    events = copy.deepcopy(state.events)
    events[-1]["scores"] = [0] * 4
    report = GAME.verify_hand(GAME.public_deck(state), salt, commitment, rules=state.rules, starting_seat=None,
                              moves=events)
    assert any("scores written" in problem for problem in report.problems)
    events = copy.deepcopy(state.events)
    reshuffle = next(event for event in events if event["type"] == "reshuffle")
    reshuffle["stock_count"] += 1
    report = GAME.verify_hand(GAME.public_deck(state), salt, commitment, rules=state.rules, starting_seat=None,
                              moves=events)
    assert any("reshuffle" in problem for problem in report.problems)
    events = copy.deepcopy(state.events)
    turn = next(event for event in events if event["type"] == "turn" and event.get("took"))
    turn["took"] = "SK" if turn["took"] != "SK" else "SQ"
    assert not GAME.verify_hand(GAME.public_deck(state), salt, commitment, rules=state.rules, starting_seat=None,
                                moves=events).valid


def test_rule10_a_turn_event_names_every_card_it_put_down_so_it_rebuilds_the_turn():
    event = {"type": "turn", "seat": 1, "draw": "discard", "took": "K7", "discard": "S2",
             "actions": [{"type": "meld", "meld": 4, "kind": "run", "cards": ["K7", "K8", "K9"]},
                         {"type": "lay_off", "meld": 4, "card": "K10"}]}
    assert turn_of_event(event) == {"draw": "discard", "discard": "S2", "actions": [
        {"type": "meld", "cards": ["K7", "K8", "K9"]}, {"type": "lay_off", "meld": 4, "card": "K10"}]}


def test_rule10_the_clock_draws_from_the_stock_and_discards_the_highest_card_never_melding():
    state = table(["K5 K6 K7 M9 R9 S9 SA S2 RQ M4", None], discards="S5", stock_top="MK")
    assert clock_turn(state, 0) == {"draw": "stock", "actions": [], "discard": "SA"}
    state = table(["K5 K6 K7 M9 R9 S9 SJ S2 RQ M4", None], discards="S5", stock_top="M3")
    assert clock_turn(state, 0)["discard"] == "RQ"         # 10 points each: the higher rank, Q over J
    after = GAME.clock_move(state, 0)
    assert after.melds == [] and after.turn == 1


def test_rule10_replay_steps_show_every_step_with_all_hands():
    state = long_hand()
    steps = GAME.replay_steps(state, state.events, None)
    assert len(steps) == 1 + sum(1 for event in state.events if event["type"] in ("draw", "turn"))
    assert steps[0]["event"]["type"] == "deal" and steps[-1]["result"] is not None
    assert all(len(step["hands"]) == 4 and step["hand"] is None for step in steps)
