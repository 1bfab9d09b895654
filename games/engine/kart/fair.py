"""Kart Okey's fair deal and replay (RULES.md "Kart Okey", rule 10: "as at a tile table").

Before a hand the server publishes ``commitment(state, salt)``: the SHA-256 (hex) of the canonical
text of the deck order — the 52 or 104 cards in notation (``cards``), top first, joined by single
spaces — then one space and the salt (64 lowercase hex digits)::

    sha256("K7 MA R10 … SQ 3f9a…c01d".encode("utf-8")).hexdigest()

so anyone can recompute it with ``printf '%s' "<deck> <salt>" | sha256sum`` (the notation is
ASCII). After the hand the deck and the salt are revealed; ``verify_hand`` checks the commitment,
that the deck is the table's cards, the deal (``hand.deal_from_deck``: one card at a time in play
order from the starting seat, then one face up) and every public event replayed on that deck: a
stock draw is an event of its own and a turn's event names every card it melded or laid off and
its discard, so who drew what follows from the deck alone. The stock's reshuffle (rule 7) follows
from the deck and the public discards (``hand.reshuffle_order``), and the replay checks each one
the table announced, and the scores it wrote at the end.
"""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from ..errors import EngineError
from ..fairness import FairnessError, VerifyReport, commitment_report, deal_entry, normal_salt
from .cards import Card, CardError, card_arg, format_card, format_cards, full_deck
from .hand import DISCARD, STOCK, HandKart, apply_turn, deal_from_deck, draw_from_stock
from .rules import RulesKart


def deck_cards(deck: Sequence[Card] | str) -> list[Card]:
    """A deck as cards: a list of ints or notation tokens, or one string of tokens."""
    tokens: list[Any]
    if isinstance(deck, str):
        tokens = deck.replace(",", " ").split()
    elif isinstance(deck, Iterable):
        tokens = list(deck)
    else:
        raise FairnessError("a deck is a list of cards or a string of notation tokens")
    try:
        return [card_arg(token) for token in tokens]
    except CardError as error:
        raise FairnessError(f"deck: {error}") from None


def canonical_deck(deck: Sequence[Card] | str) -> str:
    """The deck order as the commitment hashes it: notation tokens, top first, single spaces."""
    return format_cards(deck_cards(deck))


def deck_commitment(deck: Sequence[Card] | str, salt: str) -> str:
    message = f"{canonical_deck(deck)} {normal_salt(salt)}"
    return hashlib.sha256(message.encode("utf-8")).hexdigest()


def commitment(state: HandKart, salt: str) -> str:
    return deck_commitment(state.deck, salt)


def verify_commitment(deck: Sequence[Card] | str, salt: str, published: str) -> bool:
    if not isinstance(published, str):
        return False
    try:
        expected = deck_commitment(deck, salt)
    except FairnessError:
        return False
    return hmac.compare_digest(expected, published.strip().lower())


def turn_of_event(event: dict[str, Any]) -> dict[str, Any]:
    """The turn ``apply_turn`` takes, rebuilt from a turn's public event."""
    actions = []
    for action in event.get("actions") or []:
        kind = action.get("type")
        if kind == "meld":
            actions.append({"type": "meld", "cards": list(action.get("cards") or [])})
        elif kind == "lay_off":
            actions.append({"type": "lay_off", "meld": action.get("meld"), "card": action.get("card")})
        else:
            actions.append({"type": kind})
    turn: dict[str, Any] = {"actions": actions, "discard": event.get("discard")}
    if event.get("draw") in (STOCK, DISCARD):
        turn["draw"] = event["draw"]
    return turn


def _apply_event(state: HandKart, move: dict[str, Any]) -> HandKart | None:
    """The state after one public event; None for an event the engine writes itself."""
    kind = move.get("type") if isinstance(move, dict) else None
    if kind in ("deal", "reshuffle", "hand_end"):
        return None
    seat = move.get("seat", state.turn)
    if kind == "draw":
        return draw_from_stock(state, seat)
    if kind == "turn":
        return apply_turn(state, seat, turn_of_event(move))
    raise EngineError(f"unknown move type {kind!r}", code="bad_action", action=repr(kind))


def replay(deck: Sequence[Card], rules: RulesKart, starting_seat: int,
           moves: Iterable[dict[str, Any]]) -> list[HandKart]:
    """Every state of the hand: the deal, then one per draw or turn (``EngineError`` on an illegal one)."""
    state = deal_from_deck(deck, rules, starting_seat=starting_seat)
    states = [state]
    for move in moves:
        after = _apply_event(state, move)
        if after is not None:
            state = after
            states.append(state)
    return states


def verify_hand(deck: Sequence[Card] | str, salt: str, commitment_: str, *, rules: RulesKart | None = None,
                starting_seat: int | None = None, moves: Iterable[dict[str, Any]] = ()) -> VerifyReport:
    """Check a revealed hand: the commitment, the cards, the deal, every public move replayed on the
    deck, each reshuffle and the scores written. Problems are listed, never raised (only a deck that
    does not parse raises ``FairnessError``)."""
    rules = rules or RulesKart()
    moves = list(moves)
    dealt = deal_entry(moves)
    if starting_seat is None:
        starting_seat = dealt.get("starting_seat", 0)
    cards = deck_cards(deck)
    report = commitment_report(commitment_ok=verify_commitment(cards, salt, commitment_), salt=salt,
                               starting_seat=starting_seat)
    if len(cards) != rules.cards or Counter(cards) != Counter(full_deck(rules.decks)):
        report.problems.append(f"the deck is not the {rules.cards} cards of {rules.decks} deck(s) "
                               f"(it has {len(cards)})")
        return report
    report.deck_ok = True
    if type(starting_seat) is not int or not 0 <= starting_seat < rules.players:
        report.problems.append(f"starting seat {starting_seat!r} is not at a table of {rules.players}")
        return report
    state = deal_from_deck(cards, rules, starting_seat=starting_seat)
    report.racks = [[format_card(card) for card in hand] for hand in state.hands]
    for number, move in enumerate(moves, start=1):
        where = f"move {number}"
        if not isinstance(move, dict) or not isinstance(move.get("type"), str):
            report.problems.append(f"{where}: not an object with a 'type'")
            break
        kind = move["type"]
        if kind == "deal":
            top = format_card(state.discards[-1])
            if "discard_top" in move and move["discard_top"] != top:
                report.problems.append(f"{where}: the face-up card was {move['discard_top']!r}, the deck gives {top}")
            continue
        if kind == "reshuffle":
            expected = next((event for event in state.events if event["type"] == "reshuffle"
                             and event.get("number") == move.get("number")), None)
            if expected is None:
                report.problems.append(f"{where}: a reshuffle the replay does not have")
            elif (move.get("stock_count"), move.get("discard_top")) != (expected["stock_count"],
                                                                        expected["discard_top"]):
                report.problems.append(f"{where}: the reshuffle differs from the replay's")
            report.moves_checked += 1
            continue
        if kind == "hand_end":
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
            report.problems.append(f"{where} ({kind} by seat {move.get('seat')}): {error}")
            break
        if kind == "draw":
            report.draws_checked += 1
        if kind == "turn" and move.get("took") is not None:
            top = format_card(state.discards[-1]) if state.discards else None
            if move["took"] != top:
                report.problems.append(f"{where}: seat {move.get('seat')} took {move['took']!r}, "
                                       f"but the discard pile's top was {top!r}")
                break
        report.moves_checked += 1
        assert after is not None
        state = after
    if state.result is not None:
        report.result = state.result.to_dict()
    return report
