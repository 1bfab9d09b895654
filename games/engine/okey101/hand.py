"""One hand of 101 Okey: the deal, the whole turn as one action, and what a seat may see.

``apply_turn(state, seat, turn)`` takes a ``Hand101`` and returns a new one, or raises
``EngineError`` and leaves its input exactly as it was (every change is made on a copy). See the
package docstring for why a turn is one action.

A turn (a JSON-ready dict; tiles in notation, ``"K5"``, or as ints)::

    {"draw": "pile" | "discard",            # absent (or None) on the starter's first turn only
     "actions": [                           # in order; any number, also none
        {"type": "open", "melds": [["K10", "K11", "K12"], ...]},   # runs/groups ≥ 101, or ≥ 5 pairs
        {"type": "lay_down", "melds": [...]},                      # more melds of the opening's kind
        {"type": "lay_off", "meld": 3, "tile": "K13"},             # onto any run or group on the table
        {"type": "swap", "meld": 3, "tile": "K11"},                # the real tile in, the okey to the rack
     ],
     "discard": "S2"}                       # always; the last tile discarded finishes the hand

A meld may be given as a list of tiles, a string (``"K10 K11 K12"``) or ``{"tiles": [...], "kind":
"group"}`` to choose the kind of an ambiguous set (``K5 okey okey``); without a kind the server
reads it at its highest value. Meld ids count up from 1 in the order melds reach the table
(``next_meld_id`` is in every view, so a turn may lay off onto a meld it lays itself).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..deck import deal_racks
from ..errors import EngineError
from ..tiles import (
    FALSE_JOKER,
    DealtHand,
    NotationError,
    Tile,
    format_tile,
    parse_tile,
    sort_key,
)
from . import scoring
from .melds import GROUP, KINDS, PAIR, RUN, Reading, extended, read_meld, swapped, tile_value
from .rules import PLAYERS, Rules101

STATE_VERSION = 1
GAME = "okey101"

#: Rule 1: 21 tiles each, the starting player 22.
RACK_SIZE = 21
PILE = "pile"
DISCARD = "discard"
SOURCES = (PILE, DISCARD)

MELDS = scoring.MELDS
PAIRS = scoring.PAIRS
#: Rule 7: the opening thresholds (rule 14 raises them at a rising table).
OPENING_VALUE = 101
OPENING_PAIRS = 5

FINISHED = "finished"
PILE_OUT = "pile_out"
CANCELLED = "cancelled"      # rule 12: all four opened with pairs; dealt again, nothing scored

OKEY_DISCARD = "okey_discard"
ISLEK = "islek"

TURN_KEYS = frozenset({"draw", "actions", "discard"})
ACTION_KEYS = {
    "open": frozenset({"type", "melds"}),
    "lay_down": frozenset({"type", "melds"}),
    "lay_off": frozenset({"type", "meld", "tile"}),
    "swap": frozenset({"type", "meld", "tile"}),
}


@dataclass(frozen=True)
class TableMeld:
    """A meld on the table: who laid it, its kind (kept for good) and its tiles (a set)."""

    id: int
    owner: int
    kind: str
    tiles: tuple[Tile, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "owner": self.owner, "kind": self.kind, "tiles": list(self.tiles)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableMeld:
        return cls(id=data["id"], owner=data["owner"], kind=data["kind"], tiles=tuple(data["tiles"]))


@dataclass(frozen=True)
class Result101:
    """How the hand ended and what every seat writes for it (``scores``, penalties included)."""

    reason: str
    scores: tuple[int, ...]
    finisher: int | None = None
    okey_finish: bool = False
    pairs_finish: bool = False
    elden: bool = False
    #: The score sheet's rows (``scoring.hand_sheet``): how each score was made up.
    sheet: tuple[dict[str, Any], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"reason": self.reason, "scores": list(self.scores), "finisher": self.finisher,
                "okey_finish": self.okey_finish, "pairs_finish": self.pairs_finish, "elden": self.elden,
                "sheet": [dict(row) for row in self.sheet]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Result101:
        return cls(reason=data["reason"], scores=tuple(data["scores"]), finisher=data["finisher"],
                   okey_finish=data["okey_finish"], pairs_finish=data["pairs_finish"], elden=data["elden"],
                   sheet=tuple(dict(row) for row in data.get("sheet", ())))


@dataclass
class Hand101(DealtHand):
    """Everything about one hand. Server-side only: clients get ``view_for``."""

    rules: Rules101
    deck: list[Tile]                     # the committed order the hand was dealt from
    pile: list[Tile]                     # face-down; pile[0] is the top
    racks: list[list[Tile]]
    indicator: Tile                      # out of play in 101 (rule 2)
    starting_seat: int
    turn: int
    turns_done: list[int] = field(default_factory=lambda: [0] * PLAYERS)
    discards: list[list[Tile]] = field(default_factory=lambda: [[] for _ in range(PLAYERS)])
    discard_log: list[list[int]] = field(default_factory=list)   # [seat, tile, taken_by or -1]
    takeable: bool = False               # the previous seat's top discard may be drawn now
    drawn: bool = False                  # the seat to play drew from the pile already (``draw_from_pile``)
    melds: list[TableMeld] = field(default_factory=list)
    next_meld_id: int = 1
    opened: list[str | None] = field(default_factory=lambda: [None] * PLAYERS)     # MELDS, PAIRS or None
    opening_totals: list[int | None] = field(default_factory=lambda: [None] * PLAYERS)
    penalties: list[dict[str, Any]] = field(default_factory=list)  # {seat, reason, tile, points, move}
    move: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)
    result: Result101 | None = None

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def previous_seat(self) -> int:
        return (self.turn - 1) % self.players

    @property
    def first_turn(self) -> bool:
        """The starter's first turn: 22 tiles, no draw (rule 1)."""
        return self.turn == self.starting_seat and self.turns_done[self.starting_seat] == 0

    @property
    def available_discard(self) -> Tile | None:
        if self.is_over or not self.takeable:
            return None
        pile = self.discards[self.previous_seat]
        return pile[-1] if pile else None

    def located_tiles(self) -> list[Tile]:
        """Every tile wherever it lies: always the 106."""
        found = [tile for rack in self.racks for tile in rack] + list(self.pile)
        found += [tile for pile in self.discards for tile in pile]
        found += [tile for meld in self.melds for tile in meld.tiles]
        return [*found, self.indicator]

    def meld(self, meld_id: Any) -> TableMeld:
        for meld in self.melds:
            if meld.id == meld_id and type(meld_id) is int:
                return meld
        raise EngineError(f"there is no meld {meld_id!r} on the table", code="no_such_meld", meld=repr(meld_id))

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": STATE_VERSION, "game": GAME, "rules": self.rules.to_dict(), "deck": list(self.deck),
            "pile": list(self.pile), "racks": [list(rack) for rack in self.racks], "indicator": self.indicator,
            "starting_seat": self.starting_seat, "turn": self.turn, "turns_done": list(self.turns_done),
            "discards": [list(pile) for pile in self.discards],
            "discard_log": [list(entry) for entry in self.discard_log], "takeable": self.takeable,
            "drawn": self.drawn, "melds": [meld.to_dict() for meld in self.melds], "next_meld_id": self.next_meld_id,
            "opened": list(self.opened), "opening_totals": list(self.opening_totals),
            "penalties": [dict(penalty) for penalty in self.penalties], "move": self.move,
            "events": [dict(event) for event in self.events],
            "result": self.result.to_dict() if self.result is not None else None,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Hand101:
        if data.get("version") != STATE_VERSION or data.get("game") != GAME:
            raise ValueError(f"not a 101 hand state (version {data.get('version')!r}, game {data.get('game')!r})")
        return cls(
            rules=Rules101.from_dict(data["rules"]), deck=list(data["deck"]), pile=list(data["pile"]),
            racks=[list(rack) for rack in data["racks"]], indicator=data["indicator"],
            starting_seat=data["starting_seat"], turn=data["turn"], turns_done=list(data["turns_done"]),
            discards=[list(pile) for pile in data["discards"]],
            discard_log=[list(entry) for entry in data["discard_log"]], takeable=data["takeable"],
            drawn=data.get("drawn", False), melds=[TableMeld.from_dict(meld) for meld in data["melds"]], next_meld_id=data["next_meld_id"],
            opened=list(data["opened"]), opening_totals=list(data["opening_totals"]),
            penalties=[dict(penalty) for penalty in data["penalties"]], move=data["move"],
            events=[dict(event) for event in data["events"]],
            result=Result101.from_dict(data["result"]) if data["result"] is not None else None,
        )


def _clone(state: Hand101) -> Hand101:
    return replace(
        state, deck=list(state.deck), pile=list(state.pile), racks=[list(rack) for rack in state.racks],
        turns_done=list(state.turns_done), discards=[list(pile) for pile in state.discards],
        discard_log=[list(entry) for entry in state.discard_log], melds=list(state.melds),
        opened=list(state.opened), opening_totals=list(state.opening_totals),
        penalties=[dict(penalty) for penalty in state.penalties], events=list(state.events),
    )


# -- the deal (rule 1) ---------------------------------------------------------------------------------


def deal_from_deck(deck: Sequence[Tile], rules: Rules101, *, starting_seat: int = 0) -> Hand101:
    """Deal a hand from a committed deck order (top first); the same deck, the same hand.

    The indicator is the first tile from the top that is not a false joker (a false joker turned up
    goes under the pile, as in classic Okey). Then, in play order from the starting seat, each seat
    takes its tiles from the top: 22 for the starter, 21 for the others; 20 stay in the pile.
    """
    pile, racks, indicator = deal_racks(deck, players=PLAYERS, starting_seat=starting_seat, rack_size=RACK_SIZE)
    return new_hand(rules, deck, pile, racks, indicator, starting_seat)


def new_hand(rules: Rules101, deck: Sequence[Tile], pile: Sequence[Tile], racks: Sequence[Sequence[Tile]],
             indicator: Tile, starting_seat: int) -> Hand101:
    """A hand as dealt (``deal_from_deck`` calls this; tests use it to set exact racks)."""
    if len(racks) != PLAYERS:
        raise ValueError("101 is played by four")
    if indicator == FALSE_JOKER:
        raise ValueError("a false joker cannot be the indicator")
    state = Hand101(rules=rules, deck=list(deck), pile=list(pile), racks=[list(rack) for rack in racks],
                    indicator=indicator, starting_seat=starting_seat, turn=starting_seat)
    state.events.append({"move": 0, "type": "deal", "starting_seat": starting_seat,
                         "indicator": format_tile(indicator), "okey": format_tile(state.okey)})
    return state


# -- reading a turn ------------------------------------------------------------------------------------


def tile_arg(value: Any) -> Tile:
    if isinstance(value, str):
        try:
            return parse_tile(value)
        except NotationError as error:
            raise EngineError(str(error), code="bad_tile", tile=value) from None
    if type(value) is int and 0 <= value <= FALSE_JOKER:
        return value
    raise EngineError(f"{value!r} is not a tile", code="bad_tile", tile=repr(value))


def _meld_arg(value: Any) -> tuple[list[Tile], str | None]:
    kind = None
    if isinstance(value, dict):
        if not set(value) <= {"tiles", "kind"} or "tiles" not in value:
            raise EngineError("a meld is {\"tiles\": [...], \"kind\": ...}", code="bad_turn")
        kind = value.get("kind")
        if kind is not None and kind not in KINDS:
            raise EngineError(f"unknown meld kind {kind!r}: run, group or pair", code="bad_meld", kind=repr(kind))
        value = value["tiles"]
    if isinstance(value, str):
        # "group: K5 J J" chooses the kind in a flat form (the socket's frames are 4 levels deep at most).
        head, colon, rest = value.partition(":")
        if colon:
            kind, value = head.strip().lower(), rest
            if kind not in KINDS:
                raise EngineError(f"unknown meld kind {head.strip()!r}: run, group or pair", code="bad_meld",
                                  kind=repr(head.strip()))
        value = value.replace(",", " ").split()
    if not isinstance(value, list | tuple):
        raise EngineError("a meld is a list of tiles", code="bad_turn")
    return [tile_arg(token) for token in value], kind


def _seat_arg(seat: Any) -> int:
    if type(seat) is not int or not 0 <= seat < PLAYERS:
        raise EngineError(f"seat {seat!r} is not at this table", code="bad_seat", seat=repr(seat))
    return seat


def opening_needed(state: Hand101) -> dict[str, int]:
    """What an opening must reach now (rule 7; rule 14 at a rising table: the best so far + 1)."""
    needed = {MELDS: OPENING_VALUE, PAIRS: OPENING_PAIRS}
    if state.rules.rising_opening:
        for kind in (MELDS, PAIRS):
            best = [total for opened, total in zip(state.opened, state.opening_totals, strict=True)
                    if opened == kind and total is not None]
            if best:
                needed[kind] = max(needed[kind], max(best) + 1)
    return needed


class _Turn:
    """One turn being played on a copy of the state; any refusal drops the copy."""

    def __init__(self, state: Hand101, seat: int):
        self.state = state
        self.seat = seat
        self.rack = state.racks[seat]
        self.placed: Counter[Tile] = Counter()   # tiles this turn put on the table
        self.layoffs = 0                          # lay-offs and swaps (rule 8's limit for pairs openers)
        self.opened_now: str | None = None
        self.opening_total = 0
        self.public: list[dict[str, Any]] = []

    @property
    def okey(self) -> Tile:
        return self.state.okey

    def take_from_rack(self, tiles: Sequence[Tile]) -> None:
        missing = Counter(tiles) - Counter(self.rack)
        if missing:
            names = " ".join(format_tile(tile) for tile in sorted(missing.elements(), key=sort_key))
            raise EngineError(f"not on your rack: {names}", code="tile_not_in_rack", tiles=names)
        for tile in tiles:
            self.rack.remove(tile)

    def read(self, melds: Any) -> list[tuple[list[Tile], Reading]]:
        if not isinstance(melds, list | tuple) or not melds:
            raise EngineError("lay down at least one meld", code="bad_turn")
        read = []
        for spec in melds:
            tiles, kind = _meld_arg(spec)
            read.append((tiles, read_meld(tiles, self.okey, kind)))
        return read

    @staticmethod
    def laid(read: list[tuple[list[Tile], Reading]]) -> list[dict[str, Any]]:
        """The melds as the turn's public event names them: enough to replay the turn (the proof)."""
        return [{"kind": reading.kind, "tiles": [format_tile(tile) for tile in tiles]} for tiles, reading in read]

    def lay(self, read: list[tuple[list[Tile], Reading]]) -> list[int]:
        self.take_from_rack([tile for tiles, _ in read for tile in tiles])
        ids = []
        for tiles, reading in read:
            meld = TableMeld(self.state.next_meld_id, self.seat, reading.kind, tuple(tiles))
            self.state.melds.append(meld)
            self.state.next_meld_id += 1
            self.placed.update(tiles)
            ids.append(meld.id)
        return ids

    def require_opened(self, what: str) -> str:
        opened = self.state.opened[self.seat]
        if opened is None:
            raise EngineError(f"open your hand before you {what}", code="not_opened")
        return opened

    def open(self, melds: Any) -> None:
        if self.state.opened[self.seat] is not None:
            raise EngineError("you opened already this hand", code="already_opened")
        read = self.read(melds)
        pairs = [reading.kind == PAIR for _, reading in read]
        if any(pairs) and not all(pairs):
            raise EngineError("open with runs and groups or with pairs, never both", code="mixed_opening")
        kind = PAIRS if all(pairs) else MELDS
        ids = self.lay(read)
        total = len(read) if kind == PAIRS else sum(reading.value for _, reading in read)
        self.state.opened[self.seat] = kind
        self.state.opening_totals[self.seat] = total
        self.opened_now = kind
        self.opening_total = total
        self.public.append({"type": "open", "kind": kind, "melds": ids, "laid": self.laid(read), "total": total})

    def lay_down(self, melds: Any) -> None:
        opened = self.require_opened("lay down melds")
        read = self.read(melds)
        for _, reading in read:
            if opened == PAIRS and reading.kind != PAIR:
                raise EngineError("you opened with pairs: lay down only pairs", code="wrong_kind")
            if opened == MELDS and reading.kind == PAIR:
                raise EngineError("you opened with runs and groups: pairs never go down", code="wrong_kind")
        self.public.append({"type": "lay_down", "melds": self.lay(read), "laid": self.laid(read)})

    def count_layoff(self) -> None:
        limit = self.state.rules.pairs_layoff_limit
        if self.state.opened[self.seat] == PAIRS and limit is not None and self.layoffs >= limit:
            raise EngineError(f"a pairs opener lays off at most {limit} tiles a turn", code="layoff_limit",
                              limit=limit)
        self.layoffs += 1

    def replace_meld(self, meld: TableMeld, tiles: list[Tile]) -> None:
        index = self.state.melds.index(meld)
        self.state.melds[index] = replace(meld, tiles=tuple(tiles))

    def lay_off(self, meld_id: Any, tile_value_: Any) -> None:
        self.require_opened("lay off")
        meld = self.state.meld(meld_id)
        tile = tile_arg(tile_value_)
        if meld.kind == PAIR:
            raise EngineError("nothing is laid off on a pair", code="not_layable", tile=format_tile(tile))
        self.take_from_rack([tile])
        if extended(meld.kind, meld.tiles, tile, self.okey) is None:
            raise EngineError(f"{format_tile(tile)} does not fit meld {meld.id}", code="not_layable",
                              tile=format_tile(tile), meld=meld.id)
        self.count_layoff()
        self.replace_meld(meld, [*meld.tiles, tile])
        self.placed[tile] += 1
        self.public.append({"type": "lay_off", "meld": meld.id, "tile": format_tile(tile)})

    def swap(self, meld_id: Any, tile_value_: Any) -> None:
        self.require_opened("take an okey")
        meld = self.state.meld(meld_id)
        tile = tile_arg(tile_value_)
        self.take_from_rack([tile])
        if swapped(meld.kind, meld.tiles, tile, self.okey) is None:
            raise EngineError(
                f"{format_tile(tile)} does not free an okey from meld {meld.id} (in a run: the tile the okey "
                "stands for; in a group: only when real tiles then fill all four colours; never a pair)",
                code="bad_swap", tile=format_tile(tile), meld=meld.id)
        self.count_layoff()
        rest = list(meld.tiles)
        rest.remove(self.okey)
        self.replace_meld(meld, [*rest, tile])
        self.rack.append(self.okey)
        self.placed[tile] += 1
        self.public.append({"type": "swap", "meld": meld.id, "tile": format_tile(tile)})


def is_islek(tile: Tile, melds: Sequence[TableMeld], okey: Tile) -> bool:
    """Rule 9: could ``tile`` be laid off on a run or group on the table as an extra tile?
    (Putting it in for an okey is a swap, not a lay-off: that does not count.)"""
    return any(extended(meld.kind, meld.tiles, tile, okey) is not None for meld in melds)


def discard_penalty(state: Hand101, tile: Tile) -> str | None:
    """The reason a (non-finishing) discard of ``tile`` costs 101 now, or None. An okey that is also
    işlek costs once."""
    rules = state.rules
    if tile == state.okey and rules.okey_discard_penalty:
        return OKEY_DISCARD
    if rules.islek_penalty and is_islek(tile, state.melds, state.okey):
        return ISLEK
    return None


# -- the turn (rules 5 to 10) ------------------------------------------------------------------------


def apply_turn(state: Hand101, seat: int, turn: dict[str, Any]) -> Hand101:
    """Check and play a whole turn at once, or refuse it with an ``EngineError`` and change nothing."""
    if state.is_over:
        raise EngineError("the hand is over", code="hand_over")
    seat = _seat_arg(seat)
    if seat != state.turn:
        raise EngineError("it is not your turn", code="not_your_turn")
    if not isinstance(turn, dict) or not set(turn) <= TURN_KEYS:
        extra = sorted(set(turn) - TURN_KEYS) if isinstance(turn, dict) else []
        raise EngineError(f"a turn is draw, actions and discard{': not ' + ', '.join(map(str, extra)) if extra else ''}",
                          code="bad_turn")
    new = _clone(state)
    play = _Turn(new, seat)
    source = turn.get("draw")
    taken: Tile | None = None
    if state.drawn:
        # Drawn already (``draw_from_pile``): the rest of the turn is played on that tile.
        if source is not None:
            raise EngineError("you have drawn this turn already", code="already_drew")
    elif state.first_turn:
        if source is not None:
            raise EngineError("the starting player holds 22 and discards without drawing", code="no_draw_first_turn")
    elif source not in SOURCES:
        raise EngineError("draw from the pile or take the last discard first", code="must_draw")
    elif source == DISCARD:
        taken = state.available_discard
        if taken is None:
            raise EngineError("there is no discard you may take", code="discard_pile_empty")
        new.discards[state.previous_seat].pop()
        new.discard_log[-1][2] = seat
        play.rack.append(taken)
    else:
        if not new.pile:
            raise EngineError("the pile is empty", code="pile_empty")
        play.rack.append(new.pile.pop(0))

    actions = turn.get("actions") or []
    if not isinstance(actions, list | tuple):
        raise EngineError("actions is a list", code="bad_turn")
    for action in actions:
        kind = action.get("type") if isinstance(action, dict) else None
        if kind not in ACTION_KEYS:
            raise EngineError(f"unknown table action {kind!r}", code="bad_action", action=repr(kind))
        if not set(action) <= ACTION_KEYS[kind]:
            raise EngineError(f"{kind} takes {', '.join(sorted(ACTION_KEYS[kind] - {'type'}))}", code="bad_turn")
        if kind == "open":
            play.open(action.get("melds"))
        elif kind == "lay_down":
            play.lay_down(action.get("melds"))
        elif kind == "lay_off":
            play.lay_off(action.get("meld"), action.get("tile"))
        else:
            play.swap(action.get("meld"), action.get("tile"))
    if "discard" not in turn or turn["discard"] is None:
        raise EngineError("a turn always ends with a discard", code="must_discard")
    if not play.rack:
        raise EngineError("the last tile never goes into a meld: keep one to discard", code="must_discard")
    tile = tile_arg(turn["discard"])
    play.take_from_rack([tile])
    finishing = not play.rack
    elden = (finishing and play.opened_now is not None and play.layoffs == 0
             and all(opened is None for other, opened in enumerate(state.opened) if other != seat))
    if play.opened_now is not None and not elden:
        needed = opening_needed(state)[play.opened_now]
        if play.opening_total < needed:
            what = "pairs" if play.opened_now == PAIRS else "points"
            raise EngineError(f"an opening needs {needed} {what}; yours has {play.opening_total}",
                              code="opening_too_low", needed=needed, total=play.opening_total, kind=play.opened_now)
    if taken is not None and play.placed[taken] == 0:
        raise EngineError(f"you took {format_tile(taken)}: use it on the table this turn, or draw from the pile",
                          code="discard_unused", tile=format_tile(taken))

    new.move += 1
    penalties = []
    if not finishing:
        reason = discard_penalty(new, tile)
        if reason is not None:
            penalty = {"seat": seat, "reason": reason, "tile": format_tile(tile),
                       "points": scoring.PENALTY_POINTS, "move": new.move}
            new.penalties.append(penalty)
            penalties.append(penalty)
    new.discards[seat].append(tile)
    new.discard_log.append([seat, tile, -1])
    new.turns_done[seat] += 1
    event: dict[str, Any] = {"move": new.move, "type": "turn", "seat": seat, "draw": source,
                             "actions": play.public, "discard": format_tile(tile), "penalties": penalties}
    if taken is not None:
        event["took"] = format_tile(taken)
    new.events.append(event)

    # Rule 12: all four opened with pairs cancels the hand, even when this turn also finishes it.
    if all(opened == PAIRS for opened in new.opened):
        _end(new, Result101(reason=CANCELLED, scores=(0,) * PLAYERS))
    elif finishing:
        okey_finish = tile == new.okey
        sheet = scoring.hand_sheet(new.racks, new.opened, new.okey, new.rules, finisher=seat,
                                   okey_finish=okey_finish, elden=elden, penalties=new.penalties)
        _end(new, Result101(
            reason=FINISHED, finisher=seat, okey_finish=okey_finish, pairs_finish=new.opened[seat] == PAIRS,
            elden=elden, scores=tuple(row["score"] for row in sheet), sheet=tuple(sheet),
        ))
    elif (source == PILE or state.drawn) and not new.pile:
        sheet = scoring.hand_sheet(new.racks, new.opened, new.okey, new.rules, finisher=None, penalties=new.penalties)
        _end(new, Result101(reason=PILE_OUT, scores=tuple(row["score"] for row in sheet), sheet=tuple(sheet)))
    else:
        new.turn = (seat + 1) % PLAYERS
        new.takeable = True
    new.drawn = False
    return new


def draw_from_pile(state: Hand101, seat: int) -> Hand101:
    """The first half of a turn played in two messages: draw the pile's top into the rack.

    A pile draw cannot be staged on the client (the tile is unknown until drawn), so it is a fact
    of its own: the other seats see that a tile was drawn (never which), the drawer sees it in the
    rack and then sends the rest of the turn (``apply_turn`` without ``draw``). Taking the previous
    discard stays inside the turn: that tile is known, so the client stages it and "geri bırak"
    (rule 6) is only the client forgetting it.
    """
    if state.is_over:
        raise EngineError("the hand is over", code="hand_over")
    seat = _seat_arg(seat)
    if seat != state.turn:
        raise EngineError("it is not your turn", code="not_your_turn")
    if state.first_turn:
        raise EngineError("the starting player holds 22 and discards without drawing", code="no_draw_first_turn")
    if state.drawn:
        raise EngineError("you have drawn this turn already", code="already_drew")
    if not state.pile:
        raise EngineError("the pile is empty", code="pile_empty")
    new = _clone(state)
    new.racks[seat].append(new.pile.pop(0))
    new.drawn = True
    new.takeable = False
    new.move += 1
    new.events.append({"move": new.move, "type": "draw", "seat": seat, "source": PILE})
    return new


def _end(state: Hand101, result: Result101) -> None:
    state.result = result
    state.takeable = False
    # An event of its own, with its own number: the site keeps one Move row per numbered event.
    state.move += 1
    state.events.append({"move": state.move, "type": "hand_end", **result.to_dict()})


# -- what a seat may do and see (rule 15) ----------------------------------------------------------------


def legal_actions(state: Hand101, seat: int) -> list[str]:
    """The seat to play sends one ``turn``; nobody else may act."""
    if state.is_over or seat != state.turn:
        return []
    if state.first_turn or state.drawn or not state.pile:
        return ["turn"]
    return ["draw", "turn"]


def meld_public(meld: TableMeld, okey: Tile) -> dict[str, Any]:
    reading = read_meld(meld.tiles, okey, meld.kind)
    ordered = sorted(meld.tiles, key=lambda tile: (tile == okey, sort_key(tile)))
    return {"id": meld.id, "owner": meld.owner, "kind": meld.kind, "tiles": [format_tile(t) for t in ordered],
            "value": reading.value, "stands_for": [format_tile(t) for t in reading.stands_for]}


def _penalty_public(penalty: dict[str, Any], with_tile: bool) -> dict[str, Any]:
    return {key: value for key, value in penalty.items() if with_tile or key != "tile"}


def view_for(state: Hand101, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may know; None is a watcher (no rack). JSON-ready, tiles in notation.

    Own rack only; every meld with its owner; who opened and with what total; the top of each
    discard pile; tile counts. The whole discard history only for a seat that opened with pairs.
    Never another rack, the pile or the deck.
    """
    if seat is not None:
        seat = _seat_arg(seat)
    available = state.available_discard
    result = state.result
    view: dict[str, Any] = {
        "game": GAME,
        "seat": seat,
        "players": state.players,
        "move": state.move,
        "rules": state.rules.to_dict(),
        "starting_seat": state.starting_seat,
        "turn": state.turn,
        "first_turn": state.first_turn and not state.is_over,
        # The seat to play drew from the pile already; its own view names the tile drawn.
        "drawn": state.drawn,
        "drawn_tile": format_tile(state.racks[seat][-1]) if state.drawn and seat == state.turn else None,
        "indicator": format_tile(state.indicator),
        "okey": format_tile(state.okey),
        "rack": [format_tile(tile) for tile in state.racks[seat]] if seat is not None else None,
        "rack_counts": [len(rack) for rack in state.racks],
        "pile_count": len(state.pile),
        "discard_tops": [format_tile(pile[-1]) if pile else None for pile in state.discards],
        "available_discard": format_tile(available) if available is not None else None,
        "melds": [meld_public(meld, state.okey) for meld in state.melds],
        "next_meld_id": state.next_meld_id,
        "opened": list(state.opened),
        "opening_totals": list(state.opening_totals),
        "opening_needed": opening_needed(state),
        # Who paid 101 and why; the tile only while it is the top of a pile (``last_turn``) or for a
        # pairs opener, who sees every discard anyway: a covered discard is nobody else's to see.
        "penalties": [_penalty_public(penalty, seat is not None and state.opened[seat] == PAIRS)
                      for penalty in state.penalties],
        "last_turn": next((dict(event) for event in reversed(state.events) if event["type"] == "turn"), None),
        "discard_history": None,
        "actions": legal_actions(state, seat) if seat is not None else [],
        "result": result.to_dict() if result is not None else None,
    }
    if seat is not None and state.opened[seat] == PAIRS:
        view["discard_history"] = [
            {"seat": by, "tile": format_tile(tile), "taken_by": taken if taken >= 0 else None}
            for by, tile, taken in state.discard_log
        ]
    return view


# -- the turn clock ---------------------------------------------------------------------------------------


def clock_turn(state: Hand101, seat: int) -> dict[str, Any]:
    """The turn clock's turn for an absent player (RULES.md "Absent players never win"): draw from the
    pile and discard the highest tile that costs no penalty (when there is one); never open."""
    rack = list(state.racks[seat])
    first = state.first_turn or state.drawn
    if not first and state.pile:
        rack.append(state.pile[0])

    def cost(tile: Tile) -> tuple[bool, bool, int, tuple[int, int]]:
        penalised = discard_penalty(state, tile) is not None
        return (penalised, tile == state.okey, -tile_value(tile, state.okey), sort_key(tile))

    choice = min(rack, key=cost)
    return {"draw": None if first else PILE, "actions": [], "discard": format_tile(choice)}


def clock_move(state: Hand101, seat: int) -> Hand101:
    return apply_turn(state, seat, clock_turn(state, seat))


__all__ = [
    "CANCELLED", "DISCARD", "FINISHED", "GROUP", "ISLEK", "MELDS", "OKEY_DISCARD", "PAIR", "PAIRS", "PILE",
    "PILE_OUT", "RUN", "Hand101", "Result101", "TableMeld", "apply_turn", "clock_move", "clock_turn",
    "deal_from_deck", "discard_penalty", "draw_from_pile", "is_islek", "legal_actions", "new_hand", "opening_needed", "view_for",
]
