"""101 Okey's fair deal and replay: the same commitment as classic Okey, the hand replayed from its
public events (``Hand101.events``, which the site stores as its Move rows).

A turn's public event names every tile it put on the table (``laid``, ``lay_off``/``swap`` tiles)
and its discard, and a pile draw is an event of its own, so the events alone replay the hand on
the revealed deck: who drew what follows from the deck, and a server that slipped anyone a chosen
tile, or changed the deck after the deal, fails the check.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from ..errors import EngineError
from ..fairness import VerifyReport, _deck_tiles, commitment_report, deal_entry, verify_commitment
from ..fairness import commitment as deck_commitment
from ..tiles import Tile, format_tile, full_set
from .hand import DISCARD, PILE, Hand101, apply_turn, deal_from_deck, draw_from_pile
from .rules import Rules101


def commitment(state: Hand101, salt: str) -> str:
    return deck_commitment(state.deck, salt)


def turn_of_event(event: dict[str, Any]) -> dict[str, Any]:
    """The turn ``apply_turn`` takes, rebuilt from a turn's public event."""
    actions = []
    for action in event.get("actions") or []:
        kind = action.get("type")
        if kind in ("open", "lay_down"):
            actions.append({"type": kind, "melds": [{"tiles": list(meld["tiles"]), "kind": meld["kind"]}
                                                    for meld in action.get("laid", [])]})
        elif kind in ("lay_off", "swap"):
            actions.append({"type": kind, "meld": action.get("meld"), "tile": action.get("tile")})
        else:
            actions.append({"type": kind})
    turn: dict[str, Any] = {"actions": actions, "discard": event.get("discard")}
    if event.get("draw") in (PILE, DISCARD):
        turn["draw"] = event["draw"]
    return turn


def replay(deck: Sequence[Tile], rules: Rules101, starting_seat: int,
           moves: Iterable[dict[str, Any]]) -> list[Hand101]:
    """Every state of the hand: the deal, then one per move (raises ``EngineError`` on an illegal one)."""
    state = deal_from_deck(deck, rules, starting_seat=starting_seat)
    states = [state]
    for move in moves:
        state = _apply_event(state, move)
        if state is not None:
            states.append(state)
            continue
        state = states[-1]
    return states


def _apply_event(state: Hand101, move: dict[str, Any]) -> Hand101 | None:
    """The state after one public event; None for an event the engine writes itself (deal, hand end)."""
    kind = move.get("type") if isinstance(move, dict) else None
    if kind in ("deal", "hand_end"):
        return None
    seat = move.get("seat", state.turn)
    if kind == "draw":
        return draw_from_pile(state, seat)
    if kind == "turn":
        return apply_turn(state, seat, turn_of_event(move))
    raise EngineError(f"unknown move type {kind!r}", code="bad_action", action=repr(kind))


def verify_hand(deck: Sequence[Tile] | str, salt: str, commitment_: str, *, rules: Rules101 | None = None,
                starting_seat: int | None = None, moves: Iterable[dict[str, Any]] = ()) -> VerifyReport:
    """Check a revealed 101 hand: commitment, the 106 tiles, the deal, every public move replayed on
    the deck and, at the end, the scores the table wrote. Problems are listed, never raised (only a
    deck that does not parse raises ``FairnessError``)."""
    rules = rules or Rules101()
    moves = list(moves)
    if starting_seat is None:
        starting_seat = deal_entry(moves).get("starting_seat", 0)
    tiles = _deck_tiles(deck)
    report = commitment_report(commitment_ok=verify_commitment(tiles, salt, commitment_), salt=salt,
                               starting_seat=starting_seat)
    if len(tiles) != len(full_set()) or Counter(tiles) != Counter(full_set()):
        report.problems.append(f"the deck is not the 106 tiles (it has {len(tiles)})")
        return report
    report.deck_ok = True
    if type(starting_seat) is not int or not 0 <= starting_seat < 4:
        report.problems.append(f"starting seat {starting_seat!r} is not at a table of four")
        return report
    state = deal_from_deck(tiles, rules, starting_seat=starting_seat)
    report.indicator = format_tile(state.indicator)
    report.okey = format_tile(state.okey)
    report.racks = [[format_tile(tile) for tile in rack] for rack in state.racks]
    for number, move in enumerate(moves, start=1):
        where = f"move {number}"
        if not isinstance(move, dict) or not isinstance(move.get("type"), str):
            report.problems.append(f"{where}: not an object with a 'type'")
            break
        if move["type"] == "deal":
            for key, tile in (("indicator", state.indicator), ("okey", state.okey)):
                if key in move and move[key] != format_tile(tile):
                    report.problems.append(f"{where}: the {key} was {move[key]!r}, the deck gives {format_tile(tile)}")
            continue
        if move["type"] == "hand_end":
            if state.result is None:
                report.problems.append(f"{where}: the hand ended, but the replay has it still going")
            elif "scores" in move and list(move["scores"]) != list(state.result.scores):
                report.problems.append(f"{where}: the scores written were {move['scores']}, "
                                       f"the replay gives {list(state.result.scores)}")
            report.moves_checked += 1
            continue
        try:
            after = _apply_event(state, move)
        except EngineError as error:
            report.problems.append(f"{where} ({move['type']} by seat {move.get('seat')}): {error}")
            break
        if move["type"] == "draw":
            report.draws_checked += 1
        if move["type"] == "turn" and move.get("took") is not None and move["took"] != _taken(state):
            report.problems.append(f"{where}: seat {move.get('seat')} took {move['took']!r}, "
                                   f"but the discard there was {_taken(state)!r}")
            break
        report.moves_checked += 1
        state = after
    if state.result is not None:
        report.result = state.result.to_dict()
    return report


def _taken(state: Hand101) -> str | None:
    tile = state.available_discard
    return format_tile(tile) if tile is not None else None
