"""The rack's "sort by sets" and "sort by pairs" buttons.

Unless a test says otherwise the indicator is K5: the okey (wild) is K6, J is a plain K6.
"""

from __future__ import annotations

from collections import Counter
from random import Random

from hypothesis import given, note, settings
from hypothesis import strategies as st

from games.engine.arrange import Arrangement, arrange_by_pairs, arrange_by_sets
from games.engine.finish import SETS, best_finish
from games.engine.melds import is_valid_set
from games.engine.rules import RuleSet
from games.engine.tiles import Tile, format_tiles, full_set, okey_for, parse_tile, parse_tiles, sort_key

from . import bruteforce

COUNTDOWN = RuleSet()
ONE_JOKER = RuleSet(max_jokers_per_set=1)
OKEY = parse_tile("K6")


def by_sets(rack: str, rules: RuleSet = COUNTDOWN) -> Arrangement:
    arrangement = arrange_by_sets(parse_tiles(rack), OKEY, rules)
    assert_sound_sets(arrangement, parse_tiles(rack), OKEY, rules)
    return arrangement


def by_pairs(rack: str, rules: RuleSet = COUNTDOWN) -> Arrangement:
    return arrange_by_pairs(parse_tiles(rack), OKEY, rules)


def shown(arrangement: Arrangement) -> tuple[list[str], str]:
    return [format_tiles(group) for group in arrangement.groups], format_tiles(arrangement.loose)


def assert_sound_sets(arrangement: Arrangement, rack: list[Tile], okey: Tile, rules: RuleSet) -> None:
    assert Counter(arrangement.order) == Counter(rack), "every tile stays on the rack, once"
    for group in arrangement.groups:
        assert is_valid_set(group, okey, rules), format_tiles(group)
    sizes = [len(group) for group in arrangement.groups]
    assert sizes == sorted(sizes, reverse=True), "largest sets first"
    assert list(arrangement.loose) == sorted(arrangement.loose, key=lambda tile: (tile == okey, sort_key(tile)))


# --- sort by sets ---


def test_sets_come_first_largest_first_and_the_loose_tiles_after_them():
    arrangement = by_sets("Y9 K1 S7 K2 M7 K3 Y7 M13 K4 S2")
    assert shown(arrangement) == (["K1 K2 K3 K4", "S7 M7 Y7"], "S2 M13 Y9")
    assert arrangement.order == tuple(parse_tiles("K1 K2 K3 K4 S7 M7 Y7 S2 M13 Y9"))


def test_a_finishing_rack_is_all_sets_but_its_discard():
    arrangement = by_sets("K1 K2 K3  S7 M7 Y7  M10 M11 M12 M13  Y2 Y3 Y4 Y5  S12")
    assert shown(arrangement) == (["M10 M11 M12 M13", "Y2 Y3 Y4 Y5", "K1 K2 K3", "S7 M7 Y7"], "S12")


def test_the_most_tiles_go_into_sets_even_if_a_greedy_run_looks_better():
    # Taking K3 K4 K5 K6... as one long run strands S3 and M3; three groups and a run use all.
    arrangement = by_sets("K3 S3 M3  K4 S4 M4  K5 S5 M5")
    assert arrangement.loose == ()


def test_a_wild_fills_a_gap_and_loose_wilds_go_last():
    assert shown(by_sets("S4 K6 S6 M1")) == (["S4 K6 S6"], "M1")
    assert shown(by_sets("K6 M1 Y9")) == ([], "M1 Y9 K6")


def test_the_false_joker_sits_only_where_the_okeys_face_would():
    assert shown(by_sets("K5 J K7 S5 S7")) == (["K5 J K7"], "S5 S7")


def test_one_joker_per_set_spreads_the_wilds():
    arrangement = by_sets("S9 K6 K6 M1 M2", rules=ONE_JOKER)
    assert all(group.count(OKEY) <= 1 for group in arrangement.groups)
    assert len(arrangement.order) == 5


def test_any_rack_size_works():
    assert by_sets("") == Arrangement((), ())
    assert by_sets("K1").loose == (parse_tile("K1"),)
    big = by_sets("K1 K2 K3 K4 K5 K7 K8 K9 K10 K11 K12 K13 S1 S2 S3 M1 M2 M3 Y1 Y2 Y3")
    assert big.loose == ()


# --- sort by pairs ---


def test_pairs_first_then_the_singles():
    assert shown(by_pairs("K1 S4 K1 M9 S4 Y2")) == (["K1 K1", "S4 S4"], "M9 Y2")


def test_a_wild_completes_a_pair_and_two_false_jokers_are_a_pair():
    assert shown(by_pairs("K1 K1 J J M9 K6")) == (["K1 K1", "J J", "M9 K6"], "")


def test_without_the_option_wilds_pair_only_with_each_other():
    rules = RuleSet(okey_completes_pair=False)
    assert shown(by_pairs("K1 K1 M9 K6", rules)) == (["K1 K1"], "M9 K6")
    assert shown(by_pairs("K1 K1 M9 K6 K6", rules)) == (["K1 K1", "K6 K6"], "M9")


def test_two_spare_wilds_pair_together():
    assert shown(by_pairs("K1 K1 K6 K6")) == (["K1 K1", "K6 K6"], "")


# --- properties ---

ALL_TILES = sorted(set(full_set()))


@settings(max_examples=500, deadline=None, database=None)
@given(st.lists(st.sampled_from(ALL_TILES), max_size=11), st.integers(0, 51), st.sampled_from([None, 1]))
def test_small_racks_cover_as_many_tiles_as_the_bruteforce_cover(tiles, indicator, max_jokers):
    if max(Counter(tiles).values(), default=0) > 2:
        return
    okey = okey_for(indicator)
    rules = RuleSet(max_jokers_per_set=max_jokers)
    note(f"rack {format_tiles(tiles)}, okey {format_tiles([okey])}")
    arrangement = arrange_by_sets(tiles, okey, rules)
    assert_sound_sets(arrangement, tiles, okey, rules)
    covered = sum(len(group) for group in arrangement.groups)
    assert covered == bruteforce.max_cover(tiles, okey, max_jokers)


@settings(max_examples=250, deadline=None, database=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([COUNTDOWN, ONE_JOKER]))
def test_a_rack_that_finishes_with_sets_sorts_into_sets_but_one_tile(seed, rules):
    rack, indicator = bruteforce.deal_near_winning(Random(seed))
    okey = okey_for(indicator)
    note(f"rack {format_tiles(rack)}, okey {format_tiles([okey])}")
    arrangement = arrange_by_sets(rack, okey, rules)
    assert_sound_sets(arrangement, rack, okey, rules)
    covered = sum(len(group) for group in arrangement.groups)
    finish = best_finish(rack, okey, rules)
    if finish is not None and finish.kind == SETS:
        assert covered >= 14
    if covered == 14:
        assert best_finish(rack, okey, rules) is not None, "the one loose tile is a discard that finishes"


@settings(max_examples=200, deadline=None, database=None)
@given(st.lists(st.sampled_from(ALL_TILES), max_size=15), st.integers(0, 51), st.booleans())
def test_pairs_cover_every_pairable_tile(tiles, indicator, okey_pairs):
    if max(Counter(tiles).values(), default=0) > 2:
        return
    okey = okey_for(indicator)
    arrangement = arrange_by_pairs(tiles, okey, RuleSet(okey_completes_pair=okey_pairs))
    assert Counter(arrangement.order) == Counter(tiles)
    for first, second in arrangement.groups:
        assert first == second or (okey_pairs and okey in (first, second))
    loose = Counter(arrangement.loose)
    assert all(count == 1 for count in loose.values()), "two of a kind are always paired"
    if okey_pairs:
        assert loose[okey] == 0 or len(arrangement.loose) == 1, "a wild is loose only with nothing to pair"
