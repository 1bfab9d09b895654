"""A hand replays from its deck and its move log alone, including the moves the engine makes itself
(a pile out when the next seat cannot finish, the end of the match after a show)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.engine.autoplay import auto_move
from games.engine.deck import deal_from_deck, shuffled_deck
from games.engine.errors import EngineError
from games.engine.hand import MATCH_OVER, show_indicator
from games.engine.match import start_match, start_next_hand
from games.engine.replay import replay
from games.engine.rules import RuleSet


def logged(events: list[dict]) -> list[dict]:
    """The move log as the site stores it (``Move`` rows): no move number, a seat on every row."""
    return [{"seat": event.get("seat"), **{k: v for k, v in event.items() if k not in ("move", "seat")}}
            for event in events]


def test_pile_outs_the_engine_made_and_pile_outs_a_seat_asked_for_both_replay():
    kinds = set()
    for seed in range(12):
        state = deal_from_deck(shuffled_deck(seed), RuleSet(), starting_seat=seed % 4)
        while not state.is_over:
            state, played = auto_move(state, state.turn)
        kinds.add("declined" if [event["type"] for event in played] == ["pile_out"] else "engine")
        states = replay(state.deck, state.rules, None, logged(state.events))
        assert len(states) == len(state.events)
        assert states[-1].to_dict() == state.to_dict()
        assert [step.events[index]["type"] for index, step in enumerate(states)] == [e["type"] for e in state.events]
    assert kinds == {"declined", "engine"}


def test_a_hand_ended_by_a_show_replays_from_its_deal_entry():
    match = start_match(RuleSet(), seed=5)
    match = replace(match, scores=[1, 1, 1, 1])
    hand = next(h for h in (start_next_hand(match, seed=s) for s in range(500)) if h.twin_dealt_to == h.starting_seat)
    over = show_indicator(hand, hand.starting_seat)
    assert over.result.reason == MATCH_OVER and over.events[0]["ending_shows"] == [0, 1, 2, 3]
    states = replay(over.deck, over.rules, over.starting_seat, logged(over.events))
    assert states[-1].to_dict() == over.to_dict()
    # A log that claims the engine ended the hand where it did not is refused.
    forged = logged(over.events)
    forged[0] = {key: value for key, value in forged[0].items() if key != "ending_shows"}
    with pytest.raises(EngineError) as error:
        replay(over.deck, over.rules, over.starting_seat, forged)
    assert error.value.code == "bad_event"
