"""Valid sets, as RULES.md "Valid sets" and the seeds state them.

Unless a test says otherwise the indicator is M9, so the okey is M10: a tile far from the examples.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.melds import is_valid_set, set_problem
from games.engine.rules import RuleSet
from games.engine.tiles import full_set, okey_for, parse_tile, parse_tiles

from . import bruteforce

UNLIMITED = RuleSet()
ONE_JOKER = RuleSet(max_jokers_per_set=1)


def valid(text: str, indicator: str = "M9", rules: RuleSet = UNLIMITED) -> bool:
    return is_valid_set(parse_tiles(text), okey_for(parse_tile(indicator)), rules)


def problem(text: str, indicator: str = "M9", rules: RuleSet = UNLIMITED) -> str | None:
    return set_problem(parse_tiles(text), okey_for(parse_tile(indicator)), rules)


# --- runs (sıralı seri) ---


def test_three_or_more_consecutive_numbers_of_one_colour_are_a_run():
    assert valid("K1 K2 K3")
    assert valid("S4 S5 S6 S7 S8")
    assert valid("Y3 Y1 Y2"), "the order the tiles are given in does not matter"


def test_two_tiles_are_not_a_set():
    assert not valid("K1 K2")
    assert "at least 3" in problem("K1 K2")


def test_1_follows_13_at_the_end_of_a_run():
    assert valid("K11 K12 K13 K1")  # seed 000: "11, 12, 13, 1 dizilimi doğru"
    assert valid("K12 K13 K1")


def test_a_run_does_not_wrap_around_past_1():
    assert not valid("K12 K13 K1 K2")  # seed 000: "12, 13, 1, 2 yanlış"
    assert not valid("K13 K1 K2")
    assert "wrap" in problem("K12 K13 K1 K2")


def test_the_longest_run_is_1_to_13_and_1_again():
    assert valid("K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 K13 K1")
    assert not valid("K1 K1 K2 K3"), "two 1s fit only the whole 14-tile run"


def test_a_run_is_one_colour_with_no_gaps_and_no_repeats():
    assert not valid("K4 S5 K6")
    assert "one colour" in problem("K4 K5 S6 S7")
    assert not valid("K3 K5 K6")
    assert "not consecutive" in problem("K3 K5 K6")
    assert not valid("K3 K3 K4")


# --- groups (renk / erkek serisi) ---


def test_three_or_four_colours_of_one_number_are_a_group():
    assert valid("K7 S7 M7")
    assert valid("K7 S7 M7 Y7")


def test_a_group_holds_each_colour_once():
    assert not valid("K7 K7 S7")
    assert "different colours" in problem("K7 K7 S7")


def test_a_group_of_five_is_not_valid_even_with_a_wild():
    # seed 000: "Renk serisinde 4'ten fazla taş dizilemez"; the okey is M10 here.
    assert not valid("K7 S7 M7 Y7 M10")
    assert "at most 4" in problem("K7 S7 M7 Y7 M10")


def test_tiles_of_different_colours_and_numbers_are_no_set():
    assert "different colours and numbers" in problem("K1 S2 M3")


# --- the okey (wild) and the false joker ---


def test_the_okey_stands_for_any_tile():
    # Indicator K5: the okey is K6, wild in a run of another colour and in a group.
    assert valid("S4 K6 S6", indicator="K5")
    assert valid("S9 M9 K6", indicator="K5")
    assert valid("Y12 Y13 K6", indicator="K5"), "as Y11 or as the 1 after 13"


def test_the_okey_may_stand_for_its_own_face():
    assert valid("K5 K6 K7", indicator="K5")


def test_both_okeys_may_share_a_set_when_jokers_are_unlimited():
    assert valid("K6 K6 S9", indicator="K5")
    assert valid("Y1 K6 K6 Y4", indicator="K5")


def test_the_false_joker_is_exactly_the_okeys_face_and_nothing_else():
    # Indicator K5 -> okey K6 -> the false joker plays as a plain K6 (seed 000, "Sahte Okey Taşı").
    assert valid("K5 J K7", indicator="K5")
    assert valid("J S6 M6", indicator="K5")
    assert not valid("S4 J S6", indicator="K5"), "the false joker is not wild"
    assert not valid("J K8 K9", indicator="K5")


def test_indicator_13_makes_the_1_of_its_colour_the_okey():
    # Indicator S13 -> okey S1 (seed 000: "gösterge siyah-13 ise okey, siyah-1 olur").
    assert valid("K2 S1 K4", indicator="S13")
    assert valid("J S2 S3", indicator="S13"), "the false joker is a plain S1 here"
    assert not valid("J M2 M3", indicator="S13")


def test_one_joker_per_set_forbids_two_wilds_and_so_any_all_joker_set():
    # Seed 002: "Bir per veya grupta en fazla bir okey ... tamamı jokerden oluşan dizi geçersizdir."
    assert valid("K6 S9 S10", indicator="K5", rules=ONE_JOKER)
    assert not valid("K6 K6 S9", indicator="K5", rules=ONE_JOKER)
    assert "at most 1 okey" in problem("K6 K6 S9", indicator="K5", rules=ONE_JOKER)
    assert not valid("K6 K6 J", indicator="K5", rules=ONE_JOKER)
    assert valid("K6 K6 J", indicator="K5", rules=UNLIMITED)


def test_a_valid_set_has_no_problem():
    assert problem("K11 K12 K13 K1") is None


# --- against the template reference ---

ALL_TILES = sorted(set(full_set()))


@settings(max_examples=600, deadline=None, database=None)
@given(
    st.lists(st.sampled_from(ALL_TILES), min_size=1, max_size=7),
    st.integers(0, 51),
    st.sampled_from([None, 1]),
)
def test_validity_agrees_with_the_list_of_every_valid_set(tiles, indicator, max_jokers):
    okey = okey_for(indicator)
    rules = RuleSet(max_jokers_per_set=max_jokers)
    expected = bruteforce.is_set(tiles, okey, max_jokers)
    assert is_valid_set(tiles, okey, rules) == expected
    assert (set_problem(tiles, okey, rules) is None) == expected


@settings(max_examples=300, deadline=None, database=None)
@given(st.integers(0, 3), st.integers(1, 12), st.integers(3, 14), st.integers(0, 51), st.data())
def test_every_run_is_valid_and_stays_valid_with_wilds_in_it(color, start, length, indicator, data):
    okey = okey_for(indicator)
    end = min(start + length - 1, 14)
    run = [color * 13 + (pos - 1) % 13 for pos in range(start, end + 1)]
    if len(run) < 3:
        return
    wild_places = data.draw(st.sets(st.integers(0, len(run) - 1), max_size=2))
    tiles = [okey if i in wild_places else tile for i, tile in enumerate(run)]
    assert is_valid_set(tiles, okey, UNLIMITED)
