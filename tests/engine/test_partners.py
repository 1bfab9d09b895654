"""Eşli (partners), RULES.md "Eşli": seats 0+2 against 1+3, one score per team, a finish or a shown
indicator charged to the opposing team once, and both partners sharing the team's result."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine.finish import ORDERED_COLOR, PAIRS, SETS
from games.engine.game_types import game_type_of
from games.engine.hand import show_indicator
from games.engine.match import is_over, live_scores, prizes, record_hand, start_match, winners
from games.engine.rules import PARTNER_TEAMS, RuleSet, RuleSetError, partner_of
from games.engine.scoring import hand_score_deltas, indicator_deltas, scoring_for

from .conftest import hand_with
from .test_match import ORDERED, PAIRS_READY, pile_runs_out, starter_finishes
from .test_scoring import finished, pile_out

TEAM_COUNTDOWN = RuleSet(partners=True)
TEAM_PENALTY = RuleSet(scoring="penalty", partners=True)


def mirrored(scores: list[int]) -> bool:
    """Partners always carry the same (their team's) score."""
    return all(scores[a] == scores[b] for a, b in PARTNER_TEAMS)


# -- the rule set ------------------------------------------------------------------------------


def test_partners_sit_opposite_each_other():
    assert TEAM_COUNTDOWN.teams == ((0, 2), (1, 3))
    assert [partner_of(seat) for seat in range(4)] == [2, 3, 0, 1]
    assert RuleSet().teams is None


def test_partners_need_a_table_of_four():
    with pytest.raises(RuleSetError) as error:
        RuleSet(players=2, partners=True)
    assert (error.value.code, error.value.field) == ("partners_need_four", "partners")


def test_partners_never_play_for_chips():
    with pytest.raises(RuleSetError) as error:
        RuleSet.preset("chips", partners=True)
    assert (error.value.code, error.value.field) == ("partners_no_chips", "partners")


def test_the_option_is_stored_and_read_back_and_old_rule_sets_play_alone():
    assert RuleSet.from_dict(TEAM_PENALTY.to_dict()) == TEAM_PENALTY
    stored_before_eşli = {key: value for key, value in RuleSet().to_dict().items() if key != "partners"}
    assert RuleSet.from_stored(stored_before_eşli).partners is False
    assert game_type_of({**TEAM_COUNTDOWN.to_dict(), "game": "okey"}).rules(TEAM_COUNTDOWN.to_dict()) == TEAM_COUNTDOWN


# -- a hand's scores -----------------------------------------------------------------------------


@pytest.mark.parametrize("finisher", range(4))
@pytest.mark.parametrize(("kind", "okey", "value"), [(SETS, False, 2), (PAIRS, False, 8), (SETS, True, 4),
                                                     (PAIRS, True, 16)])
def test_countdown_a_finish_costs_the_opposing_team_the_finish_value_once(finisher, kind, okey, value):
    deltas = hand_score_deltas(finished(kind, okey=okey, finisher=finisher), TEAM_COUNTDOWN)
    assert deltas[finisher] == deltas[partner_of(finisher)] == 0
    assert [deltas[seat] for seat in range(4) if seat % 2 != finisher % 2] == [-value, -value]


@pytest.mark.parametrize("finisher", range(4))
def test_penalty_the_opposing_team_gets_the_penalty_once(finisher):
    deltas = hand_score_deltas(finished(PAIRS, finisher=finisher), TEAM_PENALTY)
    assert deltas[finisher] == deltas[partner_of(finisher)] == 0
    assert sorted(deltas) == [0, 0, 40, 40] and mirrored(deltas)


@pytest.mark.parametrize("seat", range(4))
def test_a_shown_indicator_costs_the_opposing_team_once(seat):
    assert indicator_deltas(seat, TEAM_COUNTDOWN, 4) == [0 if other % 2 == seat % 2 else -1 for other in range(4)]
    assert indicator_deltas(seat, TEAM_PENALTY, 4) == [0 if other % 2 == seat % 2 else 10 for other in range(4)]


def test_a_pile_out_gives_each_team_ten_in_penalty_and_nothing_in_countdown():
    assert hand_score_deltas(pile_out(shown=(1,)), TEAM_PENALTY) == [20, 10, 20, 10]
    assert hand_score_deltas(pile_out(), TEAM_COUNTDOWN) == [0, 0, 0, 0]


def test_an_ordered_colour_sends_the_opposing_team_to_zero_and_spares_the_partner():
    rules = RuleSet(partners=True, color_finish=True)
    deltas = hand_score_deltas(finished(SETS, finisher=1, color=ORDERED_COLOR), rules, scores=[12, 9, 12, 9])
    assert deltas == [-12, 0, -12, 0]


@given(st.lists(st.tuples(st.integers(0, 3), st.sampled_from([SETS, PAIRS]), st.booleans(),
                          st.lists(st.integers(0, 3), max_size=3, unique=True)), max_size=12),
       st.sampled_from([TEAM_COUNTDOWN, TEAM_PENALTY]))
def test_whatever_happens_partners_keep_one_score(hands, rules):
    scores = [20, 20, 20, 20] if rules.scoring == "countdown" else [0, 0, 0, 0]
    for finisher, kind, okey, shown in hands:
        result = finished(kind, okey=okey, finisher=finisher, shown=tuple(shown))
        scores = [a + b for a, b in zip(scores, hand_score_deltas(result, rules, scores=scores), strict=True)]
        assert mirrored(scores)


# -- a match -------------------------------------------------------------------------------------


def test_a_countdown_match_ends_when_a_team_reaches_zero_and_both_partners_win():
    match = start_match(RuleSet(partners=True, start_points=8), seed=3)
    match = record_hand(match, starter_finishes(match, PAIRS_READY))  # the opposing team -8: at 0
    assert is_over(match) and match.ended == "zero" and mirrored(match.scores)
    finisher = match.history[-1]["finisher"]
    assert winners(match) == sorted([finisher, partner_of(finisher)])
    assert match.history[-1]["deltas"][partner_of(finisher)] == 0


def test_a_penalty_match_names_both_partners_who_share_the_winners_part_of_the_prize_pool():
    match = start_match(RuleSet(scoring="penalty", partners=True, prize_pool=101), seed=5)
    match = record_hand(match, starter_finishes(match))
    finisher = match.history[-1]["finisher"]
    team = sorted([finisher, partner_of(finisher)])
    assert winners(match) == team
    shares = prizes(match)
    # The winners together take at least 75 %, in equal parts; the losers (20 penalty points, under
    # the 1-hand limit of 40) share the rest.
    assert sum(shares) == 101 and sum(shares[seat] for seat in team) >= 76
    assert abs(shares[team[0]] - shares[team[1]]) <= 1


def test_a_pile_out_in_a_three_hand_penalty_match_is_ten_per_team():
    match = start_match(RuleSet(scoring="penalty", partners=True, hands_per_match=3), seed=1)
    match = record_hand(match, pile_runs_out(match))
    assert match.scores == [10, 10, 10, 10] and not is_over(match)


def test_the_live_scoreboard_charges_a_shown_indicator_to_the_other_team():
    match = start_match(TEAM_COUNTDOWN, seed=2)
    seat = match.next_starting_seat
    racks: list[str | None] = [None] * 4
    racks[seat] = "K1 S2 S3 S4 M5 M6 M7 Y8 Y9 Y10 K11 S11 M11 Y11 Y13"
    hand = show_indicator(hand_with(racks, "K1", rules=TEAM_COUNTDOWN, starting_seat=seat), seat)
    scores = live_scores(match, hand)
    assert scores[seat] == scores[partner_of(seat)] == 20
    assert [scores[other] for other in range(4) if other % 2 != seat % 2] == [19, 19]


def test_scoring_ranks_teams_not_seats():
    scoring = scoring_for(TEAM_COUNTDOWN)
    assert scoring.teams == PARTNER_TEAMS
    assert scoring.ranks([14, 6, 14, 6]) == [1, 2, 1, 2]
    assert scoring.winners([14, 6, 14, 6]) == [0, 2]
    assert scoring_for(TEAM_PENALTY).winners([40, 0, 40, 0]) == [1, 3]


def test_an_ordered_colour_ends_an_eşli_match_at_once():
    match = start_match(RuleSet(partners=True, color_finish=True), seed=4)
    match = record_hand(match, starter_finishes(match, ORDERED))
    finisher = match.history[-1]["finisher"]
    assert match.ended == "ordered_color"
    assert winners(match) == sorted([finisher, partner_of(finisher)])
