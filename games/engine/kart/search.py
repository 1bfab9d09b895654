"""The best melds and lay-offs of a hand against the table (for the bots and the ``check`` command).

``best_plan(cards, table)`` finds, among every way to put the hand's cards into new melds (runs
and sets) and lay-offs onto the table's melds (chains included: ``K5`` then ``K4`` below a run
``K6 K7 K8``), one that leaves the fewest penalty points in hand. With ``discard=True`` (a turn:
one card must stay to be discarded) the discard is part of the plan and costs nothing; a plan of
cost 0 goes out. ``forbidden`` is a card that may not be the discard (the one just taken from the
discard pile, rule 5).

The search is exact: a depth-first walk over the hand's lowest card still open (kept, the discard,
or the lowest card of one meld or lay-off chain that fits), memoised on the cards still open, the
table melds already extended and whether the discard is chosen. A hand of 11 cards has a few
hundred such states at most.

A lay-off chain is one item per table meld (two chains on one meld would conflict); a lay-off onto
a meld melded in the same turn is never needed (it is a longer meld of its own).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from .cards import ACE, KING, Card, card_value, format_card, hand_value, make_card, rank_of, sort_key, suit_of
from .melds import LONGEST_RUN, MAX_SET, RUN, SET, extended, read_meld, read_run

INFINITE = 10**9


@dataclass(frozen=True)
class TableView:
    """A meld on the table as the search needs it: its id, kind and cards."""

    id: int
    kind: str
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class Plan:
    """What to put on the table and what stays: ``melds`` (new, each in order), ``lay_offs`` as
    (meld id, card) in an order that can be played, ``left`` the cards that stay in hand and
    ``discard`` (None when the plan needs none)."""

    melds: tuple[tuple[Card, ...], ...]
    lay_offs: tuple[tuple[int, Card], ...]
    left: tuple[Card, ...]
    discard: Card | None

    @property
    def penalty(self) -> int:
        """The value of the cards left in hand after the discard."""
        return hand_value(self.left)

    @property
    def goes_out(self) -> bool:
        return self.discard is not None and not self.left

    @property
    def placed(self) -> list[Card]:
        return [card for meld in self.melds for card in meld] + [card for _, card in self.lay_offs]

    def to_dict(self) -> dict[str, Any]:
        return {"melds": [[format_card(card) for card in meld] for meld in self.melds],
                "lay_offs": [{"meld": meld_id, "card": format_card(card)} for meld_id, card in self.lay_offs],
                "left": [format_card(card) for card in self.left],
                "discard": format_card(self.discard) if self.discard is not None else None,
                "penalty": self.penalty, "goes_out": self.goes_out}

    def actions(self) -> list[dict[str, Any]]:
        """The plan as a turn's actions (``hand.apply_turn``)."""
        return ([{"type": "meld", "cards": [format_card(card) for card in meld]} for meld in self.melds]
                + [{"type": "lay_off", "meld": meld_id, "card": format_card(card)} for meld_id, card in self.lay_offs])


def table_views(melds: Iterable[Any]) -> list[TableView]:
    """``TableMeld``s (or anything with id, kind and cards) as the search reads them."""
    return [TableView(meld.id, meld.kind, tuple(meld.cards)) for meld in melds]


# -- what the cards can make ----------------------------------------------------------------------------


def candidate_melds(cards: Iterable[Card]) -> list[tuple[Card, ...]]:
    """Every run and set the cards hold (each face once per meld; faces, not copies)."""
    faces = set(cards)
    found: list[tuple[Card, ...]] = []
    for suit in range(4):
        # Positions 1..14: the ace stands at 1 and at 14.
        present = {rank_of(card) for card in faces if suit_of(card) == suit}
        positions = sorted(present | ({KING + 1} if ACE in present else set()))
        for start in positions:
            run = [start]
            while run[-1] + 1 in positions:
                run.append(run[-1] + 1)
                if len(run) >= 3 and not (run[0] == 1 and run[-1] == KING + 1):
                    found.append(tuple(make_card(suit, ACE if p == KING + 1 else p) for p in run))
    for rank in range(ACE, KING + 1):
        suits = sorted({suit_of(card) for card in faces if rank_of(card) == rank})
        for size in range(3, min(MAX_SET, len(suits)) + 1):
            for chosen in combinations(suits, size):
                found.append(tuple(make_card(suit, rank) for suit in chosen))
    return found


def lay_off_chains(cards: Iterable[Card], meld: TableView) -> list[tuple[Card, ...]]:
    """Every group of the cards that can be laid off on ``meld`` in one turn, each in playable order
    (for a run: cards below its low end, nearest first, then cards above its high end)."""
    faces = set(cards)
    if meld.kind == SET:
        if len(meld.cards) >= MAX_SET:
            return []
        taken = {suit_of(card) for card in meld.cards}
        rank = rank_of(meld.cards[0])
        return [(make_card(suit, rank),) for suit in range(4) if suit not in taken and make_card(suit, rank) in faces]
    reading = read_run(meld.cards)
    suit = suit_of(reading.cards[0])
    has_ace = any(rank_of(card) == ACE for card in reading.cards)
    below: list[Card] = []
    position = reading.low - 1
    while position >= 1 and not (position == 1 and has_ace):
        card = make_card(suit, position)
        if card not in faces:
            break
        below.append(card)
        position -= 1
    above: list[Card] = []
    position = reading.high + 1
    while position <= KING + 1 and not (position == KING + 1 and has_ace):
        card = make_card(suit, ACE if position == KING + 1 else position)
        if card not in faces:
            break
        above.append(card)
        position += 1
    chains = []
    for low in range(len(below) + 1):
        for high in range(len(above) + 1):
            added = below[:low] + above[:high]
            if not added or len(meld.cards) + len(added) > LONGEST_RUN:
                continue
            if any(rank_of(card) == ACE for card in below[:low]) and any(rank_of(card) == ACE for card in above[:high]):
                continue
            chains.append(tuple(added))
    return chains


def possible_lay_offs(cards: Iterable[Card], table: Sequence[TableView]) -> list[tuple[int, Card]]:
    """Every single card of the hand that fits a table meld as it is now: (meld id, card)."""
    faces = sorted(set(cards), key=sort_key)
    return [(meld.id, card) for meld in table for card in faces if extended(meld.kind, meld.cards, card) is not None]


# -- the search ----------------------------------------------------------------------------------------------


def best_plan(cards: Sequence[Card], table: Sequence[Any] = (), *, discard: bool = True,
              forbidden: Card | None = None) -> Plan | None:
    """The plan that leaves the fewest penalty points (see the module doc); None when there is none
    (``discard`` and no card other than ``forbidden`` to discard)."""
    table = [meld if isinstance(meld, TableView) else TableView(meld.id, meld.kind, tuple(meld.cards))
             for meld in table]
    hand = sorted(cards, key=sort_key)
    # Items by their lowest card: (faces, table index or -1, meld id or None).
    items: dict[Card, list[tuple[tuple[Card, ...], int]]] = {}
    for meld in candidate_melds(hand):
        items.setdefault(min(meld, key=sort_key), []).append((meld, -1))
    for index, meld in enumerate(table):
        for chain in lay_off_chains(hand, meld):
            items.setdefault(min(chain, key=sort_key), []).append((chain, index))
    # The hand's cards by position (sorted); identical copies are always used lowest position first,
    # so the cards still open are one bit mask.
    copies: dict[Card, list[int]] = {}
    for position, card in enumerate(hand):
        copies.setdefault(card, []).append(position)
    values = [card_value(card) for card in hand]
    memo: dict[tuple[int, int, bool], tuple[int, tuple]] = {}

    def take(mask: int, faces: tuple[Card, ...]) -> int:
        """``mask`` without one copy of each face, or -1 when a face is not open."""
        for face in faces:
            for position in copies.get(face, ()):
                if mask >> position & 1:
                    mask &= ~(1 << position)
                    break
            else:
                return -1
        return mask

    def walk(mask: int, used: int, chosen: bool) -> tuple[int, tuple]:
        if not mask:
            return (INFINITE if discard and not chosen else 0), ()
        key = (mask, used, chosen)
        found = memo.get(key)
        if found is not None:
            return found
        first = (mask & -mask).bit_length() - 1
        card = hand[first]
        rest = mask & ~(1 << first)
        cost, tail = walk(rest, used, chosen)
        best = (cost + values[first], (("keep", card), *tail))
        if discard and not chosen and card != forbidden:
            cost, tail = walk(rest, used, True)
            if cost < best[0]:
                best = (cost, (("discard", card), *tail))
        for faces, index in items.get(card, ()):
            if index >= 0 and used >> index & 1:
                continue
            after = take(mask, faces)
            if after < 0:
                continue
            cost, tail = walk(after, used | (1 << index) if index >= 0 else used, chosen)
            if cost < best[0]:
                best = (cost, (("item", faces, index), *tail))
        memo[key] = best
        return best

    cost, steps = walk((1 << len(hand)) - 1, 0, False)
    if cost >= INFINITE:
        return None
    melds, lay_offs, left, thrown = [], [], [], None
    for step in steps:
        if step[0] == "keep":
            left.append(step[1])
        elif step[0] == "discard":
            thrown = step[1]
        elif step[2] < 0:
            melds.append(read_meld(step[1], RUN if len({suit_of(c) for c in step[1]}) == 1 else SET).cards)
        else:
            lay_offs += [(table[step[2]].id, card) for card in step[1]]
    return Plan(tuple(melds), tuple(lay_offs), tuple(left), thrown)


def penalty_now(cards: Iterable[Card]) -> int:
    """What the cards would cost if the hand ended now (rule 8)."""
    return hand_value(cards)
