"""Matches: scores carried over hands, the starting seat rotating, and how each preset ends."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from games.engine import match as match_module
from games.engine.errors import EngineError
from games.engine.hand import MATCH_OVER, HandState, discard, draw, finish, show_indicator
from games.engine.match import (
    MatchState,
    is_over,
    live_scores,
    prizes,
    record_hand,
    start_match,
    start_next_hand,
    winners,
)
from games.engine.rules import RuleSet

from .conftest import hand_with

READY = "S1 S2 S3 S4 M5 M6 M7 Y8 Y9 Y10 K11 S11 M11 Y11 Y13"
PAIRS_READY = "K3 K3 S4 S4 M5 M5 Y6 Y6 K7 K7 S8 S8 M9 M9 Y13"
ORDERED = "M1 M2 M3 M4 M5 M6 M7 M8 M9 M10 M11 M12 M13 M1 Y13"


def starter_finishes(match: MatchState, rack: str = READY) -> HandState:
    """The starting seat of the match's next hand finishes at once by putting Y13 on the centre."""
    seat = match.next_starting_seat
    racks: list[str | None] = [None] * match.players
    racks[seat] = rack
    hand = hand_with(racks, "K1", rules=match.rules, starting_seat=seat)
    return finish(hand, seat, "Y13")


def pile_runs_out(match: MatchState) -> HandState:
    seat = match.next_starting_seat
    racks: list[str | None] = [None] * match.players
    racks[seat] = READY
    hand = hand_with(racks, "K1", rules=match.rules, starting_seat=seat, pile_size=0)
    hand = discard(hand, seat, "Y13")
    # Ends at once unless the next seat could finish with Y13; then it declines it.
    return hand if hand.is_over else draw(hand, hand.turn, "pile")


# -- starting ------------------------------------------------------------------------------------


def test_a_seeded_match_is_replayable_and_its_first_starter_is_random():
    firsts = {start_match(RuleSet(), seed=seed).first_starting_seat for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert start_match(RuleSet(), seed="x") == start_match(RuleSet(), seed="x")


def test_an_unseeded_match_draws_its_first_starter_from_the_system_csprng(monkeypatch):
    calls = []

    class SpyRandom(random.Random):
        def randrange(self, *args, **kwargs):  # type: ignore[override]
            calls.append(args)
            return 3

    monkeypatch.setattr(match_module.secrets, "SystemRandom", SpyRandom)
    match = start_match(RuleSet())
    assert calls == [(4,)] and match.first_starting_seat == 3 and match.seed is None


@pytest.mark.parametrize(("rules", "start"), [
    (RuleSet(), 20), (RuleSet(start_points=11), 11), (RuleSet(scoring="penalty"), 0), (RuleSet(scoring="chips"), 0),
])
def test_scores_start_where_the_preset_says(rules, start):
    assert start_match(rules, seed=1).scores == [start] * 4


def test_each_hand_is_dealt_by_the_next_starting_seat_which_moves_one_seat_in_play_direction():
    match = start_match(RuleSet(scoring="chips"), seed=3)
    seats = []
    for _ in range(6):
        hand = start_next_hand(match)
        assert hand.starting_seat == match.next_starting_seat == hand.turn
        assert len(hand.racks[hand.starting_seat]) == 15
        seats.append(hand.starting_seat)
        match = record_hand(match, starter_finishes(match))
    first = seats[0]
    assert seats == [(first + k) % 4 for k in range(6)]


def test_a_seeded_match_deals_the_same_hands_again_and_different_hands_each_time():
    one, two = start_match(RuleSet(), seed=9), start_match(RuleSet(), seed=9)
    assert start_next_hand(one) == start_next_hand(two)
    later = record_hand(one, starter_finishes(one))
    assert start_next_hand(later).deck != start_next_hand(one).deck


# -- countdown -----------------------------------------------------------------------------------


def test_countdown_ends_when_someone_reaches_zero_and_the_highest_scores_win_together():
    match = start_match(RuleSet(start_points=4), seed=0)
    first = match.first_starting_seat
    match = record_hand(match, starter_finishes(match))
    assert match.scores[first] == 4 and sorted(match.scores) == [2, 2, 2, 4]
    assert not is_over(match) and winners(match) == []
    match = record_hand(match, starter_finishes(match))  # the next seat finishes too
    assert is_over(match) and match.ended == "zero"
    assert sorted(winners(match)) == sorted([first, (first + 1) % 4])
    assert min(match.scores) == 0


def test_countdown_a_pile_out_changes_nothing_and_the_match_goes_on():
    match = start_match(RuleSet(), seed=0)
    after = record_hand(match, pile_runs_out(match))
    assert after.scores == match.scores and after.hands_played == 1 and not is_over(after)
    assert after.history[-1]["reason"] == "pile_out"


def test_countdown_an_ordered_colour_ends_the_match_with_everyone_else_at_zero():
    match = start_match(RuleSet(color_finish=True), seed=0)
    hand = starter_finishes(match, ORDERED)
    assert hand.result.finish.color == "ordered"
    match = record_hand(match, hand)
    seat = hand.result.finisher
    assert match.ended == "ordered_color" and winners(match) == [seat]
    assert match.scores == [20 if other == seat else 0 for other in range(4)]


def test_the_indicator_counts_at_once_on_the_live_scoreboard():
    match = start_match(RuleSet(), seed=0)
    seat = match.next_starting_seat
    racks: list[str | None] = [None] * 4
    racks[seat] = READY.replace("Y11", "K1")
    hand = show_indicator(hand_with(racks, "K1", starting_seat=seat), seat)
    assert live_scores(match, hand) == [20 if other == seat else 19 for other in range(4)]
    over = draw(discard(hand, seat, "Y13"), (seat + 1) % 4, "pile")
    assert live_scores(match, over) == live_scores(match, hand)


# -- penalty -------------------------------------------------------------------------------------


def test_a_one_hand_penalty_match_ends_after_the_hand_and_the_lowest_penalty_wins():
    match = start_match(RuleSet(scoring="penalty", prize_pool=1000), seed=0)
    hand = starter_finishes(match)
    match = record_hand(match, hand)
    seat = hand.result.finisher
    assert match.ended == "hands" and winners(match) == [seat]
    assert match.scores == [0 if other == seat else 20 for other in range(4)]
    # Everyone else is at 20, below the 40 limit: 250 split evenly between three (84/83/83).
    shares = prizes(match)
    assert shares[seat] == 750 and sum(shares) == 1000 and sorted(shares) == [83, 83, 84, 750]


def test_a_three_hand_penalty_match_counts_every_hand():
    match = start_match(RuleSet(scoring="penalty", hands_per_match=3, prize_pool=400), seed=0)
    match = record_hand(match, pile_runs_out(match))        # everyone +10
    assert not is_over(match)
    match = record_hand(match, starter_finishes(match, PAIRS_READY))  # others +40
    assert not is_over(match)
    match = record_hand(match, starter_finishes(match))     # others +20
    assert is_over(match) and match.hands_played == 3
    assert sorted(match.scores) == [30, 50, 70, 70]  # 10+0+20, 10+40+0, 10+40+20 twice
    assert sum(prizes(match)) == 400
    with pytest.raises(EngineError) as info:
        start_next_hand(match)
    assert info.value.code == "match_over"


def test_no_prizes_without_a_pool_or_before_the_end():
    match = start_match(RuleSet(scoring="penalty", hands_per_match=3, prize_pool=100), seed=0)
    assert prizes(match) is None
    assert prizes(record_hand(start_match(RuleSet(scoring="penalty"), seed=0),
                              starter_finishes(start_match(RuleSet(scoring="penalty"), seed=0)))) is None


# -- chips ---------------------------------------------------------------------------------------


def test_chips_settle_every_hand_and_the_match_ends_after_its_hands():
    match = start_match(RuleSet(scoring="chips", stake=5, chip_hands=20), seed=0)
    for _ in range(12):
        hand = starter_finishes(match)
        match = record_hand(match, hand)
        assert sum(match.scores) == 0
    assert not is_over(match) and winners(match) == [] and prizes(match) is None
    assert match.scores == [0, 0, 0, 0]  # everyone finished three times and paid three times
    for _ in range(8):
        match = record_hand(match, starter_finishes(match))
    # Issue 18: a chip match has an end (a room option), so no match runs for ever.
    assert is_over(match) and match.ended == "hands" and match.hands_played == 20 and winners(match) == []


@pytest.mark.parametrize("hands", [1, 5, 10])
def test_a_chip_match_lasts_the_hands_its_room_chose(hands):
    match = start_match(RuleSet(scoring="chips", stake=5, chip_hands=hands), seed=0)
    while not is_over(match):
        match = record_hand(match, starter_finishes(match))
    assert match.hands_played == hands


def test_a_chip_match_can_end_between_hands_and_not_twice():
    from games.engine.match import end_match

    match = start_match(RuleSet(scoring="chips", stake=5), seed=0)
    ended = end_match(match, reason="chips")
    assert is_over(ended) and ended.ended == "chips" and winners(ended) == []
    with pytest.raises(EngineError) as info:
        end_match(ended, reason="chips")
    assert info.value.code == "match_over"


def test_the_most_a_chip_hand_costs_is_the_costliest_finish():
    """What a chip table holds from each player is exactly the costliest finish's value."""
    from games.engine.finish import PAIRS, SETS, Finish, finish_value
    from games.engine.scoring import most_a_hand_costs

    rules = RuleSet.preset("chips", stake=25)
    values = [finish_value(Finish(kind=kind, discard=None, okey_finish=okey, groups=()), rules)
              for kind in (SETS, PAIRS) for okey in (False, True)]
    assert most_a_hand_costs(rules) == max(values) == 100
    assert most_a_hand_costs(RuleSet()) == 0 and most_a_hand_costs(RuleSet.preset("penalty")) == 0


def test_a_chip_match_length_outside_the_choices_is_refused():
    from games.engine.rules import RuleSetError

    with pytest.raises(RuleSetError) as info:
        RuleSet(scoring="chips", chip_hands=7)
    assert info.value.field == "chip_hands"


# -- refusals and storage --------------------------------------------------------------------------


def test_a_hand_still_running_cannot_be_recorded():
    match = start_match(RuleSet(), seed=0)
    with pytest.raises(EngineError) as info:
        record_hand(match, start_next_hand(match))
    assert info.value.code == "hand_not_over"


def test_a_hand_from_another_deal_cannot_be_recorded():
    match = start_match(RuleSet(), seed=0)
    other = replace(match, next_starting_seat=(match.next_starting_seat + 1) % 4)
    with pytest.raises(EngineError) as info:
        record_hand(match, starter_finishes(other))
    assert info.value.code == "wrong_hand"


def test_nothing_is_recorded_after_the_match_is_over():
    match = start_match(RuleSet(scoring="penalty"), seed=0)
    match = record_hand(match, starter_finishes(match))
    with pytest.raises(EngineError) as info:
        record_hand(match, starter_finishes(match))
    assert info.value.code == "match_over"


def test_the_match_round_trips_through_json_and_its_public_part_has_no_seed():
    match = start_match(RuleSet(scoring="penalty", hands_per_match=3), seed="secret-seed")
    match = record_hand(match, starter_finishes(match))
    data = json.loads(json.dumps(match.to_dict()))
    assert MatchState.from_dict(data) == match
    public = json.dumps(match.public())
    assert "secret-seed" not in public and "seed" not in match.public()
    with pytest.raises(ValueError):
        MatchState.from_dict({**data, "version": 0})


# -- reaching zero (RULES.md, source 000) --------------------------------------------------------


def hand_where_the_starter_holds_the_twin(match: MatchState) -> HandState:
    """The next hand of ``match``, dealt from the first seed that gives its starter the indicator's twin."""
    for seed in range(500):
        hand = start_next_hand(match, seed=seed)
        if hand.twin_dealt_to == hand.starting_seat:
            return hand
    raise AssertionError("no seed deals the starter the twin")


def test_each_hand_knows_which_shows_would_bring_a_countdown_score_to_zero():
    match = start_match(RuleSet(), seed=3)
    assert start_next_hand(match).ending_shows == []
    one_left = [20, 20, 1, 20]
    assert start_next_hand(replace(match, scores=one_left)).ending_shows == [0, 1, 3]
    assert start_next_hand(replace(match, scores=[1, 1, 20, 20])).ending_shows == [0, 1, 2, 3]
    penalty = start_match(RuleSet.preset("penalty"), seed=3)
    assert start_next_hand(replace(penalty, scores=[0, 0, 1, 0])).ending_shows == []


def test_a_shown_indicator_that_brings_a_score_to_zero_ends_the_match_at_once():
    match = start_match(RuleSet(), seed=5)
    seat = match.next_starting_seat
    scores = [20] * 4
    scores[(seat + 2) % 4] = 1
    match = replace(match, scores=scores)
    hand = hand_where_the_starter_holds_the_twin(match)
    over = show_indicator(hand, seat)
    # The hand is not played on: nobody else can finish it and be named the winner.
    assert over.is_over and over.result.reason == MATCH_OVER and over.result.finisher is None
    assert [event["type"] for event in over.events[-2:]] == ["show_indicator", "match_over"]
    after = record_hand(match, over)
    assert is_over(after) and after.ended == "zero"
    assert after.scores == [0 if s == 1 else 19 for s in scores[:seat]] + [20] + [
        0 if s == 1 else 19 for s in scores[seat + 1:]]
    assert winners(after) == [seat]
    assert after.history[-1]["reason"] == MATCH_OVER


def test_a_show_that_leaves_every_score_above_zero_plays_on():
    match = start_match(RuleSet(), seed=5)
    match = replace(match, scores=[2, 2, 2, 2])
    hand = hand_where_the_starter_holds_the_twin(match)
    after = show_indicator(hand, hand.starting_seat)
    assert not after.is_over
