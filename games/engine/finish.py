"""Finish evaluation: can these tiles end the hand, and what is the best way for the finisher?

INTERFACE FILE (to be implemented): the dataclass and signatures below are fixed; other modules
(hand.py, scoring.py, check.py) call them.
"""

from __future__ import annotations

from dataclasses import dataclass

from .rules import RuleSet
from .tiles import Tile

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


def complete_split(tiles: list[Tile], okey: Tile, rules: RuleSet, *, pairs_only: bool = False) -> Finish | None:
    """14 tiles: the best complete arrangement (sets or 7 pairs), or None."""
    raise NotImplementedError


def best_finish(rack: list[Tile], okey: Tile, rules: RuleSet, *, pairs_only: bool = False) -> Finish | None:
    """15 tiles: over every discard, the finish worth most to the finisher, or None."""
    raise NotImplementedError


def finish_with_discard(rack: list[Tile], discard: Tile, okey: Tile, rules: RuleSet, *, pairs_only: bool = False) -> Finish | None:
    """15 tiles and a chosen discard: the best finish that puts exactly that tile on the centre."""
    raise NotImplementedError
