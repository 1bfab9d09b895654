"""Helpers for engine tests: exact hands from notation, and "rejected and unchanged" checks."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from games.engine.errors import EngineError
from games.engine.hand import HandState, new_hand, view_for
from games.engine.rules import RuleSet
from games.engine.tiles import check_copy_limits, format_tile, full_set, parse_tile, parse_tiles


def hand_with(
    racks: list[str | None],
    indicator: str,
    *,
    rules: RuleSet | None = None,
    starting_seat: int = 0,
    pile_top: str = "",
    pile_size: int | None = None,
) -> HandState:
    """A hand dealt exactly as written. Seats given as None get the next free tiles (sorted).

    The starting seat needs 15 tiles, the others 14. ``pile_top`` lies on top of the pile;
    ``pile_size`` trims the pile (the trimmed tiles go to the centre so all 106 stay accounted for:
    only a test of pile exhaustion needs that).
    """
    rules = rules or RuleSet(players=len(racks))
    indicator_tile = parse_tile(indicator)
    given = [parse_tiles(rack) if rack is not None else None for rack in racks]
    top = parse_tiles(pile_top)
    used = [indicator_tile, *top, *(tile for rack in given if rack for tile in rack)]
    check_copy_limits(used)
    free = Counter(full_set())
    free.subtract(used)
    pool = sorted(free.elements())
    filled: list[list[int]] = []
    for seat, rack in enumerate(given):
        if rack is None:
            size = 15 if seat == starting_seat else 14
            rack, pool = pool[:size], pool[size:]
        filled.append(rack)
    for seat, rack in enumerate(filled):
        assert len(rack) == (15 if seat == starting_seat else 14), f"seat {seat} has {len(rack)} tiles"
    pile = top + pool
    centre: list[int] = []
    if pile_size is not None:
        pile, centre = pile[:pile_size], pile[pile_size:]
    deck = [indicator_tile, *(tile for rack in filled for tile in rack), *pile, *centre]
    state = new_hand(rules, deck, pile, filled, indicator_tile, starting_seat)
    state.centre = centre
    return state


def snapshot(state: HandState) -> str:
    return json.dumps(state.to_dict(), sort_keys=True)


def rejects(action: Callable[..., Any], state: HandState, *args: Any, code: str, **kwargs: Any) -> EngineError:
    """The action is refused with ``code`` and the state it was given is exactly as before."""
    before = snapshot(state)
    with pytest.raises(EngineError) as info:
        action(state, *args, **kwargs)
    assert info.value.code == code, f"expected {code}, got {info.value.code}: {info.value}"
    assert snapshot(state) == before, "a refused action changed the state"
    return info.value


def accounted(state: HandState) -> bool:
    """All 106 tiles are somewhere, exactly once each."""
    return Counter(state.located_tiles()) == Counter(full_set())


def roundtrip(state: HandState) -> HandState:
    return HandState.from_dict(json.loads(json.dumps(state.to_dict())))


_TILE_TEXT = re.compile(r"^(?:[KSMY](?:1[0-3]|[1-9])|J)$")


def tiles_in(value: Any) -> list[str]:
    """Every tile written anywhere in a JSON-like value (keys and values, any depth)."""
    found: list[str] = []
    if isinstance(value, str):
        if _TILE_TEXT.match(value):
            found.append(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            found += tiles_in(key) + tiles_in(item)
    elif isinstance(value, list | tuple):
        for item in value:
            found += tiles_in(item)
    return found


def knowable(state: HandState, seat: int | None) -> set[str]:
    """The faces ``seat`` (None: a spectator) may see: RULES.md "Turn", plus its privileges."""
    faces = {state.indicator, state.okey, *state.centre}
    faces |= {pile[-1] for pile in state.discards if pile}
    if seat is not None:
        faces |= set(state.racks[seat])
        if seat in state.declared_pairs:
            faces |= {tile for _, tile, _ in state.discard_log}
    if state.result is not None and state.result.finish is not None:
        faces |= {tile for group in state.result.finish.groups for tile in group}
    return {format_tile(face) for face in faces}


def assert_view_is_private(state: HandState, seat: int | None) -> dict[str, Any]:
    """The view holds no tile the seat may not know, none of the secrets, and survives JSON."""
    view = view_for(state, seat)
    text = json.dumps(view)
    assert json.loads(text) == view
    leaked = set(tiles_in(view)) - knowable(state, seat)
    assert not leaked, f"seat {seat} sees {leaked}"
    for secret in ("pile", "deck", "seed", "twin_dealt_to", "racks", "discard_log", "events"):
        assert secret not in view
    if seat is None:
        assert view["rack"] is None
    else:
        assert view["rack"] == [format_tile(tile) for tile in state.racks[seat]]
    if seat is None or seat not in state.declared_pairs:
        assert view["discard_history"] is None
    return view
