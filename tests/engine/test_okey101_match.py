"""A 101 match, RULES.md "101 Okey" rule 13 and "Eşli": a fixed number of hands, all played, the
lowest total wins, ties share first place; eşli ranks teams by the sum of both partners."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from games.engine.errors import EngineError
from games.engine.okey101.hand import CANCELLED, FINISHED, Result101, clock_move
from games.engine.okey101.match import (
    Match101,
    is_over,
    live_scores,
    record_hand,
    scoring_for,
    standing_scores,
    start_match,
    start_next_hand,
    winners,
)
from games.engine.okey101.rules import Rules101


def finished(match: Match101, scores: tuple[int, ...], reason: str = FINISHED):
    """The match's next hand, dealt and then ended with these scores."""
    hand = start_next_hand(match)
    return replace(hand, result=Result101(reason=reason, scores=scores, finisher=0 if reason == FINISHED else None))


def play(match: Match101, *hands: tuple[int, ...]) -> Match101:
    for scores in hands:
        match = record_hand(match, finished(match, scores))
    return match


def test_rule13_a_match_plays_exactly_its_number_of_hands():
    match = start_match(Rules101(hands=3), seed="m")
    match = play(match, (-101, 3, 202, 105), (5, -101, 202, 0))
    assert not is_over(match) and winners(match) == []
    match = play(match, (10, 20, -101, 30))
    assert is_over(match) and match.hands_played == 3
    with pytest.raises(EngineError) as info:
        start_next_hand(match)
    assert info.value.code == "match_over"


def test_rule13_the_lowest_total_wins():
    match = play(start_match(Rules101(hands=3), seed="m"), (-101, 3, 202, 105), (5, -101, 202, 0), (10, 20, -101, 30))
    assert match.scores == [-86, -78, 303, 135]
    assert winners(match) == [0]
    assert scoring_for(match.rules).ranks(match.scores) == [1, 2, 4, 3]


def test_rule13_ties_on_the_lowest_total_share_first_place():
    match = play(start_match(Rules101(hands=3), seed="t"), (-101, 0, 202, 105), (0, -101, 202, 3), (101, 101, -101, 4))
    assert match.scores == [0, 0, 303, 112]
    assert winners(match) == [0, 1]


def test_rule13_the_starting_seat_moves_one_seat_every_hand():
    match = start_match(Rules101(hands=5), seed="s")
    first = match.first_starting_seat
    seats = []
    for _ in range(5):
        hand = finished(match, (0, 0, 0, 0))
        seats.append(hand.starting_seat)
        match = record_hand(match, hand)
    assert seats == [(first + offset) % 4 for offset in range(5)]


def test_rule12_a_cancelled_hand_counts_for_nothing_and_is_dealt_again_by_the_same_seat():
    match = start_match(Rules101(hands=3), seed="c")
    after = record_hand(match, finished(match, (0, 0, 0, 0), CANCELLED))
    assert (after.hands_played, after.scores, after.next_starting_seat) == (0, [0] * 4, match.next_starting_seat)
    assert start_next_hand(after).deck != start_next_hand(match).deck  # a new shuffle


def test_a_hand_still_running_or_of_another_match_is_refused():
    match = start_match(Rules101(), seed="r")
    with pytest.raises(EngineError) as info:
        record_hand(match, start_next_hand(match))
    assert info.value.code == "hand_not_over"
    other = start_match(Rules101(hands=3), seed="r")
    with pytest.raises(EngineError) as info:
        record_hand(match, finished(other, (0, 0, 0, 0)))
    assert info.value.code == "wrong_hand"


def test_a_clock_only_hand_runs_out_of_tiles_and_everyone_writes_the_unopened_penalty():
    match = start_match(Rules101(hands=3), seed="clock")
    hand = start_next_hand(match)
    while hand.result is None:
        hand = clock_move(hand, hand.turn)
    assert hand.result.reason == "pile_out" and hand.result.scores == (202, 202, 202, 202)
    match = record_hand(match, hand)
    assert match.scores == [202] * 4


def test_live_scores_count_in_hand_penalties_at_once():
    match = start_match(Rules101(), seed="l")
    hand = start_next_hand(match)
    hand.penalties.append({"seat": 2, "reason": "okey_discard", "tile": "K6", "points": 101, "move": 1})
    assert live_scores(match, hand) == [0, 0, 101, 0]


def test_the_match_round_trips_and_its_public_form_has_no_seed():
    match = play(start_match(Rules101(hands=3, partners=True), seed="j"), (-101, 3, 0, 105))
    assert Match101.from_dict(json.loads(json.dumps(match.to_dict()))) == match
    public = match.public()
    assert "seed" not in public and public["standing"] == {"higher_is_better": False, "teams": [[0, 2], [1, 3]]}


# -- eşli ------------------------------------------------------------------------------------------


def test_esli_a_teams_score_is_the_sum_of_its_two_players_and_both_partners_share_the_result():
    rules = Rules101(hands=3, partners=True)
    match = play(start_match(rules, seed="e"), (-101, 3, 0, 105), (202, -101, 202, 0), (0, 50, -101, 60))
    assert match.scores == [101, -48, 101, 165]
    assert standing_scores(match) == [202, 117, 202, 117]
    assert winners(match) == [1, 3]
    assert scoring_for(rules).ranks(standing_scores(match)) == [2, 1, 2, 1]
