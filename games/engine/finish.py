"""Finish evaluation: can these tiles end the hand, and what is the best way for the finisher?

INTERFACE FILE: the dataclass and the three public signatures below are fixed; other modules
(hand.py, scoring.py, check.py) call them.

Why it is exact and fast enough to run on every move in CPython:

- A rack is one int holding a 2-bit count per face (``x >> 2*face & 3``) plus a count of wild
  okeys; the false joker simply counts as the okey's face. Sub-racks are then cheap to make, hash
  and memoise.
- The lowest remaining face must be in some set, so a step only tries the few sets holding it:
  runs of 3 to 5 (a longer run is two shorter ones, joined again for display) and groups. Those
  candidates depend only on a small window of nearby faces, so they are tabulated once per window.
- Colours are searched fewest tiles first, so a stray tile is met before a long run is cut up.
- For 15 tiles the okey discard goes first (it doubles); a discard that cannot beat the best found
  is never searched; the plain discards are decided together by one search whose lowest face is
  "either the discard or in a set", sharing the memo with the per-discard searches.
- A "dead" tile (no set of the other tiles could hold it) is found before any search: two dead
  tiles end the question for sets, one leaves a single discard to try.

``tests/engine/bruteforce.py`` holds a slow reference that tries every filling of every valid set;
the property tests hold this search to it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, reduce
from itertools import product
from operator import or_

from .rules import CHIPS, COUNTDOWN, PENALTY, RuleSet
from .tiles import FALSE_JOKER, Tile, sort_key

SETS = "sets"
PAIRS = "pairs"
ORDERED_COLOR = "ordered"      # sıralı renk: 1..13-1 in one colour
UNORDERED_COLOR = "unordered"  # sırasız renk: all 14 one colour otherwise


@dataclass(frozen=True)
class Finish:
    kind: str                            # SETS or PAIRS
    discard: Tile | None                 # the tile put on the centre; None when 14 tiles were checked
    okey_finish: bool                    # the discard is a real wild okey (never a false joker)
    groups: tuple[tuple[Tile, ...], ...]  # the sets (runs in order, low to high) or the 7 pairs
    color: str | None = None             # ORDERED_COLOR / UNORDERED_COLOR when all 14 are one colour


# Large enough to outrank every other finish: a sıralı renk ends the countdown match at once.
ORDERED_COLOR_VALUE = 10_000


def finish_value(finish: Finish, rules: RuleSet, *, double_okey: bool = False) -> int:
    """Points each other player loses (countdown), gains as penalty (penalty) or chips each pays (chips)."""
    pairs = finish.kind == PAIRS
    if rules.scoring == COUNTDOWN:
        if rules.color_finish and finish.color == ORDERED_COLOR:
            return ORDERED_COLOR_VALUE
        base = 8 if pairs or (rules.color_finish and finish.color == UNORDERED_COLOR) else 2
        if double_okey:
            return base * 4
        return base * 2 if finish.okey_finish else base
    if rules.scoring == PENALTY:
        # 20 normal, 40 pairs, 40 okey finish, 80 both (interpretation: both doublings).
        return 20 * (2 if pairs else 1) * (2 if finish.okey_finish else 1)
    if rules.scoring == CHIPS:
        return rules.stake * (2 if pairs else 1) * (2 if finish.okey_finish else 1)
    raise ValueError(rules.scoring)


def complete_split(tiles: list[Tile], okey: Tile, rules: RuleSet, *, pairs_only: bool = False) -> Finish | None:
    """14 tiles: the best complete arrangement (sets or 7 pairs), or None."""
    _require_size(tiles, 14)
    hand = _Evaluator(okey, rules, pairs_only)
    x, wilds = hand.pack(tiles)
    return hand.best([(None, x, wilds, hand.may_split(x, wilds))])


def best_finish(rack: list[Tile], okey: Tile, rules: RuleSet, *, pairs_only: bool = False) -> Finish | None:
    """15 tiles: over every discard, the finish worth most to the finisher, or None.

    Ties go to the discard that sorts first (colour, then number, the false joker last), so the
    same rack always gets the same answer.
    """
    _require_size(rack, 15)
    hand = _Evaluator(okey, rules, pairs_only)
    x, wilds = hand.pack(rack)
    may_split = hand.split_filter(x, wilds)
    options = [(discard, *hand.without(x, wilds, discard), may_split(discard)) for discard in sorted(set(rack), key=sort_key)]
    return hand.best(options, hand.discard_splitter(x, wilds))


def finish_with_discard(rack: list[Tile], discard: Tile, okey: Tile, rules: RuleSet, *, pairs_only: bool = False) -> Finish | None:
    """15 tiles and a chosen discard: the best finish that puts exactly that tile on the centre."""
    _require_size(rack, 15)
    if discard not in rack:
        raise ValueError("the discard must be one of the rack's tiles")
    hand = _Evaluator(okey, rules, pairs_only)
    x, wilds = hand.without(*hand.pack(rack), discard)
    return hand.best([(discard, x, wilds, hand.may_split(x, wilds))])


def _require_size(tiles: list[Tile], size: int) -> None:
    if len(tiles) != size:
        raise ValueError(f"expected {size} tiles, got {len(tiles)}")
    for tile, count in Counter(tiles).items():
        if count > 2 or not 0 <= tile <= FALSE_JOKER:
            raise ValueError(f"tile {tile!r} x{count}: every tile exists twice at most")


# --- packed racks ---------------------------------------------------------------------------

FACES = 52
LOW_BITS = sum(1 << 2 * face for face in range(FACES))  # the low bit of every face's count
COLOR_MASKS = tuple(sum(3 << 2 * (13 * color + i) for i in range(13)) for color in range(4))
NO_LIMIT = 99  # wilds per set when max_jokers_per_set is None


def lowest_face(x: int) -> int:
    return ((x & -x).bit_length() - 1) >> 1


def count_of(x: int, face: int) -> int:
    return (x >> 2 * face) & 3


def present(x: int) -> int:
    """One bit per face held at least once, at the face's low bit."""
    return (x | x >> 1) & LOW_BITS


def bit(face: int) -> int:
    return 1 << 2 * face


# --- the sets that can hold the lowest face, tabulated ---------------------------------------
#
# Which sets can hold the lowest face depends only on which of a few nearby faces are present
# (the next four of its colour, 10 to 13 when it is a 1, the same number in the other colours)
# and on how many wilds the set may use. So the candidates are computed once per such window and
# kept in a table: a search step is then a dict lookup and a subtraction per candidate.
#
# A candidate: (taken, wilds used, layout, colour, start). ``taken`` packs one tile of each face the
# set takes; ``layout`` lists the set's faces in table order, a wild as ``~face`` (the face it
# stands for, bit-inverted so it is negative); ``start`` is the position a run starts at (1..12),
# 0 for a group. With ``gaps_only`` a wild only stands for a face that is absent (see
# ``MeldSearch._make_lookup`` for when that loses nothing).

Candidate = tuple[int, int, tuple[int, ...], int, int]


def _window_mask(face: int, runs_only: bool) -> int:
    color, number = divmod(face, 13)
    number += 1
    steps = [step for step in range(1, 5) if number + step <= 13]
    if number == 1:
        steps += range(9, 13)
    if not runs_only:
        steps += [13 * (other - color) for other in range(color + 1, 4)]
    return sum(1 << 2 * step for step in steps)


WINDOW_MASKS = {mode: tuple(_window_mask(face, mode) for face in range(FACES)) for mode in (False, True)}


def _candidates(face: int, window: int, budget: int, gaps_only: bool, runs_only: bool) -> tuple[Candidate, ...]:
    color, number = divmod(face, 13)
    number += 1
    base = 13 * color
    found: list[Candidate] = []

    def available(other: int) -> bool:
        return other > face and bool((window >> 2 * (other - face)) & 1)

    def may_use_wild(used: int, have: bool) -> bool:
        return used < budget and not (have and gaps_only)

    def grow_up(layout: list[int], taken: int, used: int, start: int, pos: int) -> None:
        if pos - start >= 3:
            found.append((taken, used, tuple(layout), color, start))
        if pos - start == 5 or pos > 14:  # longer runs split into runs of 3 to 5
            return
        other = base + (pos - 1) % 13
        have = available(other)
        if have:
            grow_up([*layout, other], taken + bit(other), used, start, pos + 1)
        if may_use_wild(used, have):
            grow_up([*layout, ~other], taken, used + 1, start, pos + 1)

    def grow_down(layout: list[int], taken: int, used: int, pos: int) -> None:
        if 14 - pos >= 3:
            found.append((taken, used, tuple(layout), color, pos + 1))
        if 14 - pos == 5:
            return
        other = base + pos - 1
        have = available(other)
        if have:
            grow_down([other, *layout], taken + bit(other), used, pos - 1)
        if may_use_wild(used, have):
            grow_down([~other, *layout], taken, used + 1, pos - 1)

    for below in range(min(budget, number - 1) + 1):
        wilds_below = [~(base + pos - 1) for pos in range(number - below, number)]
        grow_up([*wilds_below, face], bit(face), below, number - below, number + 1)
    if number == 1:
        grow_down([face], bit(face), 0, 13)  # the 1 after 13
    if not runs_only:
        found += _groups(face, color, number, budget, gaps_only, available)
    return _distinct(found)


def _groups(face: int, color: int, number: int, budget: int, gaps_only: bool, available) -> list[Candidate]:
    others = [13 * other + number - 1 for other in range(4) if other != color]
    found: list[Candidate] = []
    for choice in product((None, "tile", "wild"), repeat=3):
        picked = [(other, how) for other, how in zip(others, choice, strict=True) if how]
        used = choice.count("wild")
        if not 2 <= len(picked) <= 3 or used > budget:
            continue
        if any(available(other) != (how == "tile") for other, how in picked if how == "tile" or gaps_only):
            continue
        layout = sorted([(face, face), *((other, other if how == "tile" else ~other) for other, how in picked)])
        taken = bit(face) + sum(bit(other) for other, how in picked if how == "tile")
        found.append((taken, used, tuple(shown for _, shown in layout), color, 0))
    return found


def _distinct(found: list[Candidate]) -> tuple[Candidate, ...]:
    """One candidate per outcome; those sparing wilds and taking more tiles are tried first."""
    seen: dict[tuple[int, int], Candidate] = {}
    for candidate in found:
        seen.setdefault((candidate[0], candidate[1]), candidate)
    return tuple(sorted(seen.values(), key=lambda c: (c[1], -len(c[2]))))


_TABLES: dict[tuple[bool, bool], dict[int, tuple[Candidate, ...]]] = {}


@cache
def _face_maps(order: tuple[int, ...], okey: Tile) -> tuple[list[int], list[int], list[Tile]]:
    """For a colour order: tile -> search face (the false joker -> the okey's face), search face ->
    real face, and search face -> the tile shown (the false joker for the okey's face)."""
    place = [order.index(color) for color in range(4)]
    face_of = [13 * place[tile // 13] + tile % 13 for tile in range(FACES)]
    faces = [13 * order[face // 13] + face % 13 for face in range(FACES)]
    tile_of = list(faces)
    face_of.append(face_of[okey])
    tile_of[face_of[okey]] = FALSE_JOKER
    return face_of, faces, tile_of


_UNKNOWN = object()


class MeldSearch:
    """Exact set-partition search over packed racks; ``arrange`` reuses it to cover most tiles."""

    def __init__(self, okey: Tile, rules: RuleSet):
        self.okey = okey
        limit = rules.max_jokers_per_set
        self.per_set = NO_LIMIT if limit is None else limit
        self.unlimited = limit is None
        self._memo: dict[bool, dict[int, Candidate | tuple[()] | None]] = {False: {}, True: {}}
        self._lookup = {mode: self._make_lookup(mode) for mode in (False, True)}
        self._any_lookup = self._make_table_lookup(False, gaps_only=False)
        self._solvers = {mode: self._make_solver(mode) for mode in (False, True)}
        self._discarders = {exact: self._make_discarder(exact) for exact in (False, True)}

    def pack(self, tiles: list[Tile]) -> tuple[int, int]:
        """The packed plain tiles and the number of wilds; fixes this search's colour order.

        Colours are searched fewest tiles first: a lone tile of a sparse colour has few possible
        sets, so a dead end shows before the long runs of a full colour are cut every which way.
        """
        okey = self.okey
        plain = [okey if tile == FALSE_JOKER else tile for tile in tiles if tile != okey]
        sizes = [0, 0, 0, 0]
        for tile in plain:
            sizes[tile // 13] += 1
        order = tuple(sorted(range(4), key=lambda color: (sizes[color], color)))
        self._face_of, self._faces, self._tile_of = _face_maps(order, okey)
        self.okey_face = self._face_of[okey]
        face_of = self._face_of
        x = 0
        for tile in plain:
            x += 1 << 2 * face_of[tile]
        return x, len(tiles) - len(plain)

    def without(self, x: int, wilds: int, tile: Tile) -> tuple[int, int]:
        if tile == self.okey:
            return x, wilds - 1
        return x - bit(self._face_of[tile]), wilds

    def face(self, tile: Tile) -> int:
        return self._face_of[tile]

    def real(self, face: int) -> Tile:
        """The tile a plain face is: the false joker for the okey's face, since those are wild."""
        return self._tile_of[face]

    def candidates(self, x: int, wilds: int, runs_only: bool = False) -> tuple[Candidate, ...]:
        """The sets that can hold the lowest face of ``x``, given the wilds at hand."""
        return self._lookup[runs_only](x, wilds)

    def solve(self, x: int, wilds: int, runs_only: bool = False) -> bool:
        """Whether all of ``x`` and every wild split into valid sets (runs only: one colour's runs)."""
        return self._solvers[runs_only](x, wilds)

    def discards(self, x: int, wilds: int, every: bool = True) -> int:
        """The faces one copy of which can go, leaving the rest to split (a bit per face).

        With ``every`` false it may leave out a face that can go only because a wild takes its
        place; then the wild itself can go instead (worth more: an okey finish), so callers that
        already know a wild cannot go lose nothing and search less.
        """
        return self._discarders[every](x, wilds)

    # The three searches are closures over local names: they run a few hundred times per rack,
    # and in CPython a local lookup is much cheaper than an attribute lookup.

    def _make_lookup(self, runs_only: bool) -> Callable[[int, int], tuple[Candidate, ...]]:
        """Candidates for a partition of all the tiles.

        A wild never needs to stand for a tile that is present: swap the two and both sets stay
        valid, since the wild now stands in the other set for that very tile. With one wild per
        set the swap can put a second wild in the other set, unless this wild is the last one.
        """
        gaps = self._make_table_lookup(runs_only, gaps_only=True)
        if self.unlimited:
            return gaps
        anywhere = self._make_table_lookup(runs_only, gaps_only=False)

        def lookup(x: int, wilds: int) -> tuple[Candidate, ...]:
            return gaps(x, wilds) if wilds <= 1 else anywhere(x, wilds)

        return lookup

    def _make_table_lookup(self, runs_only: bool, gaps_only: bool) -> Callable[[int, int], tuple[Candidate, ...]]:
        table = _TABLES.setdefault((gaps_only, runs_only), {})
        masks = WINDOW_MASKS[runs_only]
        per_set = min(self.per_set, 15)

        def lookup(x: int, wilds: int) -> tuple[Candidate, ...]:
            face = ((x & -x).bit_length() - 1) >> 1
            window = ((x | x >> 1) >> 2 * face) & masks[face]
            budget = wilds if wilds < per_set else per_set
            key = window << 10 | face << 4 | budget
            found = table.get(key)
            if found is None:
                found = table[key] = _candidates(face, window, budget, gaps_only, runs_only)
            return found

        return lookup

    def _make_solver(self, runs_only: bool) -> Callable[[int, int], bool]:
        memo = self._memo[runs_only]
        lookup = self._lookup[runs_only]
        unknown = _UNKNOWN

        def solve(x: int, wilds: int) -> bool:
            key = x << 2 | wilds
            step = memo.get(key, unknown)
            if step is not unknown:
                return step is not None
            if not x:
                memo[key] = () if wilds == 0 else None  # two wilds alone never make a set
                return wilds == 0
            for candidate in lookup(x, wilds):
                if solve(x - candidate[0], wilds - candidate[1]):
                    memo[key] = candidate
                    return True
            memo[key] = None
            return False

        return solve

    def _make_discarder(self, every: bool) -> Callable[[int, int], int]:
        """One search for all discards: the lowest face is either the discard, or in a set.

        The part of the rack below a discard is searched once, not once per discard. For every
        discard a wild may stand for a tile that is present, as that tile may be the discard.
        """
        memo: dict[int, int] = {}
        lookup = self._any_lookup if every else self._lookup[False]
        solve = self._solvers[False]

        def discards(x: int, wilds: int) -> int:
            if not x:
                return 0
            key = x << 2 | wilds
            found = memo.get(key)
            if found is not None:
                return found
            lowest = x & -x
            lowest = lowest if lowest & LOW_BITS else lowest >> 1  # the face's low bit
            found = lowest if solve(x - lowest, wilds) else 0
            for candidate in lookup(x, wilds):
                found |= discards(x - candidate[0], wilds - candidate[1])
            memo[key] = found
            return found

        return discards

    def split(self, x: int, wilds: int, runs_only: bool = False) -> list[tuple[Tile, ...]] | None:
        """The sets ``solve`` found, as tiles in table order, neighbouring runs joined again."""
        if not self.solve(x, wilds, runs_only):
            return None
        memo = self._memo[runs_only]
        chosen = []
        while step := memo[x << 2 | wilds]:
            chosen.append(step)
            x, wilds = x - step[0], wilds - step[1]
        groups = [self.tiles_of(layout, start) for layout, start in self.join_runs(chosen)]
        return sorted(groups, key=self.table_order)

    def table_order(self, group: tuple[Tile, ...]) -> tuple[int, int]:
        """Sets left to right by their first plain tile: colour, then number."""
        for tile in group:
            if tile != self.okey:
                return sort_key(self.okey if tile == FALSE_JOKER else tile)
        return (5, 0)

    def tiles_of(self, layout: tuple[int, ...], start: int = 1) -> tuple[Tile, ...]:
        """Tiles in table order: a run as laid out, a group (start 0) by colour."""
        if not start:
            layout = tuple(sorted(layout, key=lambda face: self._faces[face if face >= 0 else ~face]))
        return tuple(self.okey if face < 0 else self._tile_of[face] for face in layout)

    def join_runs(self, chosen: list[Candidate]) -> list[tuple[tuple[int, ...], int]]:
        """Undo the search's cut of long runs into pieces of 3 to 5, where the join stays valid."""
        pieces = [[layout, color, start] for _, _, layout, color, start in chosen]
        for piece in sorted(pieces, key=lambda p: (p[1], -p[2])):
            follower = piece
            for other in pieces:
                if self._joinable(other, follower):
                    other[0] += follower[0]
                    follower[0] = ()
                    break
        return [(layout, start) for layout, _, start in pieces if layout]

    def _joinable(self, first: list, second: list) -> bool:
        (layout, color, start), (more, other_color, other_start) = first, second
        return (
            bool(layout and more and start and other_start)
            and color == other_color
            and start + len(layout) == other_start
            and sum(face < 0 for face in layout + more) <= self.per_set
        )


# --- finishes --------------------------------------------------------------------------------

COLOR_RANK = {ORDERED_COLOR: 2, UNORDERED_COLOR: 1, None: 0}


def _run_neighbours(face: int) -> list[int]:
    """Faces that share a 3-run with ``face`` (positions 1..14, 14 being the 1 again)."""
    color, number = divmod(face, 13)
    positions = [number + 1] + ([14] if number == 0 else [])
    masks = []
    for pos in positions:
        for start in range(pos - 2, pos + 1):
            if 1 <= start and start + 2 <= 14:
                others = [p for p in range(start, start + 3) if p != pos]
                masks.append(sum(bit(13 * color + (p - 1) % 13) for p in others))
    return masks


def _group_pairs(face: int) -> list[int]:
    color, number = divmod(face, 13)
    others = [13 * other + number for other in range(4) if other != color]
    return [bit(a) + bit(b) for i, a in enumerate(others) for b in others[i + 1:]]


# A tile is "alive" when some set of the rack's other tiles could hold it: with no wild a 3-run or
# 3-group of real tiles, with one wild any neighbour, with two wilds always. A rack with two dead
# tiles cannot finish with sets whatever it discards; with one, only by discarding that one.
TRIPLES = tuple(tuple(_run_neighbours(face) + _group_pairs(face)) for face in range(FACES))
NEIGHBOURS = tuple(reduce(or_, TRIPLES[face], 0) for face in range(FACES))


class _Evaluator(MeldSearch):
    """Picks the best finish over candidate discards, building the shown groups only for the winner."""

    def __init__(self, okey: Tile, rules: RuleSet, pairs_only: bool):
        super().__init__(okey, rules)
        self.rules = rules
        self.pairs_only = pairs_only
        self._value = finish_value
        self._worth: dict[tuple[str, str | None, bool], int] = {}

    def best(self, options: list[tuple[Tile | None, int, int, bool]],
             splits: Callable[[Tile | None, int, int], bool] | None = None) -> Finish | None:
        """Options are (discard, rest, wilds, may split). Ties go to the earlier option.

        A finish's worth depends only on its kind, colour and discard, so an option whose best
        conceivable worth cannot beat the best found so far is skipped without searching. The
        okey goes first: an okey finish doubles, so it usually settles the question at once.
        """
        splits = splits or (lambda discard, x, wilds: self.solve(x, wilds))
        found = None
        best_key = None
        ranked = sorted(enumerate(options), key=lambda item: item[1][0] != self.okey)
        for index, (discard, x, wilds, may_split) in ranked:
            okey_finish = discard == self.okey and discard is not None
            if self.can_pair(x, wilds):
                key = self._key(PAIRS, None, okey_finish, index)
                if best_key is None or key > best_key:
                    found, best_key = (PAIRS, None, discard, x, wilds), key
            if not may_split:
                continue
            if best_key is not None and self._key(SETS, self._color_bound(x), okey_finish, index) < best_key:
                continue
            if splits(discard, x, wilds):
                color = self._color(x, wilds)
                key = self._key(SETS, color, okey_finish, index)
                if best_key is None or key > best_key:
                    found, best_key = (SETS, color, discard, x, wilds), key
        return None if found is None else self._build(*found)

    def _key(self, kind: str, color: str | None, okey_finish: bool, index: int) -> tuple[int, int, bool, int]:
        """Worth to the finisher first; then a colour finish, then sets, then the earlier option."""
        worth = self._worth.get((kind, color, okey_finish))
        if worth is None:
            worth = self._worth[(kind, color, okey_finish)] = self._value(Finish(kind, None, okey_finish, (), color), self.rules)
        return worth, COLOR_RANK[color], kind == SETS, -index

    def _build(self, kind: str, color: str | None, discard: Tile | None, x: int, wilds: int) -> Finish:
        okey_finish = discard == self.okey and discard is not None
        if kind == PAIRS:
            return Finish(PAIRS, discard, okey_finish, self.pairs(x, wilds))
        single = lowest_face(x) // 13
        if color == ORDERED_COLOR:
            groups = (self._ordered_run(x, single),)
        else:
            groups = tuple(self.split(x, wilds, runs_only=color == UNORDERED_COLOR) or ())
        return Finish(SETS, discard, okey_finish, groups, color)

    # -- sets --

    def dead_faces(self, x: int, wilds: int) -> list[int]:
        """Faces (once per copy) that no set of the other tiles could hold."""
        budget = min(wilds, self.per_set)
        if budget >= 2:
            return []
        held = present(x)
        dead = []
        for face in range(FACES):
            count = (x >> 2 * face) & 3
            if not count:
                continue
            if budget == 1:
                alive = held & NEIGHBOURS[face]
            else:
                alive = any(held & mask == mask for mask in TRIPLES[face])
            if not alive:
                dead += [face] * count
        return dead

    def may_split(self, x: int, wilds: int) -> bool:
        return not self.pairs_only and not self.dead_faces(x, wilds)

    def split_filter(self, x: int, wilds: int) -> Callable[[Tile], bool]:
        """For 15 tiles: which discards could leave 14 that split into sets, judged once."""
        if self.pairs_only:
            return lambda discard: False
        dead = self.dead_faces(x, wilds)
        wild_discard_ok = wilds > 0 and not self.dead_faces(x, wilds - 1)

        def may_split(discard: Tile) -> bool:
            if discard == self.okey:
                return wild_discard_ok
            return not dead or dead == [self.face(discard)]

        return may_split

    def _color_bound(self, x: int) -> str | None:
        """The best colour a split of these tiles could have: all plain tiles must share one."""
        color = lowest_face(x) // 13
        if x & ~COLOR_MASKS[color]:
            return None
        return ORDERED_COLOR if self._fits_ordered(x, color) else UNORDERED_COLOR

    def _color(self, x: int, wilds: int) -> str | None:
        """The best colour a split of these (splittable) tiles has."""
        bound = self._color_bound(x)
        if bound == ORDERED_COLOR and wilds <= self.per_set:
            return ORDERED_COLOR
        if bound is not None and self.solve(x, wilds, runs_only=True):
            return UNORDERED_COLOR
        return None

    def discard_splitter(self, x: int, wilds: int, tries: int = 2) -> Callable[[Tile | None, int, int], bool]:
        """For 15 tiles: whether a discard leaves tiles that split.

        The first few discards asked about are searched one by one: often one of them finishes
        and the rest cannot beat it. After ``tries`` failures, one search decides every plain
        discard at once.
        """
        feasible: list[int] = []
        failures = [0]

        def splits(discard: Tile | None, rest: int, rest_wilds: int) -> bool:
            if discard is None or discard == self.okey or (not feasible and failures[0] < tries):
                found = self.solve(rest, rest_wilds)
                failures[0] += not found
                return found
            if not feasible:
                wild_can_go = wilds > 0 and self.split_filter(x, wilds)(self.okey) and self.solve(x, wilds - 1)
                feasible.append(self.discards(x, wilds, every=wild_can_go))
            return bool(feasible[0] & bit(self.face(discard)))

        return splits

    def _fits_ordered(self, x: int, color: int) -> bool:
        base = 13 * color
        return all(count_of(x, base + i) <= (i == 0) + 1 for i in range(13))

    def _ordered_run(self, x: int, color: int) -> tuple[Tile, ...]:
        base = 13 * color
        ones = count_of(x, base)
        layout = [base + i if count_of(x, base + i) else ~(base + i) for i in range(13)]
        return self.tiles_of((*layout, base if ones == 2 else ~base))

    # -- pairs --

    def can_pair(self, x: int, wilds: int) -> bool:
        if x & (x >> 1) & LOW_BITS:
            return False  # a face three times
        singles = (x & LOW_BITS).bit_count()
        partners = wilds if self.rules.okey_completes_pair else 0
        return singles <= partners and (partners - singles) % 2 == 0 and (wilds - partners) % 2 == 0

    def pairs(self, x: int, wilds: int) -> tuple[tuple[Tile, ...], ...]:
        okey = self.okey
        groups = []
        for face in range(FACES):
            count = count_of(x, face)
            if count:
                tile = self.real(face)
                groups.append((tile, tile if count == 2 else okey))
        groups.sort(key=lambda pair: (pair[1] == okey, sort_key(pair[0])))
        singles = (x & LOW_BITS).bit_count()
        return (*groups, *[(okey, okey)] * ((wilds - singles) // 2))
