"""Kart Okey bots at three levels (docs/game-types.md): a seated bot plays its whole turn to win,
from what its seat may see; the clock (RULES.md "Absent players never win") never melds."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.engine.errors import EngineError
from games.engine.kart.bots import LEVELS, play_bot_turn
from games.engine.kart.cards import parse_card

from .test_kart_support import accounted, played_hand, table


def test_a_bot_goes_out_when_it_can():
    state = table(["K5 K4 MA RA SA KQ KK R2 R3 R4", None], discards="S9", stock_top="KA", melds=[(1, "K6 K7 K8")])
    for level in LEVELS:
        after = play_bot_turn(state, 0, level=level, rng=random.Random(1))
        assert after.result is not None and after.result.winner == 0 and after.result.rummy, level


def test_a_bot_takes_the_discard_that_completes_a_meld_and_never_throws_it_back():
    state = table(["K5 K6 M9 R9 S2 S4 RQ RJ M4 K2", None], discards="S10 K7", stock_top="SK")
    for level in LEVELS:
        after = play_bot_turn(state, 0, level=level, rng=random.Random(2))
        turn = after.events[-1]
        assert turn["took"] == "K7" and turn["discard"] != "K7", level
        assert any(meld.cards[:3] == tuple(map(parse_card, ("K5", "K6", "K7"))) for meld in after.melds) \
            or level == "hard"


def test_bots_play_whole_hands_at_every_size_with_every_card_accounted_for():
    reasons = Counter()
    for seed in range(12):
        for players in (2, 3, 4):
            state = played_hand(seed, players=players)
            assert accounted(state) and state.is_over
            reasons[state.result.reason] += 1
    assert reasons["finished"] > reasons["stock_out"]


def test_an_unknown_level_is_refused():
    state = table([None, None])
    with pytest.raises(EngineError):
        play_bot_turn(state, 0, level="genius")


def test_normal_beats_easy_more_often_than_not():
    wins = Counter()
    for seed in range(40):
        state = played_hand(seed, players=2, levels=("normal", "easy") if seed % 2 else ("easy", "normal"))
        if state.result.winner is not None:
            wins[("normal", "easy")[state.result.winner] if seed % 2 else ("easy", "normal")[state.result.winner]] += 1
    assert wins["normal"] > wins["easy"]
