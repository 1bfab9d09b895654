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
    return [row["score"] for row in hand_sheet(racks, opened, okey, rules, finisher=finisher,
                                               okey_finish=okey_finish, elden=elden, penalties=penalties)]


def hand_sheet(
    racks: Sequence[Sequence[int]],
    opened: Sequence[str | None],
    okey: int,
    rules: Rules101,
    *,
    finisher: int | None,
    okey_finish: bool = False,
    elden: bool = False,
    penalties: Sequence[dict] = (),
) -> list[dict]:
    """The score sheet's row per seat, as 101 players write it: what the base is (``kind``: finished,
    partner, opened, unopened), the rack's value, the pairs doubling, the finish multiplier, the
    in-hand penalties with their reasons, and the score. ``hand_scores`` is its last column."""
    players = len(racks)
    extra = penalty_points(penalties, players)
    factor = 1
    if finisher is not None:
        factor = finish_multiplier(okey_finish=okey_finish, pairs_finish=opened[finisher] == PAIRS, elden=elden)
    rows = []
    for seat in range(players):
        reasons = [penalty["reason"] for penalty in penalties if penalty["seat"] == seat]
        row = {"seat": seat, "rack": None, "pairs_double": False, "multiplier": factor,
               "penalties": extra[seat], "penalty_reasons": reasons}
        if seat == finisher:
            row.update(kind="finished", base=FINISH_BASE)
        elif finisher is not None and rules.partners and seat == partner_of(finisher):
            row.update(kind="partner", base=0)
        elif opened[seat] is None:
            row.update(kind="unopened", base=rules.unopened_penalty)
        else:
            row.update(kind="opened", rack=rack_value(racks[seat], okey), pairs_double=opened[seat] == PAIRS,
                       base=base_score(racks[seat], opened[seat], okey, rules))
        row["score"] = row["base"] * factor + extra[seat]
        rows.append(row)
    return rows


def team_totals(scores: Sequence[int], rules: Rules101) -> list[int]:
    """Per seat, what it is ranked by: its own score, or in eşli its team's (the sum of both)."""
    if not rules.partners:
        return list(scores)
    return [scores[seat] + scores[partner_of(seat)] for seat in range(len(scores))]
