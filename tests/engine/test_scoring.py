"""Every row of the RULES.md scoring table, per preset, and the penalty preset's prize pool."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine.finish import ORDERED_COLOR, PAIRS, SETS, UNORDERED_COLOR, Finish
from games.engine.hand import FINISHED, PILE_OUT, HandResult, declare_pairs, discard, finish, show_indicator
from games.engine.rules import RuleSet
from games.engine.scoring import (
    ORDERED_COLOR_VALUE,
    ends_match_at_once,
    hand_score_deltas,
    indicator_deltas,
    split_prize_pool,
)
from games.engine.tiles import parse_tile

from .conftest import hand_with

COUNTDOWN = RuleSet()
PENALTY = RuleSet(scoring="penalty")
CHIPS = RuleSet(scoring="chips", stake=10)


def finished(kind: str = SETS, *, okey: bool = False, finisher: int = 0, shown: tuple[int, ...] = (),
             double: bool = False, color: str | None = None, players: int = 4) -> HandResult:
    discard = parse_tile("K2") if okey else parse_tile("Y13")
    return HandResult(
        reason=FINISHED, players=players, finisher=finisher, double_okey=double, shown_indicators=shown,
        finish=Finish(kind=kind, discard=discard, okey_finish=okey, groups=(), color=color),
    )


def pile_out(shown: tuple[int, ...] = (), players: int = 4) -> HandResult:
    return HandResult(reason=PILE_OUT, players=players, shown_indicators=shown)


# -- countdown (source 000) -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("result", "loss"),
    [
        (finished(SETS), 2),                             # normal finish: others -2
        (finished(PAIRS), 8),                            # pairs: others -8
        (finished(SETS, okey=True), 4),                  # okey finish: x2
        (finished(PAIRS, okey=True), 16),                # pairs + okey: x2 (-16)
        (finished(SETS, okey=True, double=True), 8),     # çift okey (option): x4
        (finished(PAIRS, okey=True, double=True), 32),
    ],
    ids=["normal", "pairs", "okey", "pairs+okey", "double-okey", "pairs+double-okey"],
)
def test_countdown_the_finisher_keeps_its_points_and_the_others_lose(result, loss):
    assert hand_score_deltas(result, COUNTDOWN) == [0, -loss, -loss, -loss]


def test_countdown_showing_the_indicator_costs_the_others_one_point_each():
    assert indicator_deltas(2, COUNTDOWN, 4) == [-1, -1, 0, -1]
    assert hand_score_deltas(finished(shown=(1,)), COUNTDOWN) == [-1, -2, -3, -3]


def test_countdown_a_pile_out_changes_nothing_but_a_shown_indicator_still_counts():
    assert hand_score_deltas(pile_out(), COUNTDOWN) == [0, 0, 0, 0]
    assert hand_score_deltas(pile_out(shown=(3,)), COUNTDOWN) == [-1, -1, -1, 0]


def test_countdown_colour_finishes_count_only_with_the_option():
    colour = RuleSet(color_finish=True)
    assert hand_score_deltas(finished(color=UNORDERED_COLOR), colour) == [0, -8, -8, -8]
    assert hand_score_deltas(finished(color=UNORDERED_COLOR, okey=True), colour) == [0, -16, -16, -16]
    assert hand_score_deltas(finished(color=UNORDERED_COLOR), COUNTDOWN) == [0, -2, -2, -2]
    assert hand_score_deltas(finished(color=ORDERED_COLOR), COUNTDOWN) == [0, -2, -2, -2]
    assert not ends_match_at_once(finished(color=ORDERED_COLOR), COUNTDOWN)


def test_countdown_an_ordered_colour_sends_everyone_else_to_zero_and_ends_the_match():
    colour = RuleSet(color_finish=True)
    result = finished(color=ORDERED_COLOR, finisher=1, shown=(0,))
    # The finisher still pays for the indicator seat 0 showed; the others end at exactly 0.
    assert hand_score_deltas(result, colour, scores=[20, 5, 13, 1]) == [-20, -1, -13, -1]
    assert hand_score_deltas(result, colour) == [-ORDERED_COLOR_VALUE, -1, -ORDERED_COLOR_VALUE,
                                                 -ORDERED_COLOR_VALUE]
    assert ends_match_at_once(result, colour)


# -- penalty (source 001) ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("result", "penalty"),
    [
        (finished(SETS), 20),
        (finished(PAIRS), 40),
        (finished(SETS, okey=True), 40),
        (finished(PAIRS, okey=True), 80),                # interpretation: both doublings
        (finished(SETS, okey=True, double=True), 40),    # double okey is not a penalty row
        (finished(SETS, color=UNORDERED_COLOR), 20),     # nor are colour finishes
    ],
    ids=["normal", "pairs", "okey", "pairs+okey", "double-okey", "colour"],
)
def test_penalty_the_others_get_penalty_points(result, penalty):
    assert hand_score_deltas(result, PENALTY) == [0, penalty, penalty, penalty]


def test_penalty_showing_the_indicator_gives_the_others_ten():
    assert indicator_deltas(0, PENALTY, 4) == [0, 10, 10, 10]
    # Seat 0 showed (+10 to 1, 2, 3), seat 1 finished (+20 to 0, 2, 3).
    assert hand_score_deltas(finished(finisher=1, shown=(0,)), PENALTY) == [20, 10, 30, 30]


def test_penalty_a_pile_out_gives_everyone_ten():
    assert hand_score_deltas(pile_out(), PENALTY) == [10, 10, 10, 10]
    assert hand_score_deltas(pile_out(players=2), PENALTY.with_options(players=2)) == [10, 10]


# -- chips (source 002) --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("result", "each_pays"),
    [
        (finished(SETS, finisher=2), 10),
        (finished(PAIRS, finisher=2), 20),
        (finished(SETS, okey=True, finisher=2), 20),
        (finished(PAIRS, okey=True, finisher=2), 40),
        (finished(SETS, okey=True, double=True, finisher=2), 20),
    ],
    ids=["normal", "pairs", "okey", "pairs+okey", "double-okey"],
)
def test_chips_each_other_player_pays_the_finisher(result, each_pays):
    deltas = hand_score_deltas(result, CHIPS)
    assert deltas == [-each_pays, -each_pays, 3 * each_pays, -each_pays]
    assert sum(deltas) == 0, "chips move between players, none are created"


def test_chips_follow_the_stake_and_the_table_size():
    two = RuleSet(scoring="chips", stake=25, players=2)
    assert hand_score_deltas(finished(finisher=1, players=2), two) == [-25, 25]


def test_chips_do_not_score_the_indicator_or_a_pile_out():
    assert indicator_deltas(0, CHIPS, 4) == [0, 0, 0, 0]
    assert hand_score_deltas(pile_out(shown=(1,)), CHIPS) == [0, 0, 0, 0]
    assert hand_score_deltas(finished(finisher=0, shown=(1,)), CHIPS) == [30, -10, -10, -10]


# -- from a real hand ----------------------------------------------------------------------------


def test_a_finished_hand_state_scores_like_its_result():
    rack = "K3 K3 S4 S4 M5 M5 Y6 Y6 K7 K7 S8 S8 M9 M9 K2"
    over = finish(declare_pairs(hand_with([rack, None, None, None], "K1"), 0), 0, "K2")
    assert over.result.finish.kind == PAIRS and over.result.finish.okey_finish
    assert hand_score_deltas(over) == [0, -16, -16, -16]
    assert hand_score_deltas(over, PENALTY) == [0, 80, 80, 80]


def test_a_running_hand_scores_its_shown_indicators_at_once():
    rack = "K1 S2 S3 S4 M5 M6 M7 Y8 Y9 Y10 K11 S11 M11 Y11 Y13"
    state = show_indicator(hand_with([rack, None, None, None], "K1"), 0)
    assert hand_score_deltas(state) == [0, -1, -1, -1]
    assert hand_score_deltas(discard(state, 0, "Y13"), PENALTY) == [0, 10, 10, 10]


def test_a_result_needs_its_rules():
    with pytest.raises(ValueError):
        hand_score_deltas(pile_out())


# -- the prize pool ------------------------------------------------------------------------------


def test_the_winner_gets_75_and_the_rest_goes_to_those_below_40_after_one_hand():
    assert split_prize_pool(1000, [0, 20, 40, 60], 1) == [750, 250, 0, 0]


def test_runners_up_share_in_proportion_to_how_far_below_the_limit_they_are():
    # 30 and 10 below 40: 250 splits 3:1 (187.5 / 62.5, the odd chip to the earlier seat).
    assert split_prize_pool(1000, [0, 10, 30, 50], 1) == [750, 188, 62, 0]


def test_after_three_hands_the_limit_is_80():
    assert split_prize_pool(400, [0, 79, 80, 100], 3) == [300, 100, 0, 0]
    assert split_prize_pool(400, [0, 79, 80, 100], 1) == [400, 0, 0, 0]


def test_if_nobody_qualifies_the_winner_takes_the_whole_pool():
    assert split_prize_pool(1000, [0, 40, 60, 80], 1) == [1000, 0, 0, 0]


def test_tied_winners_share_the_winner_part():
    assert split_prize_pool(1000, [20, 20, 30, 100], 1) == [375, 375, 250, 0]
    assert split_prize_pool(101, [0, 0, 50, 50], 1) == [51, 50, 0, 0]


def test_an_empty_pool_pays_nothing():
    assert split_prize_pool(0, [0, 10, 20, 30], 1) == [0, 0, 0, 0]
    with pytest.raises(ValueError):
        split_prize_pool(-1, [0, 10], 1)


@given(
    pool=st.integers(min_value=0, max_value=10**7),
    penalties=st.lists(st.integers(min_value=0, max_value=200), min_size=2, max_size=4),
    hands=st.sampled_from([1, 3]),
)
def test_the_split_always_sums_to_the_pool_and_the_winners_get_at_least_three_quarters(pool, penalties, hands):
    shares = split_prize_pool(pool, penalties, hands)
    assert sum(shares) == pool and min(shares) >= 0
    best = min(penalties)
    winners_total = sum(share for share, penalty in zip(shares, penalties, strict=True) if penalty == best)
    assert winners_total * 100 >= pool * 75
    limit = 40 if hands == 1 else 80
    for share, penalty in zip(shares, penalties, strict=True):
        if penalty != best and penalty >= limit:
            assert share == 0


# -- Scoring: which way scores go, who won (issue 20, step 2) -------------------------------------


def test_countdown_ranks_the_highest_first_and_penalty_the_lowest():
    from games.engine.scoring import scoring_for

    countdown, penalty = scoring_for("countdown"), scoring_for("penalty")
    assert countdown.higher_is_better and not penalty.higher_is_better
    assert countdown.ranks([20, 4, 20, -2]) == [1, 2, 1, 3]
    assert countdown.winners([20, 4, 20, -2]) == [0, 2]
    assert penalty.ranks([40, 0, 20, 0]) == [3, 1, 2, 1]
    assert penalty.ranking([40, 0, 20, 0]) == [1, 3, 2, 0]
    assert countdown.better(5, 3) and penalty.better(3, 5) and not penalty.better(5, 5)


def test_chip_tables_rank_nobody():
    from games.engine.scoring import scoring_for

    chips = scoring_for(RuleSet.preset("chips"))
    assert chips.ranks([30, -10, -10, -10]) is None and chips.winners([30, -10, -10, -10]) == []


def test_partners_share_their_teams_rank():
    from games.engine.scoring import Scoring

    eşli = Scoring(preset="countdown", higher_is_better=True, teams=((0, 2), (1, 3)))
    # One score per team, kept on both partners.
    assert eşli.ranks([12, 6, 12, 6]) == [1, 2, 1, 2]
    assert eşli.winners([12, 6, 12, 6]) == [0, 2]
    assert eşli.ranking([12, 6, 12, 6]) == [0, 2, 1, 3]


def test_the_ranking_breaks_ties_as_asked():
    from games.engine.scoring import scoring_for

    order = scoring_for("countdown").ranking([8, 8, 3, 8], tie_break=lambda seat: -seat)
    assert order == [3, 1, 0, 2]


def test_an_unknown_preset_has_no_scoring():
    from games.engine.scoring import scoring_for

    with pytest.raises(ValueError):
        scoring_for("yuzbir")
