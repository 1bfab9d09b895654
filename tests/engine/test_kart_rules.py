"""Kart Okey's table options and cards, RULES.md "Kart Okey" rule 1: 2-4 players, one 52-card deck
without jokers for 2-3 players, two decks (104 cards) for four (option), the four suits and a
documented text notation."""

from __future__ import annotations

import pytest

from games.engine.kart.cards import (
    CardError,
    card_value,
    format_card,
    format_cards,
    full_deck,
    make_card,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)
from games.engine.kart.rules import RulesError, RulesKart


def test_rule1_two_to_four_players_one_deck_for_two_or_three_two_decks_for_four_by_default():
    assert [RulesKart(players=n).decks for n in (2, 3, 4)] == [1, 1, 2]
    assert [RulesKart(players=n).cards for n in (2, 3, 4)] == [52, 52, 104]
    assert RulesKart(players=4, decks=1).cards == 52          # the option: four with one deck
    for players in (1, 5, "4", True):
        with pytest.raises(RulesError) as info:
            RulesKart(players=players)
        assert (info.value.code, info.value.field) == ("bad_option", "players")
    with pytest.raises(RulesError) as info:
        RulesKart(players=3, decks=2)
    assert info.value.field == "decks"


def test_rule1_the_deck_has_no_jokers_and_two_decks_are_two_copies_of_every_card():
    one, two = full_deck(1), full_deck(2)
    assert len(one) == 52 and sorted(set(one)) == list(range(52))
    assert len(two) == 104 and all(two.count(card) == 2 for card in range(52))


def test_rule1_the_notation_is_the_suit_letter_then_the_rank():
    assert [format_card(make_card(suit, 1)) for suit in range(4)] == ["MA", "KA", "RA", "SA"]
    assert format_cards(parse_cards("M2 K10 RJ SQ KK")) == "M2 K10 RJ SQ KK"
    assert parse_card("k10") == parse_card("K10") == parse_card("♥10")
    assert (suit_of(parse_card("♠Q")), rank_of(parse_card("♠Q"))) == (0, 12)
    assert parse_cards("MA, RQ") == [parse_card("MA"), parse_card("RQ")]
    for bad in ("K1", "K11", "X5", "10K", "", "J", "M 5"):
        with pytest.raises(CardError) as info:
            parse_card(bad)
        assert info.value.code == "bad_card" and info.value.details["card"] == bad
    # Every card writes and reads back.
    assert [parse_card(format_card(card)) for card in range(52)] == list(range(52))


def test_options_rounds_and_prize_pool_round_trip_and_unknown_options_are_named():
    rules = RulesKart(players=3, rounds=3, prize_pool=500)
    assert RulesKart.from_dict(rules.to_dict()) == rules and rules.prize_limit == 240
    assert RulesKart(players=4) == RulesKart.from_dict({"players": 4, "decks": 2})
    with pytest.raises(RulesError) as info:
        RulesKart.from_dict({"players": 4, "jokers": 2})
    assert (info.value.code, info.value.field) == ("unknown_option", "jokers")
    for field, value in (("rounds", 4), ("rounds", 0), ("prize_pool", -1), ("prize_pool", 1.5), ("decks", 3)):
        with pytest.raises(RulesError) as info:
            RulesKart(**{field: value})
        assert info.value.field == field


def test_card_values_are_rule3s():
    assert [card_value(parse_card(text)) for text in "MA M2 M9 M10 MJ MQ MK".split()] == [11, 2, 9, 10, 10, 10, 10]
