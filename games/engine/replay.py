"""Rebuilding a hand from its deck and its public move log (the events the engine wrote).

A hand is fully determined by the shuffled deck, the rule set, the starting seat and the moves:
draws from the pile need no tile in the log because the deck says which tile comes next. That is
what makes hand history and verifiable deals possible.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from . import hand as hands
from .deck import deal_from_deck
from .errors import EngineError
from .hand import HandState
from .rules import RuleSet
from .tiles import Tile

_NO_ARGS = ("show_indicator", "declare_pairs", "take_indicator", "lay_first_okey")


def action_of(event: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The action (and its arguments) that produced a logged event."""
    kind = event.get("type")
    if kind == "draw":
        return "draw", {"source": event["source"]}
    if kind == "pile_out":
        return "draw", {"source": hands.PILE}
    if kind == "discard":
        return "discard", {"tile": event["tile"]}
    if kind == "finish":
        return "finish", {"tile": event["discard"]}
    if kind in _NO_ARGS:
        return str(kind), {}
    raise EngineError(f"cannot replay an event of type {kind!r}", code="bad_event", event=repr(kind))


def replay(deck: Sequence[Tile], rules: RuleSet, starting_seat: int,
           moves: Iterable[dict[str, Any]]) -> list[HandState]:
    """Every state of the hand: index 0 is the deal, index k the state after move k."""
    state = deal_from_deck(list(deck), rules, starting_seat=starting_seat)
    states = [state]
    for event in moves:
        if event.get("type") == "deal":
            continue
        action, args = action_of(event)
        state = hands.apply(state, event["seat"], action, **args)
        states.append(state)
    return states
