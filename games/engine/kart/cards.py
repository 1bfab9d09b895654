"""Kart Okey's cards and their text notation (RULES.md "Kart Okey", rule 1).

A card is an int ``suit * 13 + rank - 1`` (0..51): suits in the order maça ♠, kupa ♥, karo ♦,
sinek ♣, ranks 1 (ace) to 13 (king). Two decks (a table of four, rule 1) are two copies of every
card: the deck holds each int twice and the copies are not told apart, as the two copies of a tile
are not.

**Notation** (tests, logs, the ``check`` command, the commitment, bug reports): the suit letter of
its Turkish name, then the rank::

    M  maça  ♠ (spades)      K  kupa  ♥ (hearts)
    R  karo  ♦ (diamonds)    S  sinek ♣ (clubs)

    ranks  A 2 3 4 5 6 7 8 9 10 J Q K

so ``MA`` is the ace of spades, ``K10`` the ten of hearts, ``RQ`` the queen of diamonds, ``SK`` the
king of clubs (``KK`` the king of hearts: the first letter is always the suit). Karo is ``R`` because
``K`` is kupa's. Upper and lower case both parse; the suit may also be written as its symbol
(``♠A``, ``♥10``); anything else is a ``CardError`` naming the bad token. ``format_card`` always
writes the letter form.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..errors import EngineError

Card = int

SUITS = "MKRS"
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_NAMES = ("maça", "kupa", "karo", "sinek")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
ACE, JACK, QUEEN, KING = 1, 11, 12, 13
CARDS_PER_DECK = 52

_TOKEN = re.compile(r"^([MKRS♠♥♦♣])(A|[2-9]|10|J|Q|K)$")


class CardError(EngineError):
    """A token that is not a card; ``token`` is the text at fault."""

    def __init__(self, message: str, token: object):
        super().__init__(message, code="bad_card", card=str(token))
        self.token = token


def make_card(suit: int, rank: int) -> Card:
    if not (0 <= suit < 4 and ACE <= rank <= KING):
        raise ValueError(f"no card of suit {suit} and rank {rank}")
    return suit * 13 + rank - 1


def suit_of(card: Card) -> int:
    return card // 13


def rank_of(card: Card) -> int:
    """1 (ace) to 13 (king)."""
    return card % 13 + 1


def card_value(card: Card) -> int:
    """Rule 3: 2-10 their number, J/Q/K 10, the ace 11 (what a card left in hand costs)."""
    rank = rank_of(card)
    if rank == ACE:
        return 11
    return min(rank, 10)


def hand_value(cards: Iterable[Card]) -> int:
    return sum(card_value(card) for card in cards)


def format_card(card: Card) -> str:
    return SUITS[suit_of(card)] + RANKS[rank_of(card) - 1]


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(format_card(card) for card in cards)


def parse_card(token: object) -> Card:
    if not isinstance(token, str):
        raise CardError(f"{token!r} is not a card", token)
    text = token.strip().upper()
    match = _TOKEN.match(text)
    if not match:
        raise CardError(f"'{token}' is not a card: a suit M/K/R/S (maça, kupa, karo, sinek) then A, 2-10, "
                        "J, Q or K, e.g. MA K10 RQ", token)
    suit_text, rank_text = match.groups()
    suit = SUITS.index(suit_text) if suit_text in SUITS else SUIT_SYMBOLS.index(suit_text)
    return make_card(suit, RANKS.index(rank_text) + 1)


def parse_cards(text: str | Iterable[object]) -> list[Card]:
    """Cards from a string of tokens (spaces or commas between them) or a list of tokens/ints."""
    if isinstance(text, str):
        return [parse_card(token) for token in text.replace(",", " ").split()]
    return [card_arg(token) for token in text]


def card_arg(value: object) -> Card:
    """A card from notation or its int (what a client's turn may hold)."""
    if isinstance(value, str):
        return parse_card(value)
    if type(value) is int and 0 <= value < CARDS_PER_DECK:
        return value
    raise CardError(f"{value!r} is not a card", value)


def full_deck(decks: int = 1) -> list[Card]:
    """Every card of ``decks`` decks in a fixed order (each card ``decks`` times, in a row)."""
    return [card for card in range(CARDS_PER_DECK) for _ in range(decks)]


def sort_key(card: Card) -> tuple[int, int]:
    """Suit, then rank (ace low): how a player sorts a hand by default."""
    return (suit_of(card), rank_of(card))


def sorted_cards(cards: Iterable[Card]) -> list[Card]:
    return sorted(cards, key=sort_key)
