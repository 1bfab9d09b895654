"""Tiles and their text notation.

A tile is a plain ``int`` (like a square in python-chess): ``color * 13 + (number - 1)`` for the
52 faces, and ``FALSE_JOKER`` (52) for the false joker. The two physical copies of a face are
interchangeable for every rule, so the engine counts faces; a full set has each face twice.

Notation: ``K`` red, ``S`` black, ``M`` blue, ``Y`` green followed by the number (``K5``, ``S13``),
``J`` for a false joker. Parsing is case-insensitive and names the bad token in its error.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

Tile = int

COLORS = "KSMY"
COLOR_NAMES = {"K": "kırmızı", "S": "siyah", "M": "mavi", "Y": "yeşil"}
COLOR_NAMES_EN = {"K": "red", "S": "black", "M": "blue", "Y": "green"}
RED, BLACK, BLUE, GREEN = range(4)
FALSE_JOKER: Tile = 52
FACE_COUNT = 53
COPIES = 2
TILE_COUNT = 106

_TOKEN = re.compile(r"^([KSMY])(1[0-3]|[1-9])$")


class NotationError(ValueError):
    """A token that is not a tile, or more copies of a tile than a set holds."""

    code = "bad_tile"

    def __init__(self, message: str, token: str | None = None):
        super().__init__(message)
        self.token = token


def make_tile(color: int, number: int) -> Tile:
    if not (0 <= color < 4 and 1 <= number <= 13):
        raise ValueError(f"no tile with colour {color} and number {number}")
    return color * 13 + number - 1


def color_of(tile: Tile) -> int:
    """Colour index 0..3; -1 for the false joker."""
    return -1 if tile == FALSE_JOKER else tile // 13


def number_of(tile: Tile) -> int:
    """Number 1..13; 0 for the false joker."""
    return 0 if tile == FALSE_JOKER else tile % 13 + 1


def okey_for(indicator: Tile) -> Tile:
    """The wild tile: the indicator's colour, number + 1 (13 wraps to 1)."""
    if indicator == FALSE_JOKER:
        raise ValueError("a false joker cannot be the indicator")
    color, number = color_of(indicator), number_of(indicator)
    return make_tile(color, 1 if number == 13 else number + 1)


class DealtHand:
    """What a hand of every 106-tile game has: racks and an indicator (the hand dataclasses of
    classic Okey and 101 inherit these two readings)."""

    racks: list[list[Tile]]
    indicator: Tile

    @property
    def players(self) -> int:
        return len(self.racks)

    @property
    def okey(self) -> Tile:
        return okey_for(self.indicator)


def parse_tile(token: str) -> Tile:
    text = token.strip().upper()
    if text == "J":
        return FALSE_JOKER
    match = _TOKEN.match(text)
    if not match:
        raise NotationError(
            f"'{token}' is not a tile: use K/S/M/Y (red/black/blue/green) and 1-13, or J",
            token,
        )
    return make_tile(COLORS.index(match.group(1)), int(match.group(2)))


def parse_tiles(text: str | Iterable[str], *, check_copies: bool = True) -> list[Tile]:
    """Parse ``"K1 S13 J"`` (or a list of tokens) into tiles, keeping their order."""
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    tiles = [parse_tile(token) for token in tokens]
    if check_copies:
        check_copy_limits(tiles)
    return tiles


def check_copy_limits(tiles: Iterable[Tile]) -> None:
    for tile, count in Counter(tiles).items():
        if count > COPIES:
            raise NotationError(
                f"'{format_tile(tile)}' appears {count} times, but a set has only {COPIES}",
                format_tile(tile),
            )


def format_tile(tile: Tile) -> str:
    if tile == FALSE_JOKER:
        return "J"
    if not 0 <= tile < FALSE_JOKER:
        raise ValueError(f"{tile!r} is not a tile")
    return f"{COLORS[tile // 13]}{tile % 13 + 1}"


def format_tiles(tiles: Iterable[Tile]) -> str:
    return " ".join(format_tile(tile) for tile in tiles)


def full_set() -> list[Tile]:
    """All 106 tiles in a fixed order (each face twice, two false jokers)."""
    return [face for face in range(FACE_COUNT) for _ in range(COPIES)]


def sort_key(tile: Tile) -> tuple[int, int]:
    return (color_of(tile) if tile != FALSE_JOKER else 4, number_of(tile))
