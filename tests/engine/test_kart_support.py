"""Story helpers for the Kart Okey tests (no tests here): a table set up exactly as written.

``table`` deals given hands (notation), fills the rest from the unused cards and keeps every card
accounted for; ``rejects`` holds a refused turn to "nothing changed".
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from games.engine.errors import EngineError
from games.engine.kart.cards import full_deck, parse_cards
from games.engine.kart.hand import HandKart, TableMeld, apply_turn, new_hand
from games.engine.kart.melds import read_meld
from games.engine.kart.rules import RulesKart


def table(
    hands: list[str | None],
    *,
    rules: RulesKart | None = None,
    starting_seat: int = 0,
    turn: int | None = None,
    melds: list[tuple[int, str]] = (),
    discards: str = "",
    stock_top: str = "",
    stock_size: int | None = None,
    melded: tuple[int, ...] = (),
) -> HandKart:
    """A hand as written. Seats given None get ten free cards. ``discards`` is the discard pile,
    bottom first (its last card is the top; default: one free card); ``stock_top`` lies on top of
    the stock; ``stock_size`` trims the stock (the trimmed cards go under the discard pile, so all
    cards stay accounted for). ``melds`` are (owner, cards) on the table, ids from 1; ``melded``
    seats melded in an earlier turn; ``turn`` is the seat to play (default the starting seat)."""
    rules = rules or RulesKart(players=len(hands))
    given = [parse_cards(cards) if cards is not None else None for cards in hands]
    meld_cards = [parse_cards(cards) for _, cards in melds]
    top = parse_cards(stock_top)
    pile = parse_cards(discards)
    used = [*top, *pile, *(c for cards in given if cards for c in cards), *(c for cards in meld_cards for c in cards)]
    free = Counter(full_deck(rules.decks))
    free.subtract(used)
    assert not -free, f"more copies than the decks hold: {dict(-free)}"
    pool = sorted(free.elements())
    filled = []
    for cards in given:
        if cards is None:
            cards, pool = pool[:10], pool[10:]
        filled.append(cards)
    if not pile:
        pile, pool = pool[:1], pool[1:]
    stock = top + pool
    if stock_size is not None:
        stock, under = stock[:stock_size], stock[stock_size:]
        pile = under + pile
    deck = [*(c for cards in filled for c in cards), *pile, *stock, *(c for cards in meld_cards for c in cards)]
    state = new_hand(rules, deck, stock, filled, pile, starting_seat)
    if turn is not None:
        state.turn = turn
    for index, ((owner, _), cards) in enumerate(zip(melds, meld_cards, strict=True), start=1):
        reading = read_meld(cards)
        state.melds.append(TableMeld(index, owner, reading.kind, reading.cards))
    state.next_meld_id = len(melds) + 1
    for seat in melded:
        state.melded[seat] = True
    assert accounted(state)
    return state


def snapshot(state: HandKart) -> str:
    return json.dumps(state.to_dict(), sort_keys=True)


def accounted(state: HandKart) -> bool:
    return Counter(state.located_cards()) == Counter(full_deck(state.rules.decks))


def roundtrip(state: HandKart) -> HandKart:
    return HandKart.from_dict(json.loads(json.dumps(state.to_dict())))


def rejects(state: HandKart, seat: int, turn: Any, *, code: str) -> EngineError:
    """The turn is refused with ``code`` and the state is exactly as before."""
    before = snapshot(state)
    with pytest.raises(EngineError) as info:
        apply_turn(state, seat, turn)
    assert info.value.code == code, f"expected {code}, got {info.value.code}: {info.value}"
    assert snapshot(state) == before, "a refused turn changed the state"
    return info.value


def cards_of(state: HandKart, seat: int) -> Counter[int]:
    return Counter(state.hands[seat])


def played_hand(seed: int = 3, *, players: int = 4, levels: tuple[str, ...] = ("normal", "hard", "easy", "normal"),
                rules: RulesKart | None = None) -> HandKart:
    """A hand dealt from a seeded deck and played to its end by bots (seat 0 a normal bot, …)."""
    import random

    from games.engine.kart.bots import play_bot_turn
    from games.engine.kart.hand import deal_from_deck
    from games.engine.kart.match import shuffled_deck

    rules = rules or RulesKart(players=players)
    state = deal_from_deck(shuffled_deck(rules, seed), rules, starting_seat=seed % rules.players)
    rng = random.Random(seed)
    while not state.is_over:
        state = play_bot_turn(state, state.turn, level=levels[state.turn], rng=rng)
    return state
