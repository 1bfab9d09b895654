"""The 106 tiles, the shuffle and the deal.

The shuffle is the only randomness in a hand. Without a seed it comes from the operating system's
CSPRNG (``secrets.SystemRandom``), so nobody can predict a deal from earlier ones; with a seed it is
``random.Random(seed)``, deterministic for tests and replays. The shuffled order is kept in the
state (``HandState.deck``): the deal is a pure function of it (``deal_from_deck``), so publishing a
hash of the deck before the hand and the deck after it makes every deal verifiable.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence

from .errors import EngineError
from .hand import HandState, new_hand
from .rules import RuleSet
from .tiles import FALSE_JOKER, TILE_COUNT, Tile, full_set

#: Tiles dealt to each player; the starting player gets one more.
RACK_SIZE = 14

Seed = int | str | bytes | None


def all_tiles() -> list[Tile]:
    """The 106 tiles in a fixed order: each face twice, then the two false jokers."""
    return full_set()


def shuffled_deck(seed: Seed = None) -> list[Tile]:
    """All 106 tiles shuffled; top of the deck first."""
    rng: random.Random = secrets.SystemRandom() if seed is None else random.Random(seed)
    deck = full_set()
    rng.shuffle(deck)
    return deck


def deal_racks(deck: Sequence[Tile], *, players: int, starting_seat: int,
               rack_size: int) -> tuple[list[Tile], list[list[Tile]], Tile]:
    """The deal every game of 106 tiles shares: (pile, racks, indicator) from a deck order, top first.

    The indicator is the first tile from the top that is not a false joker; a false joker turned up
    goes back under the pile (to the bottom), as RULES.md says "put it back and draw another". Then,
    in play order from the starting seat, each seat takes ``rack_size`` tiles from the top, the
    starting seat one more. What is left is the face-down pile, top first.
    """
    if sorted(deck) != full_set() or len(deck) != TILE_COUNT:
        raise ValueError("a deck must hold exactly the 106 tiles")
    if isinstance(starting_seat, bool) or not isinstance(starting_seat, int) or not 0 <= starting_seat < players:
        raise EngineError(f"seat {starting_seat!r} is not at this table", code="bad_seat", seat=repr(starting_seat))
    pile = list(deck)
    turned_back: list[Tile] = []
    while pile[0] == FALSE_JOKER:
        turned_back.append(pile.pop(0))
    indicator = pile.pop(0)
    pile.extend(turned_back)
    racks: list[list[Tile]] = [[] for _ in range(players)]
    for offset in range(players):
        seat = (starting_seat + offset) % players
        count = rack_size + 1 if seat == starting_seat else rack_size
        racks[seat] = pile[:count]
        del pile[:count]
    return pile, racks, indicator


def deal_from_deck(deck: Sequence[Tile], rules: RuleSet, *, starting_seat: int = 0,
                   ending_shows: Sequence[int] = ()) -> HandState:
    """Deal a hand from a given deck order (top first). Deterministic: the same deck, the same hand.

    The indicator is the first tile from the top that is not a false joker; a false joker turned up
    goes back under the pile (to the bottom), as RULES.md says "put it back and draw another".
    Then, in play order from the starting seat, each seat takes its tiles from the top: 15 for the
    starting seat, 14 for the others. What is left is the face-down pile, top first.
    ``ending_shows`` comes from the match (see ``hand.new_hand``); it does not change the deal.
    """
    pile, racks, indicator = deal_racks(deck, players=rules.players, starting_seat=starting_seat,
                                        rack_size=RACK_SIZE)
    return new_hand(rules, deck, pile, racks, indicator, starting_seat, ending_shows=ending_shows)


def deal(rules: RuleSet, *, seed: Seed = None, starting_seat: int = 0, ending_shows: Sequence[int] = ()) -> HandState:
    """Shuffle and deal a new hand (48 tiles left in the pile with 4 players, 76 with 2)."""
    return deal_from_deck(shuffled_deck(seed), rules, starting_seat=starting_seat, ending_shows=ending_shows)
