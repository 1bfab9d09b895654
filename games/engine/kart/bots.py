"""Kart Okey bots: ``play_bot_turn(state, seat, level=, rng=)`` plays a seated bot's whole turn to
win (RULES.md "Kart Okey", rule 10; docs/game-types.md: three levels).

A bot knows only what its seat's view shows: its own hand, the melds on the table, the discard
pile's top and everyone's card count. It never reads the stock: a stock draw is played first
(``draw_from_stock``) and the rest of the turn is chosen with the card drawn, as a person does.

* **easy**: takes the discard pile's top only when it makes a new meld at once; otherwise draws
  from the stock. Lays down what the search finds, then throws one of its three highest loose
  cards at random.
* **normal**: takes the top when the best plan with it leaves fewer points than the hand without
  it and uses it on the table; lays down the best plan (``search.best_plan``); keeps cards close to
  a meld (a pair of one rank, neighbours in a suit) and throws the card that costs most to keep.
* **hard**: as normal, and: it remembers every card it has seen (its hand, the table, every card
  thrown onto the discard pile, each face up when thrown) and values a near meld by the unseen
  cards that would complete it (a dead draw is worth nothing); it never throws a card that fits a
  meld on the table while another card will do (the next player would lay it off); while it has
  not melded this hand, the stock is long and nobody is close to going out, it holds its melds
  back when at most two loose cards stand between it and going rummy (+25 from everyone else,
  rule 8).

Strength (a few hundred seeded hands, ``tests/engine/test_kart_support.played_hand``): normal and
hard win about two hands in three against easy; hard against normal is even within the noise.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ..errors import EngineError
from .cards import Card, card_value, format_card, make_card, rank_of, suit_of
from .hand import DISCARD, HandKart, apply_turn, draw_from_stock
from .melds import extended
from .search import Plan, best_plan, candidate_melds, table_views

LEVELS = ("easy", "normal", "hard")
#: Hard holds its melds for rummy only while the stock has at least this many cards ...
RUMMY_HOLD_STOCK = 10
#: ... every other player holds at least this many cards ...
RUMMY_HOLD_SAFE_COUNT = 6
#: ... and at most this many loose cards stand between it and going out.
RUMMY_HOLD_LOOSE = 2
#: What one unseen card that would complete a near meld is worth keeping (hard), in points.
LIVE_WEIGHT = 1.5


def play_bot_turn(state: HandKart, seat: int, *, level: str = "normal",
                  rng: random.Random | None = None) -> HandKart:
    """Play ``seat``'s whole turn (draw, melds and lay-offs, discard) and return the new state."""
    if level not in LEVELS:
        raise EngineError(f"unknown bot level {level!r}: easy, normal or hard", code="bad_action", level=level)
    rng = rng or random.Random()
    table = table_views(state.melds)
    taken: Card | None = None
    plan: Plan | None = None
    if not state.drawn:
        top = state.discard_top
        take, plan = _takes(level, list(state.hands[seat]), top, table) if top is not None else (False, None)
        if take:
            taken = top
            cards = [*state.hands[seat], top]
        else:
            state = draw_from_stock(state, seat)
            cards = list(state.hands[seat])
    else:
        cards = list(state.hands[seat])
    turn = choose_turn(state, seat, cards, table, level=level, rng=rng, taken=taken,
                       plan=plan if taken is not None else None)
    turn["draw"] = DISCARD if taken is not None else None
    return apply_turn(state, seat, turn)


def _takes(level: str, cards: list[Card], top: Card, table: Sequence[Any]) -> tuple[bool, Plan | None]:
    """Whether to take the discard pile's top instead of the stock's unknown card (and the best
    plan with it, when it was searched)."""
    if level == "easy":
        return any(top in meld for meld in candidate_melds([*cards, top])), None
    with_top = best_plan([*cards, top], table, forbidden=top)
    if with_top is None or top not in with_top.placed:
        return False, None
    if with_top.goes_out:
        return True, with_top
    without = best_plan(cards, table, discard=False)
    # Taking it is worth it when it lowers the hand's points.
    return without is not None and with_top.penalty < without.penalty, with_top


def choose_turn(state: HandKart, seat: int, cards: list[Card], table: Sequence[Any], *, level: str,
                rng: random.Random, taken: Card | None, plan: Plan | None = None) -> dict[str, Any]:
    """The turn's actions and discard for ``cards`` (the hand after the draw); ``plan``: the best
    plan of ``cards`` when the caller searched it already."""
    plan = plan or best_plan(cards, table, forbidden=taken)
    assert plan is not None  # a hand after a draw holds two cards at least, so one may be thrown
    if plan.goes_out:
        return {"actions": plan.actions(), "discard": format_card(plan.discard)}
    seen = None
    if level == "hard":
        # What the bot has seen: its hand, the table and every card in the discard pile (each was
        # face up when it was thrown).
        seen = Counter(cards)
        seen.update(card for meld in state.melds for card in meld.cards)
        seen.update(state.discards)
        if taken is not None:
            seen[taken] -= 1          # in the hand now, and still on the pile of the state before the turn
    decks = state.rules.decks
    if level == "hard" and _holds_for_rummy(state, seat, plan):
        loose = [*plan.left, plan.discard]
        choice = _discard_choice(loose, cards, table, level=level, rng=rng, taken=taken, seen=seen, decks=decks)
        return {"actions": [], "discard": format_card(choice)}
    loose = [*plan.left, plan.discard]
    choice = _discard_choice(loose, loose, table, level=level, rng=rng, taken=taken, seen=seen, decks=decks)
    return {"actions": plan.actions(), "discard": format_card(choice)}


def _holds_for_rummy(state: HandKart, seat: int, plan: Plan) -> bool:
    if state.melded[seat] or not plan.placed:
        return False
    others = [len(cards) for other, cards in enumerate(state.hands) if other != seat]
    return (len(state.stock) >= RUMMY_HOLD_STOCK and min(others) >= RUMMY_HOLD_SAFE_COUNT
            and len(plan.left) <= RUMMY_HOLD_LOOSE)


def _gap(a: Card, b: Card) -> int:
    """How far apart two cards of one suit are, the ace counted low or high, whichever is nearer."""
    low = abs(rank_of(a) - rank_of(b))
    high = abs(_high(a) - _high(b))
    return min(low, high)


def _high(card: Card) -> int:
    return 14 if rank_of(card) == 1 else rank_of(card)


def keep_worth(card: Card, others: Sequence[Card]) -> float:
    """How close ``card`` is to a meld with the other cards kept: a card of its rank in another suit,
    a neighbour (±1) or a card two away (±2) in its suit."""
    worth = 0.0
    for other in others:
        if rank_of(other) == rank_of(card) and suit_of(other) != suit_of(card):
            worth += 4.0
        elif suit_of(other) == suit_of(card) and other != card:
            gap = _gap(card, other)
            worth += 4.0 if gap == 1 else 2.0 if gap == 2 else 0.0
    return worth


def live_worth(card: Card, others: Sequence[Card], seen: Counter[Card], decks: int) -> float:
    """As ``keep_worth``, but each near meld counts the cards that would complete it and that the
    bot has not seen (in its hand, on the table or in the discard pile): a dead draw is worth
    nothing."""

    def live(face: Card) -> int:
        return max(0, decks - seen[face])

    worth = 0.0
    suit, rank = suit_of(card), rank_of(card)
    for other in others:
        if rank_of(other) == rank and suit_of(other) != suit:
            outs = sum(live(make_card(third, rank)) for third in range(4) if third not in (suit, suit_of(other)))
            worth += LIVE_WEIGHT * outs
        elif suit_of(other) == suit and other != card:
            ends = _completing(card, other)
            worth += LIVE_WEIGHT * sum(live(face) for face in ends)
    return worth


def _completing(a: Card, b: Card) -> list[Card]:
    """The cards of their suit that make a run of two cards one or two apart."""
    suit = suit_of(a)
    for low, high in ((rank_of(a), rank_of(b)), (_high(a), _high(b))):
        low, high = min(low, high), max(low, high)
        if high - low == 1:
            return [make_card(suit, p if p <= 13 else 1) for p in (low - 1, high + 1) if 1 <= p <= 14]
        if high - low == 2:
            return [make_card(suit, low + 1 if low + 1 <= 13 else 1)]
    return []


def _discard_choice(loose: list[Card], kept: list[Card], table: Sequence[Any], *, level: str,
                    rng: random.Random, taken: Card | None, seen: Counter[Card] | None = None,
                    decks: int = 1) -> Card:
    choices = [card for card in loose if card != taken]
    if level == "easy":
        ordered = sorted(choices, key=lambda card: (-card_value(card), -rank_of(card), suit_of(card)))
        return rng.choice(ordered[:3])

    def throw(card: Card) -> tuple[float, int, int]:
        """Higher: more reason to throw it (its points, less what it is worth keeping)."""
        others = list(kept)
        others.remove(card)
        if level == "hard" and seen is not None:
            score = card_value(card) - live_worth(card, others, seen, decks)
        else:
            score = card_value(card) - keep_worth(card, others)
        if level == "hard" and any(extended(meld.kind, meld.cards, card) is not None for meld in table):
            score -= 100.0
        return (score, rank_of(card), -suit_of(card))

    return max(choices, key=throw)


__all__ = ["LEVELS", "choose_turn", "keep_worth", "play_bot_turn"]
