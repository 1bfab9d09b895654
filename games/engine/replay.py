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


def action_of(event: dict[str, Any], state: HandState | None = None) -> tuple[str, dict[str, Any]]:
    """The action (and its arguments) that produced a logged event; ``state``, the hand before it,
    tells a ``pile_out`` declined after taking the last discard from a draw from the empty pile."""
    kind = event.get("type")
    if kind == "draw":
        return "draw", {"source": event["source"]}
    if kind == "pile_out":
        return hands.pile_out_action(state) if state is not None else ("draw", {"source": hands.PILE})
    if kind == "discard":
        return "discard", {"tile": event["tile"]}
    if kind == "finish":
        return "finish", {"tile": event["discard"]}
    if kind in _NO_ARGS:
        return str(kind), {}
    raise EngineError(f"cannot replay an event of type {kind!r}", code="bad_event", event=repr(kind))


def made_by_engine(state: HandState, position: int, event: dict[str, Any]) -> bool:
    """Whether the log's move number ``position`` is one the engine wrote itself with the action
    before it (a pile out when the next seat cannot finish; the end of the match after a show):
    the replayed state holds it already, so it is compared, not applied."""
    if position >= len(state.events):
        return False
    made = state.events[position]
    if made.get("type") != event.get("type") or made.get("seat") != event.get("seat", made.get("seat")):
        raise EngineError(f"move {position} is logged as {event.get('type')!r}, but the engine made "
                          f"{made.get('type')!r} there", code="bad_event", event=repr(event.get("type")))
    return True


def replay(deck: Sequence[Tile], rules: RuleSet, starting_seat: int | None,
           moves: Iterable[dict[str, Any]]) -> list[HandState]:
    """Every state of the hand: index 0 is the deal, index k the state after move k (a move the
    engine made itself shares the state of the action that caused it).

    A ``deal`` entry among the moves gives the starting seat (when ``starting_seat`` is None) and
    the seats whose show ends the match; its starting seat must agree with ``starting_seat``."""
    moves = list(moves)
    dealt = next((event for event in moves if event.get("type") == "deal"), {})
    seat = dealt.get("starting_seat", 0) if starting_seat is None else starting_seat
    if dealt.get("starting_seat", seat) != seat:
        raise EngineError("the deal's starting seat disagrees", code="bad_event", event="deal")
    state = deal_from_deck(list(deck), rules, starting_seat=seat, ending_shows=dealt.get("ending_shows", ()))
    states = [state]
    for event in moves:
        if event.get("type") == "deal":
            continue
        if made_by_engine(state, len(states), event):
            states.append(state)
            continue
        action, args = action_of(event, state)
        state = hands.apply(state, event["seat"], action, **args)
        states.append(state)
    return states
