"""101 melds and their values, RULES.md "101 Okey" rules 3 and 4: runs with 1 low only and no
wrap, groups of 3-4 colours, pairs, okey stand-ins and the false joker as the okey's face."""

from __future__ import annotations

import pytest

from games.engine.errors import EngineError
from games.engine.okey101.melds import (
    GROUP,
    PAIR,
    RUN,
    extended,
    is_meld,
    rack_value,
    read_meld,
    swapped,
)
from games.engine.tiles import parse_tile, parse_tiles

# Indicator K5: the okey is K6 (both copies wild), a false joker is a plain K6.
OKEY = parse_tile("K6")


def reading(text: str, kind: str | None = None):
    return read_meld(parse_tiles(text, check_copies=False), OKEY, kind)


def refused(text: str, kind: str | None = None) -> str:
    with pytest.raises(EngineError) as info:
        reading(text, kind)
    assert info.value.code == "bad_meld"
    return str(info.value)


# -- rule 3: runs ------------------------------------------------------------------------------


def test_rule3_a_run_is_three_or_more_of_one_colour_in_sequence_in_any_order():
    assert reading("S7 S5 S6").kind == RUN
    assert reading("M1 M2 M3 M4 M5 M6 M7 M8 M9 M10 M11 M12 M13").kind == RUN


def test_rule3_one_is_low_only_so_12_13_1_is_not_a_run():
    assert reading("S1 S2 S3").kind == RUN
    assert "12-13-1" in refused("S12 S13 S1")
    assert not is_meld(parse_tiles("S13 S1 S2"), OKEY)


def test_rule3_a_run_is_one_colour_and_never_holds_a_tile_twice():
    refused("S5 M6 S7")
    refused("S5 S5 S6 S7", kind=RUN)


def test_rule3_a_group_is_three_or_four_of_one_number_in_different_colours():
    assert reading("K8 S8 M8").kind == GROUP
    assert reading("K8 S8 M8 Y8").kind == GROUP
    refused("K8 K8 M8")
    refused("K8 S8")  # two different tiles are no pair either


def test_rule3_a_pair_is_two_identical_tiles_and_an_okey_pairs_with_anything():
    assert reading("M9 M9").kind == PAIR
    assert reading("M9 K6").kind == PAIR          # K6 is the okey
    assert reading("K6 K6").kind == PAIR          # two okeys
    assert reading("J J").kind == PAIR            # two false jokers
    refused("M9 S9")


def test_rule3_okeys_stand_in_for_any_tile_of_a_run_or_group_but_need_a_real_tile():
    assert reading("S5 K6 S7").kind == RUN
    assert reading("Y9 K6 M9").kind == GROUP
    assert reading("S3 K6 K6").kind in (RUN, GROUP)


def test_rule3_a_false_joker_is_a_plain_tile_of_the_okeys_face():
    assert reading("K5 J K7").kind == RUN         # J plays as K6
    refused("S5 J S7")                            # it is no wild


# -- rule 4: values ---------------------------------------------------------------------------


def test_rule4_a_tile_counts_its_number():
    assert reading("S1 S2 S3").value == 6
    assert reading("K13 S13 M13").value == 39


def test_rule4_an_okey_counts_the_tile_it_stands_for():
    # Research 1.7.2: K10 okey K12 counts 33 (okey = K11), here with S.
    assert reading("S10 K6 S12").value == 33
    assert reading("Y9 K6 M9 S9").value == 36


def test_rule4_an_okey_at_either_end_of_a_run_takes_the_higher_reading():
    # S4 S5 + okey: S3 or S6; the highest value reads S6.
    found = reading("S4 S5 K6")
    assert (found.value, found.stands_for) == (15, (parse_tile("S6"),))
    # At the top no higher end exists: S12 S13 + okey is S11.
    assert reading("S12 S13 K6").value == 36


def test_rule4_a_false_joker_counts_the_okeys_number():
    assert reading("K5 J K7").value == 18
    assert reading("K6 S6 J", kind=GROUP).value == 18   # a wild K6 as the 6 of a fourth colour


def test_an_ambiguous_set_reads_at_its_highest_value_unless_its_kind_is_chosen():
    assert reading("S3 K6 K6").kind == RUN and reading("S3 K6 K6").value == 3 + 4 + 5
    assert reading("S3 K6 K6", kind=GROUP).value == 9


def test_rule11_an_opened_rack_counts_a_wild_okey_101_and_a_false_joker_the_okeys_number():
    assert rack_value(parse_tiles("K1 K2"), OKEY) == 3
    assert rack_value(parse_tiles("K6 Y4"), OKEY) == 105
    assert rack_value(parse_tiles("J"), OKEY) == 6


# -- rule 8: lay-offs and the okey swap, as meld arithmetic -------------------------------------


def test_rule8_a_run_grows_at_either_end_and_a_group_to_four():
    assert extended(RUN, parse_tiles("S5 S6 S7"), parse_tile("S8"), OKEY).value == 26
    assert extended(RUN, parse_tiles("S5 S6 S7"), parse_tile("S4"), OKEY) is not None
    assert extended(RUN, parse_tiles("S11 S12 S13"), parse_tile("S1"), OKEY) is None
    assert extended(GROUP, parse_tiles("K8 S8 M8"), parse_tile("Y8"), OKEY) is not None
    assert extended(GROUP, parse_tiles("K8 S8 M8 Y8"), parse_tile("Y8"), OKEY) is None
    assert extended(PAIR, parse_tiles("M9 M9"), parse_tile("K6"), OKEY) is None


def test_rule8_the_okey_is_swapped_out_of_a_run_for_the_tile_it_stands_for():
    assert swapped(RUN, parse_tiles("S5 K6 S7"), parse_tile("S6"), OKEY) is not None
    assert swapped(RUN, parse_tiles("S5 K6 S7"), parse_tile("S8"), OKEY) is None


def test_rule8_out_of_a_group_only_when_real_tiles_then_fill_all_four_colours():
    three = parse_tiles("K8 Y8 K6")
    assert swapped(GROUP, three, parse_tile("M8"), OKEY) is None
    four = [*three, parse_tile("M8")]
    assert swapped(GROUP, four, parse_tile("S8"), OKEY) is not None


def test_rule8_never_out_of_a_pair():
    assert swapped(PAIR, parse_tiles("M9 K6"), parse_tile("M9"), OKEY) is None
