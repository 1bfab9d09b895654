"""Finishing a hand (RULES.md "Finishing a hand"): which racks finish, and how the server scores them.

Racks are written in notation. Unless a test says otherwise the indicator is K5, so the okey (wild)
is K6 and a false joker J plays as a plain K6.
"""

from __future__ import annotations

from collections import Counter
from random import Random

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from games.engine.finish import (
    ORDERED_COLOR,
    PAIRS,
    SETS,
    UNORDERED_COLOR,
    Finish,
    best_finish,
    complete_split,
    finish_with_discard,
)
from games.engine.melds import is_valid_set
from games.engine.rules import RuleSet
from games.engine.scoring import ORDERED_COLOR_VALUE, finish_value
from games.engine.tiles import (
    FALSE_JOKER,
    Tile,
    format_tile,
    format_tiles,
    okey_for,
    parse_tile,
    parse_tiles,
    sort_key,
)

from . import bruteforce

COUNTDOWN = RuleSet()
ONE_JOKER = RuleSet(max_jokers_per_set=1)
CHIPS = RuleSet.preset("chips")
PENALTY = RuleSet.preset("penalty")
COLOR_FINISH = RuleSet(color_finish=True)
NO_OKEY_PAIRS = RuleSet(okey_completes_pair=False)
RULE_VARIANTS = [COUNTDOWN, ONE_JOKER, CHIPS, PENALTY, COLOR_FINISH, NO_OKEY_PAIRS]


def finish(rack: str, indicator: str = "K5", rules: RuleSet = COUNTDOWN, *, pairs_only: bool = False) -> Finish | None:
    """The server's verdict on a 15-tile rack (or a 14-tile hand), checked for consistency."""
    tiles = parse_tiles(rack)
    okey = okey_for(parse_tile(indicator))
    if len(tiles) == 15:
        result = best_finish(tiles, okey, rules, pairs_only=pairs_only)
    else:
        result = complete_split(tiles, okey, rules, pairs_only=pairs_only)
    if result is not None:
        assert_sound(result, tiles, okey, rules, pairs_only)
    return result


def shown(result: Finish) -> list[str]:
    return [format_tiles(group) for group in result.groups]


def value(result: Finish, rules: RuleSet = COUNTDOWN) -> int:
    return finish_value(result, rules)


# --- what a finish must be, whatever the search did ---


def assert_sound(result: Finish, rack: list[Tile], okey: Tile, rules: RuleSet, pairs_only: bool = False) -> None:
    """The groups use exactly the shown tiles, each group is valid, and the flags tell the truth."""
    shown_tiles = [tile for group in result.groups for tile in group]
    discarded = [] if result.discard is None else [result.discard]
    assert Counter(shown_tiles + discarded) == Counter(rack), "the finish shows exactly the rack minus the discard"
    assert result.okey_finish == (result.discard == okey)
    if result.kind == PAIRS:
        assert len(result.groups) == 7
        for first, second in result.groups:
            assert first == second or (rules.okey_completes_pair and okey in (first, second))
        assert result.color is None
        return
    assert result.kind == SETS and not pairs_only
    for group in result.groups:
        assert is_valid_set(group, okey, rules), format_tiles(group)
        assert in_table_order(group, okey), format_tiles(group)
    if result.color is not None:
        # Wilds stand for tiles of that colour too (runs_only search), so the plain tiles decide.
        assert len({color_played_as(tile, okey) for tile in shown_tiles if tile != okey}) == 1
    if result.color == ORDERED_COLOR:
        assert len(result.groups) == 1 and len(result.groups[0]) == 14


def in_table_order(group: tuple[Tile, ...], okey: Tile) -> bool:
    """A run reads low to high with each wild in the place it stands for; a group goes by colour."""
    faces = [(i, okey if tile == FALSE_JOKER else tile) for i, tile in enumerate(group) if tile != okey]
    if len({face % 13 for _, face in faces}) == 1 and len(group) <= 4 and len(faces) > 1:
        colors = [face // 13 for _, face in faces]
        if len(set(colors)) == len(colors):
            return colors == sorted(colors)
    return any(
        all(face % 13 == (start + i - 1) % 13 for i, face in faces)
        for start in range(1, 16 - len(group))
    )


def color_played_as(tile: Tile, okey: Tile) -> int:
    return (okey if tile == FALSE_JOKER else tile) // 13


# --- sets ---


def test_fourteen_tiles_in_sets_finish_by_discarding_the_fifteenth():
    result = finish("K1 K2 K3  S7 M7 Y7  M10 M11 M12 M13  Y2 Y3 Y4 Y5  S12")
    assert result.kind == SETS
    assert format_tile(result.discard) == "S12"
    assert not result.okey_finish
    assert sorted(shown(result)) == ["K1 K2 K3", "M10 M11 M12 M13", "S7 M7 Y7", "Y2 Y3 Y4 Y5"]
    assert value(result) == 2


def test_a_14_tile_hand_is_checked_without_a_discard():
    result = finish("K1 K2 K3  S7 M7 Y7  M10 M11 M12 M13  Y2 Y3 Y4 Y5")
    assert result.discard is None and not result.okey_finish
    assert finish("K1 K2 K3  S7 M7 Y7  M10 M11 M12 M13  Y2 Y3 Y4 S5") is None


def test_a_rack_with_two_stray_tiles_does_not_finish():
    assert finish("K1 K2 K3  S7 M7 Y7  M10 M11 M12 M13  Y2 Y3 Y4  S12 K9") is None


def test_the_server_finds_the_split_whatever_the_order_of_the_rack():
    # Overlapping candidates: K3 could go to the run or to the group of 3s.
    result = finish("K3 S3 M3  K1 K2 K3 K4  Y9 Y10 Y11 Y12  S11 M11 K11  S1")
    assert result is not None and format_tile(result.discard) == "S1"


def test_a_long_run_is_shown_in_one_piece():
    result = finish("S1 S2 S3 S4 S5 S6 S7 S8 S9 S10 S11  K13 M13 Y13")
    assert sorted(shown(result)) == ["K13 M13 Y13", "S1 S2 S3 S4 S5 S6 S7 S8 S9 S10 S11"]


def test_11_12_13_1_finishes_but_12_13_1_2_does_not():
    assert finish("M11 M12 M13 M1  K2 K3 K4  S8 S9 S10  Y5 Y6 Y7 Y8  K12") is not None
    assert finish("M12 M13 M1 M2  K2 K3 K4  S8 S9 S10  Y5 Y6 Y7 Y8  K12") is None


# --- the okey and the false joker ---


def test_both_wild_okeys_may_stand_anywhere():
    result = finish("K1 K6 K3  S5 S6 K6  M7 M8 M9 M10  Y11 Y12 Y13 Y1  S2")
    assert sorted(shown(result)) == ["K1 K6 K3", "M7 M8 M9 M10", "S5 S6 K6", "Y11 Y12 Y13 Y1"]
    assert format_tile(result.discard) == "S2"


def test_the_false_joker_is_a_plain_copy_of_the_okeys_face():
    # Indicator K5 -> okey K6 -> J is K6: it completes K5 _ K7 but cannot fill S5 _ S7.
    assert finish("K5 J K7  S1 S2 S3  M4 M5 M6 M7  Y9 Y10 Y11 Y12  M1") is not None
    assert finish("S5 J S7  S1 S2 S3  M4 M5 M6 M7  Y9 Y10 Y11 Y12  M1") is None


def test_indicator_s13_makes_s1_wild():
    rack = "K2 S1 K4  M11 M12 M13  Y5 Y6 Y7 Y8  K9 S9 M9 Y9  Y1"
    result = finish(rack, indicator="S13")
    assert result is not None and format_tile(result.discard) == "Y1"
    assert finish(rack, indicator="S12") is None, "with indicator S12 the okey is S13 and S1 is plain"


# --- okey finish (okey atmak) ---

HAND_WITH_SPARE_OKEY = "K1 K2 K3  S4 S5 S6  M7 M8 M9 M10  Y10 Y11 Y12 Y13  K6"


def test_discarding_the_okey_doubles_and_is_chosen_over_a_normal_finish():
    # Either discard Y13 (the okey takes its place) or discard the okey itself: the okey pays double.
    result = finish(HAND_WITH_SPARE_OKEY)
    assert format_tile(result.discard) == "K6" and result.okey_finish
    assert value(result) == 4
    plain = finish_with_discard(parse_tiles(HAND_WITH_SPARE_OKEY), parse_tile("Y13"), parse_tile("K6"), COUNTDOWN)
    assert plain is not None and not plain.okey_finish and value(plain) == 2


def test_discarding_a_false_joker_is_not_an_okey_finish():
    result = finish("K1 K2 K3  S4 S5 S6  M7 M8 M9 M10  Y10 Y11 Y12 Y13  J")
    assert format_tile(result.discard) == "J"
    assert not result.okey_finish


def test_okey_finish_doubles_in_every_preset():
    result = finish(HAND_WITH_SPARE_OKEY, rules=PENALTY)
    assert result.okey_finish and value(result, PENALTY) == 40
    result = finish(HAND_WITH_SPARE_OKEY, rules=CHIPS)
    assert result.okey_finish and value(result, CHIPS) == 2 * CHIPS.stake


# --- one joker per set (source 002) ---


def test_one_joker_per_set_puts_each_okey_in_a_different_set():
    result = finish("K13 K6 K6  K1 K2 K3  S4 S5 S6  M7 M8 M9  Y10 Y11 Y12", rules=ONE_JOKER)
    assert format_tile(result.discard) == "K13"
    assert [group.count(parse_tile("K6")) for group in result.groups].count(1) == 2


NEEDS_BOTH_OKEYS = "S9 K6 K6  K1 K2 K3  S4 S5 S6  Y10 Y11 Y12 Y13 Y1  M8"


def test_one_joker_per_set_refuses_a_set_that_needs_both_okeys():
    # S9 and M8 have no neighbour: whichever stays needs both okeys (S9 K6 K6 as S9 S10 S11).
    rack, m8, okey = parse_tiles(NEEDS_BOTH_OKEYS), parse_tile("M8"), parse_tile("K6")
    assert "S9 K6 K6" in shown(finish_with_discard(rack, m8, okey, COUNTDOWN))
    assert finish(NEEDS_BOTH_OKEYS) is not None
    assert finish(NEEDS_BOTH_OKEYS, rules=ONE_JOKER) is None


def test_the_chips_preset_always_plays_one_joker_per_set():
    assert finish(NEEDS_BOTH_OKEYS, rules=RuleSet.preset("chips", max_jokers_per_set=None)) is None


# --- pairs (çift) ---


def test_seven_pairs_finish():
    result = finish("K1 K1  S4 S4  M9 M9  Y13 Y13  K7 K7  S11 S11  M2 M2  Y5")
    assert result.kind == PAIRS
    assert format_tile(result.discard) == "Y5"
    assert value(result) == 8


def test_pairs_beat_sets_when_they_are_worth_more():
    # K1-K4 twice and S5-S7 twice: two runs of 4 and two of 3, or seven pairs. Pairs pay 8, sets 2.
    rack = "K1 K1 K2 K2 K3 K3 K4 K4  S5 S5 S6 S6 S7 S7  M12"
    for rules in (COUNTDOWN, PENALTY, CHIPS):
        result = finish(rack, rules=rules)
        assert result.kind == PAIRS, rules.scoring
    assert finish(rack).groups[0] == (parse_tile("K1"), parse_tile("K1"))


def test_pairs_and_sets_never_mix():
    assert finish("K1 K1  S5 S5  M9 M9  Y2 Y2  K12 K12  M3 M4 M5 M6  Y10") is None


def test_a_wild_okey_completes_a_pair_and_two_okeys_are_a_pair():
    # M2 or Y5 goes to the centre; the okey pairs with the other. Ties go to the first in sort order.
    result = finish("K1 K1  S4 S4  M9 M9  Y13 Y13  K7 K7  S11 S11  M2 K6  Y5")
    assert result.kind == PAIRS and format_tile(result.discard) == "M2"
    assert "Y5 K6" in shown(result)
    # Holding both okeys, throwing one is worth double; the other completes Y5.
    result = finish("K1 K1  S4 S4  M9 M9  Y13 Y13  K7 K7  S11 S11  K6 K6  Y5")
    assert result.kind == PAIRS and result.okey_finish and "Y5 K6" in shown(result)


def test_without_the_option_a_wild_does_not_complete_a_pair():
    rack = "K1 K1  S4 S4  M9 M9  Y13 Y13  K7 K7  S11 S11  M2 K6  Y5"
    assert finish(rack, rules=NO_OKEY_PAIRS) is None
    # Two okeys are still identical tiles, so still a pair.
    result = finish("K1 K1  S4 S4  M9 M9  Y13 Y13  K7 K7  S11 S11  K6 K6  Y5", rules=NO_OKEY_PAIRS)
    assert result.kind == PAIRS


def test_two_false_jokers_are_a_pair():
    result = finish("K1 K1  S4 S4  M9 M9  Y13 Y13  K7 K7  S11 S11  J J  Y5")
    assert result.kind == PAIRS and "J J" in shown(result)


def test_pairs_finish_with_the_okey_pays_both_doublings():
    result = finish("K1 K1  S4 S4  M9 M9  Y13 Y13  K7 K7  S11 S11  M2 M2  K6")
    assert result.kind == PAIRS and result.okey_finish
    assert value(result) == 16 and value(result, PENALTY) == 80 and value(result, CHIPS) == 4 * CHIPS.stake


def test_after_declaring_pairs_only_pairs_finish():
    sets_rack = "K1 K2 K3  S7 M7 Y7  M10 M11 M12 M13  Y2 Y3 Y4 Y5  S12"
    assert finish(sets_rack, pairs_only=True) is None
    pairs_rack = "K1 K1  S4 S4  M9 M9  Y13 Y13  K7 K7  S11 S11  M2 M2  Y5"
    assert finish(pairs_rack, pairs_only=True).kind == PAIRS


# --- one colour (renkten bitme) ---

ORDERED_RACK = "M1 M2 M3 M4 M5 M6 M7 M8 M9 M10 M11 M12 M13 M1  S8"


def test_1_to_13_and_1_in_one_colour_is_an_ordered_colour_finish():
    result = finish(ORDERED_RACK, rules=COLOR_FINISH)
    assert result.color == ORDERED_COLOR
    assert shown(result) == ["M1 M2 M3 M4 M5 M6 M7 M8 M9 M10 M11 M12 M13 M1"]
    assert value(result, COLOR_FINISH) == ORDERED_COLOR_VALUE


def test_the_colour_is_reported_even_when_the_option_does_not_score_it():
    result = finish(ORDERED_RACK)
    assert result.color == ORDERED_COLOR and value(result) == 2


def test_one_colour_otherwise_is_an_unordered_colour_finish():
    result = finish("Y1 Y2 Y3  Y3 Y4 Y5 Y6  Y7 Y8 Y9  Y9 Y10 Y11 Y12  K2", rules=COLOR_FINISH)
    assert result.color == UNORDERED_COLOR
    assert value(result, COLOR_FINISH) == 8


def test_wild_okeys_count_as_the_colour_they_stand_for():
    # Indicator S1 -> okey S2, black; here both stand for green tiles.
    result = finish("Y1 S2 Y3  Y3 Y4 Y5 Y6  Y7 S2 Y9  Y9 Y10 Y11 Y12  K2", indicator="S1", rules=COLOR_FINISH)
    assert result.color == UNORDERED_COLOR


def test_the_false_joker_counts_as_the_okeys_colour():
    # Indicator K5 -> J is a red K6.
    result = finish("K1 K2 K3  K4 K5 J K7  K7 K8 K9  K10 K11 K12 K13  S3", rules=COLOR_FINISH)
    assert result.color == UNORDERED_COLOR
    # Indicator Y5 -> J is a green Y6, the one tile missing from Y1..Y13-Y1.
    result = finish("Y1 Y2 Y3 Y4 Y5 J Y7 Y8 Y9 Y10 Y11 Y12 Y13 Y1  S3", indicator="Y5", rules=COLOR_FINISH)
    assert result.color == ORDERED_COLOR


def test_an_ordered_colour_finish_with_the_okey_in_it():
    result = finish("M1 M2 M3 M4 K6 M6 M7 M8 M9 M10 M11 M12 M13 M1  S8", rules=COLOR_FINISH)
    assert result.color == ORDERED_COLOR
    assert shown(result) == ["M1 M2 M3 M4 K6 M6 M7 M8 M9 M10 M11 M12 M13 M1"]


def test_a_rack_of_several_colours_has_no_colour():
    assert finish("K1 K2 K3  S7 M7 Y7  M10 M11 M12 M13  Y2 Y3 Y4 Y5  S12").color is None


# --- the functions' contracts ---


def test_finish_with_discard_puts_exactly_that_tile_on_the_centre():
    rack = parse_tiles("K1 K2 K3  S7 M7 Y7  M10 M11 M12 M13  Y2 Y3 Y4 Y5  S12")
    okey = parse_tile("K6")
    assert format_tile(finish_with_discard(rack, parse_tile("S12"), okey, COUNTDOWN).discard) == "S12"
    assert finish_with_discard(rack, parse_tile("K1"), okey, COUNTDOWN) is None
    with pytest.raises(ValueError):
        finish_with_discard(rack, parse_tile("Y13"), okey, COUNTDOWN)


@pytest.mark.parametrize("size", [0, 13, 14, 16])
def test_best_finish_needs_15_tiles(size):
    with pytest.raises(ValueError):
        best_finish(parse_tiles("K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 K13 S1 S2 S3")[:size], 5, COUNTDOWN)


def test_complete_split_needs_14_tiles():
    with pytest.raises(ValueError):
        complete_split(parse_tiles("K1 K2 K3"), 5, COUNTDOWN)


def test_equal_worth_goes_to_the_discard_that_sorts_first_even_over_the_okey():
    # Indicator Y5: the okey is Y6. Dropping M1 (the okey then plays M1) or dropping the okey are
    # both a sıralı renk, worth the same: M1 sorts before Y6.
    rack = "M1 M2 M3 M4 M5 M6 M7 M8 M9 M10 M11 M12 M13 M1  Y6"
    result = finish(rack, indicator="Y5", rules=COLOR_FINISH)
    assert format_tile(result.discard) == "M1" and result.color == ORDERED_COLOR
    assert shown(result) == ["M1 M2 M3 M4 M5 M6 M7 M8 M9 M10 M11 M12 M13 Y6"]
    # Without the colour option the okey finish pays double, so the okey goes.
    assert finish(rack, indicator="Y5").okey_finish


def test_the_same_rack_always_gets_the_same_answer():
    rack = parse_tiles("K1 K2 K3 K4  S4 M4 Y4  K6 K6  M7 M8 M9  Y11 Y12 Y13")
    answers = {best_finish(list(order), parse_tile("K6"), COUNTDOWN) for order in (rack, rack[::-1], sorted(rack))}
    assert len(answers) == 1


# --- against the brute-force reference ---


def assert_agrees_with_bruteforce(rack: list[Tile], indicator: Tile, rules: RuleSet, pairs_only: bool) -> None:
    okey = okey_for(indicator)
    note(f"rack {format_tiles(rack)}, indicator {format_tile(indicator)}, {rules}, pairs_only={pairs_only}")
    expected = bruteforce.best_value_per_discard(rack, okey, rules, pairs_only)
    best = best_finish(rack, okey, rules, pairs_only=pairs_only)
    if not expected:
        assert best is None
        return
    assert best is not None and finish_value(best, rules) == max(expected.values())
    assert_sound(best, rack, okey, rules, pairs_only)
    for discard in set(rack):
        one = finish_with_discard(rack, discard, okey, rules, pairs_only=pairs_only)
        assert (one is None) == (discard not in expected), format_tile(discard)
        if one is not None:
            assert finish_value(one, rules) == expected[discard]
            assert_sound(one, rack, okey, rules, pairs_only)
            if one.kind == SETS:
                rest = list(rack)
                rest.remove(discard)
                assert one.color == bruteforce.color_of_hand(rest, okey, rules.max_jokers_per_set)


SEEDS = st.integers(0, 2**32 - 1)  # a dealt rack; the failing rack itself is printed by note()


def examples(count: int) -> settings:
    return settings(max_examples=count, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


@examples(1500)
@given(SEEDS, st.sampled_from(RULE_VARIANTS))
def test_random_racks_agree_with_bruteforce(seed: int, rules: RuleSet):
    rack, indicator = bruteforce.deal_random(Random(seed))
    assert_agrees_with_bruteforce(rack, indicator, rules, pairs_only=False)


@examples(700)
@given(SEEDS, st.sampled_from(RULE_VARIANTS))
def test_near_winning_racks_agree_with_bruteforce(seed: int, rules: RuleSet):
    rack, indicator = bruteforce.deal_near_winning(Random(seed))
    assert_agrees_with_bruteforce(rack, indicator, rules, pairs_only=False)


@examples(200)
@given(SEEDS, st.sampled_from([COUNTDOWN, ONE_JOKER, COLOR_FINISH]))
def test_one_colour_racks_agree_with_bruteforce(seed: int, rules: RuleSet):
    rack, indicator = bruteforce.deal_near_winning(Random(seed), one_color=True)
    assert_agrees_with_bruteforce(rack, indicator, rules, pairs_only=False)


@examples(300)
@given(SEEDS, st.sampled_from(RULE_VARIANTS), st.booleans())
def test_pair_racks_agree_with_bruteforce(seed: int, rules: RuleSet, pairs_only: bool):
    rack, indicator = bruteforce.deal_near_winning(Random(seed), pairs=True)
    assert_agrees_with_bruteforce(rack, indicator, rules, pairs_only)


@examples(1000)
@given(SEEDS, st.sampled_from([*RULE_VARIANTS, RuleSet.preset("chips", stake=0)]), st.booleans())
def test_best_finish_is_the_first_best_of_every_single_discard(seed: int, rules: RuleSet, two_wilds: bool):
    """The shortcuts of ``best_finish`` (skipping hopeless discards, one search for all) change nothing."""
    rack, indicator = bruteforce.deal_near_winning(Random(seed))
    okey = okey_for(indicator)
    if two_wilds and rack.count(okey) < 2:
        plain = [tile for tile in rack if tile != okey]
        rack = plain[: 13] + [okey, okey]
    note(f"rack {format_tiles(rack)}, indicator {format_tile(indicator)}, {rules}")
    best = best_finish(rack, okey, rules)
    ranked = []
    for index, discard in enumerate(sorted(set(rack), key=sort_key)):
        one = finish_with_discard(rack, discard, okey, rules)
        if one is not None:
            ranked.append(((value(one, rules), COLOR_RANKS[one.color], one.kind == SETS, -index), one))
    expected = max(ranked, key=lambda item: item[0])[1] if ranked else None
    assert best == expected


COLOR_RANKS = {ORDERED_COLOR: 2, UNORDERED_COLOR: 1, None: 0}


@examples(300)
@given(SEEDS, st.sampled_from(RULE_VARIANTS))
def test_every_14_tile_split_is_sound(seed: int, rules: RuleSet):
    rack, indicator = bruteforce.deal_near_winning(Random(seed))
    okey = okey_for(indicator)
    hand = rack[:14]
    result = complete_split(hand, okey, rules)
    assert (result is not None) == bool(bruteforce.finishes_of(hand, None, okey, rules))
    if result is not None:
        assert_sound(result, hand, okey, rules)
