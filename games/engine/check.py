"""Settle a dispute: does this rack finish, and how? The same answer the server gives at the table.

Players, moderators and bug reports write racks in notation; ``check`` takes exactly that, refuses
anything that could not be dealt, and reports the best finish in notation again.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import fields
from typing import Any

from .finish import Finish, best_finish, complete_split, finish_value
from .rules import COUNTDOWN, RuleSet
from .tiles import (
    FALSE_JOKER,
    NotationError,
    Tile,
    format_tile,
    format_tiles,
    okey_for,
    parse_tile,
    parse_tiles,
)

RULE_OPTIONS = tuple(field.name for field in fields(RuleSet))
OPTIONS = (*RULE_OPTIONS, "pairs_only")


class CheckError(ValueError):
    """Input that no real table could produce; the message names what is wrong."""

    code = "bad_check"


def check(tiles: str | Iterable[str], indicator: str, **options: Any) -> dict[str, Any]:
    """The best finish of 14 or 15 tiles as a JSON-ready dict (see ``report`` for its keys)."""
    rules, pairs_only = _rules(options)
    indicator_tile = _parse_indicator(indicator)
    rack = _parse_rack(tiles, indicator_tile)
    okey = okey_for(indicator_tile)
    if len(rack) == 15:
        finish = best_finish(rack, okey, rules, pairs_only=pairs_only)
    else:
        finish = complete_split(rack, okey, rules, pairs_only=pairs_only)
    return report(finish, okey, rules)


def report(finish: Finish | None, okey: Tile, rules: RuleSet) -> dict[str, Any]:
    """finishes, kind, okey_finish, discard, sets (in notation; runs low to high with each wild
    where it stands), and for reading disputes: color, the okey, and value (the finish's worth)."""
    result: dict[str, Any] = {
        "finishes": finish is not None,
        "kind": None,
        "okey_finish": False,
        "discard": None,
        "sets": [],
        "color": None,
        "okey": format_tile(okey),
        "value": 0,
    }
    if finish is not None:
        result.update(
            kind=finish.kind,
            okey_finish=finish.okey_finish,
            discard=None if finish.discard is None else format_tile(finish.discard),
            sets=[format_tiles(group).split() for group in finish.groups],
            color=finish.color,
            value=finish_value(finish, rules),
        )
    return result


def _rules(options: dict[str, Any]) -> tuple[RuleSet, bool]:
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise CheckError(f"unknown option(s): {', '.join(unknown)}; known: {', '.join(OPTIONS)}")
    rule_options = dict(options)
    pairs_only = rule_options.pop("pairs_only", False)
    if not isinstance(pairs_only, bool):
        raise CheckError("pairs_only is true or false")
    try:
        return RuleSet.preset(rule_options.pop("scoring", COUNTDOWN), **rule_options), pairs_only
    except (TypeError, ValueError) as error:
        raise CheckError(str(error)) from error


def _parse_indicator(indicator: str) -> Tile:
    if not isinstance(indicator, str) or not indicator.strip():
        raise CheckError("the indicator is missing: give the face-up tile, e.g. K5")
    try:
        tile = parse_tile(indicator)
    except NotationError as error:
        raise CheckError(f"indicator: {error}") from error
    if tile == FALSE_JOKER:
        raise CheckError("a false joker (J) is never the indicator: it goes back and another is drawn")
    return tile


def _parse_rack(tiles: str | Iterable[str], indicator: Tile) -> list[Tile]:
    try:
        rack = parse_tiles(tiles if isinstance(tiles, str) else [str(token) for token in tiles])
    except NotationError as error:
        raise CheckError(str(error)) from error
    if len(rack) not in (14, 15):
        raise CheckError(f"a rack to check has 14 or 15 tiles, not {len(rack)}")
    if rack.count(indicator) == 2:
        shown = format_tile(indicator)
        raise CheckError(f"the rack holds both {shown}, but one {shown} lies face up as the indicator")
    return rack
