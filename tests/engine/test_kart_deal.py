"""The deal, RULES.md "Kart Okey" rule 2: 10 cards each; one card face up starts the discard pile;
the rest is the stock."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine.kart.cards import full_deck
from games.engine.kart.hand import deal_from_deck
from games.engine.kart.match import shuffled_deck
from games.engine.kart.rules import RulesKart

from .test_kart_support import accounted


@pytest.mark.parametrize(("players", "decks", "stock"), [(2, 1, 31), (3, 1, 21), (4, 1, 11), (4, 2, 63)])
def test_rule2_ten_cards_each_one_face_up_and_the_rest_is_the_stock(players, decks, stock):
    rules = RulesKart(players=players, decks=decks)
    deck = shuffled_deck(rules, seed=7)
    state = deal_from_deck(deck, rules, starting_seat=1)
    assert [len(cards) for cards in state.hands] == [10] * players
    assert len(state.discards) == 1 and len(state.stock) == stock and accounted(state)
    # One card at a time in play order from the starting seat, then one up, the rest top first.
    assert state.hands[1][:2] == [deck[0], deck[players]] and state.hands[0][0] == deck[players - 1]
    assert state.discards == [deck[10 * players]] and state.stock == deck[10 * players + 1:]
    assert state.turn == 1 and state.events[0]["type"] == "deal"


def test_rule2_the_same_deck_deals_the_same_hand_and_a_wrong_deck_is_refused():
    rules = RulesKart(players=3)
    deck = shuffled_deck(rules, seed="x")
    assert deal_from_deck(deck, rules).to_dict() == deal_from_deck(list(deck), rules).to_dict()
    with pytest.raises(ValueError):
        deal_from_deck(deck[:-1], rules)
    with pytest.raises(ValueError):
        deal_from_deck(full_deck(2), rules)
    assert Counter(shuffled_deck(RulesKart(), seed=1)) == Counter(full_deck(2))
