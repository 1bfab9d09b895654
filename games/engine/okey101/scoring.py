"""A 101 hand's scores (RULES.md "101 Okey", rules 9, 11 and 12; "Eşli"). Low is good.

Bases: the finisher −101; a player who opened, the sum of the rack (a wild okey in it 101, a false
joker the okey's number); a player who never opened, the table's unopened penalty (202 by
default). Multipliers (×2 each, multiplying together) on the finisher's −101 and on every other
player's base: okey finish, pairs finish (the finisher opened with pairs), elden bitme. A
non-finisher who opened with pairs doubles their own base again. In-hand penalties (rule 9) are
added after, never multiplied.

Pile out: everyone writes their own base, no −101 and no multipliers (the pairs doubling stays).
Eşli: when a player finishes, the partner writes 0 but keeps their in-hand penalties; at a pile out
all four write their base. A team's score is the sum of its two players' (``team_totals``).
"""

from __future__ import annotations

from collections.abc import Sequence

from .melds import rack_value
from .rules import Rules101, partner_of

FINISH_BASE = -101
PENALTY_POINTS = 101
MELDS = "melds"
PAIRS = "pairs"


def finish_multiplier(*, okey_finish: bool, pairs_finish: bool, elden: bool) -> int:
    return (2 if okey_finish else 1) * (2 if pairs_finish else 1) * (2 if elden else 1)


def base_score(rack: Sequence[int], opened: str | None, okey: int, rules: Rules101) -> int:
    """A non-finisher's base before the finish multipliers: the rack, or the unopened penalty."""
    if opened is None:
        return rules.unopened_penalty
    own = rack_value(rack, okey)
    return own * 2 if opened == PAIRS else own


def penalty_points(penalties: Sequence[dict], players: int) -> list[int]:
    totals = [0] * players
    for penalty in penalties:
        totals[penalty["seat"]] += penalty["points"]
    return totals


def hand_scores(
    racks: Sequence[Sequence[int]],
    opened: Sequence[str | None],
    okey: int,
    rules: Rules101,
    *,
    finisher: int | None,
    okey_finish: bool = False,
    elden: bool = False,
    penalties: Sequence[dict] = (),
) -> list[int]:
    """What each seat writes for the hand. ``finisher`` None: the pile ran out."""
    players = len(racks)
    extra = penalty_points(penalties, players)
    if finisher is None:
        return [base_score(racks[seat], opened[seat], okey, rules) + extra[seat] for seat in range(players)]
    factor = finish_multiplier(okey_finish=okey_finish, pairs_finish=opened[finisher] == PAIRS, elden=elden)
    scores = []
    for seat in range(players):
        if seat == finisher:
            base = FINISH_BASE * factor
        elif rules.partners and seat == partner_of(finisher):
            base = 0
        else:
            base = base_score(racks[seat], opened[seat], okey, rules) * factor
        scores.append(base + extra[seat])
    return scores


def team_totals(scores: Sequence[int], rules: Rules101) -> list[int]:
    """Per seat, what it is ranked by: its own score, or in eşli its team's (the sum of both)."""
    if not rules.partners:
        return list(scores)
    return [scores[seat] + scores[partner_of(seat)] for seat in range(len(scores))]
