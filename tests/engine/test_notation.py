"""Tile notation and the okey (RULES.md "Tiles and notation", "Set-up of a hand")."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.tiles import (
    FALSE_JOKER,
    NotationError,
    color_of,
    format_tile,
    format_tiles,
    full_set,
    number_of,
    okey_for,
    parse_tile,
    parse_tiles,
)


def test_each_colour_letter_names_its_colour():
    assert [color_of(parse_tile(text)) for text in ("K1", "S1", "M1", "Y1")] == [0, 1, 2, 3]
    assert number_of(parse_tile("S13")) == 13


def test_upper_and_lower_case_both_parse():
    assert parse_tile("k5") == parse_tile("K5")
    assert parse_tile("j") == parse_tile("J") == FALSE_JOKER
    assert parse_tiles("k1 s13 m7 y10 j") == parse_tiles("K1 S13 M7 Y10 J")


def test_a_rack_parses_from_text_with_spaces_or_commas_or_from_a_list():
    assert parse_tiles("K1, K2,K3") == parse_tiles(["K1", "K2", "K3"]) == parse_tiles("K1 K2 K3")


@pytest.mark.parametrize("token", ["K0", "K14", "R5", "5K", "KK", "JJ", "", "S-1", "M 3x"])
def test_a_bad_token_is_an_error_that_names_it(token):
    with pytest.raises(NotationError) as error:
        parse_tile(token)
    assert error.value.token == token
    assert f"'{token}'" in str(error.value)


def test_the_bad_token_is_named_inside_a_whole_rack():
    with pytest.raises(NotationError, match="'X9'"):
        parse_tiles("K1 K2 X9 K4")


def test_a_third_copy_of_a_face_or_of_the_false_joker_is_refused():
    with pytest.raises(NotationError, match="K5"):
        parse_tiles("K5 k5 K5")
    with pytest.raises(NotationError, match="'J'"):
        parse_tiles("J J J")


def test_the_set_holds_106_tiles_each_face_twice_and_two_false_jokers():
    tiles = full_set()
    assert len(tiles) == 106
    assert tiles.count(FALSE_JOKER) == 2
    assert all(tiles.count(face) == 2 for face in range(52))


@pytest.mark.parametrize(
    ("indicator", "okey"),
    [("K3", "K4"), ("K5", "K6"), ("S1", "S2"), ("S13", "S1"), ("M12", "M13"), ("Y13", "Y1")],
)
def test_the_okey_is_the_indicators_colour_one_higher_and_13_turns_to_1(indicator, okey):
    assert format_tile(okey_for(parse_tile(indicator))) == okey


def test_a_false_joker_is_never_the_indicator():
    with pytest.raises(ValueError):
        okey_for(FALSE_JOKER)


@settings(database=None)
@given(st.lists(st.sampled_from(full_set()), max_size=20))
def test_formatting_and_parsing_round_trip(tiles):
    assert parse_tiles(format_tiles(tiles), check_copies=False) == tiles
