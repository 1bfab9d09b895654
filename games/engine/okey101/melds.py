"""101's melds (RULES.md "101 Okey", rules 3 and 4): runs, groups and pairs, read from an
unordered set of tiles.

* **Run**: 3 to 13 tiles of one colour with consecutive numbers; 1 is low only (12-13-1 and any
  wrap are invalid).
* **Group**: 3 or 4 tiles of one number, all colours different.
* **Pair**: two identical tiles (same colour and number); a wild okey pairs with any tile, two
  okeys are a pair.

A wild okey stands in for any tile of a run or group, which must hold at least one real tile. A
false joker is a plain tile of the okey's face. The server finds the reading (``read_meld``); a
meld keeps the kind it was laid as, and later tiles are read with it (``extended``, ``swapped``).

Values (rule 4): a tile counts its number; an okey counts the tile it stands for, at either end of
a run the end that gives the run its highest value; a false joker counts the okey's number.

*Interpretation*: melds are sets, so an okey in a run stands wherever the reading needs it. A tile
the okey "covers" (``K5 okey K7`` + ``K6``) still goes on as an extra tile while the run can grow
(the okey moves to an end); only in a full meld (13 in a run, 4 in a group) can a tile go in only
by an okey swap.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..errors import EngineError
from ..tiles import FALSE_JOKER, Tile, color_of, format_tile, make_tile, number_of

RUN = "run"
GROUP = "group"
PAIR = "pair"
KINDS = (RUN, GROUP, PAIR)
LONGEST_RUN = 13
MIN_MELD = 3
MAX_GROUP = 4
#: What a wild okey left in an opened player's rack counts (rule 11).
OKEY_IN_RACK = 101


class MeldError(EngineError):
    """Tiles that are not one meld; ``reason`` says why, for the player."""

    def __init__(self, message: str, tiles: Iterable[Tile] = ()):
        super().__init__(message, code="bad_meld", tiles=[format_tile(tile) for tile in tiles])


@dataclass(frozen=True)
class Reading:
    """One valid reading of a set of tiles: its kind, value and what its okeys stand for."""

    kind: str
    value: int
    #: For a run, the tiles its okeys stand for in the highest reading; for a group and a pair, ().
    stands_for: tuple[Tile, ...] = ()


def face_of(tile: Tile, okey: Tile) -> Tile:
    """The face a plain tile plays as: a false joker is exactly the okey's face."""
    return okey if tile == FALSE_JOKER else tile


def tile_value(tile: Tile, okey: Tile) -> int:
    """A plain tile's value (a false joker counts the okey's number)."""
    return number_of(face_of(tile, okey))


def rack_value(tiles: Iterable[Tile], okey: Tile) -> int:
    """What an opened player's rack costs (rule 11): numbers, a wild okey 101."""
    return sum(OKEY_IN_RACK if tile == okey else tile_value(tile, okey) for tile in tiles)


def _split(tiles: list[Tile], okey: Tile) -> tuple[list[Tile], int]:
    faces = [face_of(tile, okey) for tile in tiles if tile != okey]
    return faces, len(tiles) - len(faces)


def read_run(tiles: Iterable[Tile], okey: Tile) -> Reading:
    tiles = list(tiles)
    faces, _wilds = _split(tiles, okey)
    length = len(tiles)
    if length < MIN_MELD:
        raise MeldError(f"a run needs at least {MIN_MELD} tiles", tiles)
    if length > LONGEST_RUN:
        raise MeldError(f"a run has at most {LONGEST_RUN} tiles (1 to 13)", tiles)
    if not faces:
        raise MeldError("a run holds at least one real tile", tiles)
    if len({color_of(face) for face in faces}) > 1:
        raise MeldError("a run is all one colour", tiles)
    numbers = [number_of(face) for face in faces]
    if len(set(numbers)) < len(numbers):
        raise MeldError("a run cannot hold the same tile twice", tiles)
    # The highest window of ``length`` numbers inside 1..13 that covers every real number.
    start = min(min(numbers), LONGEST_RUN + 1 - length)
    if start + length - 1 < max(numbers):
        if 1 in numbers and max(numbers) >= 12:
            raise MeldError("1 is low only in 101: 12-13-1 is not a run, and runs never wrap", tiles)
        raise MeldError("the numbers are not consecutive and the okeys cannot fill the gap", tiles)
    window = range(start, start + length)
    color = color_of(faces[0])
    stands_for = tuple(make_tile(color, number) for number in window if number not in numbers)
    return Reading(RUN, sum(window), stands_for)


def read_group(tiles: Iterable[Tile], okey: Tile) -> Reading:
    tiles = list(tiles)
    faces, _wilds = _split(tiles, okey)
    if not MIN_MELD <= len(tiles) <= MAX_GROUP:
        raise MeldError(f"a group is {MIN_MELD} or {MAX_GROUP} tiles", tiles)
    if not faces:
        raise MeldError("a group holds at least one real tile", tiles)
    if len({number_of(face) for face in faces}) > 1:
        raise MeldError("a group is one number in different colours", tiles)
    if len(set(faces)) < len(faces):
        raise MeldError("a group needs different colours", tiles)
    return Reading(GROUP, number_of(faces[0]) * len(tiles))


def read_pair(tiles: Iterable[Tile], okey: Tile) -> Reading:
    tiles = list(tiles)
    faces, wilds = _split(tiles, okey)
    if len(tiles) != 2:
        raise MeldError("a pair is two tiles", tiles)
    if wilds == 0 and faces[0] != faces[1]:
        raise MeldError("a pair is two identical tiles (same colour and number)", tiles)
    # Interpretation: an okey counts the tile it pairs with; two okeys count the okey's face.
    face = faces[0] if faces else okey
    return Reading(PAIR, 2 * number_of(face))


_READERS = {RUN: read_run, GROUP: read_group, PAIR: read_pair}


def read_meld(tiles: Iterable[Tile], okey: Tile, kind: str | None = None) -> Reading:
    """Read an unordered set of tiles as a meld (of ``kind``, or the reading worth most: a run on a
    tie), or refuse it with ``bad_meld`` and the reason."""
    tiles = list(tiles)
    if kind is not None:
        if kind not in _READERS:
            raise EngineError(f"unknown meld kind {kind!r}: run, group or pair", code="bad_meld", kind=repr(kind))
        return _READERS[kind](tiles, okey)
    if len(tiles) == 2:
        return read_pair(tiles, okey)
    readings: list[Reading] = []
    problems: list[MeldError] = []
    for reader in (read_run, read_group):
        try:
            readings.append(reader(tiles, okey))
        except MeldError as error:
            problems.append(error)
    if not readings:
        faces, _ = _split(tiles, okey)
        # Name the closer kind: one number means the player meant a group.
        meant_group = len({number_of(face) for face in faces}) == 1 and len(tiles) <= MAX_GROUP
        raise problems[1] if meant_group else problems[0]
    return max(readings, key=lambda reading: reading.value)


def is_meld(tiles: Iterable[Tile], okey: Tile, kind: str | None = None) -> bool:
    try:
        read_meld(tiles, okey, kind)
    except MeldError:
        return False
    return True


def extended(kind: str, tiles: Iterable[Tile], tile: Tile, okey: Tile) -> Reading | None:
    """The meld's reading with ``tile`` laid off on it as an extra tile, or None if it does not fit.
    Nothing is laid off on a pair (rule 8)."""
    if kind == PAIR:
        return None
    try:
        return read_meld([*tiles, tile], okey, kind)
    except MeldError:
        return None


def swapped(kind: str, tiles: Iterable[Tile], tile: Tile, okey: Tile) -> Reading | None:
    """The okey swap (rule 8): the meld with ``tile`` in place of one okey, or None if the swap is
    not allowed. In a run the tile must be one the okey stands for; in a group only when real tiles
    then fill all four colours; never out of a pair."""
    tiles = list(tiles)
    if kind == PAIR or okey not in tiles or tile == okey:
        return None
    rest = list(tiles)
    rest.remove(okey)
    if kind == GROUP and (len(tiles) != MAX_GROUP or okey in rest):
        return None
    try:
        return read_meld([*rest, tile], okey, kind)
    except MeldError:
        return None
