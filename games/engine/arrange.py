"""The rack's "sort by sets" and "sort by pairs" buttons.

A rack rarely finishes, so these do not ask "is it complete?" but "which tiles already work
together?": they cover as many tiles as possible with valid sets (or pairs) and leave the rest
loose at the end of the rack, where a player looks for the tile to discard.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from .finish import Candidate, MeldSearch, bit
from .rules import RuleSet
from .tiles import Tile, sort_key


@dataclass(frozen=True)
class Arrangement:
    groups: tuple[tuple[Tile, ...], ...]  # valid sets, largest first, or pairs
    loose: tuple[Tile, ...]               # tiles in no group: by colour and number, wilds last

    @property
    def order(self) -> tuple[Tile, ...]:
        """The rack left to right: the groups, then the loose tiles."""
        return tuple(tile for group in self.groups for tile in group) + self.loose


def arrange_by_sets(rack: Iterable[Tile], okey: Tile, rules: RuleSet) -> Arrangement:
    """Valid sets covering as many tiles as possible; ties keep the search's first choice."""
    search = _CoverSearch(okey, rules)
    x, wilds = search.pack(list(rack))
    chosen, loose_faces = search.best_cover(x, wilds)
    groups = [search.tiles_of(layout, start) for layout, start in search.join_runs(chosen)]
    groups.sort(key=lambda group: (-len(group), search.table_order(group)))
    used_wilds = sum(candidate[1] for candidate in chosen)
    loose = [search.real(face) for face in loose_faces] + [okey] * (wilds - used_wilds)
    return Arrangement(tuple(groups), _sorted_loose(loose, okey))


def arrange_by_pairs(rack: Iterable[Tile], okey: Tile, rules: RuleSet) -> Arrangement:
    """Identical pairs, then (when the rules let a wild complete a pair) wilds with singles."""
    tiles = list(rack)
    wild_partners = tiles.count(okey) if rules.okey_completes_pair else 0
    counts = Counter(tile for tile in tiles if not (wild_partners and tile == okey))
    groups: list[tuple[Tile, ...]] = []
    singles: list[Tile] = []
    for tile in sorted(counts, key=sort_key):
        pairs, single = divmod(counts[tile], 2)
        groups += [(tile, tile)] * pairs
        singles += [tile] * single
    while wild_partners and singles:
        groups.append((singles.pop(0), okey))
        wild_partners -= 1
    groups += [(okey, okey)] * (wild_partners // 2)
    loose = singles + [okey] * (wild_partners % 2)
    return Arrangement(tuple(groups), _sorted_loose(loose, okey))


def _sorted_loose(tiles: list[Tile], okey: Tile) -> tuple[Tile, ...]:
    return tuple(sorted(tiles, key=lambda tile: (tile == okey, sort_key(tile))))


class _CoverSearch(MeldSearch):
    """Most tiles in valid sets: like finish search, but the lowest tile may also stay loose."""

    def __init__(self, okey: Tile, rules: RuleSet):
        super().__init__(okey, rules)
        self._cover: dict[tuple[int, int], tuple[int, Candidate | None]] = {}

    def cover(self, x: int, wilds: int) -> int:
        key = (x, wilds)
        known = self._cover.get(key)
        if known is not None:
            return known[0]
        if not x:
            self._cover[key] = (0, None)
            return 0
        face = ((x & -x).bit_length() - 1) >> 1
        best, choice = self.cover(x - bit(face), wilds), None
        for candidate in self.candidates(x, wilds):
            covered = len(candidate[2]) + self.cover(x - candidate[0], wilds - candidate[1])
            if covered > best or (covered == best and choice is None):
                best, choice = covered, candidate
        self._cover[key] = (best, choice)
        return best

    def best_cover(self, x: int, wilds: int) -> tuple[list[Candidate], list[int]]:
        """The sets of a best cover, and the faces left loose (the unused wilds are implied)."""
        self.cover(x, wilds)
        chosen: list[Candidate] = []
        loose: list[int] = []
        while x:
            candidate = self._cover[(x, wilds)][1]
            if candidate is None:
                face = ((x & -x).bit_length() - 1) >> 1
                loose.append(face)
                x -= bit(face)
            else:
                chosen.append(candidate)
                x, wilds = x - candidate[0], wilds - candidate[1]
        return chosen, loose
