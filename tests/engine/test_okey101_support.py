"""Story helpers for the 101 Okey tests (no tests here): a table set up exactly as written.

``table`` deals given racks (notation), fills the rest from the unused tiles and keeps all 106
accounted for; ``rejects`` holds a refused turn to "nothing changed".
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from games.engine.errors import EngineError
from games.engine.okey101.hand import Hand101, TableMeld, apply_turn, new_hand
from games.engine.okey101.melds import read_meld
from games.engine.okey101.rules import Rules101
from games.engine.tiles import full_set, parse_tile, parse_tiles


def table(
    racks: list[str | None],
    *,
    indicator: str = "K5",
    rules: Rules101 | None = None,
    starting_seat: int = 0,
    turn: int | None = None,
    melds: list[tuple[int, str]] = (),
    opened: dict[int, tuple[str, int]] | None = None,
    discard: tuple[int, str] | None = None,
    pile_top: str = "",
    pile_size: int | None = None,
) -> Hand101:
    """A hand as written. Seats given None get free tiles (22 for the starter, 21 otherwise, only in
    the starter's first turn; mid-hand seats given None get 21). ``turn`` set: the hand is past its
    first turn and ``turn`` is to play; ``discard`` = (seat, tile) lies on top of that seat's
    discards and may be taken when that seat is the previous one. ``melds`` are (owner, tiles) on
    the table; ``opened`` maps seat -> (kind, total)."""
    rules = rules or Rules101()
    mid_hand = turn is not None
    given = [parse_tiles(rack) if rack is not None else None for rack in racks]
    meld_tiles = [parse_tiles(tiles) for _, tiles in melds]
    top = parse_tiles(pile_top)
    discarded = [parse_tile(discard[1])] if discard else []
    used = [parse_tile(indicator), *top, *discarded, *(t for rack in given if rack for t in rack),
            *(t for tiles in meld_tiles for t in tiles)]
    free = Counter(full_set())
    free.subtract(used)
    assert not -free, f"more copies than a set holds: {dict(-free)}"
    pool = sorted(free.elements())
    filled = []
    for seat, rack in enumerate(given):
        if rack is None:
            size = 22 if seat == starting_seat and not mid_hand else 21
            rack, pool = pool[:size], pool[size:]
        filled.append(rack)
    pile = top + pool
    covered: list[int] = []
    if pile_size is not None:
        pile, covered = pile[:pile_size], pile[pile_size:]
    deck = [parse_tile(indicator), *(t for rack in filled for t in rack), *pile, *covered, *discarded,
            *(t for tiles in meld_tiles for t in tiles)]
    state = new_hand(rules, deck, pile, filled, parse_tile(indicator), starting_seat)
    if mid_hand:
        state.turn = turn
        state.turns_done = [1] * 4
    if covered:
        state.discards[(state.turn + 1) % 4].extend(covered)
    if discard:
        seat, tile = discard
        state.discards[seat].append(parse_tile(tile))
        state.discard_log.append([seat, parse_tile(tile), -1])
        state.takeable = True
    for index, ((owner, _), tiles) in enumerate(zip(melds, meld_tiles, strict=True), start=1):
        state.melds.append(TableMeld(index, owner, read_meld(tiles, state.okey).kind, tuple(tiles)))
    state.next_meld_id = len(melds) + 1
    for seat, (kind, total) in (opened or {}).items():
        state.opened[seat] = kind
        state.opening_totals[seat] = total
    assert accounted(state)
    return state


def snapshot(state: Hand101) -> str:
    return json.dumps(state.to_dict(), sort_keys=True)


def accounted(state: Hand101) -> bool:
    return Counter(state.located_tiles()) == Counter(full_set())


def roundtrip(state: Hand101) -> Hand101:
    return Hand101.from_dict(json.loads(json.dumps(state.to_dict())))


def rejects(state: Hand101, seat: int, turn: Any, *, code: str) -> EngineError:
    """The turn is refused with ``code`` and the state is exactly as before."""
    before = snapshot(state)
    with pytest.raises(EngineError) as info:
        apply_turn(state, seat, turn)
    assert info.value.code == code, f"expected {code}, got {info.value.code}: {info.value}"
    assert snapshot(state) == before, "a refused turn changed the state"
    return info.value


def rack_of(state: Hand101, seat: int) -> Counter[int]:
    return Counter(state.racks[seat])
