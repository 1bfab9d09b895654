"""Auto-play: the turn clock's move for a seat whose time ran out, who is away or who left.

RULES.md "Absent players never win": the clock keeps the table moving, it never plays for a win.
It draws from the pile and gives away the tile the seat is least likely to miss — nothing else: it
never finishes (not even a seat that took the last discard to finish with it: it declines, and the
hand ends with no finisher), never shows the indicator, never declares pairs, never lays a first
okey. It is safe rather than clever: it never throws a wild okey while another tile would do, and
never breaks a complete set while a loose tile exists, so a player who comes back finds their rack
as they left it, less the tiles it gave away.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .arrange import arrange_by_sets
from .errors import EngineError
from .hand import PHASE_DRAW, PHASE_OVER, PILE, HandState, check_seat, decline, discard, draw
from .rules import RuleSet
from .tiles import FALSE_JOKER, Tile, color_of, number_of


def _face(tile: Tile, okey: Tile) -> Tile:
    """The face a tile plays as: a false joker is a plain okey face (RULES.md)."""
    return okey if tile == FALSE_JOKER else tile


def _run_gap(a: Tile, b: Tile) -> int | None:
    """Distance in a run between two faces of one colour (1 may sit after 13), or None."""
    if color_of(a) != color_of(b):
        return None
    low, high = sorted((number_of(a), number_of(b)))
    gap = high - low
    if low == 1:
        gap = min(gap, 14 - high)  # 1 after 13: 13-1 is 1 apart, 12-1 is 2 apart
    return gap


def connections(tile: Tile, others: list[Tile], okey: Tile, *, pairs_only: bool = False) -> int:
    """How much the rest of the rack wants this tile: partners for pairs, groups and runs.

    Wild okeys are left out: they fit anywhere, so they say nothing about this tile.
    """
    face = _face(tile, okey)
    score = 0
    for other in others:
        if other == okey:
            continue
        other_face = _face(other, okey)
        if other_face == face:
            score += 10 if pairs_only else 3
            continue
        if pairs_only:
            continue
        if number_of(other_face) == number_of(face):
            score += 2
            continue
        gap = _run_gap(face, other_face)
        if gap == 1:
            score += 2
        elif gap == 2:
            score += 1
    return score


def choose_discard(
    rack: list[Tile], okey: Tile, rules: RuleSet, *, pairs_only: bool = False, bound_twin: Tile | None = None
) -> Tile:
    """The least useful tile of a 15-tile rack (see module doc for the guarantees).

    ``bound_twin``: the indicator's twin of a seat whose shown indicator still waits on the table
    to complete its pair (option ``indicator_binds_pair``); it is not a loose single.
    """
    plain = [tile for tile in rack if tile != okey]
    if not plain:
        return okey
    if pairs_only:
        # Going for pairs only pairs matter: throw a tile without its twin (or the third of three).
        counts = Counter(plain)
        if bound_twin is not None and bound_twin in counts:
            counts[bound_twin] += 1
        candidates = ([tile for tile in plain if counts[tile] % 2 == 1]
                      or [tile for tile in plain if tile != bound_twin] or plain)
    else:
        arrangement = arrange_by_sets(list(rack), okey, rules)
        candidates = [tile for tile in arrangement.loose if tile != okey]
        if not candidates:
            # Everything sits in sets: trim the end of a set that stays valid without it.
            for group in arrangement.groups:
                if len(group) >= 4:
                    candidates += [tile for tile in (group[0], group[-1]) if tile != okey]
            candidates = candidates or plain

    def usefulness(tile: Tile) -> tuple[int, int, Tile]:
        others = list(rack)
        others.remove(tile)
        return (connections(tile, others, okey, pairs_only=pairs_only), tile == FALSE_JOKER, tile)

    return min(candidates, key=usefulness)


def auto_move(state: HandState, seat: int) -> tuple[HandState, list[dict[str, Any]]]:
    """Play the rest of ``seat``'s turn; returns the new state and the events it appended.

    A draw from an empty pile ends the hand (pile out), exactly as if the player had asked for it.
    A seat that took the last discard after the pile ran out may only finish with it; the clock
    does not finish for anyone, so it declines and the hand ends with no finisher (pile out).
    """
    if state.phase == PHASE_OVER:
        raise EngineError("the hand is over", code="hand_over")
    seat = check_seat(state, seat)
    if state.turn != seat:
        raise EngineError("it is not your turn", code="not_your_turn", seat=seat, turn=state.turn)
    start = len(state.events)
    if state.phase == PHASE_DRAW:
        state = draw(state, seat, PILE)
        if state.phase == PHASE_OVER:
            return state, state.events[start:]
    if state.must_finish:
        state = decline(state, seat)
        return state, state.events[start:]
    pairs_only = seat in state.declared_pairs
    binds = (state.rules.indicator_binds_pair and pairs_only and seat in state.shown_indicators
             and state.indicator_taken_by is None)
    tile = choose_discard(state.racks[seat], state.okey, state.rules, pairs_only=pairs_only,
                          bound_twin=state.indicator if binds else None)
    state = discard(state, seat, tile)
    return state, state.events[start:]
