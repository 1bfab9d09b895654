"""The 101 rack search (games.engine.okey101.search): the best opening by value (RULES.md "101 Okey"
rules 3, 4 and 7), the most pairs, işlek tiles and chained lay-offs (rules 8 and 9). Every opening it
finds is played through ``apply_turn``, and on small racks a brute force over all partitions finds
nothing better."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from functools import cache

import pytest

from games.engine.deck import shuffled_deck
from games.engine.errors import EngineError
from games.engine.okey101.hand import MELDS, PAIRS, TableMeld, apply_turn, deal_from_deck, is_islek
from games.engine.okey101.melds import MeldError, extended, read_meld, swapped
from games.engine.okey101.rules import Rules101
from games.engine.okey101.search import (
    COST,
    COVER,
    best_layoffs,
    best_melds,
    best_opening,
    best_opening_with_discard,
    best_pairs,
    best_pairs_opening,
    finishing_melds,
    fits,
    frees,
    islek_tiles,
    layable,
    public_action,
)
from games.engine.tiles import FALSE_JOKER, full_set, parse_tile, parse_tiles

from .test_okey101_support import accounted, table

# Indicator K5 throughout (the support's default): the okey is K6, "J" plays as a plain K6.
OKEY = parse_tile("K6")


def tiles(text: str) -> list[int]:
    return parse_tiles(text)


def meld_sets(opening) -> set[tuple[str, ...]]:
    return {tuple(sorted(meld)) for meld in opening.melds}


def assert_valid(opening, rack: list[int], okey: int) -> None:
    """Every meld reads as a run or group (pairs: a pair), the melds are disjoint and from the rack,
    and the total is what the engine makes of them."""
    used = Counter(opening.tiles)
    assert not used - Counter(rack), "a meld uses a tile the rack does not hold"
    assert sum(len(meld) for meld in opening.melds) == len(opening.tiles)
    readings = [read_meld(parse_tiles(meld, check_copies=False), okey) for meld in opening.melds]
    if opening.kind == PAIRS:
        assert all(reading.kind == "pair" for reading in readings)
        assert opening.total == len(readings)
    else:
        assert all(reading.kind in ("run", "group") for reading in readings)
        assert opening.total == sum(reading.value for reading in readings)


# -- the best opening by value (rules 3, 4, 7) ---------------------------------------------------------


def test_the_best_opening_finds_runs_and_groups_worth_101_or_more():
    rack = tiles("S10 S11 S12 S13 M10 M11 M12 M13 Y7 Y8 Y9 K1 K3 S1 S3 M1 M3 Y1 Y3 K9 S7")
    opening = best_opening(rack, OKEY)
    assert opening is not None and opening.kind == MELDS
    # S10-S13 46, M10-M13 46, Y7-Y9 24, and the groups K1 S1 M1 Y1 (4) and K3 S3 M3 Y3 (12).
    assert opening.total == 132
    assert {("S10", "S11", "S12", "S13"), ("M10", "M11", "M12", "M13"), ("Y7", "Y8", "Y9")} <= meld_sets(opening)
    assert_valid(opening, rack, OKEY)


def test_below_the_threshold_there_is_no_opening_but_best_melds_still_answers():
    rack = tiles("K1 K2 K3 S5 S6 S7 M9 Y9 S9 Y12")
    assert best_opening(rack, OKEY) is None
    melds = best_melds(rack, OKEY)
    assert melds.total == 6 + 18 + 27 and best_opening(rack, OKEY, needed=51) == melds


def test_an_okey_counts_the_tile_it_stands_for_the_highest_where_it_could_stand_for_two():
    # K12 K13 okey: only K11 fits (no wrap to 1): 36. S3 S4 okey: S5 (not S2): 12. 1 is low only.
    assert best_melds(tiles("Y12 Y13 K6"), OKEY).total == 36
    assert best_melds(tiles("S3 S4 K6"), OKEY).total == 12
    assert best_melds(tiles("Y1 Y2 K6"), OKEY).total == 6
    assert best_melds(tiles("Y12 Y13 Y1"), OKEY).total == 0
    # A group with an okey counts the group's number for it; two okeys and one tile: the best reading.
    assert best_melds(tiles("S9 M9 K6"), OKEY).total == 27
    assert best_melds(tiles("S9 K6 K6"), OKEY).total == 9 + 10 + 11
    # A false joker is a plain K6: in a red run it is the 6.
    assert best_melds(tiles("K5 J K7"), OKEY).total == 18


def test_the_okeys_go_where_they_are_worth_most():
    # Two runs with gaps: one okey each fills them (30 + 36), rather than both in one run (M10-M13 46).
    rack = tiles("S9 S11 M11 M13 K6 K6 Y2 Y2")
    opening = best_melds(rack, OKEY)
    assert opening.total == (9 + 10 + 11) + (11 + 12 + 13)
    # But M12 M13 with both okeys (M10-M13, 46) beats S1 okey S3 and M11 M12 M13 (6 + 36).
    assert best_melds(tiles("S1 S3 M12 M13 K6 K6"), OKEY).total == 46
    assert_valid(opening, rack, OKEY)


def test_a_tile_goes_to_a_group_or_a_run_whichever_is_worth_more():
    # S10 could join K10 M10 Y10 (40, leaving S11-S13: 36) or stay in the run S10-S13 (46, the group
    # K10 M10 Y10 is 30): 76 both ways, every tile down.
    rack = tiles("S10 S11 S12 S13 M10 Y10 K10")
    opening = best_melds(rack, OKEY)
    assert opening.total == 46 + 30 and len(opening.melds) == 2


def test_both_copies_of_a_tile_may_go_into_two_runs():
    rack = tiles("M4 M5 M6 M4 M5 M6")
    assert best_melds(rack, OKEY).total == 30


def test_the_opening_that_keeps_a_tile_to_discard_leaves_the_cheapest_one_out():
    rack = tiles("S9 S10 S11 S12 S13 M13 Y13 K13")
    full = best_melds(rack, OKEY)
    assert full.size == 8 and full.total == 9 + 10 + 11 + 12 + 52
    kept = best_opening_with_discard(rack, OKEY, needed=0)
    assert kept is not None and kept.size == 7
    # S9 stays behind (the run S10-S13 still holds): the least lost.
    assert kept.total == full.total - 9 and kept.rest(rack) == tiles("S9")


def test_an_opening_the_search_finds_is_accepted_by_apply_turn_at_its_total():
    rack = "S10 S11 S12 S13 M10 M11 M12 M13 Y7 Y8 Y9 K1 K3 S1 S3 M1 M3 Y1 Y3 K9 S7 K6"
    state = table([rack, None, None, None])
    opening = best_opening_with_discard(state.racks[0], state.okey)
    discard = opening.rest(state.racks[0])[0]
    after = apply_turn(state, 0, {"actions": [opening.action()], "discard": discard})
    assert after.opened[0] == MELDS and after.opening_totals[0] == opening.total and accounted(after)


def test_best_openings_of_dealt_racks_are_all_accepted_by_apply_turn():
    """Seeded deals: whatever the search finds for the starter (22 tiles) is a legal opening turn at
    the total it names, or the engine says it is too low exactly when it is under 101."""
    opened = 0
    for seed in range(120):
        state = deal_from_deck(shuffled_deck(f"search-{seed}"), Rules101(), starting_seat=seed % 4)
        seat = state.turn
        opening = best_melds(state.racks[seat], state.okey, keep=1)
        assert_valid(opening, state.racks[seat], state.okey)
        if not opening.melds or opening.size == len(state.racks[seat]) - 1:
            continue                              # nothing to open, or elden (no threshold)
        turn = {"actions": [opening.action()], "discard": opening.rest(state.racks[seat])[0]}
        if opening.total >= 101:
            after = apply_turn(state, seat, turn)
            assert after.opening_totals[seat] == opening.total and accounted(after)
            opened += 1
        else:
            with pytest.raises(EngineError) as info:
                apply_turn(state, seat, turn)
            assert info.value.code == "opening_too_low"
    assert opened >= 5


# -- property: nothing beats the search (brute force over all partitions) ----------------------------------


def brute_force(rack: list[int], okey: int, worth=lambda meld, reading: reading.value) -> int:
    """The highest total of disjoint runs and groups (``worth`` of each: its value by default), by
    trying every meld the first tile could be in."""

    @cache
    def best(rest: tuple[int, ...]) -> int:
        if len(rest) < 3:
            return 0
        first, others = rest[0], rest[1:]
        top = best(others)                        # the first tile stays in the rack
        for size in range(2, min(len(others), 12) + 1):
            for chosen in itertools.combinations(range(len(others)), size):
                meld = (first, *(others[index] for index in chosen))
                try:
                    value = worth(meld, read_meld(meld, okey))
                except MeldError:
                    continue
                left = tuple(tile for index, tile in enumerate(others) if index not in chosen)
                top = max(top, value + best(left))
        return top

    return best(tuple(sorted(rack)))


def small_racks(count: int, seed: str):
    """8-10 tiles from a few colours and a window of numbers (so melds are likely), with 0-2 okeys
    and sometimes a false joker."""
    rng = random.Random(seed)
    for _ in range(count):
        okey = rng.randrange(52)
        colours = rng.sample(range(4), rng.choice([1, 2, 3, 4]))
        low = rng.randint(0, 8)
        pool = [tile for tile in full_set() if tile != okey and (
            tile == FALSE_JOKER or (tile // 13 in colours and low <= tile % 13 < low + 6))]
        rng.shuffle(pool)
        wilds = rng.choice([0, 1, 1, 2])
        yield pool[:rng.randint(8, 10) - wilds] + [okey] * wilds, okey


@pytest.mark.parametrize("part", range(3))
def test_no_partition_of_a_small_rack_beats_the_best_opening(part):
    for rack, okey in small_racks(80, f"brute-{part}"):
        opening = best_melds(rack, okey)
        assert_valid(opening, rack, okey)
        assert opening.total == brute_force(rack, okey), (rack, okey, opening)
    for rack, okey in small_racks(25, f"cover-{part}"):
        covered = best_melds(rack, okey, mode=COVER)
        assert_valid(covered, rack, okey)
        assert covered.size == brute_force(rack, okey, lambda meld, reading: len(meld)), (rack, okey, covered)


def test_cover_and_cost_modes_place_the_most_tiles_and_the_most_rack_value():
    # By value the okey lengthens the run (Y10-Y13: 46, against 36 + S2 M2 okey 6); by what the
    # rack would still cost it goes with S2 M2, so every tile goes down (an okey costs 101 either way).
    rack = tiles("Y11 Y12 Y13 K6 S2 M2")
    assert best_melds(rack, OKEY).total == 46
    assert best_melds(rack, OKEY, mode=COST).size == 6
    # COVER: the most tiles, whatever they are worth.
    rack = tiles("S1 S2 S3 S4 M4 Y4 K4")
    assert best_melds(rack, OKEY, mode=COVER).size == 7
    assert finishing_melds(tiles("S1 S2 S3 S4 M4 Y4 K4 Y9"), OKEY) is not None
    assert finishing_melds(tiles("S1 S2 S3 M4 Y4 K13 Y9"), OKEY) is None


def test_finishing_melds_may_keep_the_okey_for_the_last_discard():
    rack = tiles("S1 S2 S3 M4 Y4 K4 K6")
    finish = finishing_melds(rack, OKEY, last=OKEY)
    assert finish is not None and OKEY not in finish.tiles and finish.size == 6


# -- pairs (rules 3, 7) ----------------------------------------------------------------------------------


def test_pairs_count_identical_tiles_an_okey_pairs_with_any_tile_and_two_okeys_are_a_pair():
    rack = tiles("K1 K1 S2 S2 M3 M3 Y4 Y13 K6 S9")
    pairs = best_pairs(rack, OKEY)
    # Three identical pairs, the okey with the highest single (Y13).
    assert pairs.total == 4 and ("Y13", "K6") in pairs.melds
    assert_valid(pairs, rack, OKEY)
    assert best_pairs(tiles("K6 K6 S1"), OKEY).total == 1
    assert best_pairs_opening(rack, OKEY) is None
    assert best_pairs_opening(rack + tiles("Y4"), OKEY).total == 5


def test_a_pairs_opening_accepted_by_apply_turn_and_keeping_a_tile():
    rack = "K1 K1 S2 S2 M3 M3 Y4 Y4 S9 S9 K10 K12 S4 S6 M8 M11 Y13 Y11 K2 S8 M5 M5"
    state = table([rack, None, None, None])
    pairs = best_pairs_opening(state.racks[0], state.okey, keep=1)
    assert pairs.total == 6
    after = apply_turn(state, 0, {"actions": [pairs.action()], "discard": "K12"})
    assert after.opened[0] == PAIRS and after.opening_totals[0] == 6
    # Eleven pairs in 22 tiles: keeping one tile to discard leaves ten.
    every = tiles("K1 K1 S2 S2 M3 M3 Y4 Y4 S9 S9 K10 K10 S4 S4 M8 M8 Y13 Y13 K2 K2 M5 M5")
    assert best_pairs(every, OKEY, keep=1).total == 10


# -- işlek tiles and lay-offs (rules 8, 9) ---------------------------------------------------------------


def melds_on_table(*specs: str) -> list[TableMeld]:
    found = []
    for index, spec in enumerate(specs, start=1):
        meld = tiles(spec)
        found.append(TableMeld(index, 0, read_meld(meld, OKEY).kind, tuple(meld)))
    return found


def test_islek_tiles_are_those_that_fit_a_table_meld_as_an_extra_tile():
    table_melds = melds_on_table("M4 M5 M6", "K8 Y8 S8")
    rack = tiles("M3 M7 M9 M8 S1 K8")
    assert islek_tiles(rack, table_melds, OKEY) == tiles("M3 M7 M8")


def test_lay_offs_chain_a_tile_laid_off_makes_the_next_one_fit():
    table_melds = melds_on_table("M4 M5 M6")
    layoffs = best_layoffs(tiles("M7 M8 M9 S1"), table_melds, OKEY)
    assert sorted(layoff["tile"] for layoff in layoffs.actions) == ["M7", "M8", "M9"]
    assert layoffs.rack == tuple(tiles("S1")) and layoffs.gain == 24
    # Keep one tile to discard: with nothing else in the rack one of them stays.
    assert len(best_layoffs(tiles("M7 M8"), table_melds, OKEY).actions) == 1


def test_lay_offs_respect_a_pairs_openers_limit():
    layoffs = best_layoffs(tiles("M7 M8 M9 M3 S1"), melds_on_table("M4 M5 M6"), OKEY, limit=2)
    # M9 fits only after M7 and M8: the best two are M7 and M8.
    assert len(layoffs.actions) == 2 and layoffs.gain == 7 + 8


def test_an_okey_swap_frees_the_okey_which_then_goes_on_another_meld():
    """Group K8 Y8 okey: M8 goes on, then S8 frees the okey (real tiles in all four colours), and the
    okey lengthens the run S1 S2 S3. All three played through apply_turn."""
    state = table([None, "M8 S8 M1 Y2", None, None], turn=1, pile_top="Y13",
                  melds=[(2, "K8 Y8 K6"), (2, "S1 S2 S3")], opened={1: (MELDS, 120), 2: (MELDS, 130)})
    layoffs = best_layoffs(state.racks[1], state.melds, state.okey)
    kinds = [action["type"] for action in layoffs.actions]
    assert "swap" in kinds and kinds.count("lay_off") == 2
    assert sorted(layoffs.rack) == sorted(tiles("M1 Y2"))
    after = apply_turn(state, 1, {"draw": "pile", "actions": [public_action(a) for a in layoffs.actions],
                                  "discard": "M1"})
    assert accounted(after) and sorted(after.racks[1]) == sorted(tiles("Y2 Y13"))


def test_a_swap_never_leaves_the_okey_in_the_rack_where_it_would_cost_101():
    layoffs = best_layoffs(tiles("S6 M1"), melds_on_table("S5 K6 S7"), OKEY)
    assert layoffs.gain == 6 and OKEY not in layoffs.rack
    assert best_layoffs(tiles("M1 M2"), melds_on_table("S5 K6 S7"), OKEY).actions == ()


def test_the_fast_fit_and_swap_checks_agree_with_the_engines_readings():
    """``fits``/``frees``/``layable`` are the lay-off search's shortcuts for ``extended``/``swapped``/
    ``is_islek``: on every meld found in random racks, with every tile, they say the same."""
    checked = 0
    for rack, okey in small_racks(60, "fits"):
        melds = best_melds(rack, okey).melds
        table_melds = []
        for index, meld in enumerate(melds, start=1):
            tiles_ = tuple(parse_tiles(meld, check_copies=False))
            kind = read_meld(tiles_, okey).kind
            table_melds.append(TableMeld(index, 0, kind, tiles_))
            for tile in range(53):
                assert fits(kind, tiles_, tile, okey) == (extended(kind, tiles_, tile, okey) is not None), (meld, tile)
                assert frees(kind, tiles_, tile, okey) == (swapped(kind, tiles_, tile, okey) is not None), (meld, tile)
                checked += 1
        for tile in range(53):
            assert layable(tile, table_melds, okey) == is_islek(tile, table_melds, okey)
    assert checked > 1000
