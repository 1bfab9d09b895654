"""Computer players: a decent Okey bot and two baselines to measure it against.

Fair by construction: a bot decides from ``view_for(state, seat)`` only — its own rack, the
indicator, the counts, the discard tops, and (after declaring pairs) the discard history. It never
receives the state, so it cannot look at another rack or at the pile order even by mistake;
``play_bot_turn`` is the only function here that touches a ``HandState``, and all it does with it is
build the seat's view and apply the bot's message through ``hand.apply`` like any client.

What a human at the table remembers (which tiles went by, who picked up whose discard) the bot may
remember too: pass a ``BotMemory`` and it learns from every view it is shown. Feed it more views
(``memory.observe(view)`` after every event) and it sees more, exactly as a player watching the
table would; without a memory the bot still plays, from the current view alone.

How the normal bot plays (cheap heuristics, no search over unseen tiles beyond simple counts):

* It values a 14-tile rack by ``arrange_by_sets``: tiles already in valid sets count most; each
  loose tile adds the best "near set" it forms with another tile (two of a run or a group),
  weighted by how many tiles that would complete it are still unseen ("outs").
  Near sets are matched (each tile in one), so two loose tiles never outweigh the set they could
  become — summing every partner per tile made the bot hoard near sets and finish less often.
* Discard: the tile whose removal leaves the most valuable rack, minus a penalty for tiles that fit
  what the next seat picked up from discards (don't feed the next player). A wild okey is never
  discarded while any other tile would do.
* Draw: the previous seat's discard when it is a wild, lets the bot finish (for more than the pile
  would: a complete rack finishes with any pile tile, and the pile may bring an okey finish), or
  raises the rack's value by completing or extending a set; otherwise the pile.
* Pairs: with 6 pairs (or 5 and a poor rack for sets) it declares pairs and plays for them.
* It shows the indicator whenever it may, and finishes whenever it can — except that with a wild
  okey in hand, a long pile and enough outs it may wait up to two turns for an okey finish (x2).
  The waits are counted by its memory from the views (a ready rack that did not finish), so a
  memory rebuilt by replaying the hand counts the same; without a memory it never waits.

The weights below were tuned on ``bench/bots.py`` and a one-player "draws to finish" run. The
optimum is flat (TAKE_GAIN 0.5 to 1, lower near-set weights: all within the noise), but heavier
near sets (NEAR_BASE 1.4 or NEAR_PER_OUT 0.5) finish far less often, and taking every discard that
does not hurt (TAKE_GAIN 0) lets the opponents draw longer and win more.

Three levels (the practice table offers them as kolay, orta, zor):

* ``easy`` (kolay) plays like a beginner: the time-out auto-play's discard plus an occasional
  careless one, a discard taken only when it completes a set, and now and then a finish it does
  not see (it plays on instead). It never thinks about what the next seat collects (so it feeds
  it), never waits for an okey finish and never declares pairs.
* ``normal`` (orta) is the bot above playing from the current view: the discard tops it sees now,
  not the ones that went by. It keeps a memory only to count its okey waits.
* ``hard`` (zor) is the normal bot plus tracking: every discard it has seen counts against the
  outs of its near sets, it avoids feeding what the next seat picked up, and one tile from
  finishing it keeps, of its few best discards, the rack the most unseen tiles would finish.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .arrange import arrange_by_sets
from .autoplay import choose_discard
from .errors import EngineError
from .finish import best_finish, complete_split
from .hand import PHASE_DISCARD, PHASE_DRAW, PHASE_OVER, HandState, apply, view_for
from .rules import RuleSet
from .scoring import finish_value
from .tiles import FALSE_JOKER, Tile, format_tile, make_tile, parse_tile, sort_key

LEVELS = ("easy", "normal", "hard")

Message = dict[str, Any]
Policy = Callable[..., Message]

# Weights of the rack value (a covered tile is worth COVER; a near set about 1 to 2).
COVER = 2.0
WILD = 2.5
NEAR_BASE = 1.0
NEAR_PER_OUT = 0.3
DEAD_NEAR = 0.3
IDENTICAL = 0.3
SINGLE_PARTNER = 0.15
SET_PARTNER = 0.2
# Declare pairs with this many pairs, or one fewer when fewer than POOR_COVER tiles sit in sets.
DECLARE_PAIRS = 6
POOR_COVER = 9
# A discard is taken when it raises the rack's value by this much: about one more tile in a set.
TAKE_GAIN = 1.0
# Each unit of danger (a fit with what the next seat picked up) costs this much rack value.
FEED = 0.4
# The hard bot counts finishing outs for its best few discards once this many tiles sit in sets;
# each unseen tile that would finish is worth this much rack value.
OUTS_CANDIDATES = 3
NEAR_READY = 11
OUTS_WEIGHT = 0.5
# Waiting for an okey finish: at most this many turns, and only with enough pile and outs.
MAX_OKEY_WAITS = 2
WAIT_RULES = ((32, 2), (20, 4))  # (pile at least, outs at least)
# Easy bots throw a random loose tile this often, and overlook a finish this often.
EASY_MISTAKES = 0.25
EASY_MISSES = 0.35


# -- memory ----------------------------------------------------------------------------------------


@dataclass
class BotMemory:
    """What a seat has seen during one hand, rebuilt from the views it was shown (nothing else).

    ``stacks`` replays each seat's discard pile from its observed tops: a top that changes to the
    tile under it means the next seat took the old top. ``gone`` counts tiles seen discarded, so the
    bot knows which tiles can no longer come from the pile; ``taken`` lists, per seat, the discards
    it picked up — what that seat is building. A new hand (another deal, or the move counter going
    back) clears it, so one memory per seat can serve a whole match.
    """

    seat: int | None = None
    hand_key: tuple[Any, ...] | None = None
    last_move: int = -1
    stacks: list[list[Tile]] = field(default_factory=list)
    gone: Counter[Tile] = field(default_factory=Counter)
    taken: list[list[Tile]] = field(default_factory=list)
    pending: tuple[int, Tile, int] | None = None  # (seat to draw, tile it may take, move seen)
    okey_waits: int = 0               # own turns that ended with a ready rack and an okey, unfinished
    ready_at: int | None = None       # move of the last own view that was ready to finish with an okey

    def reset(self, key: tuple[Any, ...], seat: int | None, players: int) -> None:
        self.seat = seat
        self.hand_key = key
        self.last_move = -1
        self.stacks = [[] for _ in range(players)]
        self.gone = Counter()
        self.taken = [[] for _ in range(players)]
        self.pending = None
        self.okey_waits = 0
        self.ready_at = None

    def observe(self, view: dict[str, Any]) -> None:
        """Learn from one view (any seat's turn, any phase). Seeing the same view twice is harmless."""
        players = view["players"]
        key = (view["starting_seat"], view["indicator"], players)
        if key != self.hand_key or view["move"] < self.last_move or view["seat"] != self.seat:
            self.reset(key, view["seat"], players)
        if view["move"] == self.last_move:
            return
        tops = [None if top is None else parse_tile(top) for top in view["discard_tops"]]
        self._resolve_pending(view, tops, players)
        for seat, top in enumerate(tops):
            stack = self.stacks[seat]
            if top is None:
                stack.clear()
            elif stack and stack[-1] == top:
                continue
            elif len(stack) >= 2 and stack[-2] == top:
                stack.pop()  # the old top was taken; the tile under it shows again
            else:
                stack.append(top)
                self.gone[top] += 1
        available = view["available_discard"]
        if available is not None and view["phase"] == PHASE_DRAW:
            self.pending = (view["turn"], parse_tile(available), view["move"])
        self._count_waits(view)
        self.last_move = view["move"]

    def _count_waits(self, view: dict[str, Any]) -> None:
        """Count the turns this seat could have finished (holding an okey) but played on.

        Derived from the views alone, so a memory rebuilt by replaying the hand counts the same.
        A ready view of a later own turn (two or more moves on: someone drew and discarded in
        between) or any view of another seat's turn means the ready turn ended without a finish.
        """
        mine = view["turn"] == self.seat and view["phase"] == PHASE_DISCARD
        if self.ready_at is not None and (not mine or view["move"] >= self.ready_at + 3):
            if view["phase"] != PHASE_OVER:
                self.okey_waits += 1
            self.ready_at = None
        if mine and self.ready_at is None and view["rack"] is not None:
            okey = parse_tile(view["okey"])
            rack = [parse_tile(tile) for tile in view["rack"]]
            if okey in rack and len(rack) == 15:
                rules = RuleSet.from_dict(view["rules"])
                if best_finish(rack, okey, rules, pairs_only=self.seat in view["declared_pairs"]) is not None:
                    self.ready_at = view["move"]

    def _resolve_pending(self, view: dict[str, Any], tops: list[Tile | None], players: int) -> None:
        """Did the seat that could take a discard take it? Only decidable while the discarder
        cannot have discarded again: fewer than two moves per seat since (draw and discard)."""
        if self.pending is None:
            return
        taker, tile, move = self.pending
        if view["move"] <= move or (view["turn"] == taker and view["phase"] == PHASE_DRAW):
            return
        self.pending = None
        if view["move"] >= move + 2 * players:
            return
        giver = (taker - 1) % players
        if tops[giver] == tile:
            return
        self.taken[taker].append(tile)
        stack = self.stacks[giver]
        if stack and stack[-1] == tile:
            stack.pop()
        if taker == self.seat and self.gone[tile] > 0:
            self.gone[tile] -= 1  # now in our own rack, which is counted as such

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, so a server can keep a bot's memory between its turns."""
        return {
            "seat": self.seat,
            "hand_key": list(self.hand_key) if self.hand_key is not None else None,
            "last_move": self.last_move,
            "stacks": [list(stack) for stack in self.stacks],
            "gone": {str(tile): count for tile, count in self.gone.items() if count},
            "taken": [list(tiles) for tiles in self.taken],
            "pending": list(self.pending) if self.pending is not None else None,
            "okey_waits": self.okey_waits,
            "ready_at": self.ready_at,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BotMemory:
        pending = data["pending"]
        return cls(
            seat=data["seat"],
            hand_key=tuple(data["hand_key"]) if data["hand_key"] is not None else None,
            last_move=data["last_move"],
            stacks=[list(stack) for stack in data["stacks"]],
            gone=Counter({int(tile): count for tile, count in data["gone"].items()}),
            taken=[list(tiles) for tiles in data["taken"]],
            pending=(pending[0], pending[1], pending[2]) if pending is not None else None,
            okey_waits=data["okey_waits"],
            ready_at=data["ready_at"],
        )


# -- what the bot knows ------------------------------------------------------------------------------


def _completions(a: Tile, b: Tile) -> tuple[Tile, ...] | None:
    """The tiles that would make two plain faces a 3-tile set, or None if they are no near set."""
    return _COMPLETIONS[a * 53 + b]


def _compute_completions(a: Tile, b: Tile) -> tuple[Tile, ...] | None:
    if a == b or FALSE_JOKER in (a, b):
        return None
    (ca, na), (cb, nb) = divmod(a, 13), divmod(b, 13)
    na, nb = na + 1, nb + 1
    if ca != cb:
        if na == nb:
            return tuple(make_tile(color, na) for color in range(4) if color not in (ca, cb))
        return None
    # Positions in a run: 1 is 1 or (after 13) 14.
    found: list[int] = []
    for pa in (na, 14) if na == 1 else (na,):
        for pb in (nb, 14) if nb == 1 else (nb,):
            low, high = sorted((pa, pb))
            if high - low == 1:
                found += [p for p in (low - 1, high + 1) if 1 <= p <= 14]
            elif high - low == 2:
                found.append(low + 1)
    if not found:
        return None
    return tuple(sorted({make_tile(ca, 1 if p == 14 else p) for p in found}))


_COMPLETIONS = tuple(_compute_completions(a, b) for a in range(53) for b in range(53))


def _compute_neighbours(face: Tile) -> frozenset[Tile]:
    """Plain faces that can sit in one set or pair with ``face``: its own number in any colour, or
    its colour within two (1 also next to 12 and 13)."""
    if face == FALSE_JOKER:
        return frozenset()
    colour, number = divmod(face, 13)
    number += 1
    found = {make_tile(other, number) for other in range(4)}
    for step in (-2, -1, 1, 2):
        for position in {number + step, (number + step - 1) % 13 + 1}:
            if 1 <= position <= 13:
                found.add(make_tile(colour, position))
    return frozenset(found)


_NEIGHBOURS = tuple(_compute_neighbours(face) for face in range(53))


class _Seat:
    """Everything one decision needs, built from a view (and the seat's memory of earlier views)."""

    def __init__(self, view: dict[str, Any], memory: BotMemory | None, level: str):
        if view.get("seat") is None or view.get("rack") is None:
            raise ValueError("a bot plays a seat: give it view_for(state, seat), not a spectator view")
        if level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r}; use one of {', '.join(LEVELS)}")
        self.view = view
        self.level = level
        self.memory = memory
        # Only the hard bot learns from the discards that went by and from the next seat's pickups.
        self.tracking = level == "hard" and memory is not None
        self.seat: int = view["seat"]
        self.players: int = view["players"]
        self.next_seat = (self.seat + 1) % self.players
        self.rules = RuleSet.from_dict(view["rules"])
        self.okey = parse_tile(view["okey"])
        self.indicator = parse_tile(view["indicator"])
        self.rack = [parse_tile(tile) for tile in view["rack"]]
        self.pile_count: int = view["pile_count"]
        self.declared = self.seat in view["declared_pairs"]
        self.available = parse_tile(view["available_discard"]) if view["available_discard"] else None
        self.tops = [None if top is None else parse_tile(top) for top in view["discard_tops"]]
        self._known = self._known_out()
        self._danger_from = self._next_seat_wants()
        self._near: dict[int, float] = {}
        self._values: dict[tuple[Tile, ...], float] = {}

    # -- counting ----------------------------------------------------------------------------------

    def _known_out(self) -> Counter[Tile]:
        """Tiles this seat knows are not in the pile: its rack, the indicator, all discards it saw."""
        seen: Counter[Tile] = Counter(tile for tile in self.tops if tile is not None)
        if self.tracking:
            seen |= self.memory.gone
        history = self.view.get("discard_history")
        if history:
            logged = Counter(parse_tile(entry["tile"]) for entry in history if entry["taken_by"] != self.seat)
            seen |= logged
        seen.update(parse_tile(tile) for tile in self.view["centre"])
        if self.view["indicator_taken_by"] != self.seat:
            seen[self.indicator] += 1
        seen.update(self.rack)
        return seen

    def unseen(self, tile: Tile) -> int:
        """Copies of a tile that may still come: 2 minus those this seat knows are elsewhere."""
        return max(0, 2 - self._known[tile])

    def plain(self, tile: Tile) -> Tile:
        """The face a non-wild tile plays as (a false joker is the okey's face)."""
        return self.okey if tile == FALSE_JOKER else tile

    def real(self, face: Tile) -> Tile:
        """The physical tile that shows a plain face (the okey's face is a false joker)."""
        return FALSE_JOKER if face == self.okey else face

    # -- what the next seat collects ---------------------------------------------------------------

    def _next_seat_wants(self) -> tuple[list[Tile], set[Tile], bool]:
        """Tiles the next seat picked up from discards, faces it threw away, whether it plays pairs."""
        picked: list[Tile] = []
        thrown: set[Tile] = set()
        if self.level == "easy":
            return picked, thrown, False  # a beginner does not watch the next seat
        if self.tracking and self.memory.taken:
            picked += self.memory.taken[self.next_seat]
            thrown |= set(self.memory.stacks[self.next_seat])
        history = self.view.get("discard_history")
        if history:
            picked = [parse_tile(e["tile"]) for e in history if e["taken_by"] == self.next_seat]
            thrown |= {parse_tile(e["tile"]) for e in history if e["seat"] == self.next_seat}
        if self.tops[self.next_seat] is not None:
            thrown.add(self.tops[self.next_seat])
        return picked, thrown, self.next_seat in self.view["declared_pairs"]

    def danger(self, tile: Tile) -> float:
        """How likely the next seat wants this tile, from what it picked up and threw away."""
        if tile == self.okey:
            return 0.0
        picked, thrown, pairs = self._danger_from
        face = self.plain(tile)
        score = 0.0
        for other in picked:
            if other == self.okey:
                continue
            other_face = self.plain(other)
            if other_face == face:
                score += 1.0
                continue
            completes = _completions(face, other_face)
            if completes is not None:
                score += 2.0 if len(completes) >= 2 else 1.0
        if pairs and self.unseen(tile) >= 1:
            score += 1.5  # its twin may be in the next rack, waiting for a partner
        if tile in thrown:
            score -= 1.0  # the next seat let this face go: it does not want it
        return score

    # -- valuing a rack ----------------------------------------------------------------------------

    def near_worth(self, a: Tile, b: Tile) -> float:
        """What two plain faces are worth together: more when many tiles could complete them."""
        key = a * 53 + b
        worth = self._near.get(key)
        if worth is None:
            if a == b:
                worth = IDENTICAL
            else:
                completes = _completions(a, b)
                if completes is None:
                    worth = 0.0
                else:
                    outs = sum(self.unseen(self.real(tile)) for tile in completes)
                    worth = NEAR_BASE + NEAR_PER_OUT * outs if outs else DEAD_NEAR
            self._near[key] = worth
        return worth

    def value(self, tiles: list[Tile]) -> float:
        """How close a 14-tile rack is to finishing (higher is better); see the module doc."""
        key = tuple(sorted(tiles))
        known = self._values.get(key)
        if known is not None:
            return known
        result = self._pairs_value(tiles) if self.declared else self._sets_value(tiles)
        self._values[key] = result
        return result

    def _sets_value(self, tiles: list[Tile]) -> float:
        """Tiles in sets, plus the best disjoint near sets among the loose tiles, plus what the
        remaining singles could still become. Near sets are matched, not summed per tile, so two
        loose tiles never look worth more than the set they might become."""
        okey = self.okey
        arrangement = arrange_by_sets(tiles, okey, self.rules)
        covered = sum(len(group) for group in arrangement.groups)
        loose = [self.plain(tile) for tile in arrangement.loose if tile != okey]
        wilds = len(arrangement.loose) - len(loose)
        in_sets = [self.plain(tile) for group in arrangement.groups for tile in group if tile != okey]
        near = self.near_worth
        links: list[tuple[float, int, int]] = []
        partners = [0] * len(loose)
        for i, face in enumerate(loose):
            for j in range(i + 1, len(loose)):
                worth = near(face, loose[j])
                if worth > 0:
                    links.append((worth, i, j))
                    partners[i] += 1
                    partners[j] += 1
        links.sort(reverse=True)
        matched = [False] * len(loose)
        potential = 0.0
        for worth, i, j in links:
            if not matched[i] and not matched[j]:
                matched[i] = matched[j] = True
                potential += worth
        for i, face in enumerate(loose):
            if not matched[i]:
                beside_set = max((near(face, other) for other in in_sets), default=0.0)
                potential += SINGLE_PARTNER * min(partners[i], 3) + SET_PARTNER * beside_set
        return COVER * covered + potential + WILD * wilds

    def pair_counts(self, tiles: list[Tile]) -> tuple[int, list[Tile], int]:
        """(pairs, singles, spare wilds) with wild okeys completing pairs when the rules allow."""
        okey = self.okey
        wilds = tiles.count(okey)
        counts = Counter(tile for tile in tiles if tile != okey)
        bound = self._bound_twin()
        if bound is not None and counts[bound] % 2 == 1:
            counts[bound] += 1  # the shown indicator waits on the table to complete this pair
        pairs = sum(count // 2 for count in counts.values())
        singles = [tile for tile, count in counts.items() if count % 2]
        if self.rules.okey_completes_pair:
            used = min(wilds, len(singles))
            pairs += used
            wilds -= used
            pairs += wilds // 2
            wilds %= 2
        return pairs, singles, wilds

    def _bound_twin(self) -> Tile | None:
        view = self.view
        if (self.rules.indicator_binds_pair and self.declared and self.seat in view["shown_indicators"]
                and view["indicator_taken_by"] is None and self.indicator in self.rack):
            return self.indicator
        return None

    def _pairs_value(self, tiles: list[Tile]) -> float:
        pairs, singles, wilds = self.pair_counts(tiles)
        hopes = sum(0.8 * self.unseen(tile) for tile in singles)
        return 3.0 * pairs + hopes + WILD * wilds

    def best_discard(self, tiles: list[Tile]) -> tuple[Tile, float]:
        """The tile to give away from 15 and the value of the 14 kept (feeding penalty included)."""
        candidates = sorted({tile for tile in tiles if tile != self.okey}, key=sort_key)
        if not candidates:
            return self.okey, self.value(tiles[1:])
        bound = self._bound_twin()
        if bound is not None and len(candidates) > 1 and bound in candidates:
            candidates.remove(bound)
        scored: list[tuple[float, Tile]] = []
        for tile in candidates:
            kept = list(tiles)
            kept.remove(tile)
            scored.append((self.value(kept) - FEED * self.danger(tile), tile))
        best = max(scored, key=lambda entry: entry[0])  # the first of equals: candidates are sorted
        if self.tracking:
            best = self._most_outs(tiles, scored, best)
        return best[1], best[0]

    def _most_outs(self, tiles: list[Tile], scored: list[tuple[float, Tile]],
                   best: tuple[float, Tile]) -> tuple[float, Tile]:
        """The hard bot, one tile from finishing, keeps the rack that the most unseen tiles finish
        (the outs it counts from every discard it has seen) among the few best discards."""
        top = sorted(scored, key=lambda entry: -entry[0])[:OUTS_CANDIDATES]
        rescored = []
        for score, tile in top:
            kept = _without(tiles, tile)
            if self.covered(kept) < NEAR_READY:
                return best
            rescored.append((score + OUTS_WEIGHT * self.finish_outs(kept), tile))
        return max(rescored, key=lambda entry: entry[0])

    def finish_outs(self, kept: list[Tile]) -> int:
        """Unseen copies of the tiles that, drawn next, would let these 14 tiles finish."""
        if complete_split(kept, self.okey, self.rules, pairs_only=self.declared) is not None:
            return sum(self.unseen(tile) for tile in range(53))  # any draw finishes
        # A drawn tile that finishes is used in a set or pair: it shares a number with a kept tile,
        # or its colour within two of it (or it is wild). Only those are tried.
        faces = {self.plain(tile) for tile in kept if tile != self.okey}
        tiles = {self.real(face) for near in faces for face in _NEIGHBOURS[near]} | {self.okey}
        outs = 0
        for tile in tiles:
            copies = self.unseen(tile)
            if copies and best_finish([*kept, tile], self.okey, self.rules, pairs_only=self.declared) is not None:
                outs += copies
        return outs

    def covered(self, tiles: list[Tile]) -> int:
        return sum(len(group) for group in arrange_by_sets(tiles, self.okey, self.rules).groups)

    # -- decisions ---------------------------------------------------------------------------------

    def can_finish(self, tiles: list[Tile]) -> bool:
        return best_finish(tiles, self.okey, self.rules, pairs_only=self.declared) is not None

    def should_declare_pairs(self) -> bool:
        """Pairs pay more (x4 in countdown) but only many pairs make them likely to come."""
        if self.level == "easy" or self.declared or self.pile_count < 12:
            return False
        pairs, _, _ = self.pair_counts(self.rack)
        if pairs >= DECLARE_PAIRS:
            return True
        return pairs >= DECLARE_PAIRS - 1 and self.covered(self.rack) < POOR_COVER

    def draw_source(self) -> str:
        tile = self.available
        if tile is None:
            return "pile"
        with_tile = [*self.rack, tile]
        if self.pile_count == 0:
            # Drawing from the empty pile ends the hand; take the discard only to finish with it.
            return "discard" if self.can_finish(with_tile) else "pile"
        if tile == self.okey:
            return "discard"
        if self.level == "easy":
            return "discard" if self.covered(with_tile) >= self.covered(self.rack) + 3 else "pile"
        finish = best_finish(with_tile, self.okey, self.rules, pairs_only=self.declared)
        if finish is not None:
            # A rack that is complete already finishes with any pile tile too, and the pile may
            # bring an okey finish: take the discard only when it finishes for more.
            ready = complete_split(self.rack, self.okey, self.rules, pairs_only=self.declared)
            if ready is None or finish_value(finish, self.rules) > finish_value(ready, self.rules):
                return "discard"
            return "pile"
        if self.declared:
            return "discard" if self.rack.count(tile) == 1 else "pile"
        # Compare the rack now with the best 14 after taking the tile (throwing it back is no gain).
        before = self.value(self.rack)
        candidates = {t for t in self.rack if t != self.okey}
        after = max((self.value(_without(with_tile, t)) for t in candidates), default=before)
        return "discard" if after - before >= TAKE_GAIN else "pile"

    def okey_outs(self, kept: list[Tile]) -> int:
        """Unseen tiles that, drawn next, would let the bot finish by throwing the okey."""
        without_okey = list(kept)
        without_okey.remove(self.okey)
        counts = Counter(without_okey)
        outs = 0
        for tile in range(53):
            copies = self.unseen(tile)
            if not copies or counts[tile] >= 2:
                continue
            if complete_split([*without_okey, tile], self.okey, self.rules, pairs_only=self.declared) is not None:
                outs += copies
        return outs

    def should_wait(self, finish_discard: Tile) -> bool:
        """Hold a ready rack for an okey finish: only with a memory to count the waits."""
        memory = self.memory
        if self.level == "easy" or memory is None or self.okey not in self.rack:
            return False
        if memory.okey_waits >= MAX_OKEY_WAITS:
            return False
        need = next((outs for pile, outs in WAIT_RULES if self.pile_count >= pile), None)
        if need is None:
            return False
        kept = _without(self.rack, finish_discard)
        if self.okey not in kept:
            return False
        return self.okey_outs(kept) >= need


def _without(tiles: list[Tile], tile: Tile) -> list[Tile]:
    rest = list(tiles)
    rest.remove(tile)
    return rest


# -- the bot ---------------------------------------------------------------------------------------


def bot_move(
    view: dict[str, Any],
    *,
    level: str = "normal",
    rng: random.Random | None = None,
    memory: BotMemory | None = None,
) -> Message:
    """One client message for the seat the view belongs to, whose turn it must be.

    Only the view is read (and the seat's own memory of earlier views, which this call updates).
    ``rng`` only matters for the easy level's careless discards; the normal bot is deterministic.
    """
    if memory is not None:
        memory.observe(view)
    seat = _Seat(view, memory, level)
    _require_turn(view)
    actions = view["actions"]
    if "show_indicator" in actions:
        return {"type": "show_indicator"}
    if "declare_pairs" in actions and seat.should_declare_pairs():
        return {"type": "declare_pairs"}
    if view["phase"] == PHASE_DRAW:
        if "take_indicator" in actions:
            return {"type": "take_indicator"}
        return {"type": "draw", "source": seat.draw_source()}
    found = best_finish(seat.rack, seat.okey, seat.rules, pairs_only=seat.declared)
    if level == "easy" and found is not None and (rng or random.Random(0)).random() < EASY_MISSES:
        found = None  # the beginner does not see that the rack is complete
    if found is not None and found.discard is not None:
        if not found.okey_finish and seat.should_wait(found.discard):
            return {"type": "discard", "tile": format_tile(found.discard)}
        return {"type": "finish", "tile": format_tile(found.discard)}
    if level == "easy":
        return {"type": "discard", "tile": format_tile(_easy_discard(seat, rng or random.Random(0)))}
    tile, _ = seat.best_discard(seat.rack)
    return {"type": "discard", "tile": format_tile(tile)}


def _easy_discard(seat: _Seat, rng: random.Random) -> Tile:
    tile = choose_discard(seat.rack, seat.okey, seat.rules, pairs_only=seat.declared)
    if rng.random() < EASY_MISTAKES:
        loose = [t for t in arrange_by_sets(seat.rack, seat.okey, seat.rules).loose if t != seat.okey]
        if loose:
            tile = rng.choice(loose)
    return tile


# -- baselines for the benchmark ---------------------------------------------------------------------


def _require_turn(view: dict[str, Any]) -> None:
    if view["phase"] not in (PHASE_DRAW, PHASE_DISCARD):
        raise EngineError("the hand is over", code="hand_over")
    if view["seat"] is None or view["turn"] != view["seat"]:
        raise EngineError("it is not this seat's turn", code="not_your_turn", seat=view["seat"], turn=view["turn"])


def _baseline_rack(view: dict[str, Any]) -> tuple[list[Tile], Tile, RuleSet, bool]:
    _require_turn(view)
    rack = [parse_tile(tile) for tile in view["rack"]]
    return rack, parse_tile(view["okey"]), RuleSet.from_dict(view["rules"]), view["seat"] in view["declared_pairs"]


def _baseline_move(view: dict[str, Any], pick_discard: Callable[[list[Tile], Tile, RuleSet, bool], Tile]) -> Message:
    """What both baselines share: draw from the pile, finish when possible, else discard their pick."""
    rack, okey, rules, pairs_only = _baseline_rack(view)
    if view["phase"] == PHASE_DRAW:
        return {"type": "draw", "source": "pile"}
    found = best_finish(rack, okey, rules, pairs_only=pairs_only)
    if found is not None and found.discard is not None:
        return {"type": "finish", "tile": format_tile(found.discard)}
    return {"type": "discard", "tile": format_tile(pick_discard(rack, okey, rules, pairs_only))}


def random_discard_move(view: dict[str, Any], *, rng: random.Random | None = None, **_: Any) -> Message:
    """Baseline: draw from the pile, finish when possible, else discard any tile at random."""
    chooser = rng or random.Random(0)
    return _baseline_move(view, lambda rack, okey, rules, pairs_only: chooser.choice(rack))


def greedy_discard_move(view: dict[str, Any], **_: Any) -> Message:
    """Baseline: draw from the pile, finish when possible, else throw the least connected tile."""
    return _baseline_move(
        view, lambda rack, okey, rules, pairs_only: choose_discard(rack, okey, rules, pairs_only=pairs_only)
    )


def apply_move(state: HandState, seat: int, message: Message) -> HandState:
    """Apply a client-style message through ``hand.apply``, exactly as the server would."""
    args = {key: value for key, value in message.items() if key != "type"}
    return apply(state, seat, message["type"], **args)


def play_bot_turn(
    state: HandState,
    seat: int,
    *,
    level: str = "normal",
    rng: random.Random | None = None,
    memory: BotMemory | None = None,
    policy: Policy | None = None,
) -> HandState:
    """Play ``seat``'s whole turn (show, declare, draw, discard or finish) and return the new state.

    Each step the bot gets only ``view_for(state, seat)``. ``policy`` swaps in another player with
    the same calling convention (``random_discard_move``, ``greedy_discard_move``).
    """
    for _ in range(8):  # show, declare, draw, discard: a turn never needs more steps
        if state.is_over or state.turn != seat:
            return state
        view = view_for(state, seat)
        if policy is None:
            message = bot_move(view, level=level, rng=rng, memory=memory)
        else:
            message = policy(view, rng=rng, memory=memory)
        state = apply_move(state, seat, message)
    raise RuntimeError(f"seat {seat} did not end its turn: {message}")
