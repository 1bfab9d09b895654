"""A slow reference for the finish rules, written to be obviously right rather than fast.

Every valid set is listed once as a template of faces: each run of each colour over positions
1..14 (14 being the 1 after 13) of length 3 to 14, and each group of 3 or 4 colours of a number.
A set of tiles is valid when its plain tiles fit inside a template of its length, wild okeys taking
the remaining places. A hand splits into sets when its first tile sits in some filled template and
the rest splits too. No run is cut short, no wild is steered: every filling is tried.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import combinations
from random import Random

from games.engine.finish import ORDERED_COLOR, PAIRS, SETS, UNORDERED_COLOR, Finish
from games.engine.rules import RuleSet
from games.engine.scoring import finish_value
from games.engine.tiles import FALSE_JOKER, Tile, full_set, make_tile, okey_for


def _run_templates() -> list[tuple[int, tuple[Tile, ...]]]:
    runs = []
    for color in range(4):
        for start in range(1, 13):
            for end in range(start + 2, 15):
                faces = tuple(make_tile(color, 1 if pos == 14 else pos) for pos in range(start, end + 1))
                runs.append((color, faces))
    return runs


def _group_templates() -> list[tuple[Tile, ...]]:
    groups = []
    for number in range(1, 14):
        for size in (3, 4):
            for colors in combinations(range(4), size):
                groups.append(tuple(make_tile(color, number) for color in colors))
    return groups


RUNS = _run_templates()
TEMPLATES = [faces for _, faces in RUNS] + _group_templates()


def plain_and_wilds(tiles: list[Tile] | tuple[Tile, ...], okey: Tile) -> tuple[list[Tile], int]:
    faces = [okey if tile == FALSE_JOKER else tile for tile in tiles if tile != okey]
    return faces, len(tiles) - len(faces)


def fits(faces: list[Tile], wilds: int, template: tuple[Tile, ...]) -> bool:
    return len(faces) + wilds == len(template) and not Counter(faces) - Counter(template)


def is_set(tiles: list[Tile] | tuple[Tile, ...], okey: Tile, max_jokers: int | None) -> bool:
    faces, wilds = plain_and_wilds(tiles, okey)
    if max_jokers is not None and wilds > max_jokers:
        return False
    return any(fits(faces, wilds, template) for template in TEMPLATES)


def can_split(tiles: list[Tile], okey: Tile, max_jokers: int | None,
              templates: list[tuple[Tile, ...]] | None = None) -> bool:
    """Whether every tile goes into some template, each template filled by tiles and wilds."""
    use = TEMPLATES if templates is None else templates
    faces, wilds = plain_and_wilds(tiles, okey)
    return _split(tuple(sorted(faces)), wilds, max_jokers, tuple(use))


@lru_cache(maxsize=200_000)
def _split(faces: tuple[Tile, ...], wilds: int, max_jokers: int | None,
           templates: tuple[tuple[Tile, ...], ...]) -> bool:
    if not faces:
        return wilds == 0
    first = faces[0]
    for template in _holding(templates)[first]:
        for rest, used in _fillings(faces, template, wilds, max_jokers):
            if _split(rest, wilds - used, max_jokers, templates):
                return True
    return False


@lru_cache(maxsize=8)
def _holding(templates: tuple[tuple[Tile, ...], ...]) -> dict[Tile, list[tuple[Tile, ...]]]:
    """The templates each face appears in."""
    index: dict[Tile, list[tuple[Tile, ...]]] = {face: [] for face in range(52)}
    for template in templates:
        for face in set(template):
            index[face].append(template)
    return index


def _fillings(faces: tuple[Tile, ...], template: tuple[Tile, ...], wilds: int, max_jokers: int | None):
    """Every way to fill the template holding ``faces[0]``: each other place a tile or a wild."""
    limit = wilds if max_jokers is None else min(wilds, max_jokers)
    places = list(template)
    places.remove(faces[0])
    pool = list(faces[1:])
    by_tile, by_wild_only = [], 0
    for place in places:
        if place in pool:
            pool.remove(place)
            by_tile.append(place)
        else:
            by_wild_only += 1
    if by_wild_only > limit:
        return
    for extra in range(limit - by_wild_only + 1):
        for also_wild in set(combinations(by_tile, extra)):
            yield tuple(sorted(pool + list(also_wild))), by_wild_only + extra


def can_pair(tiles: list[Tile], okey: Tile, okey_completes_pair: bool) -> bool:
    """Seven pairs: the first tile pairs with an identical tile or, by the option, a wild."""
    if not tiles:
        return True
    first, rest = tiles[0], tiles[1:]
    for i, other in enumerate(rest):
        wild_pair = okey_completes_pair and okey in (first, other)
        if other == first or wild_pair:
            if can_pair(rest[:i] + rest[i + 1:], okey, okey_completes_pair):
                return True
    return False


def color_of_hand(tiles: list[Tile], okey: Tile, max_jokers: int | None) -> str | None:
    faces, wilds = plain_and_wilds(tiles, okey)
    colors = {face // 13 for face in faces}
    if len(colors) != 1:
        return None
    (color,) = colors
    runs = [template for run_color, template in RUNS if run_color == color]
    longest = [template for template in runs if len(template) == 14]
    if (max_jokers is None or wilds <= max_jokers) and fits(faces, wilds, longest[0]):
        return ORDERED_COLOR
    if can_split(tiles, okey, max_jokers, runs):
        return UNORDERED_COLOR
    return None


def finishes_of(tiles: list[Tile], discard: Tile | None, okey: Tile, rules: RuleSet,
                pairs_only: bool = False) -> list[Finish]:
    """Every kind of finish these 14 tiles allow (groups left empty: only the worth is compared)."""
    okey_finish = discard == okey
    found = []
    if can_pair(sorted(tiles), okey, rules.okey_completes_pair):
        found.append(Finish(PAIRS, discard, okey_finish, ()))
    if not pairs_only and can_split(tiles, okey, rules.max_jokers_per_set):
        color = color_of_hand(tiles, okey, rules.max_jokers_per_set)
        found.append(Finish(SETS, discard, okey_finish, (), color))
    return found


def best_value_per_discard(rack: list[Tile], okey: Tile, rules: RuleSet,
                           pairs_only: bool = False) -> dict[Tile, int]:
    """For each discard that finishes, the most that finish is worth to the finisher."""
    values = {}
    for discard in set(rack):
        rest = list(rack)
        rest.remove(discard)
        finishes = finishes_of(rest, discard, okey, rules, pairs_only)
        if finishes:
            values[discard] = max(finish_value(finish, rules) for finish in finishes)
    return values


def max_cover(tiles: list[Tile], okey: Tile, max_jokers: int | None) -> int:
    """The most tiles that disjoint valid sets can hold: each tile is in a filled template or loose."""
    faces, wilds = plain_and_wilds(tiles, okey)
    return _cover(tuple(sorted(faces)), wilds, max_jokers)


@lru_cache(maxsize=200_000)
def _cover(faces: tuple[Tile, ...], wilds: int, max_jokers: int | None) -> int:
    if not faces:
        return 0  # wilds alone (two at most) make no set
    best = _cover(faces[1:], wilds, max_jokers)
    for template in _holding(tuple(TEMPLATES))[faces[0]]:
        for rest, used in _fillings(faces, template, wilds, max_jokers):
            best = max(best, len(template) + _cover(rest, wilds - used, max_jokers))
    return best


# --- racks to test on ------------------------------------------------------------------------
#
# Random racks almost never finish, so property tests also deal "near-winning" racks: 14 tiles
# built from random valid sets (or pairs), some turned into wilds or false jokers, plus a 15th
# tile and sometimes one tile swapped for a random one.


def deal_random(rng: Random) -> tuple[list[Tile], Tile]:
    """15 tiles and an indicator, as a shuffled set deals them."""
    deck = full_set()
    rng.shuffle(deck)
    indicator = next(tile for tile in deck if tile != FALSE_JOKER)
    deck.remove(indicator)
    return deck[:15], indicator


def deal_near_winning(rng: Random, *, one_color: bool = False, pairs: bool = False) -> tuple[list[Tile], Tile]:
    indicator = rng.randrange(52)
    okey = okey_for(indicator)
    stock = Counter(full_set())
    stock[indicator] -= 1
    color = rng.randrange(4)
    rack: list[Tile] = []
    while len(rack) < 14:
        meld = _random_pair(rng) if pairs else _random_meld(rng, color if one_color else None)
        if len(rack) + len(meld) <= 14 and not Counter(meld) - stock:
            stock.subtract(meld)
            rack += meld
        elif len(rack) >= 12 and rng.random() < 0.2:
            rack.append(rng.choice(list(stock.elements())))  # a stray tile: the rack may not finish
            stock[rack[-1]] -= 1
    rack = _as_played(rng, rack, okey, stock)
    rack.append(rng.choice(list(stock.elements())))
    stock[rack[-1]] -= 1
    if rng.random() < 0.3:
        swap = rng.choice(list(stock.elements()))
        stock[rack.pop(rng.randrange(15))] += 1
        rack.append(swap)
    rng.shuffle(rack)
    return rack, indicator


def _random_meld(rng: Random, color: int | None) -> list[Tile]:
    if color is not None or rng.random() < 0.6:
        length = rng.choice((3, 3, 4, 5, 6, 8, 14))
        start = rng.randint(1, 15 - length)
        run_color = rng.randrange(4) if color is None else color
        return [make_tile(run_color, 1 if pos == 14 else pos) for pos in range(start, start + length)]
    number = rng.randint(1, 13)
    return [make_tile(c, number) for c in rng.sample(range(4), rng.choice((3, 4)))]


def _random_pair(rng: Random) -> list[Tile]:
    tile = rng.randrange(53)
    return [tile, tile]


def _as_played(rng: Random, rack: list[Tile], okey: Tile, stock: Counter) -> list[Tile]:
    """Tiles of the okey's face become false jokers (that is what they play as); some become wilds."""
    played = []
    for tile in rack:
        if tile == okey and stock[FALSE_JOKER] > 0:
            stock[FALSE_JOKER] -= 1
            stock[okey] += 1
            tile = FALSE_JOKER
        played.append(tile)
    for _ in range(rng.choice((0, 1, 1, 2, 2))):
        if stock[okey] > 0:
            i = rng.randrange(len(played))
            stock[played[i]] += 1
            stock[okey] -= 1
            played[i] = okey
    return played
