"""The deck and the deal: 106 tiles, a secure or seeded shuffle, the indicator and 14/15 tiles each."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.engine import deck as deck_module
from games.engine.deck import all_tiles, deal, deal_from_deck, shuffled_deck
from games.engine.errors import EngineError
from games.engine.hand import PHASE_DISCARD
from games.engine.rules import RuleSet
from games.engine.tiles import FALSE_JOKER, full_set, okey_for, parse_tile

from .conftest import accounted


def test_the_set_has_106_tiles_each_face_twice_and_two_false_jokers():
    tiles = all_tiles()
    assert len(tiles) == 106
    counts = Counter(tiles)
    assert set(counts.values()) == {2}
    assert counts[FALSE_JOKER] == 2


def test_a_seeded_shuffle_is_a_replayable_permutation():
    first = shuffled_deck(seed=42)
    assert first == shuffled_deck(seed=42)
    assert first != shuffled_deck(seed=43)
    assert sorted(first) == full_set()


def test_an_unseeded_shuffle_comes_from_the_system_csprng(monkeypatch):
    used = []

    class SpyRandom(random.Random):
        def shuffle(self, x):  # type: ignore[override]
            used.append(True)
            super().shuffle(x)

    monkeypatch.setattr(deck_module.secrets, "SystemRandom", SpyRandom)
    deck = shuffled_deck()
    assert used == [True]
    assert sorted(deck) == full_set()


def test_two_unseeded_shuffles_differ():
    assert shuffled_deck() != shuffled_deck()


def test_four_players_get_fourteen_the_starter_fifteen_and_48_stay_in_the_pile():
    state = deal(RuleSet(), seed=7, starting_seat=2)
    assert [len(rack) for rack in state.racks] == [14, 14, 15, 14]
    assert len(state.pile) == 48
    assert state.turn == 2 and state.phase == PHASE_DISCARD  # the starter discards first, no draw
    assert accounted(state)


def test_two_players_leave_76_in_the_pile():
    state = deal(RuleSet(players=2), seed=7, starting_seat=1)
    assert [len(rack) for rack in state.racks] == [14, 15]
    assert len(state.pile) == 76
    assert accounted(state)


def test_the_okey_is_one_above_the_indicator_and_never_from_a_false_joker():
    for seed in range(40):
        state = deal(RuleSet(), seed=seed)
        assert state.indicator != FALSE_JOKER
        assert state.okey == okey_for(state.indicator)


def test_a_false_joker_turned_up_goes_back_under_the_pile():
    deck = full_set()
    deck.remove(FALSE_JOKER)
    deck.remove(FALSE_JOKER)
    deck.remove(parse_tile("S13"))
    deck = [FALSE_JOKER, FALSE_JOKER, parse_tile("S13"), *deck]
    state = deal_from_deck(deck, RuleSet())
    assert state.indicator == parse_tile("S13")
    assert state.okey == parse_tile("S1")  # 13 wraps to 1 of the same colour
    assert state.pile[-2:] == [FALSE_JOKER, FALSE_JOKER]
    assert accounted(state)


def test_the_deal_is_a_pure_function_of_the_deck_so_it_can_be_verified_later():
    state = deal(RuleSet(), seed="verifiable", starting_seat=3)
    again = deal_from_deck(state.deck, RuleSet(), starting_seat=3)
    assert again == state
    assert state.deck == shuffled_deck("verifiable")


def test_tiles_come_off_the_top_in_play_order_from_the_starter():
    deck = shuffled_deck(5)
    state = deal_from_deck(deck, RuleSet(), starting_seat=1)
    rest = deck[1:] if deck[0] != FALSE_JOKER else None
    if rest is not None:
        assert state.racks[1] == rest[:15]
        assert state.racks[2] == rest[15:29]
        assert state.racks[0] == rest[43:57]
        assert state.pile == rest[57:]


def test_the_deal_is_the_first_event_and_move_zero():
    state = deal(RuleSet(), seed=1)
    assert state.move == 0
    assert state.events == [{"move": 0, "type": "deal", "starting_seat": 0, "indicator": state.events[0]["indicator"],
                             "okey": state.events[0]["okey"], "players": 4}]


@pytest.mark.parametrize("seat", [-1, 4, "0", True])
def test_a_starting_seat_off_the_table_is_refused(seat):
    with pytest.raises(EngineError) as info:
        deal(RuleSet(), seed=1, starting_seat=seat)
    assert info.value.code == "bad_seat"


def test_a_deck_that_is_not_the_full_set_is_refused():
    with pytest.raises(ValueError):
        deal_from_deck(full_set()[:-1], RuleSet())
