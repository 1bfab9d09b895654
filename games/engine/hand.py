"""One hand of Okey as a state machine of pure functions.

Every action takes a ``HandState`` and returns a *new* one; an illegal action raises
``EngineError`` with a stable ``code`` and leaves its input untouched (the engine copies before it
changes anything). That is what lets the services layer lock a row, call the engine, and either
write the whole result or nothing.

Seats are ``0..n-1`` in play order: after seat ``i`` comes seat ``(i + 1) % n``, and the tile seat
``i`` discards lands in front of that next seat, who may take only the most recent one.

State that must never reach a client lives here too (``deck``, ``pile``, every rack): ``view_for``
is the only way a seat or a spectator sees a hand.

Options (RULES.md, source 000):

* ``indicator_binds_pair`` (göstergeyi çifte bağlama). *Interpretation*: a seat that showed the
  indicator, declared pairs and still holds the twin may, on a later turn (not the turn it showed
  in), take the face-up indicator into its rack **instead of drawing** (``take_indicator``); twin
  and indicator are then a real pair for a pairs finish. The source has the player park the twin on
  the indicator and take both back a round later; taking the indicator in place of a draw gives the
  same tile count and needs no extra hidden state.
* ``double_okey`` (çift okey atma). A seat holding both wild okeys that could finish by discarding
  one may instead lay that first okey on the centre (``lay_first_okey``); this ends its turn without
  a discard (so the next seat has no discard to take) and it keeps playing with 14 tiles. Finishing
  later by discarding the second okey is a double-okey finish (x4 in countdown scoring). If anyone
  else finishes first the laid okey is simply lost.

Other interpretations, all in one place:

* Showing the indicator: only the seat the twin was *dealt* to ("ilk el dağıtıldığında gelirse"),
  during its own first turn, before its first discard (or before laying a first okey).
* Declaring pairs: any seat, at any time while the hand runs, even when it is not its turn.
* Pile out (RULES.md "Centre pile runs out", source 001): once the pile is empty, the seat to play
  may take the discard just made only to finish with it. So the hand ends at once, with no
  finisher, when that seat cannot finish with it (or there is no discard to take, after a laid
  first okey); a seat that could finish but asks to draw from the empty pile ends it too (it
  declines). A seat that took that discard must finish: discarding or laying a first okey is
  refused (``must_finish``), and the indicator cannot be taken instead of it (``pile_empty``).
  The check runs in the engine after every action, so people, the turn clock and bots all play
  this one rule.
* Reaching zero (RULES.md, source 000): the match says at the deal which seats' showing the
  indicator would end it (``ending_shows``: countdown, someone would reach 0). Such a show ends
  the hand at once (``MATCH_OVER``, no finisher): the hand is not played on.
* Events hold only what every seat saw happen at that moment: a draw from the pile does not name
  the tile. The full discard history is the pairs-declarer's privilege, so views never include the
  event list.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from . import finish as finishing
from .errors import EngineError
from .finish import Finish
from .rules import RuleSet
from .tiles import (
    FALSE_JOKER,
    DealtHand,
    NotationError,
    Tile,
    format_tile,
    format_tiles,
    parse_tile,
)

STATE_VERSION = 1

# Draw sources.
PILE = "pile"
DISCARD = "discard"
SOURCES = (PILE, DISCARD)

# Phases of the seat whose turn it is.
PHASE_DRAW = "draw"        # must draw (or take the indicator, option) before anything else
PHASE_DISCARD = "discard"  # holds 15 tiles: discard, finish, or lay the first okey (option)
PHASE_OVER = "over"

# How a hand ended.
FINISHED = "finished"
PILE_OUT = "pile_out"
MATCH_OVER = "match_over"   # a shown indicator ended the match (countdown, a score reached 0)


@dataclass(frozen=True)
class HandResult:
    """How the hand ended; enough to score it without the rest of the state."""

    reason: str                      # FINISHED, PILE_OUT or MATCH_OVER
    players: int
    finisher: int | None = None
    finish: Finish | None = None
    double_okey: bool = False        # the finisher laid the first okey earlier and discarded the second
    shown_indicators: tuple[int, ...] = ()
    declared_pairs: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "reason": self.reason,
            "players": self.players,
            "finisher": self.finisher,
            "finish": finish_to_dict(self.finish) if self.finish is not None else None,
            "double_okey": self.double_okey,
            "shown_indicators": list(self.shown_indicators),
            "declared_pairs": list(self.declared_pairs),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HandResult:
        return cls(
            reason=data["reason"],
            players=data["players"],
            finisher=data["finisher"],
            finish=finish_from_dict(data["finish"]) if data["finish"] is not None else None,
            double_okey=data["double_okey"],
            shown_indicators=tuple(data["shown_indicators"]),
            declared_pairs=tuple(data["declared_pairs"]),
        )


def finish_to_dict(finish: Finish) -> dict[str, Any]:
    """Tiles as ints: this is storage, not display (see ``finish_public`` for the notation form)."""
    return {
        "kind": finish.kind,
        "discard": finish.discard,
        "okey_finish": finish.okey_finish,
        "groups": [list(group) for group in finish.groups],
        "color": finish.color,
    }


def finish_from_dict(data: dict[str, Any]) -> Finish:
    return Finish(
        kind=data["kind"],
        discard=data["discard"],
        okey_finish=data["okey_finish"],
        groups=tuple(tuple(group) for group in data["groups"]),
        color=data["color"],
    )


def finish_public(finish: Finish) -> dict[str, Any]:
    """The finish as every seat sees it once the hand is over: notation strings."""
    return {
        "kind": finish.kind,
        "discard": format_tile(finish.discard) if finish.discard is not None else None,
        "okey_finish": finish.okey_finish,
        "groups": [[format_tile(tile) for tile in group] for group in finish.groups],
        "color": finish.color,
    }


@dataclass
class HandState(DealtHand):
    """Everything about one hand. Server-side only: clients get ``view_for``."""

    rules: RuleSet
    deck: list[Tile]                  # the shuffled order the hand was dealt from (for verifiable deals)
    pile: list[Tile]                  # face-down centre pile; pile[0] is the top
    racks: list[list[Tile]]           # per seat, in the order tiles arrived
    indicator: Tile
    starting_seat: int
    turn: int
    phase: str
    discards: list[list[Tile]] = field(default_factory=list)     # per seat: tiles it discarded still lying there, top last
    discard_log: list[list[int]] = field(default_factory=list)   # [seat, tile, taken_by or -1] for every discard
    takeable: bool = False            # the top of the previous seat's discards may be drawn now
    turns_done: list[int] = field(default_factory=list)          # completed turns per seat
    declared_pairs: list[int] = field(default_factory=list)      # seats, in order of declaration
    shown_indicators: list[int] = field(default_factory=list)
    twin_dealt_to: int | None = None  # who was dealt the indicator's twin (private)
    indicator_taken_by: int | None = None
    first_okey_by: int | None = None
    centre: list[Tile] = field(default_factory=list)             # laid first okey, the finishing discard
    must_finish: bool = False         # the seat to play took the last discard after the pile ran out
    ending_shows: list[int] = field(default_factory=list)        # seats whose showing the indicator ends the match
    move: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)
    result: HandResult | None = None

    # -- derived ---------------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase == PHASE_OVER

    @property
    def previous_seat(self) -> int:
        return (self.turn - 1) % self.players

    @property
    def available_discard(self) -> Tile | None:
        """The one discard the seat to play may take, or None."""
        if self.phase != PHASE_DRAW or not self.takeable:
            return None
        pile = self.discards[self.previous_seat]
        return pile[-1] if pile else None

    def located_tiles(self) -> list[Tile]:
        """Every tile wherever it lies; always the full 106 (an invariant the tests check)."""
        tiles = [tile for rack in self.racks for tile in rack]
        tiles += self.pile
        tiles += [tile for pile in self.discards for tile in pile]
        tiles += self.centre
        if self.indicator_taken_by is None:
            tiles.append(self.indicator)
        return tiles

    # -- storage ---------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready and exact: ``from_dict(json.loads(json.dumps(d)))`` equals the state."""
        return {
            "version": STATE_VERSION,
            "rules": self.rules.to_dict(),
            "deck": list(self.deck),
            "pile": list(self.pile),
            "racks": [list(rack) for rack in self.racks],
            "indicator": self.indicator,
            "starting_seat": self.starting_seat,
            "turn": self.turn,
            "phase": self.phase,
            "discards": [list(pile) for pile in self.discards],
            "discard_log": [list(entry) for entry in self.discard_log],
            "takeable": self.takeable,
            "turns_done": list(self.turns_done),
            "declared_pairs": list(self.declared_pairs),
            "shown_indicators": list(self.shown_indicators),
            "twin_dealt_to": self.twin_dealt_to,
            "indicator_taken_by": self.indicator_taken_by,
            "first_okey_by": self.first_okey_by,
            "centre": list(self.centre),
            "must_finish": self.must_finish,
            "ending_shows": list(self.ending_shows),
            "move": self.move,
            "events": [dict(event) for event in self.events],
            "result": self.result.to_dict() if self.result is not None else None,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HandState:
        if data.get("version") != STATE_VERSION:
            raise ValueError(f"unknown hand state version {data.get('version')!r}")
        return cls(
            rules=RuleSet.from_stored(data["rules"]),
            deck=list(data["deck"]),
            pile=list(data["pile"]),
            racks=[list(rack) for rack in data["racks"]],
            indicator=data["indicator"],
            starting_seat=data["starting_seat"],
            turn=data["turn"],
            phase=data["phase"],
            discards=[list(pile) for pile in data["discards"]],
            discard_log=[list(entry) for entry in data["discard_log"]],
            takeable=data["takeable"],
            turns_done=list(data["turns_done"]),
            declared_pairs=list(data["declared_pairs"]),
            shown_indicators=list(data["shown_indicators"]),
            twin_dealt_to=data["twin_dealt_to"],
            indicator_taken_by=data["indicator_taken_by"],
            first_okey_by=data["first_okey_by"],
            centre=list(data["centre"]),
            # Absent from hands stored before these rules: neither applied then.
            must_finish=data.get("must_finish", False),
            ending_shows=list(data.get("ending_shows", ())),
            move=data["move"],
            events=[dict(event) for event in data["events"]],
            result=HandResult.from_dict(data["result"]) if data["result"] is not None else None,
        )


# -- construction ---------------------------------------------------------------------------------


def new_hand(
    rules: RuleSet,
    deck: Sequence[Tile],
    pile: Sequence[Tile],
    racks: Sequence[Sequence[Tile]],
    indicator: Tile,
    starting_seat: int,
    *,
    ending_shows: Sequence[int] = (),
) -> HandState:
    """A hand as dealt. ``deck.deal`` calls this; tests use it to set up exact racks.

    ``ending_shows``: seats whose showing the indicator would end the match (from the match)."""
    players = len(racks)
    if players != rules.players:
        raise ValueError(f"{players} racks for a {rules.players}-player rule set")
    if not 0 <= starting_seat < players:
        raise EngineError(f"seat {starting_seat} is not at this table", code="bad_seat", seat=starting_seat)
    if indicator == FALSE_JOKER:
        raise ValueError("a false joker cannot be the indicator")
    twin_holders = [seat for seat, rack in enumerate(racks) if indicator in rack]
    state = HandState(
        rules=rules,
        deck=list(deck),
        pile=list(pile),
        racks=[list(rack) for rack in racks],
        indicator=indicator,
        starting_seat=starting_seat,
        turn=starting_seat,
        # The starting player holds 15 and does not draw.
        phase=PHASE_DISCARD,
        discards=[[] for _ in range(players)],
        turns_done=[0] * players,
        twin_dealt_to=twin_holders[0] if twin_holders else None,
        ending_shows=sorted(set(ending_shows)),
    )
    deal_event: dict[str, Any] = {"move": 0, "type": "deal", "starting_seat": starting_seat,
                                  "indicator": format_tile(indicator), "okey": format_tile(state.okey),
                                  "players": players}
    if state.ending_shows:
        # Public (it follows from the scores) and needed to replay the hand from its log alone.
        deal_event["ending_shows"] = list(state.ending_shows)
    state.events.append(deal_event)
    return state


# -- helpers ----------------------------------------------------------------------------------------


def _clone(state: HandState) -> HandState:
    """A copy deep enough that changing it never touches ``state`` (events are never mutated)."""
    return replace(
        state,
        deck=list(state.deck),
        pile=list(state.pile),
        racks=[list(rack) for rack in state.racks],
        discards=[list(pile) for pile in state.discards],
        discard_log=[list(entry) for entry in state.discard_log],
        turns_done=list(state.turns_done),
        declared_pairs=list(state.declared_pairs),
        shown_indicators=list(state.shown_indicators),
        centre=list(state.centre),
        ending_shows=list(state.ending_shows),
        events=list(state.events),
    )


def _event(state: HandState, event_type: str, seat: int | None, /, **data: Any) -> None:
    """Bump the move number and log what everyone saw; called once per applied action."""
    state.move += 1
    event: dict[str, Any] = {"move": state.move, "type": event_type}
    if seat is not None:
        event["seat"] = seat
    event.update(data)
    state.events.append(event)


def _require_open(state: HandState) -> None:
    if state.phase == PHASE_OVER:
        raise EngineError("the hand is over", code="hand_over")


def check_seat(state: HandState, seat: object) -> int:
    """A seat number at this table (not a bool, not a string), or ``bad_seat``."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
        raise EngineError(f"seat {seat!r} is not at this table", code="bad_seat", seat=repr(seat))
    return seat


def _require_turn(state: HandState, seat: int) -> None:
    if state.turn != seat:
        raise EngineError("it is not your turn", code="not_your_turn", seat=seat, turn=state.turn)


def _require_drawn(state: HandState) -> None:
    if state.phase == PHASE_DRAW:
        raise EngineError("draw a tile first", code="must_draw_first")


def _require_not_drawn(state: HandState) -> None:
    if state.phase == PHASE_DISCARD:
        raise EngineError("you already have 15 tiles: discard or finish", code="already_drew")


def tile_arg(tile: Tile | str) -> Tile:
    """Accept a tile as an int or in notation (what a client sends); anything else is ``bad_tile``."""
    if isinstance(tile, str):
        try:
            return parse_tile(tile)
        except NotationError as error:
            raise EngineError(str(error), code="bad_tile", token=tile) from None
    if isinstance(tile, bool) or not isinstance(tile, int) or not 0 <= tile <= FALSE_JOKER:
        raise EngineError(f"{tile!r} is not a tile", code="bad_tile", token=repr(tile))
    return tile


def _require_in_rack(state: HandState, seat: int, tile: Tile) -> None:
    if tile not in state.racks[seat]:
        raise EngineError(f"{format_tile(tile)} is not in your rack", code="tile_not_in_rack", tile=format_tile(tile))


def _pass_turn(state: HandState, seat: int, *, takeable: bool) -> None:
    state.turns_done[seat] += 1
    state.turn = (seat + 1) % state.players
    state.phase = PHASE_DRAW
    state.takeable = takeable


def _end(state: HandState, result: HandResult) -> None:
    state.phase = PHASE_OVER
    state.takeable = False
    state.must_finish = False
    state.result = result


def _end_without_finisher(state: HandState, reason: str, event_type: str, seat: int) -> None:
    _event(state, event_type, seat)
    _end(state, HandResult(
        reason=reason, players=state.players,
        shown_indicators=tuple(state.shown_indicators), declared_pairs=tuple(state.declared_pairs),
    ))


def can_finish(state: HandState, seat: int, extra: Tile | None = None) -> bool:
    """Whether ``seat``'s rack (plus ``extra``, for a seat still to draw) finishes: the engine's finish
    search, so what it says is exactly what ``finish`` accepts."""
    rack = list(state.racks[seat]) if extra is None else [*state.racks[seat], extra]
    if len(rack) != 15:
        return False
    return finishing.best_finish(rack, state.okey, state.rules, pairs_only=seat in state.declared_pairs) is not None


def _end_if_pile_out(state: HandState) -> None:
    """Once the pile is empty nothing keeps a hand going but a finish (see the module doc)."""
    if state.phase == PHASE_OVER or state.pile:
        return
    seat = state.turn
    if state.phase == PHASE_DRAW:
        tile = state.available_discard
        if tile is not None and can_finish(state, seat, tile):
            return
    elif not state.must_finish or can_finish(state, seat):
        return
    _end_without_finisher(state, PILE_OUT, "pile_out", seat)


# -- actions ----------------------------------------------------------------------------------------


def draw(state: HandState, seat: int, source: str) -> HandState:
    """Draw the top of the pile or the previous seat's latest discard.

    Drawing from an empty pile ends the hand with no finisher (``pile_out``): the seat asked for a
    tile the table cannot give, and the rules end the hand rather than reshuffle. Taking the discard
    once the pile is empty commits the seat to finishing with it (``must_finish``).
    """
    _require_open(state)
    seat = check_seat(state, seat)
    if source not in SOURCES:
        raise EngineError(f"draw from 'pile' or 'discard', not {source!r}", code="bad_source", source=repr(source))
    _require_turn(state, seat)
    _require_not_drawn(state)
    if source == DISCARD:
        tile = state.available_discard
        if tile is None:
            raise EngineError("there is no discard you may take", code="discard_pile_empty")
        new = _clone(state)
        new.discards[new.previous_seat].pop()
        new.discard_log[-1][2] = seat
        new.racks[seat].append(tile)
        new.phase = PHASE_DISCARD
        new.takeable = False
        # After the pile ran out the discard is taken only to finish with it.
        new.must_finish = not new.pile
        _event(new, "draw", seat, source=DISCARD, tile=format_tile(tile))
        return new
    new = _clone(state)
    if not new.pile:
        # The seat declines the last discard: nothing is left to draw, the hand ends.
        _end_without_finisher(new, PILE_OUT, "pile_out", seat)
        return new
    new.racks[seat].append(new.pile.pop(0))
    new.phase = PHASE_DISCARD
    new.takeable = False
    _event(new, "draw", seat, source=PILE)
    return new


def _require_tile_play(state: HandState, seat: int, tile: Tile | str) -> tuple[int, Tile]:
    """The checks every tile-playing action shares: the hand runs, it is this seat's turn, the seat
    has drawn, and the tile is on its rack."""
    _require_open(state)
    seat = check_seat(state, seat)
    tile = tile_arg(tile)
    _require_turn(state, seat)
    _require_drawn(state)
    _require_in_rack(state, seat, tile)
    return seat, tile


def _require_may_play_on(state: HandState) -> None:
    if state.must_finish:
        raise EngineError("the pile is empty: you took the last discard to finish with it, so finish",
                          code="must_finish")


def discard(state: HandState, seat: int, tile: Tile | str) -> HandState:
    """Give one tile to the next seat and end the turn."""
    seat, tile = _require_tile_play(state, seat, tile)
    _require_may_play_on(state)
    new = _clone(state)
    new.racks[seat].remove(tile)
    new.discards[seat].append(tile)
    new.discard_log.append([seat, tile, -1])
    _event(new, "discard", seat, tile=format_tile(tile))
    _pass_turn(new, seat, takeable=True)
    _end_if_pile_out(new)
    return new


def _check_finish(state: HandState, seat: int, tile: Tile) -> Finish:
    pairs_only = seat in state.declared_pairs
    found = finishing.finish_with_discard(list(state.racks[seat]), tile, state.okey, state.rules, pairs_only=pairs_only)
    if found is None:
        if pairs_only:
            message = (f"without {format_tile(tile)} your 14 tiles are not 7 pairs "
                       "(you declared pairs, so only pairs can finish)")
            reason = "not_pairs"
        else:
            message = f"without {format_tile(tile)} your 14 tiles neither split into valid sets nor form 7 pairs"
            reason = "no_valid_split"
        raise EngineError(message, code="invalid_finish", reason=reason, tile=format_tile(tile))
    return found


def finish(state: HandState, seat: int, tile: Tile | str) -> HandState:
    """Put ``tile`` on the centre and show the other 14; the server finds the best valid split."""
    seat, tile = _require_tile_play(state, seat, tile)
    found = _check_finish(state, seat, tile)
    double = state.first_okey_by == seat and found.okey_finish
    new = _clone(state)
    new.racks[seat].remove(tile)
    new.centre.append(tile)
    _event(new, "finish", seat, **{**finish_public(found), "double_okey": double})
    _end(new, HandResult(
        reason=FINISHED, players=new.players, finisher=seat, finish=found, double_okey=double,
        shown_indicators=tuple(new.shown_indicators), declared_pairs=tuple(new.declared_pairs),
    ))
    return new


def show_indicator(state: HandState, seat: int) -> HandState:
    """Show the indicator's twin; it scores at once (see ``scoring``) and the twin stays in the rack."""
    _require_open(state)
    seat = check_seat(state, seat)
    if seat in state.shown_indicators:
        raise EngineError("you already showed the indicator", code="already_shown")
    _require_turn(state, seat)
    if state.turns_done[seat] > 0:
        raise EngineError("the indicator can be shown only in your first turn, before your first discard",
                          code="not_first_turn")
    if state.twin_dealt_to != seat:
        raise EngineError(f"you were not dealt the other {format_tile(state.indicator)}", code="no_indicator_tile",
                          tile=format_tile(state.indicator))
    new = _clone(state)
    new.shown_indicators.append(seat)
    _event(new, "show_indicator", seat, tile=format_tile(state.indicator))
    if seat in new.ending_shows:
        # The show brings a score to 0: the match is over, so this hand is not played on.
        _end_without_finisher(new, MATCH_OVER, "match_over", seat)
    return new


def declare_pairs(state: HandState, seat: int) -> HandState:
    """Go for pairs: the seat now sees the whole discard history and may finish only with pairs."""
    _require_open(state)
    seat = check_seat(state, seat)
    if seat in state.declared_pairs:
        raise EngineError("you already declared pairs", code="already_declared")
    new = _clone(state)
    new.declared_pairs.append(seat)
    _event(new, "declare_pairs", seat)
    # Pairs only from now on: after the pile ran out that may leave the seat to play unable to finish.
    _end_if_pile_out(new)
    return new


def take_indicator(state: HandState, seat: int) -> HandState:
    """Option ``indicator_binds_pair``: take the face-up indicator instead of drawing (see module doc)."""
    if not state.rules.indicator_binds_pair:
        raise EngineError("this table does not let the indicator bind a pair", code="option_off",
                          option="indicator_binds_pair")
    _require_open(state)
    seat = check_seat(state, seat)
    _require_turn(state, seat)
    _require_not_drawn(state)
    if seat not in state.shown_indicators:
        raise EngineError("only the seat that showed the indicator may take it", code="not_shown")
    if seat not in state.declared_pairs:
        raise EngineError("the indicator binds a pair only for a seat going for pairs", code="not_declared")
    if state.indicator_taken_by is not None:
        raise EngineError("the indicator was already taken", code="indicator_taken")
    if not state.pile:
        raise EngineError("the pile is empty: only the last discard may be taken, to finish with it",
                          code="pile_empty")
    if state.turns_done[seat] == 0:
        raise EngineError("the indicator can be taken from your second turn on", code="too_early")
    if state.indicator not in state.racks[seat]:
        raise EngineError(f"you no longer hold the other {format_tile(state.indicator)}", code="no_indicator_tile",
                          tile=format_tile(state.indicator))
    new = _clone(state)
    new.racks[seat].append(new.indicator)
    new.indicator_taken_by = seat
    new.phase = PHASE_DISCARD
    new.takeable = False
    _event(new, "take_indicator", seat, tile=format_tile(new.indicator))
    return new


def lay_first_okey(state: HandState, seat: int) -> HandState:
    """Option ``double_okey``: lay one okey on the centre instead of finishing, and play on."""
    if not state.rules.double_okey:
        raise EngineError("this table does not play double okey", code="option_off", option="double_okey")
    _require_open(state)
    seat = check_seat(state, seat)
    _require_turn(state, seat)
    _require_drawn(state)
    _require_may_play_on(state)
    if state.first_okey_by is not None:
        raise EngineError("a first okey was already laid this hand", code="already_laid")
    okey = state.okey
    if state.racks[seat].count(okey) < 2:
        raise EngineError(f"you need both okeys ({format_tile(okey)})", code="need_both_okeys")
    _check_finish(state, seat, okey)
    new = _clone(state)
    new.racks[seat].remove(okey)
    new.centre.append(okey)
    new.first_okey_by = seat
    _event(new, "lay_first_okey", seat, tile=format_tile(okey))
    # Nothing was discarded to the next seat, so it has no discard to take.
    _pass_turn(new, seat, takeable=False)
    _end_if_pile_out(new)
    return new


def decline(state: HandState, seat: int) -> HandState:
    """The seat that took the last discard after the pile ran out does not finish with it: the
    hand ends with no finisher, as RULES.md says ("if they do not finish"). Only the turn clock
    declines (``autoplay``: it never finishes for a player out of time or away); the event is the
    ``pile_out`` of any hand that ends so, and a replay knows it from the seat's ``must_finish``."""
    _require_open(state)
    seat = check_seat(state, seat)
    _require_turn(state, seat)
    if not state.must_finish:
        raise EngineError("there is no taken discard to decline: draw or discard", code="bad_action",
                          action="decline")
    new = _clone(state)
    _end_without_finisher(new, PILE_OUT, "pile_out", seat)
    return new


ACTIONS = {
    "draw": draw,
    "discard": discard,
    "finish": finish,
    "show_indicator": show_indicator,
    "declare_pairs": declare_pairs,
    "take_indicator": take_indicator,
    "lay_first_okey": lay_first_okey,
    "decline": decline,
}


def pile_out_action(state: HandState) -> tuple[str, dict[str, Any]]:
    """The action a logged ``pile_out`` event replays as: a seat still to draw asked the empty
    pile for a tile; a seat holding the taken last discard declined to finish with it."""
    return ("decline", {}) if state.must_finish else ("draw", {"source": PILE})


def apply(state: HandState, seat: int, action: str, **args: Any) -> HandState:
    """Dispatch a client message (``{"type": ..., ...}``) to its action function."""
    handler = ACTIONS.get(action)
    if handler is None:
        raise EngineError(f"unknown action {action!r}", code="bad_action", action=repr(action))
    try:
        return handler(state, seat, **args)
    except TypeError as error:
        raise EngineError(f"bad arguments for {action}: {error}", code="bad_action", action=action) from None


# -- what a seat may do and see ----------------------------------------------------------------------


def legal_actions(state: HandState, seat: int) -> list[str]:
    """What ``seat`` may do now: each listed action is accepted if sent now (``discard``/``finish``
    with a suitable tile). ``finish`` is listed only when the rack can finish, by the same search
    ``finish`` runs; ``draw_pile`` on an empty pile means ending the hand (declining the discard)."""
    if state.phase == PHASE_OVER or not 0 <= seat < state.players:
        return []
    actions: list[str] = []
    if seat not in state.declared_pairs:
        actions.append("declare_pairs")
    if state.turn != seat:
        return actions
    first_turn = state.turns_done[seat] == 0
    if first_turn and state.twin_dealt_to == seat and seat not in state.shown_indicators:
        actions.append("show_indicator")
    if state.phase == PHASE_DRAW:
        actions.append("draw_pile")
        if state.available_discard is not None:
            actions.append("draw_discard")
        if (state.rules.indicator_binds_pair and seat in state.shown_indicators and seat in state.declared_pairs
                and state.indicator_taken_by is None and not first_turn and state.indicator in state.racks[seat]
                and state.pile):
            actions.append("take_indicator")
        return actions
    if not state.must_finish:
        actions.append("discard")
    if can_finish(state, seat):
        actions.append("finish")
    if (state.rules.double_okey and state.first_okey_by is None and not state.must_finish
            and state.racks[seat].count(state.okey) >= 2
            and finishing.finish_with_discard(list(state.racks[seat]), state.okey, state.okey, state.rules,
                                              pairs_only=seat in state.declared_pairs) is not None):
        actions.append("lay_first_okey")
    return actions


def view_for(state: HandState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may know (RULES.md, "Turn"); ``None`` is a spectator. JSON-ready, tiles in notation.

    Never another rack, the pile order, the deck or who was dealt the twin. The discard history only
    for a seat that declared pairs; the finisher's groups only once the hand is over.
    """
    if seat is not None:
        seat = check_seat(state, seat)
    previous = state.previous_seat
    available = state.available_discard
    view: dict[str, Any] = {
        "seat": seat,
        "players": state.players,
        "move": state.move,
        "rules": state.rules.to_dict(),
        "starting_seat": state.starting_seat,
        "turn": state.turn,
        "phase": state.phase,
        "indicator": format_tile(state.indicator),
        "indicator_taken_by": state.indicator_taken_by,
        "okey": format_tile(state.okey),
        "rack": [format_tile(tile) for tile in state.racks[seat]] if seat is not None else None,
        "rack_counts": [len(rack) for rack in state.racks],
        "pile_count": len(state.pile),
        "discard_tops": [format_tile(pile[-1]) if pile else None for pile in state.discards],
        "available_discard": format_tile(available) if available is not None else None,
        "available_discard_from": previous if available is not None else None,
        "centre": [format_tile(tile) for tile in state.centre],
        "shown_indicators": list(state.shown_indicators),
        "declared_pairs": list(state.declared_pairs),
        "first_okey_by": state.first_okey_by,
        "discard_history": None,
        "actions": legal_actions(state, seat) if seat is not None else [],
        "result": None,
    }
    if seat is not None and seat in state.declared_pairs:
        view["discard_history"] = [
            {"seat": by, "tile": format_tile(tile), "taken_by": taken if taken >= 0 else None}
            for by, tile, taken in state.discard_log
        ]
    if state.result is not None:
        result = state.result
        view["result"] = {
            "reason": result.reason,
            "finisher": result.finisher,
            "finish": finish_public(result.finish) if result.finish is not None else None,
            "double_okey": result.double_okey,
            "shown_indicators": list(result.shown_indicators),
            "declared_pairs": list(result.declared_pairs),
        }
    return view


def describe(state: HandState) -> str:
    """A one-screen dump for logs and bug reports (server side: it shows every rack)."""
    lines = [f"move {state.move}, seat {state.turn} to {state.phase}, indicator {format_tile(state.indicator)}, "
             f"okey {format_tile(state.okey)}, pile {len(state.pile)}"]
    for seat, rack in enumerate(state.racks):
        lines.append(f"  seat {seat}: {format_tiles(rack)} | discards {format_tiles(state.discards[seat])}")
    return "\n".join(lines)
