"""Computer players for 101 Okey (RULES.md "101 Okey"): three levels that play to win.

Fair by construction, as the classic bots: a bot decides from ``view_for(state, seat)`` alone (its
own rack, the table's melds, who opened and with what, the discard tops, the counts, and for a
pairs opener the discard history). It never reads another rack or the pile's order: when it draws
from the pile it calls ``draw_from_pile`` first and looks at its new view, as a client would.
``play_bot_turn`` is the only function here that touches a ``Hand101``, and only to build views
and play ``draw_from_pile`` / ``apply_turn``.

How a turn is decided (``search`` does the counting):

* **The discard or the pile.** The previous seat's discard is taken only when the turn will use it
  on the table (rule 6: in the opening, a new meld or a lay-off), judged by planning the whole turn
  with it; otherwise the bot draws from the pile and plans again with the tile it drew.
* **Opening** as soon as the rack reaches ``opening_needed`` (a rising table's bar included): runs
  and groups of the highest value, or pairs when there are enough and they take clearly more tiles
  off the rack than the melds would (a pairs opener doubles its own rack and may lay off only two
  tiles a turn, so pairs must earn it). An opening that also puts down every tile but one is
  preferred: it finishes.
* **After opening** (already in the opening turn): more melds of the opening's kind, then chained
  lay-offs and okey swaps, trying a few orders (melds for the most rack value, for the most tiles,
  lay-offs first) and keeping the one that finishes or else leaves the cheapest rack.
* **The discard**: never one that costs 101 (a wild okey, an işlek tile, rule 9) while another tile
  is free, except the finishing discard, which never costs anything. An opened player throws its
  highest useless tile (its rack is what it pays when someone else finishes); a player who has not
  opened throws its lowest useless tile (high tiles reach 101 sooner). "Useless" weighs the tile's
  place in the rack's best melds and its near melds (two of a run or a group).

Levels (the practice table's kolay, orta, zor):

* ``easy`` overlooks an opening now and then (opens late), sees a usable discard only half the time,
  never opens with pairs unless melds fail, and discards at random among the tiles that cost no
  penalty and sit in no meld.
* ``normal`` plays as above.
* ``hard`` also finishes **elden** when it can (rule 10: every tile in its own melds in one turn,
  while nobody has opened: ×2, no threshold), keeps a wild okey for the last discard when the rest
  can go down (okey finish, ×2), weighs its near melds by how many of the tiles that would complete
  them are still unseen, keeps its pairs when the rack leans to pairs, and before opening compares
  its few best discards by the opening each would leave with one more good tile (an okey added).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import EngineError
from ..tiles import FALSE_JOKER, Tile, format_tile, parse_tile
from .hand import DISCARD, MELDS, PAIRS, Hand101, TableMeld, apply_turn, draw_from_pile, view_for
from .melds import read_meld, tile_value
from .rules import Rules101
from .search import (
    COST,
    COVER,
    Opening,
    best_layoffs,
    best_melds,
    best_pairs,
    best_pairs_opening,
    finishing_melds,
    layable,
    public_action,
    rack_cost,
)

LEVELS = ("easy", "normal", "hard")

#: Pairs open instead of melds when they take at least this many more tiles off the rack.
PAIRS_MARGIN = 2
#: How often an easy bot overlooks an opening it could make, or a discard it could use.
EASY_LATE_OPENING = 0.4
EASY_MISSED_DISCARD = 0.5
#: Discard weights: a tile in one of the rack's melds, a near-run partner (next, one between), a
#: near-group partner; a pairs opener's single whose twin may still come.
IN_MELD = 10.0
RUN_NEXT = 2.0
RUN_GAP = 1.0
GROUP_MATE = 1.5
TWIN = 2.0
#: With this few tiles left in the pile an opened hard bot weighs numbers this much more (at a pile
#: out everyone writes their rack).
ENDGAME_PILE = 4
ENDGAME_WEIGHT = 4
#: Before opening, a rack with this many pairs keeps them (each tile of a pair this much).
PAIRS_LEANING = 4
PAIR_KEEP = 6.0
#: Per number, how much more an opened player wants a tile gone (and an unopened one kept).
NUMBER_WEIGHT = 0.15


# -- what the bot knows: its seat's view ---------------------------------------------------------------


@dataclass(frozen=True)
class Seen:
    """A seat's view, parsed: everything a bot decides from."""

    seat: int
    okey: Tile
    rack: tuple[Tile, ...]
    melds: tuple[TableMeld, ...]
    next_meld_id: int
    opened: tuple[str | None, ...]
    needed: dict[str, int]
    available: Tile | None
    first_turn: bool
    drawn: bool
    rules: Rules101
    pile_count: int = 20
    #: Tiles anyone may see: the table's melds, the discard tops (a pairs opener: every discard).
    visible: Counter[Tile] = field(default_factory=Counter)

    @property
    def kind(self) -> str | None:
        return self.opened[self.seat]

    @property
    def others_opened(self) -> bool:
        return any(kind is not None for seat, kind in enumerate(self.opened) if seat != self.seat)


def seen_from(view: dict[str, Any]) -> Seen:
    okey = parse_tile(view["okey"])
    melds = tuple(TableMeld(meld["id"], meld["owner"], meld["kind"], tuple(parse_tile(t) for t in meld["tiles"]))
                  for meld in view["melds"])
    visible: Counter[Tile] = Counter(tile for meld in melds for tile in meld.tiles)
    if view["discard_history"] is not None:
        visible.update(parse_tile(entry["tile"]) for entry in view["discard_history"] if entry["taken_by"] is None)
    else:
        visible.update(parse_tile(top) for top in view["discard_tops"] if top is not None)
    available = view["available_discard"]
    return Seen(
        seat=view["seat"], okey=okey, rack=tuple(parse_tile(tile) for tile in view["rack"]), melds=melds,
        next_meld_id=view["next_meld_id"], opened=tuple(view["opened"]), needed=dict(view["opening_needed"]),
        available=parse_tile(available) if available is not None else None, first_turn=view["first_turn"],
        drawn=view["drawn"], rules=Rules101.from_dict(view["rules"]), pile_count=view["pile_count"], visible=visible,
    )


# -- a turn being planned ----------------------------------------------------------------------------------


@dataclass
class Draft:
    """A turn staged on a copy of what the seat sees: the rack, the table and the actions so far."""

    seen: Seen
    rack: list[Tile]
    melds: list[TableMeld]
    next_id: int
    kind: str | None                      # how the seat has opened (before or in this turn)
    actions: list[dict[str, Any]] = field(default_factory=list)
    placed: Counter[Tile] = field(default_factory=Counter)
    layoffs: int = 0
    opens: bool = False
    reserved: Tile | None = None          # kept out of every meld: the last discard (an okey finish)
    core: Counter[Tile] | None = None     # the rack's best melds when it could not open (for the discard)

    @classmethod
    def start(cls, seen: Seen, rack: Iterable[Tile]) -> Draft:
        return cls(seen=seen, rack=list(rack), melds=list(seen.melds), next_id=seen.next_meld_id, kind=seen.kind)

    def copy(self) -> Draft:
        return Draft(seen=self.seen, rack=list(self.rack), melds=list(self.melds), next_id=self.next_id,
                     kind=self.kind, actions=list(self.actions), placed=Counter(self.placed),
                     layoffs=self.layoffs, opens=self.opens, reserved=self.reserved)

    @property
    def okey(self) -> Tile:
        return self.seen.okey

    @property
    def free(self) -> list[Tile]:
        """The rack without the reserved tile: what the searches may use."""
        rack = list(self.rack)
        if self.reserved is not None:
            rack.remove(self.reserved)
        return rack

    @property
    def keep(self) -> int:
        """Tiles the searches must leave: one to discard, unless the discard is reserved already."""
        return 0 if self.reserved is not None else 1

    @property
    def layoff_room(self) -> int | None:
        limit = self.seen.rules.pairs_layoff_limit
        if self.kind != PAIRS or limit is None:
            return None
        return max(0, limit - self.layoffs)

    def lay(self, opening: Opening, type_: str) -> None:
        """Put an opening's melds on the table (as the open action or a lay-down)."""
        if not opening.melds:
            return
        self.actions.append(opening.action(type_))
        for tile in opening.tiles:
            self.rack.remove(tile)
        self.placed.update(opening.tiles)
        for meld in opening.melds:
            tiles = tuple(parse_tile(tile) for tile in meld)
            self.melds.append(TableMeld(self.next_id, self.seen.seat, read_meld(tiles, self.okey).kind, tiles))
            self.next_id += 1
        if type_ == "open":
            self.kind = opening.kind
            self.opens = True

    def lay_off(self) -> None:
        """The best chain of lay-offs and swaps from the rack as it is now."""
        room = self.layoff_room
        if self.kind is None or room == 0:
            return
        found = best_layoffs(self.free, self.melds, self.okey, limit=room, keep=self.keep)
        for action in found.actions:
            self.actions.append(public_action(action))
            tile = action["_tile"]
            self.rack.remove(tile)
            self.placed[tile] += 1
            if action["type"] == "swap":
                self.rack.append(self.okey)
        self.layoffs += len(found.actions)
        self.melds = list(found.melds)

    def lay_down_more(self, mode: str) -> None:
        """More melds of the opening's kind (rule 8): runs and groups, or pairs."""
        if self.kind == MELDS:
            self.lay(best_melds(self.free, self.okey, mode=mode, keep=self.keep), "lay_down")
        elif self.kind == PAIRS:
            self.lay(best_pairs(self.free, self.okey, keep=self.keep), "lay_down")

    @property
    def finishes(self) -> bool:
        return len(self.rack) == 1

    def uses(self, tile: Tile | None) -> bool:
        return tile is None or self.placed[tile] > 0


@dataclass(frozen=True)
class Plan:
    """A whole turn, ready for ``apply_turn`` (add the draw)."""

    actions: tuple[dict[str, Any], ...]
    discard: Tile
    finishes: bool

    def turn(self, draw: str | None) -> dict[str, Any]:
        return {"draw": draw, "actions": [dict(action) for action in self.actions], "discard": format_tile(self.discard)}


# -- choosing what goes down ------------------------------------------------------------------------------


def _after_opening(draft: Draft, level: str) -> list[Draft]:
    """Ways to play the rest of a turn once opened: different meld choices and orders."""
    variants = []
    for mode in (COST, COVER):
        variant = draft.copy()
        variant.lay_down_more(mode)
        variant.lay_off()
        variant.lay_down_more(COVER)
        variants.append(variant)
    first = draft.copy()
    first.lay_off()
    first.lay_down_more(COVER)
    first.lay_off()
    variants.append(first)
    if level == "hard" and draft.okey in draft.rack and draft.reserved is None:
        # Keep one okey for the last discard: if everything else goes down, an okey finish (x2).
        keeper = draft.copy()
        keeper.reserved = draft.okey
        for variant in _after_opening(keeper, level):
            if not variant.free:
                variants.append(variant)
    return variants


def _rank(draft: Draft, level: str) -> tuple:
    """Finishing first; for ``hard`` the finish's multiplier next (okey finish, elden: x2 each)."""
    multiplier = 1
    if draft.finishes and level == "hard":
        multiplier *= 2 if draft.rack[0] == draft.okey else 1
        multiplier *= 2 if draft.opens and draft.layoffs == 0 and not draft.seen.others_opened else 1
    # What the rack would cost if someone else finished: a pairs opener pays it twice (rule 11).
    cost = rack_cost(draft.rack, draft.okey) * (2 if draft.kind == PAIRS else 1)
    return (draft.finishes, multiplier, -cost, -len(draft.rack))


def _best(drafts: Sequence[Draft], level: str, must_use: Tile | None) -> Draft | None:
    usable = [draft for draft in drafts if draft.uses(must_use)]
    return max(usable, key=lambda draft: _rank(draft, level)) if usable else None


def _openings(draft: Draft, level: str, rng: random.Random) -> list[Draft]:
    """An unopened seat's ways to open this turn (none: it cannot, or an easy bot overlooks it)."""
    seen, rack, okey = draft.seen, draft.rack, draft.okey
    found: list[Draft] = []
    if level == "hard" and not seen.others_opened:
        # Elden bitme: every tile but one in own melds, no threshold; best with the okey kept last.
        for last in ([okey] if okey in rack else []) + [None]:
            finish = finishing_melds(rack, okey, last=last)
            if finish is not None and finish.melds:
                elden = draft.copy()
                elden.lay(finish, "open")
                found.append(elden)             # no lay-off after it: that would bring back the 101
                break
    best = best_melds(rack, okey, keep=1)
    draft.core = Counter(best.tiles)
    if level == "easy" and rng.random() < EASY_LATE_OPENING:
        return []
    melds = best if best.melds and best.total >= seen.needed[MELDS] else None
    pairs = best_pairs_opening(rack, okey, needed=seen.needed[PAIRS], keep=1)
    if melds is not None:
        finish = finishing_melds(rack, okey)
        if finish is not None and finish.total >= seen.needed[MELDS]:
            melds = finish                      # an opening that puts down all but one: it finishes
    if melds is not None and pairs is not None and pairs.size < melds.size + PAIRS_MARGIN:
        pairs = None
    if pairs is not None and melds is not None and level == "easy":
        pairs = None
    for opening in (melds, pairs):
        if opening is not None:
            opened = draft.copy()
            opened.lay(opening, "open")
            found.extend(_after_opening(opened, level))
    return found


def plan_turn(seen: Seen, level: str, rng: random.Random, *, extra: Tile | None = None) -> Plan | None:
    """The bot's turn with its rack (plus ``extra``, the discard it considers taking): None when
    ``extra`` would not be used on the table this turn."""
    rack = [*seen.rack, *([extra] if extra is not None else [])]
    draft = Draft.start(seen, rack)
    if draft.kind is None:
        choice = _best(_openings(draft, level, rng), level, extra)
        if choice is None:
            if extra is not None:
                return None
            choice = draft
    else:
        choice = _best(_after_opening(draft, level), level, extra)
        if choice is None:
            return None
    return Plan(tuple(choice.actions), _discard(choice, level, rng), choice.finishes)


# -- the discard --------------------------------------------------------------------------------------------


def _penalised(draft: Draft, tile: Tile) -> bool:
    """Rule 9 against the table as this turn leaves it."""
    rules = draft.seen.rules
    if tile == draft.okey and rules.okey_discard_penalty:
        return True
    return rules.islek_penalty and layable(tile, draft.melds, draft.okey)   # is_islek, fast


def _keep_scores(draft: Draft, level: str) -> dict[Tile, float]:
    """How much each rack tile is worth keeping: its place in the rack's best melds, its near melds
    (for ``hard``, only those still completable by unseen tiles) and its number."""
    rack, okey, seen = draft.rack, draft.okey, draft.seen
    if draft.kind == PAIRS:
        core: Counter[Tile] = Counter()
    elif draft.core is not None and not draft.actions:
        core = draft.core                       # the rack did not change since it was searched
    else:
        core = Counter(best_melds(rack, okey).tiles)
    held = Counter(rack)
    scores: dict[Tile, float] = {}
    # A rack with many pairs before opening may open with pairs: it keeps its pairs and likely twins.
    pairs_leaning = draft.kind is None and level == "hard" and best_pairs(rack, okey).total >= PAIRS_LEANING

    def unseen(colour: int, number: int) -> int:
        if not 1 <= number <= 13:
            return 0
        face = colour * 13 + number - 1
        if face == okey:
            return 0
        return max(0, 2 - seen.visible[face] - held[face])

    for tile in held:
        if tile == okey:
            scores[tile] = 3 * IN_MELD          # a wild okey is kept whatever the penalty options
            continue
        number = tile_value(tile, okey)
        face = okey if tile == FALSE_JOKER else tile
        colour = face // 13
        score = IN_MELD if core[tile] else 0.0
        if draft.kind == PAIRS or pairs_leaning:
            if held[tile] >= 2:
                score += PAIR_KEEP if pairs_leaning else 0.0
            elif unseen(colour, number):
                score += TWIN
        if draft.kind != PAIRS:
            for other in held:
                if other in (tile, okey):
                    continue
                other_face = okey if other == FALSE_JOKER else other
                other_colour, other_number = other_face // 13, other_face % 13 + 1
                weight = 0.0
                if other_colour == colour and abs(other_number - number) == 1:
                    weight = RUN_NEXT
                    completing = [(colour, min(number, other_number) - 1), (colour, max(number, other_number) + 1)]
                elif other_colour == colour and abs(other_number - number) == 2:
                    weight = RUN_GAP
                    completing = [(colour, (number + other_number) // 2)]
                elif other_number == number and other_colour != colour:
                    weight = GROUP_MATE
                    completing = [(c, number) for c in range(4) if c not in (colour, other_colour)]
                if weight and level == "hard" and not any(unseen(c, n) for c, n in completing):
                    weight *= 0.25
                score += weight
        sign = -1 if draft.kind is not None else 1
        if level == "hard" and draft.kind is not None and seen.pile_count <= ENDGAME_PILE:
            sign *= ENDGAME_WEIGHT              # the pile is running out: the rack is what it pays
        scores[tile] = score + sign * NUMBER_WEIGHT * number
    return scores


def _discard(draft: Draft, level: str, rng: random.Random) -> Tile:
    rack = draft.rack
    if len(rack) == 1:
        return rack[0]                          # the finishing discard costs nothing
    tiles = sorted(set(rack))
    free = [tile for tile in tiles if not _penalised(draft, tile)]
    if not free:
        # Every tile costs 101: at least keep the okey, and shed the most rack value.
        return max(tiles, key=lambda tile: (tile != draft.okey, tile_value(tile, draft.okey), tile))
    scores = _keep_scores(draft, level)
    if level == "easy":
        loose = [tile for tile in free if scores[tile] < IN_MELD - 1] or free
        return rng.choice(loose)
    ranked = sorted(free, key=lambda tile: (scores[tile], tile))
    if level == "hard" and draft.kind is None and rack.count(draft.okey) < 2 and len(ranked) > 1:
        return _look_ahead(draft, ranked[:LOOKAHEAD])
    return ranked[0]


#: The hard bot, before opening, compares its few best discards by one more draw.
LOOKAHEAD = 4


def _look_ahead(draft: Draft, candidates: list[Tile]) -> Tile:
    """Of ``candidates``, the discard whose rack would open best with one more good tile: the best
    melds of the rest with an okey added stand for "the draw that helps most"."""
    def reach(tile: Tile) -> int:
        rest = list(draft.rack)
        rest.remove(tile)
        return best_melds([*rest, draft.okey], draft.okey).total

    return max(candidates, key=lambda tile: (reach(tile), -candidates.index(tile)))


# -- playing it --------------------------------------------------------------------------------------------


def _wants(plan: Plan | None, level: str, rng: random.Random) -> bool:
    if plan is None:
        return False
    return level != "easy" or rng.random() >= EASY_MISSED_DISCARD


def play_bot_turn(state: Hand101, seat: int, *, level: str, rng: random.Random, strict: bool = False) -> Hand101:
    """The bot's whole turn: maybe ``draw_from_pile``, then ``apply_turn``; the state after it.

    Decided from the seat's views only. ``strict`` raises if the plan is refused (tests); otherwise
    a refused plan (a bug) falls back to the turn clock's kind of turn, so a table never stalls.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}: {', '.join(LEVELS)}")
    try:
        return _play(state, seat, level, rng)
    except EngineError:
        if strict:
            raise
        return _fallback(state, seat)


def _play(state: Hand101, seat: int, level: str, rng: random.Random) -> Hand101:
    seen = seen_from(view_for(state, seat))
    if seen.first_turn or seen.drawn:
        plan = plan_turn(seen, level, rng)
        return apply_turn(state, seat, plan.turn(None))
    if seen.available is not None:
        plan = plan_turn(seen, level, rng, extra=seen.available)
        if _wants(plan, level, rng):
            return apply_turn(state, seat, plan.turn(DISCARD))
    state = draw_from_pile(state, seat)
    plan = plan_turn(seen_from(view_for(state, seat)), level, rng)
    return apply_turn(state, seat, plan.turn(None))


def _fallback(state: Hand101, seat: int) -> Hand101:
    """Draw from the pile (unless drawn already) and discard a tile that costs nothing if any."""
    if not (state.first_turn or state.drawn) and state.pile:
        state = draw_from_pile(state, seat)
    seen = seen_from(view_for(state, seat))
    draft = Draft.start(seen, seen.rack)
    tile = min(draft.rack, key=lambda tile: (_penalised(draft, tile), tile == seen.okey,
                                             -tile_value(tile, seen.okey), tile))
    return apply_turn(state, seat, {"draw": None, "actions": [], "discard": format_tile(tile)})


__all__ = ["LEVELS", "Plan", "Seen", "plan_turn", "play_bot_turn", "seen_from"]
