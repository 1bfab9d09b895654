"""Valid sets (per): runs and groups, with wild okeys and the false joker.

Finish search (``finish.py``) has its own fast generator of sets; this module is the plain,
readable statement of the rule that tests hold the search to, and it explains to a player why a
set they laid out is not valid.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from .rules import RuleSet
from .tiles import COLOR_NAMES_EN, COLORS, FALSE_JOKER, Tile, color_of, format_tile, number_of

HIGH_ONE = 14          # the 1 played after 13 (11-12-13-1)
LONGEST_RUN = 14       # 1..13-1
MIN_SET = 3
MAX_GROUP = 4


def face_of(tile: Tile, okey: Tile) -> Tile:
    """The face a non-wild tile plays as: a false joker is exactly the okey's face."""
    return okey if tile == FALSE_JOKER else tile


def split_wilds(tiles: Iterable[Tile], okey: Tile) -> tuple[list[Tile], int]:
    """The faces of the plain tiles, and how many wild okeys stand in for something."""
    faces: list[Tile] = []
    wilds = 0
    for tile in tiles:
        if tile == okey:
            wilds += 1
        else:
            faces.append(face_of(tile, okey))
    return faces, wilds


def is_valid_set(tiles: Iterable[Tile], okey: Tile, rules: RuleSet) -> bool:
    """Whether these tiles, in any order, form one run or one group."""
    return set_problem(tiles, okey, rules) is None


def set_problem(tiles: Iterable[Tile], okey: Tile, rules: RuleSet) -> str | None:
    """None for a valid set, else the reason a player would need to fix it."""
    tiles = list(tiles)
    faces, wilds = split_wilds(tiles, okey)
    if len(tiles) < MIN_SET:
        return f"a set needs at least {MIN_SET} tiles, not {len(tiles)}"
    limit = rules.max_jokers_per_set
    if limit is not None and wilds > limit:
        return f"at most {limit} okey per set at this table ({wilds} here)"
    run_problem = _run_problem(faces, len(tiles))
    if run_problem is None:
        return None
    group_problem = _group_problem(faces, len(tiles))
    if group_problem is None:
        return None
    colors = {color_of(face) for face in faces}
    numbers = {number_of(face) for face in faces}
    if len(numbers) == 1:
        return group_problem
    if len(colors) == 1:
        return run_problem
    return (
        "tiles of different colours and numbers: a run is one colour in sequence, "
        "a group is one number in different colours"
    )


def _run_problem(faces: list[Tile], length: int) -> str | None:
    if length > LONGEST_RUN:
        return f"a run has at most {LONGEST_RUN} tiles (1 to 13, then 1)"
    if len({color_of(face) for face in faces}) > 1:
        return "a run is all one colour"
    counts = Counter(number_of(face) for face in faces)
    for face in faces:
        number = number_of(face)
        if counts[number] > (2 if number == 1 else 1):
            return f"a run cannot hold {format_tile(face)} twice"
    if counts[1] == 2:
        if length == LONGEST_RUN:
            return None
        return "two 1s fit in one run only as 1 to 13, then 1 (14 tiles)"
    numbers = set(counts)
    if _fits(numbers, length) or (1 in numbers and _fits(numbers - {1} | {HIGH_ONE}, length)):
        return None
    if 1 in numbers and max(numbers) >= 12 and len(numbers & {2, 3}) > 0:
        return "no wrap-around: 1 may follow 13 only as the last tile (12-13-1-2 is not a run)"
    low, high = min(numbers), max(numbers)
    color = COLOR_NAMES_EN[COLORS[color_of(faces[0])]]
    return f"{color} {low} to {high} are not consecutive, and the okeys cannot fill the gap"


def _fits(numbers: set[int], length: int) -> bool:
    """Wilds fill every gap, so a window of ``length`` just has to cover the numbers."""
    return not numbers or max(numbers) - min(numbers) + 1 <= length


def _group_problem(faces: list[Tile], length: int) -> str | None:
    if length > MAX_GROUP:
        return f"a group has at most {MAX_GROUP} tiles, one of each colour"
    if len({number_of(face) for face in faces}) > 1:
        return "a group is one number in different colours"
    seen: set[Tile] = set()
    for face in faces:
        if face in seen:
            return f"a group needs different colours, but holds {format_tile(face)} twice"
        seen.add(face)
    return None
