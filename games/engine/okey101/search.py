"""Searching a 101 rack (RULES.md "101 Okey", rules 3, 4, 7-10): the best opening, the best pairs,
which tiles are işlek and the lay-offs an opened player can make. Pure and fast: a bot calls it
many times a turn and a client may call it to suggest an opening.

**The best set of melds** (``best_melds``) is a dynamic programme over the numbers 1 to 13, not an
enumeration of partitions. Runs live in one colour and climb the numbers; groups live in one number
across the colours. So the numbers are swept once, and the state between two numbers is, per
colour, the runs still open there (at most two: a set holds each face twice) by their length so far
(0, 1, 2 or "3 or more": nothing else matters for what may follow), plus the wild okeys left. At a
number each colour's copies either extend or start a run or are left over; the leftovers of all
four colours form the number's groups, whose best use is a small table made once at import. Run
and group choices are thus combined exactly, with the okeys shared between them, in a few hundred
state visits for a 22-tile rack.

What counts as "best" is a weight per tile placed, so one search serves three questions: the
opening's value (``VALUE``: a tile its number, an okey the number it stands for), what a rack would
still cost (``COST``: an okey counts 101 in the rack, rule 11) and how many tiles can go down at all
(``COVER``: finishing and elden bitme, rule 10).

Melds come back in notation, ready for an ``open`` or ``lay_down`` action; ``apply_turn`` reads
each at its highest value (rule 4), which is the value the search found.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..tiles import Tile, format_tile, number_of
from .hand import TableMeld, is_islek
from .melds import (
    GROUP,
    LONGEST_RUN,
    MAX_GROUP,
    OKEY_IN_RACK,
    PAIR,
    RUN,
    face_of,
    read_meld,
    tile_value,
)

MELDS = "melds"
PAIRS = "pairs"
#: What a placed tile is worth to the search (see the module docstring).
VALUE = "value"
COST = "cost"
COVER = "cover"
MODES = (VALUE, COST, COVER)
#: In COVER mode one more tile down always beats any difference in value.
_COVER_UNIT = 1000
NUMBERS = range(1, 14)
OPENING_VALUE = 101
OPENING_PAIRS = 5

# -- the tables the sweep uses -----------------------------------------------------------------------

#: A colour's open runs: two lengths (0, 1, 2, 3 = "3 or more"), smaller first.
_CHAINS = tuple((a, b) for b in range(4) for a in range(b + 1))
_CHAIN_INDEX = {pair: index for index, pair in enumerate(_CHAINS)}
_CLOSED = frozenset(index for index, (a, b) in enumerate(_CHAINS) if a in (0, 3) and b in (0, 3))


@dataclass(frozen=True)
class _Step:
    """What one colour does at one number: each run slot gets nothing (it ends, or stays empty), a
    real tile or a wild okey."""

    slots: tuple[str, str]
    chains: int          # the new _CHAINS index
    reals: int           # real tiles put into runs
    wilds: int           # okeys put into runs
    wild_starts: int     # okeys that start a run here (pruned unless a real tile follows closely)
    growing: int         # runs left at length 1 or 2: they need a tile at the next number
    fresh: int           # runs left at length 1: they need one at the number after that too


def _steps() -> dict[tuple[int, int, int], tuple[_Step, ...]]:
    """Every step per (number, chains, copies held); a run shorter than 3 may not end, and one that
    could not reach 3 before 13 is never started."""
    table: dict[tuple[int, int, int], tuple[_Step, ...]] = {}
    for number in NUMBERS:
        room = 13 - number   # numbers still to come
        for index, (a, b) in enumerate(_CHAINS):
            for held in range(3):
                steps: list[_Step] = []
                seen: set[tuple[str, str]] = set()
                for first in "-RW":
                    for second in "-RW":
                        if a == b and (second, first) in seen:
                            continue
                        seen.add((first, second))
                        lengths = []
                        ok = True
                        for length, action in ((a, first), (b, second)):
                            if action == "-":
                                ok &= length in (0, 3)
                                lengths.append(0)
                            else:
                                new = min(length + 1, 3)
                                ok &= new == 3 or 3 - new <= room
                                lengths.append(new)
                        reals = (first, second).count("R")
                        if not ok or reals > held:
                            continue
                        starts = sum(1 for length, action in ((a, first), (b, second)) if length == 0 and action == "W")
                        steps.append(_Step((first, second), _CHAIN_INDEX[tuple(sorted(lengths))], reals,
                                           (first, second).count("W"), starts,
                                           sum(1 for length in lengths if length in (1, 2)),
                                           lengths.count(1)))
                table[number, index, held] = tuple(steps)
    return table


_STEPS = _steps()


def _group_table() -> dict[tuple[tuple[int, ...], int], tuple[int, tuple[tuple[tuple[int, ...], int], ...]]]:
    """For the copies left over per colour at one number (0-2 each) and an exact count of okeys:
    the most real tiles groups can hold, and those groups as (colours, okeys). -1: the okeys cannot
    all go into groups."""
    from itertools import combinations, product

    def best(left: tuple[int, ...], wilds: int) -> tuple[int, tuple]:
        found = (0, ()) if wilds == 0 else (-1, ())
        colours = [colour for colour in range(4) if left[colour]]
        for size in range(1, len(colours) + 1):
            for chosen in combinations(colours, size):
                for extra in range(wilds + 1):
                    if not 3 <= size + extra <= MAX_GROUP:
                        continue
                    rest = tuple(count - (colour in chosen) for colour, count in enumerate(left))
                    reals, groups = best(rest, wilds - extra)
                    if reals >= 0 and reals + size > found[0]:
                        found = (reals + size, ((chosen, extra), *groups))
        return found

    return {(left, wilds): best(left, wilds) for left in product(range(3), repeat=4) for wilds in range(3)}


_GROUPS = _group_table()
#: The same by how many colours have one copy left and how many two (what the sweep keys on).
_GROUP_REALS = {(left.count(1), left.count(2), wilds): reals for (left, wilds), (reals, _) in _GROUPS.items()}


# -- results -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Opening:
    """A set of disjoint melds from a rack: ``total`` is the opening's value (melds, rule 4) or its
    number of pairs; ``melds`` are in notation, ready for an ``open`` or ``lay_down`` action."""

    kind: str                                 # MELDS or PAIRS
    melds: tuple[tuple[str, ...], ...]
    total: int
    tiles: tuple[Tile, ...]                   # every rack tile the melds use

    @property
    def size(self) -> int:
        return len(self.tiles)

    def action(self, type_: str = "open") -> dict[str, Any]:
        return {"type": type_, "melds": [list(meld) for meld in self.melds]}

    def rest(self, rack: Iterable[Tile]) -> list[Tile]:
        """The rack without the melds' tiles."""
        left = list(rack)
        for tile in self.tiles:
            left.remove(tile)
        return left


def _as_opening(kind: str, melds: list[list[Tile]], okey: Tile) -> Opening:
    if kind == PAIRS:
        total = len(melds)
    else:
        total = sum(read_meld(meld, okey).value for meld in melds)
    return Opening(kind, tuple(tuple(format_tile(tile) for tile in meld) for meld in melds), total,
                   tuple(tile for meld in melds for tile in meld))


# -- the sweep -----------------------------------------------------------------------------------------


def _weights(mode: str) -> tuple[list[int], list[int]]:
    """Per number: what a real tile and what an okey standing for that number are worth."""
    if mode == VALUE:
        real = list(range(14))
        return real, real
    if mode == COST:
        return list(range(14)), [OKEY_IN_RACK] * 14
    if mode == COVER:
        return [_COVER_UNIT + n for n in range(14)], [_COVER_UNIT + OKEY_IN_RACK] * 14
    raise ValueError(f"unknown search mode {mode!r}: {', '.join(MODES)}")


def _faces(tiles: Iterable[Tile], okey: Tile) -> tuple[list[list[int]], int, dict[Tile, list[Tile]]]:
    """Copies per colour and number (padded to 15), the wild okeys, and the rack tiles per face."""
    counts = [[0] * 16 for _ in range(4)]
    wilds = 0
    by_face: dict[Tile, list[Tile]] = {}
    for tile in tiles:
        if tile == okey:
            wilds += 1
            continue
        face = face_of(tile, okey)
        counts[face // 13][face % 13 + 1] += 1
        by_face.setdefault(face, []).append(tile)
    if wilds > 2 or any(count > 2 for row in counts for count in row):
        raise ValueError("a set holds each tile twice: more copies than that cannot be searched")
    return counts, wilds, by_face


def _sweep(counts: list[list[int]], wilds: int, mode: str) -> tuple[int, list[tuple[int, int, tuple, int]]]:
    """The best weight and, per number, the decision that reaches it: (number, chains before,
    per-colour steps, okeys into groups)."""
    real_w, wild_w = _weights(mode)
    group_reals = _GROUP_REALS
    # state: (c0, c1, c2, c3, okeys left) -> weight; back[n][state] = (previous state, steps, wg)
    layer: dict[tuple[int, ...], int] = {(0, 0, 0, 0, wilds): 0}
    start: dict[tuple, tuple[int, tuple]] = {((), 0, 0, 0, 0): (0, ())}
    backs: list[dict[tuple[int, ...], tuple]] = []
    for number in NUMBERS:
        real_gain, wild_gain = real_w[number], wild_w[number]
        menus = [{index: _menu(number, index, counts[colour][number], counts[colour][number + 1],
                               counts[colour][number + 2], real_gain, wild_gain)
                  for index in {state[colour] for state in layer}} for colour in range(4)]
        new_layer: dict[tuple[int, ...], int] = {}
        back: dict[tuple[int, ...], tuple] = {}
        prefixes: dict[tuple, dict[tuple, tuple[int, tuple]]] = {}
        for state, weight in layer.items():
            okeys = state[4]
            # Combine the colours one by one: (chains, k1, k2, okeys used, okeys spoken for) -> (gain, steps)
            partial: dict[tuple, tuple[int, tuple]] = start
            for colour in range(4):
                # States share their first colours' runs: combine those once per layer.
                cache_key = (state[:colour + 1], okeys)
                merged = prefixes.get(cache_key)
                if merged is None:
                    merged = prefixes[cache_key] = _merge(partial, menus[colour][state[colour]], okeys)
                partial = merged
            for (chains, k1, k2, used, _reserved), (gain, chosen) in partial.items():
                free = okeys - used
                for in_groups in range(free + 1):
                    reals = group_reals[k1, k2, in_groups]
                    if reals < 0:
                        continue
                    total = weight + gain + reals * real_gain + in_groups * wild_gain
                    key = (*chains, free - in_groups)
                    if total > new_layer.get(key, -1):
                        new_layer[key] = total
                        back[key] = (state, chosen, in_groups)
        layer = _undominated(new_layer)
        backs.append(back)
    finals = [(weight, state) for state, weight in layer.items() if all(index in _CLOSED for index in state[:4])]
    weight, state = max(finals)
    decisions = []
    for number in range(13, 0, -1):
        previous, chosen, in_groups = backs[number - 1][state]
        decisions.append((number, previous, chosen, in_groups))
        state = previous
    decisions.reverse()
    return weight, decisions


def _merge(partial: dict[tuple, tuple[int, tuple]], options: tuple[tuple, ...], okeys: int) -> dict[tuple, tuple[int, tuple]]:
    """Add one colour's steps to the colours combined so far: (runs, colours with one copy left,
    with two, okeys used, okeys spoken for) -> (best gain, the steps)."""
    merged: dict[tuple, tuple[int, tuple]] = {}
    for (chains, k1, k2, used, reserved), (gain, chosen) in partial.items():
        for wilds, need, chain, step_gain, one, two, step in options:
            if reserved + need > okeys:
                continue
            key = (chains + (chain,), k1 + one, k2 + two, used + wilds, reserved + need)
            value = gain + step_gain
            best = merged.get(key)
            if best is None or value > best[0]:
                merged[key] = (value, chosen + (step,))
    return merged


_STEP_MENUS: dict[tuple[int, ...], tuple[tuple, ...]] = {}
_MENUS: dict[tuple[int, ...], tuple[tuple, ...]] = {}


def _menu(number: int, index: int, held: int, after: int, after2: int, real_gain: int,
          wild_gain: int) -> tuple[tuple, ...]:
    """One colour's steps at a number, each with the okeys it uses, the okeys it needs in all (runs
    still short of 3 need tiles next: okeys where the colour has none), its new runs, its gain and
    whether it leaves one or two copies for the groups."""
    key = (number, index, held, after, after2, real_gain, wild_gain)
    menu = _MENUS.get(key)
    if menu is not None:
        return menu
    options = _STEP_MENUS.get(key[:5])
    if options is None:
        found = []
        for step in _STEPS[number, index, held]:
            need = max(0, step.growing - after) + max(0, step.fresh - after2)
            if step.wild_starts and not after and not after2:
                continue
            left = held - step.reals
            found.append((step.wilds, step.wilds + need, step.chains, step.reals, left == 1, left == 2, step))
        options = _STEP_MENUS[key[:5]] = tuple(found)
    menu = _MENUS[key] = tuple((wilds, need, chains, reals * real_gain + wilds * wild_gain, one, two, step)
                               for wilds, need, chains, reals, one, two, step in options)
    return menu


def _undominated(layer: dict[tuple[int, ...], int]) -> dict[tuple[int, ...], int]:
    """Drop a state when the same runs with more okeys left weigh at least as much."""
    for state, weight in list(layer.items()):
        okeys = state[4]
        for more in range(okeys + 1, 3):
            if layer.get((*state[:4], more), -1) >= weight:
                del layer[state]
                break
    return layer


def _rebuild(decisions: list[tuple[int, tuple, tuple, int]], by_face: dict[Tile, list[Tile]],
             okey: Tile) -> list[list[Tile]]:
    """Replay the sweep's decisions with the rack's own tiles: the runs and groups it found."""
    pool = {face: list(tiles) for face, tiles in by_face.items()}
    melds: list[list[Tile]] = []
    runs: list[list[list[Tile]]] = [[[], []] for _ in range(4)]
    for number, _previous, chosen, in_groups in decisions:
        left = []
        for colour in range(4):
            face = colour * 13 + number - 1
            slots = runs[colour]
            step = chosen[colour]
            if step.slots != ("-", "-") or slots[0] or slots[1]:
                for slot, action in enumerate(step.slots):
                    if action == "-":
                        if len(slots[slot]) >= 3:
                            melds.append(slots[slot])
                        slots[slot] = []
                    elif action == "R":
                        slots[slot].append(pool[face].pop())
                    else:
                        slots[slot].append(okey)
                # Keep the slots in the order the state names them (shorter first; equal ones are alike).
                if min(len(slots[0]), 3) > min(len(slots[1]), 3):
                    slots.reverse()
            copies = pool.get(face)
            left.append(len(copies) if copies else 0)
        if in_groups or left.count(0) < 2:
            for colours, wilds in _GROUPS[tuple(left), in_groups][1]:
                melds.append([pool[colour * 13 + number - 1].pop() for colour in colours] + [okey] * wilds)
    melds.extend(run for slots in runs for run in slots if len(run) >= 3)
    return melds


def best_melds(tiles: Iterable[Tile], okey: Tile, *, mode: str = VALUE, keep: int = 0) -> Opening:
    """The best set of disjoint runs and groups in ``tiles`` by ``mode`` (the opening's value by
    default), leaving at least ``keep`` tiles out (a turn always keeps one to discard, rule 5).
    Always returns: no meld at all is an ``Opening`` with total 0."""
    tiles = list(tiles)
    melds = _best_meld_lists(tiles, okey, mode)
    if keep and len(tiles) - sum(map(len, melds)) < keep:
        melds = _best_leaving(tiles, okey, mode, keep)
    return _as_opening(MELDS, melds, okey)


def _best_meld_lists(tiles: list[Tile], okey: Tile, mode: str) -> list[list[Tile]]:
    counts, wilds, by_face = _faces(tiles, okey)
    if len(tiles) < 3:
        return []
    _, decisions = _sweep(counts, wilds, mode)
    return _rebuild(decisions, by_face, okey)


def _weight(melds: list[list[Tile]], okey: Tile, mode: str) -> int:
    if mode == VALUE:
        return sum(read_meld(meld, okey).value for meld in melds)
    real_w, wild_w = _weights(mode)
    return sum(wild_w[1] if tile == okey else real_w[number_of(face_of(tile, okey))]
               for meld in melds for tile in meld)


def _best_leaving(tiles: list[Tile], okey: Tile, mode: str, keep: int) -> list[list[Tile]]:
    """The best melds when the unconstrained best would use too many tiles: leave one tile out at a
    time (each distinct tile once) and keep the best."""
    best: tuple[int, list[list[Tile]]] | None = None
    for tile in set(tiles):
        rest = list(tiles)
        rest.remove(tile)
        melds = _best_meld_lists(rest, okey, mode)
        if len(rest) - sum(map(len, melds)) < keep - 1:
            melds = _best_leaving(rest, okey, mode, keep - 1)
        weight = _weight(melds, okey, mode)
        if best is None or weight > best[0]:
            best = (weight, melds)
    return best[1] if best is not None else []


def best_opening(tiles: Iterable[Tile], okey: Tile, *, needed: int = OPENING_VALUE, keep: int = 0) -> Opening | None:
    """The highest-value runs and groups of a rack (rule 7), or None when they do not reach
    ``needed`` (``opening_needed(state)["melds"]`` at a rising table)."""
    opening = best_melds(tiles, okey, mode=VALUE, keep=keep)
    return opening if opening.melds and opening.total >= needed else None


def best_opening_with_discard(tiles: Iterable[Tile], okey: Tile, *, needed: int = OPENING_VALUE) -> Opening | None:
    """The best opening that still leaves a tile to discard (rule 5: the last tile never goes down)."""
    return best_opening(tiles, okey, needed=needed, keep=1)


def best_pairs(tiles: Iterable[Tile], okey: Tile, *, keep: int = 0) -> Opening:
    """The most pairs in a rack (rule 3: identical tiles; an okey pairs with any tile, two okeys are a
    pair), the okeys paired with the highest single tiles, leaving at least ``keep`` tiles; when
    fewer may go down, the pairs that cost least in the rack stay behind."""
    tiles = list(tiles)
    wilds = [tile for tile in tiles if tile == okey]
    by_face: dict[Tile, list[Tile]] = {}
    for tile in tiles:
        if tile != okey:
            by_face.setdefault(face_of(tile, okey), []).append(tile)
    pairs: list[list[Tile]] = []
    singles: list[Tile] = []
    for copies in by_face.values():
        while len(copies) >= 2:
            pairs.append([copies.pop(), copies.pop()])
        singles.extend(copies)
    singles.sort(key=lambda tile: tile_value(tile, okey), reverse=True)
    for single in singles:
        if not wilds:
            break
        pairs.append([single, wilds.pop()])
    if len(wilds) >= 2:
        pairs.append([wilds.pop(), wilds.pop()])
    room = max(0, (len(tiles) - keep) // 2)
    if len(pairs) > room:
        pairs.sort(key=lambda pair: sum(OKEY_IN_RACK if t == okey else tile_value(t, okey) for t in pair), reverse=True)
        pairs = pairs[:room]
    return _as_opening(PAIRS, pairs, okey)


def best_pairs_opening(tiles: Iterable[Tile], okey: Tile, *, needed: int = OPENING_PAIRS,
                       keep: int = 0) -> Opening | None:
    """The pairs opening (rule 7: at least ``needed`` pairs), or None."""
    opening = best_pairs(tiles, okey, keep=keep)
    return opening if opening.total >= needed else None


def finishing_melds(tiles: Iterable[Tile], okey: Tile, *, last: Tile | None = None) -> Opening | None:
    """Runs and groups holding every tile but one (rule 10: the last one is discarded), with ``last``
    as the one left when given (an okey finish), or None. Elden bitme and a finish from the rack."""
    tiles = list(tiles)
    if last is not None:
        if last not in tiles:
            return None
        rest = list(tiles)
        rest.remove(last)
        melds = _best_meld_lists(rest, okey, COVER)
        return _as_opening(MELDS, melds, okey) if sum(map(len, melds)) == len(rest) else None
    opening = best_melds(tiles, okey, mode=COVER, keep=1)
    return opening if opening.size == len(tiles) - 1 else None


# -- işlek tiles and lay-offs (rules 8, 9) ---------------------------------------------------------------


def islek_tiles(rack: Iterable[Tile], melds: Sequence[TableMeld], okey: Tile) -> list[Tile]:
    """The rack's tiles that could be laid off on a table meld as an extra tile: each costs 101 if
    discarded (rule 9), so a player keeps them or lays them off."""
    verdict: dict[Tile, bool] = {}
    return [tile for tile in rack if verdict.setdefault(tile, is_islek(tile, melds, okey))]


@dataclass(frozen=True)
class Layoffs:
    """A sequence of lay-offs and okey swaps: the actions (in notation, in order), what stays in the
    rack and the table melds as they would lie after."""

    actions: tuple[dict[str, Any], ...]
    rack: tuple[Tile, ...]
    melds: tuple[TableMeld, ...]
    gain: int                                # what the rack costs less (rule 11: an okey 101)

    @property
    def tiles(self) -> list[Tile]:
        return [action["_tile"] for action in self.actions]


def _valid(kind: str, tiles: Sequence[Tile], okey: Tile) -> bool:
    """``read_meld(tiles, okey, kind)`` succeeds, without building its reading or its error: the
    lay-off search asks this thousands of times a turn."""
    size = len(tiles)
    faces = [face_of(tile, okey) for tile in tiles if tile != okey]
    if not faces:
        return False
    if kind == GROUP:
        number = faces[0] % 13
        return 3 <= size <= MAX_GROUP and all(face % 13 == number for face in faces) and len(set(faces)) == len(faces)
    if kind == RUN:
        colour = faces[0] // 13
        if not 3 <= size <= LONGEST_RUN or any(face // 13 != colour for face in faces):
            return False
        numbers = {face % 13 for face in faces}
        # The run's window of ``size`` numbers within 1..13 must cover every real number (rule 3).
        return len(numbers) == len(faces) and max(numbers) - min(numbers) < size
    return False


@lru_cache(maxsize=1 << 16)
def _fits(kind: str, tiles: tuple[Tile, ...], tile: Tile, okey: Tile) -> bool:
    return kind != PAIR and _valid(kind, [*tiles, tile], okey)


def fits(kind: str, tiles: Sequence[Tile], tile: Tile, okey: Tile) -> bool:
    """``melds.extended(...) is not None``, fast: ``tile`` goes on the meld as an extra tile.
    Remembered per meld and tile: a turn asks about the same table melds over and over."""
    return _fits(kind, tuple(tiles), tile, okey)


def frees(kind: str, tiles: Sequence[Tile], tile: Tile, okey: Tile) -> bool:
    """``melds.swapped(...) is not None``, fast: ``tile`` may take an okey's place (rule 8)."""
    if kind == PAIR or tile == okey or okey not in tiles:
        return False
    rest = list(tiles)
    rest.remove(okey)
    if kind == GROUP and (len(tiles) != MAX_GROUP or okey in rest):
        return False
    return _valid(kind, [*rest, tile], okey)


def layable(tile: Tile, melds: Sequence[TableMeld], okey: Tile) -> bool:
    """``hand.is_islek``, fast: the tile could be laid off on one of the melds."""
    return any(fits(meld.kind, meld.tiles, tile, okey) for meld in melds)


def _cost(tile: Tile, okey: Tile) -> int:
    return OKEY_IN_RACK if tile == okey else tile_value(tile, okey)


#: The lay-off search stops exploring after this many positions and keeps the best found.
LAYOFF_BUDGET = 4000


def best_layoffs(rack: Iterable[Tile], table_melds: Sequence[TableMeld], okey: Tile, limit: int | None = None,
                 *, keep: int = 1, swaps: bool = True) -> Layoffs:
    """The lay-offs (and okey swaps) that take the most cost out of the rack, chained: a tile laid
    off may make the next one fit (``K5 K6 K7`` + ``K8`` + ``K9``), and a swap frees an okey that can
    then be laid off too. At most ``limit`` actions (a pairs opener: 2, a swap counting as one),
    always leaving ``keep`` tiles. A memoised search over what lies where, so the order found is one
    ``apply_turn`` accepts."""
    start_rack = tuple(sorted(rack))
    start_melds = tuple(table_melds)
    memo: dict[tuple, tuple[int, tuple]] = {}
    budget = [LAYOFF_BUDGET]

    def moves(hand: tuple[Tile, ...], melds: tuple[TableMeld, ...]) -> list[tuple[str, int, Tile, int]]:
        found = []
        for index, meld in enumerate(melds):
            if meld.kind == PAIR:
                continue
            for tile in set(hand):
                if fits(meld.kind, meld.tiles, tile, okey):
                    found.append(("lay_off", index, tile, _cost(tile, okey)))
                elif swaps and frees(meld.kind, meld.tiles, tile, okey):
                    found.append(("swap", index, tile, _cost(tile, okey) - OKEY_IN_RACK))
        return found

    def search(hand: tuple[Tile, ...], melds: tuple[TableMeld, ...], left: int | None) -> tuple[int, tuple]:
        key = (hand, tuple(meld.tiles for meld in melds), left)
        if key in memo:
            return memo[key]
        best: tuple[int, tuple] = (0, ())
        if len(hand) > keep and (left is None or left > 0) and budget[0] > 0:
            budget[0] -= 1
            for kind, index, tile, gain in moves(hand, melds):
                meld = melds[index]
                rest = list(hand)
                rest.remove(tile)
                if kind == "swap":
                    tiles = list(meld.tiles)
                    tiles.remove(okey)
                    rest.append(okey)
                    rest.sort()
                    tiles.append(tile)
                else:
                    tiles = [*meld.tiles, tile]
                new_melds = melds[:index] + (TableMeld(meld.id, meld.owner, meld.kind, tuple(tiles)),) + melds[index + 1:]
                sub_gain, sub_path = search(tuple(rest), new_melds, None if left is None else left - 1)
                if gain + sub_gain > best[0]:
                    best = (gain + sub_gain, ((kind, meld.id, tile), *sub_path))
        memo[key] = best
        return best

    gain, path = search(start_rack, start_melds, limit)
    hand = list(start_rack)
    melds = list(start_melds)
    actions = []
    for kind, meld_id, tile in path:
        index = next(i for i, meld in enumerate(melds) if meld.id == meld_id)
        meld = melds[index]
        hand.remove(tile)
        tiles = list(meld.tiles)
        if kind == "swap":
            tiles.remove(okey)
            hand.append(okey)
        melds[index] = TableMeld(meld.id, meld.owner, meld.kind, (*tiles, tile))
        actions.append({"type": kind, "meld": meld_id, "tile": format_tile(tile), "_tile": tile})
    return Layoffs(tuple(actions), tuple(hand), tuple(melds), gain)


def public_action(action: dict[str, Any]) -> dict[str, Any]:
    """An action as a turn sends it (without the search's own keys)."""
    return {key: value for key, value in action.items() if not key.startswith("_")}


def rack_cost(tiles: Iterable[Tile], okey: Tile) -> int:
    return sum(_cost(tile, okey) for tile in tiles)


__all__ = [
    "COST", "COVER", "MELDS", "PAIRS", "VALUE", "Layoffs", "Opening", "best_layoffs", "best_melds", "best_opening",
    "best_opening_with_discard", "best_pairs", "best_pairs_opening", "finishing_melds", "fits", "frees",
    "islek_tiles", "layable", "public_action", "rack_cost",
]
