"""Kart Okey's melds (RULES.md "Kart Okey", rules 3 and 4), read from an unordered set of cards.

* **Run**: 3 or more cards of one suit with consecutive ranks. The ace is low (A-2-3) or high
  (Q-K-A), never both in one run and never round the corner (K-A-2). So a run is at most 13 cards
  (A…K or 2…A).
* **Set**: 3 or 4 cards of one rank, all suits different (with two decks, two identical cards are
  never in one set).

There are no jokers, so a set of cards is at most one kind of meld and its reading is unique (the
whole suit, 13 cards, reads as A…K: it takes no more cards either way). A lay-off (``extended``)
is the meld read again with the new card; a meld keeps its kind.

A meld's ``value`` is the sum of its cards' values (rule 3): what melding it saves its owner.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..errors import EngineError
from .cards import ACE, KING, Card, card_value, format_card, make_card, rank_of, suit_of

RUN = "run"
SET = "set"
KINDS = (RUN, SET)
MIN_MELD = 3
MAX_SET = 4
LONGEST_RUN = 13


class MeldError(EngineError):
    """Cards that are not one meld; the message says why, for the player."""

    def __init__(self, message: str, cards: Iterable[Card] = ()):
        super().__init__(message, code="bad_meld", cards=[format_card(card) for card in cards])


@dataclass(frozen=True)
class Reading:
    """A valid meld: its kind, its cards in order (a run low to high) and, for a run, whether its
    ace is high (Q-K-A)."""

    kind: str
    cards: tuple[Card, ...]
    ace_high: bool = False

    @property
    def value(self) -> int:
        return sum(card_value(card) for card in self.cards)

    @property
    def low(self) -> int:
        """A run's lowest rank (1 for an ace-low run)."""
        return _position(self.cards[0], self.ace_high)

    @property
    def high(self) -> int:
        """A run's highest rank (14 for an ace-high run)."""
        return _position(self.cards[-1], self.ace_high)


def _position(card: Card, ace_high: bool) -> int:
    rank = rank_of(card)
    return KING + 1 if rank == ACE and ace_high else rank


def read_run(cards: Iterable[Card]) -> Reading:
    cards = list(cards)
    if len(cards) < MIN_MELD:
        raise MeldError(f"a run needs at least {MIN_MELD} cards", cards)
    if len({suit_of(card) for card in cards}) > 1:
        raise MeldError("a run is all one suit", cards)
    ranks = [rank_of(card) for card in cards]
    if len(set(ranks)) < len(ranks):
        if ranks.count(ACE) > 1:
            raise MeldError("an ace is low (A-2-3) or high (Q-K-A), never both in one run", cards)
        raise MeldError("a run cannot hold the same card twice", cards)
    for ace_high in (False, True):
        positions = sorted(_position(card, ace_high) for card in cards)
        if positions[-1] - positions[0] == len(positions) - 1:
            ordered = tuple(sorted(cards, key=lambda card, high=ace_high: _position(card, high)))
            return Reading(RUN, ordered, ace_high and ACE in ranks)
    if ACE in ranks and KING in ranks and 2 in ranks:
        raise MeldError("a run never goes round the corner: K-A-2 is not a run", cards)
    raise MeldError("the ranks are not consecutive", cards)


def read_set(cards: Iterable[Card]) -> Reading:
    cards = list(cards)
    if not MIN_MELD <= len(cards) <= MAX_SET:
        raise MeldError(f"a set is {MIN_MELD} or {MAX_SET} cards", cards)
    if len({rank_of(card) for card in cards}) > 1:
        raise MeldError("a set is one rank in different suits", cards)
    if len({suit_of(card) for card in cards}) < len(cards):
        raise MeldError("a set needs every suit different", cards)
    return Reading(SET, tuple(sorted(cards, key=suit_of)))


_READERS = {RUN: read_run, SET: read_set}


def read_meld(cards: Iterable[Card], kind: str | None = None) -> Reading:
    """Read an unordered set of cards as a run or a set (of ``kind`` when given), or refuse it with
    ``bad_meld`` and the reason (the reason of the kind the player most likely meant)."""
    cards = list(cards)
    if kind is not None:
        if kind not in _READERS:
            raise EngineError(f"unknown meld kind {kind!r}: run or set", code="bad_meld", kind=repr(kind))
        return _READERS[kind](cards)
    ranks, suits = len({rank_of(card) for card in cards}), len({suit_of(card) for card in cards})
    # Name the closer kind's reason: fewer ranks than suits means the player meant a set.
    meant_set = ranks == 1 or ranks < suits
    first, second = (read_set, read_run) if meant_set else (read_run, read_set)
    try:
        return first(cards)
    except MeldError as error:
        try:
            return second(cards)
        except MeldError:
            raise error from None


def is_meld(cards: Iterable[Card], kind: str | None = None) -> bool:
    try:
        read_meld(cards, kind)
    except MeldError:
        return False
    return True


def extended(kind: str, cards: Iterable[Card], card: Card) -> Reading | None:
    """The meld read with ``card`` laid off on it, or None when it does not fit (rule 5: any card
    that keeps the meld a valid run or set of its kind)."""
    try:
        return read_meld([*cards, card], kind)
    except MeldError:
        return None


def fits(kind: str, cards: Iterable[Card]) -> list[Card]:
    """Every card (face) that could be laid off on the meld now: for a run the card below its low end
    and the card above its high end (an ace at either end of the ranks); for a set of three the
    missing suit."""
    cards = list(cards)
    if kind == SET:
        if len(cards) >= MAX_SET:
            return []
        rank = rank_of(cards[0])
        return [make_card(suit, rank) for suit in range(4) if suit not in {suit_of(card) for card in cards}]
    reading = read_run(cards)
    suit = suit_of(reading.cards[0])
    found = []
    if reading.low > 1 and len(cards) < LONGEST_RUN:
        found.append(make_card(suit, reading.low - 1))
    if reading.high < KING + 1 and len(cards) < LONGEST_RUN:
        found.append(make_card(suit, ACE if reading.high == KING else reading.high + 1))
    return [card for card in dict.fromkeys(found) if extended(kind, cards, card) is not None]
