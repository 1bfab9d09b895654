"""Scoring of the three presets (RULES.md, "Scoring presets"): how a hand moves the scores.

``finish_value`` (defined in ``finish``, whose search picks the best finish by it) is what a finish
is worth under a rule set; hand and match scoring use it to move points and chips.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

# finish_value lives with the finish search (which ranks finishes by it); scoring sits above the
# hand and re-exports it, so the layers run one way: tiles -> melds -> finish -> hand -> scoring.
from .finish import ORDERED_COLOR, ORDERED_COLOR_VALUE, finish_value
from .hand import FINISHED, MATCH_OVER, PILE_OUT, HandResult, HandState
from .rules import CHIPS, COUNTDOWN, PENALTY, RuleSet

# -- which way scores go, who won (issue 20: nothing outside the engine decides it) --------------


@dataclass(frozen=True)
class Scoring:
    """A preset's answer to "who is ahead": the one place that knows countdown's highest score wins,
    penalty's lowest, and that chip tables have no winner (each hand settles at once).

    ``teams``: seats that share one result (eşli: 0+2 against 1+3); None when everyone plays alone.
    Team members share their team's rank, and so its win or loss.
    """

    preset: str
    higher_is_better: bool
    # Chip matches rank nobody: no winner, no rating.
    ranked: bool = True
    teams: tuple[tuple[int, ...], ...] | None = None

    def team_of(self, seat: int) -> int:
        """The index of the team ``seat`` plays in (its own seat when everyone plays alone)."""
        return next((index for index, team in enumerate(self.teams or ()) if seat in team), seat)

    def better(self, a: int, b: int) -> bool:
        """Is score ``a`` strictly better than ``b``?"""
        return a > b if self.higher_is_better else a < b

    def sort_key(self, score: int) -> int:
        """Sorting by this puts the best score first."""
        return -score if self.higher_is_better else score

    def _unit_scores(self, scores: Sequence[int]) -> list[int]:
        """Each seat's score as ranked: its team's (the team's score is the first member's: team
        presets keep one score per team on every member) or its own."""
        if not self.teams:
            return list(scores)
        unit = list(scores)
        for team in self.teams:
            for seat in team:
                unit[seat] = scores[team[0]]
        return unit

    def ranks(self, scores: Sequence[int]) -> list[int] | None:
        """Rank per seat, 1 best; equal scores (and partners) share a rank. None when unranked."""
        if not self.ranked:
            return None
        unit = self._unit_scores(scores)
        ordered = sorted(set(unit), key=self.sort_key)
        return [ordered.index(score) + 1 for score in unit]

    def winners(self, scores: Sequence[int]) -> list[int]:
        """The seats with the best score (several on a tie, both partners of a team); none unranked."""
        ranks = self.ranks(scores)
        return [] if ranks is None else [seat for seat, rank in enumerate(ranks) if rank == 1]

    def ranking(self, scores: Sequence[int], tie_break: Callable[[int], Any] = lambda seat: seat) -> list[int]:
        """Seats from best to worst; equal scores ordered by ``tie_break`` (default: seat number)."""
        unit = self._unit_scores(scores)
        return sorted(range(len(unit)), key=lambda seat: (self.sort_key(unit[seat]), tie_break(seat)))


def scoring_for(rules: RuleSet | str) -> Scoring:
    """The ``Scoring`` of a rule set (or of a preset's name)."""
    preset = rules if isinstance(rules, str) else rules.scoring
    teams = None if isinstance(rules, str) else rules.teams
    if preset == COUNTDOWN:
        return Scoring(preset=preset, higher_is_better=True, teams=teams)
    if preset == PENALTY:
        return Scoring(preset=preset, higher_is_better=False, teams=teams)
    if preset == CHIPS:
        return Scoring(preset=preset, higher_is_better=True, ranked=False)
    raise ValueError(f"unknown scoring preset {preset!r}")


# -- hand scoring -----------------------------------------------------------------------------------

#: Penalty preset: the prize-pool cut-off per match length (source 001: 40 for 1 hand, 80 for 3).
PRIZE_LIMITS = {1: 40, 3: 80}
#: The share of the prize pool that may go to players other than the winner(s), in percent.
RUNNERS_UP_PERCENT = 25


def most_a_hand_costs(rules: RuleSet) -> int:
    """The most one player can pay in one hand, in chips: what a chip table holds from each player
    as the hand is dealt (0 for the point presets). Under chips the costliest finish is a pairs
    finish with the okey, ×2 ×2 the stake (RULES.md); no other chip rule moves chips in a hand."""
    if rules.scoring != CHIPS:
        return 0
    return rules.stake * 4


def opponents(seat: int, rules: RuleSet, players: int) -> list[int]:
    """The seats a finish or a shown indicator of ``seat`` costs: everyone else, or in eşli the
    opposing team (both its members carry the team's one score, so each is charged once)."""
    if rules.partners:
        return [other for other in range(players) if other % 2 != seat % 2]
    return [other for other in range(players) if other != seat]


def indicator_deltas(seat: int, rules: RuleSet, players: int) -> list[int]:
    """What showing the indicator moves, per seat. Applied at once (live scores), recorded with the hand."""
    charged = opponents(seat, rules, players)
    if rules.scoring == COUNTDOWN:
        return [-1 if other in charged else 0 for other in range(players)]
    if rules.scoring == PENALTY:
        return [10 if other in charged else 0 for other in range(players)]
    return [0] * players  # chips: the indicator is not scored (source 002)


def hand_score_deltas(
    state_or_result: HandState | HandResult,
    rules: RuleSet | None = None,
    *,
    scores: Sequence[int] | None = None,
) -> list[int]:
    """Per seat, how a hand moves the scores: points (countdown), penalty points or chips.

    Takes a finished hand, its ``HandResult``, or a hand still running (then only the indicators
    shown so far count, which is what a live scoreboard needs). A sıralı renk finish sends everyone
    else to 0; that depends on their scores, so pass ``scores`` to get exact deltas (without them
    each other seat gets ``-ORDERED_COLOR_VALUE``, which is "to 0 or below").
    """
    if isinstance(state_or_result, HandState):
        rules = rules or state_or_result.rules
        result = state_or_result.result
        players = state_or_result.players
        shown: Sequence[int] = result.shown_indicators if result else state_or_result.shown_indicators
    else:
        result = state_or_result
        players = result.players
        shown = result.shown_indicators
    if rules is None:
        raise ValueError("a HandResult needs its rule set to be scored")
    deltas = [0] * players
    for seat in shown:
        deltas = [a + b for a, b in zip(deltas, indicator_deltas(seat, rules, players), strict=True)]
    if result is None:
        return deltas
    if result.reason == PILE_OUT:
        if rules.scoring == PENALTY:
            # Eşli: each team +10, and each member carries the team's score.
            deltas = [delta + 10 for delta in deltas]
        return deltas
    if result.reason == MATCH_OVER:
        return deltas  # the shown indicator ended the match: it is all the hand moved
    finisher, finish = result.finisher, result.finish
    if finisher is None or finish is None:
        raise ValueError("a finished hand without its finisher")
    value = finish_value(finish, rules, double_okey=result.double_okey)
    others = opponents(finisher, rules, players)
    if rules.scoring == COUNTDOWN:
        if rules.color_finish and finish.color == ORDERED_COLOR:
            for seat in others:
                deltas[seat] = -scores[seat] if scores is not None else -ORDERED_COLOR_VALUE
        else:
            for seat in others:
                deltas[seat] -= value
    elif rules.scoring == PENALTY:
        for seat in others:
            deltas[seat] += value
    else:
        for seat in others:
            deltas[seat] -= value
        deltas[finisher] += value * len(others)
    return deltas


def ends_match_at_once(result: HandResult, rules: RuleSet) -> bool:
    """A sıralı renk (option) ends a countdown match whatever the scores."""
    return (
        rules.scoring == COUNTDOWN and rules.color_finish and result.reason == FINISHED
        and result.finish is not None and result.finish.color == ORDERED_COLOR
    )


# -- prize pool (penalty preset) ---------------------------------------------------------------------


def largest_remainder(total: int, weights: Sequence[int]) -> list[int]:
    """Split ``total`` in proportion to ``weights`` into integers that sum to it exactly (nothing
    to split, or no weight: all zeros).

    Hamilton's method: everyone gets the floor of their quota, the units left go to the largest
    fractional parts; equal fractions go to the earlier seat so the split is deterministic.
    """
    weight_sum = sum(weights)
    if total <= 0 or weight_sum <= 0:
        return [0] * len(weights)
    floors = [total * weight // weight_sum for weight in weights]
    fractions = [total * weight % weight_sum for weight in weights]
    left = total - sum(floors)
    for index in sorted(range(len(weights)), key=lambda i: (-fractions[i], i))[:left]:
        floors[index] += 1
    return floors


def split_prize_pool(pool: int, penalties: Sequence[int], hands_per_match: int) -> list[int]:
    """Source 001's prize pool, per seat: integers that always sum to ``pool``.

    The winner (lowest penalty; tied winners share) gets at least 75 %. The other 25 % goes to the
    other players below the limit (40 penalty points for a 1-hand match, 80 for 3 hands) in
    proportion to how far below it they are (*interpretation*); if nobody qualifies the winner gets
    it all, so no chip is ever left unassigned.
    """
    if pool < 0:
        raise ValueError("a prize pool cannot be negative")
    players = len(penalties)
    shares = [0] * players
    if pool == 0 or players == 0:
        return shares
    limit = PRIZE_LIMITS[hands_per_match]
    best = min(penalties)
    winners = [seat for seat, penalty in enumerate(penalties) if penalty == best]
    runners_up = [seat for seat, penalty in enumerate(penalties) if seat not in winners and penalty < limit]
    runners_up_part = pool * RUNNERS_UP_PERCENT // 100 if runners_up else 0
    for seat, share in zip(winners, largest_remainder(pool - runners_up_part, [1] * len(winners)), strict=True):
        shares[seat] = share
    if runners_up:
        weights = [limit - penalties[seat] for seat in runners_up]
        for seat, share in zip(runners_up, largest_remainder(runners_up_part, weights), strict=True):
            shares[seat] = share
    return shares
