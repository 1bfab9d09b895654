"""One hand (round) of Kart Okey: the deal, the whole turn as one action, the stock running out,
what a seat may see and the turn clock (RULES.md "Kart Okey", rules 2 and 5 to 7).

``apply_turn(state, seat, turn)`` takes a ``HandKart`` and returns a new one, or raises
``EngineError`` with a stable code and leaves its input exactly as it was (every change is made on
a copy). A turn is two messages at most, as 101's: ``draw_from_stock`` (the stock's top is unknown
until drawn, so drawing it is a fact of its own) and then the rest, ``apply_turn`` without
``draw``. Taking the discard pile's top stays inside the turn (``"draw": "discard"``): that card is
known, so the client stages it. The clock and the bots may send ``"draw": "stock"`` in one turn.

A turn (a JSON-ready dict; cards in notation, ``"K5"``, or as ints)::

    {"draw": "stock" | "discard",            # absent (None) only after draw_from_stock
     "actions": [                            # in order; any number, also none
        {"type": "meld", "cards": ["K5", "K6", "K7"]},   # a run or a set from the hand (or "K5 K6 K7")
        {"type": "lay_off", "meld": 3, "card": "K8"},     # onto any meld on the table, anyone's
     ],
     "discard": "S2"}                        # always; the last card discarded goes out

Meld ids count up from 1 in the order melds reach the table (``next_meld_id`` is in every view,
so a turn may lay off onto a meld it melds itself).

**The stock running out** (rule 7). The stock runs out at the end of the turn of the player who
drew its last card. The first time, the discard pile except its top card (the card that player
just discarded) becomes the new stock and the top card starts the new discard pile. The new
stock's order is fixed by the committed deck, so it is verifiable after the hand like the deal:
the pile's cards, numbered 0 (its bottom, the oldest discard) upwards, are sorted by
``sha256("<canonical deck> reshuffle <n> <i>")`` as lowercase hex (``n`` = 1, ``i`` = the card's
number; equal hashes by ``i``), and the first of that order is the new stock's top. (The canonical
deck is the deck's notation, top first, single spaces: the text the commitment hashes before its
salt.) Nobody can know the order before the deck is revealed, and nobody can choose it after the
deal. The second time the stock runs out the hand ends with no winner.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import EngineError
from . import scoring
from .cards import (
    Card,
    card_arg,
    card_value,
    format_card,
    format_cards,
    full_deck,
    hand_value,
    rank_of,
    sort_key,
)
from .melds import KINDS, extended, read_meld
from .rules import RulesKart

STATE_VERSION = 1
GAME = "kart"

#: Rule 2: ten cards each.
HAND_SIZE = 10
STOCK = "stock"
DISCARD = "discard"
SOURCES = (STOCK, DISCARD)

FINISHED = "finished"
STOCK_OUT = "stock_out"
#: Rule 7: the second time the stock runs out ends the hand.
STOCK_OUTS_TO_END = 2

TURN_KEYS = frozenset({"draw", "actions", "discard"})
ACTION_KEYS = {
    "meld": frozenset({"type", "cards"}),
    "lay_off": frozenset({"type", "meld", "card"}),
}


@dataclass(frozen=True)
class TableMeld:
    """A meld on the table: who melded it, its kind (kept for good) and its cards in order."""

    id: int
    owner: int
    kind: str
    cards: tuple[Card, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "owner": self.owner, "kind": self.kind, "cards": list(self.cards)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableMeld:
        return cls(id=data["id"], owner=data["owner"], kind=data["kind"], cards=tuple(data["cards"]))


@dataclass(frozen=True)
class ResultKart:
    """How the hand ended and what every seat writes for it."""

    reason: str
    scores: tuple[int, ...]
    winner: int | None = None
    rummy: bool = False
    #: The score sheet (``scoring.hand_sheet``): how each score was made up.
    sheet: tuple[dict[str, Any], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"reason": self.reason, "scores": list(self.scores), "winner": self.winner, "rummy": self.rummy,
                "sheet": [dict(row) for row in self.sheet]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ResultKart:
        return cls(reason=data["reason"], scores=tuple(data["scores"]), winner=data["winner"], rummy=data["rummy"],
                   sheet=tuple(dict(row) for row in data.get("sheet", ())))


@dataclass
class HandKart:
    """Everything about one hand. Server-side only: clients get ``view_for``."""

    rules: RulesKart
    deck: list[Card]                     # the committed order the hand was dealt from, top first
    stock: list[Card]                    # face down; stock[0] is the top
    discards: list[Card]                 # face up; discards[-1] is the top
    hands: list[list[Card]]              # each seat's cards
    starting_seat: int
    turn: int
    melds: list[TableMeld] = field(default_factory=list)
    next_meld_id: int = 1
    #: Per seat: melded or laid off in an earlier turn of this hand (rule 6's "going rummy").
    melded: list[bool] = field(default_factory=list)
    stock_outs: int = 0
    drawn: bool = False                  # the seat to play drew from the stock already
    move: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)
    result: ResultKart | None = None

    def __post_init__(self) -> None:
        if not self.melded:
            self.melded = [False] * len(self.hands)

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def discard_top(self) -> Card | None:
        return self.discards[-1] if self.discards else None

    def located_cards(self) -> list[Card]:
        """Every card wherever it lies: always the deck's 52 or 104."""
        found = [card for cards in self.hands for card in cards] + list(self.stock) + list(self.discards)
        return found + [card for meld in self.melds for card in meld.cards]

    def meld(self, meld_id: Any) -> TableMeld:
        for meld in self.melds:
            if type(meld_id) is int and meld.id == meld_id:
                return meld
        raise EngineError(f"there is no meld {meld_id!r} on the table", code="no_such_meld", meld=repr(meld_id))

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": STATE_VERSION, "game": GAME, "rules": self.rules.to_dict(), "deck": list(self.deck),
            "stock": list(self.stock), "discards": list(self.discards), "hands": [list(cards) for cards in self.hands],
            "starting_seat": self.starting_seat, "turn": self.turn, "melds": [meld.to_dict() for meld in self.melds],
            "next_meld_id": self.next_meld_id, "melded": list(self.melded), "stock_outs": self.stock_outs,
            "drawn": self.drawn, "move": self.move, "events": [dict(event) for event in self.events],
            "result": self.result.to_dict() if self.result is not None else None,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HandKart:
        if data.get("version") != STATE_VERSION or data.get("game") != GAME:
            raise ValueError(f"not a Kart Okey hand state (version {data.get('version')!r}, game {data.get('game')!r})")
        return cls(
            rules=RulesKart.from_dict(data["rules"]), deck=list(data["deck"]), stock=list(data["stock"]),
            discards=list(data["discards"]), hands=[list(cards) for cards in data["hands"]],
            starting_seat=data["starting_seat"], turn=data["turn"],
            melds=[TableMeld.from_dict(meld) for meld in data["melds"]], next_meld_id=data["next_meld_id"],
            melded=list(data["melded"]), stock_outs=data["stock_outs"], drawn=data["drawn"], move=data["move"],
            events=[dict(event) for event in data["events"]],
            result=ResultKart.from_dict(data["result"]) if data["result"] is not None else None,
        )


def _clone(state: HandKart) -> HandKart:
    return replace(state, deck=list(state.deck), stock=list(state.stock), discards=list(state.discards),
                   hands=[list(cards) for cards in state.hands], melds=list(state.melds), melded=list(state.melded),
                   events=list(state.events))


# -- the deal (rule 2) ---------------------------------------------------------------------------------


def check_deck(deck: Sequence[Card], rules: RulesKart) -> None:
    if len(deck) != rules.cards or Counter(deck) != Counter(full_deck(rules.decks)):
        raise ValueError(f"a deck must hold exactly the {rules.cards} cards of {rules.decks} deck(s)")


def _seat_arg(seat: Any, players: int) -> int:
    if type(seat) is not int or not 0 <= seat < players:
        raise EngineError(f"seat {seat!r} is not at this table", code="bad_seat", seat=repr(seat))
    return seat


def deal_from_deck(deck: Sequence[Card], rules: RulesKart, *, starting_seat: int = 0) -> HandKart:
    """Deal a hand from a committed deck order (top first); the same deck, the same hand.

    Cards are dealt one at a time from the top, in play order from the starting seat, until every
    seat holds ten; the next card is turned face up to start the discard pile; the rest is the
    stock, top first.
    """
    check_deck(deck, rules)
    _seat_arg(starting_seat, rules.players)
    players = rules.players
    hands: list[list[Card]] = [[] for _ in range(players)]
    for index in range(HAND_SIZE * players):
        hands[(starting_seat + index) % players].append(deck[index])
    up = HAND_SIZE * players
    return new_hand(rules, deck, list(deck[up + 1:]), hands, [deck[up]], starting_seat)


def new_hand(rules: RulesKart, deck: Sequence[Card], stock: Sequence[Card], hands: Sequence[Sequence[Card]],
             discards: Sequence[Card], starting_seat: int) -> HandKart:
    """A hand as dealt (``deal_from_deck`` calls this; tests use it to set exact hands)."""
    if len(hands) != rules.players:
        raise ValueError(f"this table is {rules.players} players")
    if not discards:
        raise ValueError("one card face up starts the discard pile")
    state = HandKart(rules=rules, deck=list(deck), stock=list(stock), discards=list(discards),
                     hands=[list(cards) for cards in hands], starting_seat=starting_seat, turn=starting_seat)
    state.events.append({"move": 0, "type": "deal", "starting_seat": starting_seat,
                         "discard_top": format_card(state.discards[-1]), "stock_count": len(state.stock)})
    return state


def reshuffle_order(deck: Sequence[Card], cards: Sequence[Card], number: int) -> list[Card]:
    """Rule 7's new stock from ``cards`` (the discard pile under its top, bottom first), top first:
    sorted by ``sha256("<canonical deck> reshuffle <number> <i>")`` (see the module doc)."""
    text = format_cards(deck)

    def key(index: int) -> tuple[str, int]:
        return hashlib.sha256(f"{text} reshuffle {number} {index}".encode()).hexdigest(), index

    return [cards[index] for index in sorted(range(len(cards)), key=key)]


# -- the turn (rules 5 and 6) ----------------------------------------------------------------------------


def _cards_arg(value: Any) -> list[Card]:
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    if not isinstance(value, list | tuple) or not value:
        raise EngineError("a meld is a list of cards", code="bad_turn")
    return [card_arg(token) for token in value]


class _Turn:
    """One turn being played on a copy of the state; any refusal drops the copy."""

    def __init__(self, state: HandKart, seat: int):
        self.state = state
        self.seat = seat
        self.cards = state.hands[seat]
        self.public: list[dict[str, Any]] = []

    def take(self, cards: Sequence[Card]) -> None:
        missing = Counter(cards) - Counter(self.cards)
        if missing:
            names = format_cards(sorted(missing.elements(), key=sort_key))
            raise EngineError(f"not in your hand: {names}", code="card_not_in_hand", cards=names)
        for card in cards:
            self.cards.remove(card)

    def meld(self, value: Any) -> None:
        cards = _cards_arg(value)
        reading = read_meld(cards)
        self.take(cards)
        meld = TableMeld(self.state.next_meld_id, self.seat, reading.kind, reading.cards)
        self.state.melds.append(meld)
        self.state.next_meld_id += 1
        self.public.append({"type": "meld", "meld": meld.id, "kind": meld.kind,
                            "cards": [format_card(card) for card in meld.cards]})

    def lay_off(self, meld_id: Any, value: Any) -> None:
        meld = self.state.meld(meld_id)
        card = card_arg(value)
        self.take([card])
        reading = extended(meld.kind, meld.cards, card)
        if reading is None:
            raise EngineError(f"{format_card(card)} does not fit meld {meld.id}", code="not_layable",
                              card=format_card(card), meld=meld.id)
        index = self.state.melds.index(meld)
        self.state.melds[index] = replace(meld, cards=reading.cards)
        self.public.append({"type": "lay_off", "meld": meld.id, "card": format_card(card)})


def _check_turn_shape(turn: Any) -> None:
    if not isinstance(turn, dict) or not set(turn) <= TURN_KEYS:
        extra = sorted(map(str, set(turn) - TURN_KEYS)) if isinstance(turn, dict) else []
        raise EngineError(f"a turn is draw, actions and discard{': not ' + ', '.join(extra) if extra else ''}",
                          code="bad_turn")


def _check_can_play(state: HandKart, seat: Any) -> int:
    if state.is_over:
        raise EngineError("the hand is over", code="hand_over")
    seat = _seat_arg(seat, state.players)
    if seat != state.turn:
        raise EngineError("it is not your turn", code="not_your_turn")
    return seat


def apply_turn(state: HandKart, seat: int, turn: dict[str, Any]) -> HandKart:
    """Check and play a whole turn at once, or refuse it with an ``EngineError`` and change nothing."""
    seat = _check_can_play(state, seat)
    _check_turn_shape(turn)
    new = _clone(state)
    play = _Turn(new, seat)
    source = turn.get("draw")
    taken: Card | None = None
    if state.drawn:
        if source is not None:
            raise EngineError("you have drawn this turn already", code="already_drew")
    elif source not in SOURCES:
        raise EngineError("draw from the stock or take the discard pile's top first", code="must_draw")
    elif source == DISCARD:
        if not new.discards:
            raise EngineError("the discard pile is empty", code="discard_pile_empty")
        taken = new.discards.pop()
        play.cards.append(taken)
    else:
        if not new.stock:
            raise EngineError("the stock is empty", code="stock_empty")
        play.cards.append(new.stock.pop(0))

    actions = turn.get("actions") or []
    if not isinstance(actions, list | tuple):
        raise EngineError("actions is a list", code="bad_turn")
    for action in actions:
        kind = action.get("type") if isinstance(action, dict) else None
        if kind not in ACTION_KEYS:
            raise EngineError(f"unknown table action {kind!r}: meld or lay_off", code="bad_action",
                              action=repr(kind))
        if not set(action) <= ACTION_KEYS[kind]:
            raise EngineError(f"{kind} takes {', '.join(sorted(ACTION_KEYS[kind] - {'type'}))}", code="bad_turn")
        if kind == "meld":
            play.meld(action.get("cards"))
        else:
            play.lay_off(action.get("meld"), action.get("card"))
    if turn.get("discard") is None:
        raise EngineError("a turn always ends with a discard", code="must_discard")
    if not play.cards:
        raise EngineError("keep one card to discard: going out is discarding your last card", code="must_discard")
    card = card_arg(turn["discard"])
    if taken is not None and card == taken:
        raise EngineError(f"you took {format_card(taken)} from the discard pile: discard another card",
                          code="discard_taken", card=format_card(taken))
    play.take([card])
    return _finish_turn(state, new, seat, source, taken, card, play.public)


def _finish_turn(state: HandKart, new: HandKart, seat: int, source: str | None, taken: Card | None, card: Card,
                 public: list[dict[str, Any]]) -> HandKart:
    going_out = not new.hands[seat]
    rummy = going_out and not state.melded[seat]
    new.discards.append(card)
    if public:
        new.melded[seat] = True
    new.move += 1
    event: dict[str, Any] = {"move": new.move, "type": "turn", "seat": seat, "draw": source, "actions": public,
                             "discard": format_card(card)}
    if taken is not None:
        event["took"] = format_card(taken)
    new.events.append(event)
    new.drawn = False
    if going_out:
        sheet = scoring.hand_sheet(new.hands, winner=seat, rummy=rummy)
        _end(new, ResultKart(reason=FINISHED, winner=seat, rummy=rummy, scores=tuple(row["score"] for row in sheet),
                             sheet=tuple(sheet)))
        return new
    if not new.stock:
        new.stock_outs += 1
        under = new.discards[:-1]
        if new.stock_outs >= STOCK_OUTS_TO_END or not under:
            # (Nothing under the top cannot happen: the turn drew from the stock, so the card that was
            # on top when it began is still in the pile. Were it so, the stock would be out again at once.)
            sheet = scoring.hand_sheet(new.hands, winner=None)
            _end(new, ResultKart(reason=STOCK_OUT, scores=tuple(row["score"] for row in sheet), sheet=tuple(sheet)))
            return new
        new.stock = reshuffle_order(new.deck, under, new.stock_outs)
        new.discards = new.discards[-1:]
        new.move += 1
        new.events.append({"move": new.move, "type": "reshuffle", "number": new.stock_outs,
                           "stock_count": len(new.stock), "discard_top": format_card(card)})
    new.turn = (seat + 1) % new.players
    return new


def draw_from_stock(state: HandKart, seat: int) -> HandKart:
    """The first half of a turn played in two messages: the stock's top into the hand. The other
    seats see that a card was drawn (never which); the drawer sees it and sends the rest."""
    seat = _check_can_play(state, seat)
    if state.drawn:
        raise EngineError("you have drawn this turn already", code="already_drew")
    if not state.stock:
        raise EngineError("the stock is empty", code="stock_empty")
    new = _clone(state)
    new.hands[seat].append(new.stock.pop(0))
    new.drawn = True
    new.move += 1
    new.events.append({"move": new.move, "type": "draw", "seat": seat, "source": STOCK})
    return new


def _end(state: HandKart, result: ResultKart) -> None:
    state.result = result
    state.move += 1
    state.events.append({"move": state.move, "type": "hand_end", **result.to_dict()})


# -- what a seat may do and see ------------------------------------------------------------------------------


def legal_actions(state: HandKart, seat: int) -> list[str]:
    """The seat to play may draw from the stock (then send the rest) or send its whole turn."""
    if state.is_over or seat != state.turn:
        return []
    if state.drawn or not state.stock:
        return ["turn"]
    return ["draw", "turn"]


def meld_public(meld: TableMeld) -> dict[str, Any]:
    reading = read_meld(meld.cards, meld.kind)
    return {"id": meld.id, "owner": meld.owner, "kind": meld.kind, "cards": [format_card(c) for c in reading.cards],
            "ace_high": reading.ace_high, "value": reading.value}


def view_for(state: HandKart, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may know; None is a watcher (no hand). JSON-ready, cards in notation.

    Its own hand only; every meld with its owner; the discard pile's top and size; the stock's
    count; everyone's card count. Never another hand, the stock's order or the deck.
    """
    if seat is not None:
        seat = _seat_arg(seat, state.players)
    top = state.discard_top
    result = state.result
    own = state.hands[seat] if seat is not None else None
    return {
        "game": GAME,
        "seat": seat,
        "players": state.players,
        "move": state.move,
        "rules": state.rules.to_dict(),
        "starting_seat": state.starting_seat,
        "turn": state.turn,
        "drawn": state.drawn,
        "drawn_card": format_card(own[-1]) if own is not None and state.drawn and seat == state.turn else None,
        "hand": [format_card(card) for card in own] if own is not None else None,
        "hand_value": hand_value(own) if own is not None else None,
        "card_counts": [len(cards) for cards in state.hands],
        "stock_count": len(state.stock),
        "stock_outs": state.stock_outs,
        "discard_top": format_card(top) if top is not None else None,
        "discard_count": len(state.discards),
        "melds": [meld_public(meld) for meld in state.melds],
        "next_meld_id": state.next_meld_id,
        "melded": list(state.melded),
        "last_turn": next((dict(event) for event in reversed(state.events) if event["type"] == "turn"), None),
        "actions": legal_actions(state, seat) if seat is not None else [],
        "result": result.to_dict() if result is not None else None,
    }


# -- the turn clock -------------------------------------------------------------------------------------


def clock_discard(cards: Sequence[Card]) -> Card:
    """The highest card: the most penalty points, a higher rank on a tie (K before Q), then the suit order."""
    return max(cards, key=lambda card: (card_value(card), rank_of(card), -sort_key(card)[0]))


def clock_turn(state: HandKart, seat: int) -> dict[str, Any]:
    """The turn clock's turn for an absent player (RULES.md "Absent players never win"): draw from
    the stock, discard the highest card; never meld or lay off (so it never goes out)."""
    cards = list(state.hands[seat])
    if not state.drawn and state.stock:
        cards.append(state.stock[0])
    return {"draw": None if state.drawn else STOCK, "actions": [], "discard": format_card(clock_discard(cards))}


def clock_move(state: HandKart, seat: int) -> HandKart:
    return apply_turn(state, seat, clock_turn(state, seat))


__all__ = [
    "DISCARD", "FINISHED", "KINDS", "STOCK", "STOCK_OUT", "HandKart", "ResultKart", "TableMeld", "apply_turn",
    "clock_move", "clock_turn", "deal_from_deck", "draw_from_stock", "legal_actions", "new_hand",
    "reshuffle_order", "view_for",
]
