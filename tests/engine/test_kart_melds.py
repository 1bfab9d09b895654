"""Values and melds, RULES.md "Kart Okey" rules 3 and 4: 2-10 their number, J/Q/K 10, ace 11; the
ace low (A-2-3) or high (Q-K-A) in a run, never both in one run and never K-A-2; a run is ≥3
consecutive cards of one suit, a set 3-4 cards of one rank in different suits."""

from __future__ import annotations

import pytest

from games.engine.kart.cards import format_cards, hand_value, parse_cards
from games.engine.kart.melds import RUN, SET, MeldError, extended, fits, is_meld, read_meld


def meld(text: str):
    return read_meld(parse_cards(text))


def test_rule3_values_two_to_ten_their_number_faces_ten_ace_eleven():
    assert hand_value(parse_cards("M2 K7 R10 SJ MQ KK RA")) == 2 + 7 + 10 + 10 + 10 + 10 + 11
    assert meld("MQ MK MA").value == 31 and meld("MA M2 M3").value == 16


def test_rule3_the_ace_is_low_or_high_in_a_run_never_both_and_never_round_the_corner():
    low, high = meld("M3 MA M2"), meld("MA MK MQ")
    assert (format_cards(low.cards), low.ace_high) == ("MA M2 M3", False)
    assert (format_cards(high.cards), high.ace_high) == ("MQ MK MA", True)
    with pytest.raises(MeldError, match="round the corner"):
        meld("MK MA M2")
    two_decks = parse_cards("MA M2 M3 M4 M5 M6 M7 M8 M9 M10 MJ MQ MK MA")
    with pytest.raises(MeldError, match="never both"):
        read_meld(two_decks)
    assert len(read_meld(two_decks[:13]).cards) == 13 and len(read_meld(two_decks[1:]).cards) == 13
    # Laying off: an ace goes on either end, but never makes K-A-2 or A…A.
    assert extended(RUN, parse_cards("MJ MQ MK"), parse_cards("MA")[0]) is not None
    assert extended(RUN, parse_cards("M2 M3 M4"), parse_cards("MA")[0]) is not None
    assert extended(RUN, parse_cards("MA M2 M3"), parse_cards("MK")[0]) is None
    assert extended(RUN, parse_cards("MQ MK MA"), parse_cards("M2")[0]) is None
    assert format_cards(fits(RUN, parse_cards("M2 M3 M4 M5 M6 M7 M8 M9 M10 MJ MQ MK"))) == "MA"
    assert format_cards(fits(RUN, parse_cards("MQ MK MA"))) == "MJ"


def test_rule4_a_run_is_three_or_more_consecutive_cards_of_one_suit():
    assert meld("K5 K7 K6").kind == RUN and len(meld("R2 R3 R4 R5 R6 R7").cards) == 6
    for bad, reason in (("K5 K6", "at least 3"), ("K5 K6 M7", "one suit"), ("K5 K6 K8", "not consecutive"),
                        ("K5 K6 K6", "same card twice")):
        with pytest.raises(MeldError, match=reason) as info:
            meld(bad)
        assert info.value.code == "bad_meld"


def test_rule4_a_set_is_three_or_four_cards_of_one_rank_all_suits_different():
    assert meld("M9 K9 R9").kind == SET and len(meld("S9 M9 K9 R9").cards) == 4
    for bad, reason in (("M9 K9", "3 or 4"), ("M9 K9 K9", "every suit different"), ("M9 K9 R8", "one rank")):
        with pytest.raises(MeldError, match=reason):
            meld(bad)
    with pytest.raises(MeldError):
        read_meld(parse_cards("M9 K9 R9 S9 M9"))
    assert extended(SET, parse_cards("M9 K9 R9"), parse_cards("S9")[0]) is not None
    assert extended(SET, parse_cards("M9 K9 R9"), parse_cards("K9")[0]) is None
    assert format_cards(fits(SET, parse_cards("M9 K9 S9"))) == "R9" and fits(SET, parse_cards("M9 K9 R9 S9")) == []


def test_melds_are_unordered_and_a_kind_may_be_asked_for():
    assert is_meld(parse_cards("K7 K5 K6"), RUN) and not is_meld(parse_cards("K7 K5 K6"), SET)
    with pytest.raises(Exception) as info:
        read_meld(parse_cards("K5 K6 K7"), "pairs")
    assert info.value.code == "bad_meld"
