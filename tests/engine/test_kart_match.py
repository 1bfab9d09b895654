"""A Kart Okey table, RULES.md "Kart Okey" rule 8 (tables of 1, 2 or 3 rounds; the lowest total
wins) and rule 9 (the prize pool paid when the table is over)."""

from __future__ import annotations

import json

import pytest

from games.engine.errors import EngineError
from games.engine.kart import KartOkey
from games.engine.kart.hand import ResultKart
from games.engine.kart.match import MatchKart, prizes, record_hand, start_match, start_next_hand, winners
from games.engine.kart.rules import RulesKart

GAME = KartOkey()


def finished(hand, scores, winner):
    hand.result = ResultKart(reason="finished" if winner is not None else "stock_out", scores=tuple(scores),
                             winner=winner)
    return hand


def test_rule8_a_table_is_1_2_or_3_rounds_all_played_and_the_lowest_total_wins():
    rules = RulesKart(players=3, rounds=3, prize_pool=300)
    table = start_match(rules, seed="t")
    first = table.first_starting_seat
    rounds = [([0, 20, 35], 0), ([40, 0, 10], 1), ([12, 30, 0], 2)]
    for number, (scores, winner) in enumerate(rounds):
        hand = start_next_hand(table)
        assert hand.starting_seat == (first + number) % 3
        assert prizes(table) is None and not GAME.is_over(table)
        table = record_hand(table, finished(hand, scores, winner))
    assert table.scores == [52, 50, 45] and GAME.is_over(table) and winners(table) == [2]
    with pytest.raises(EngineError) as info:
        start_next_hand(table)
    assert info.value.code == "match_over"
    # Rule 9 at three rounds: the limit is 240, both others share the 25 %.
    assert table.public()["prize_limit"] == 240 and sum(prizes(table)) == 300
    assert prizes(table)[2] >= 225
    again = MatchKart.from_dict(json.loads(json.dumps(table.to_dict())))
    assert again.to_dict() == table.to_dict() and again.public()["winners"] == [2]


def test_rule8_ties_share_first_place():
    table = start_match(RulesKart(players=2, rounds=2), seed=1)
    table = record_hand(table, finished(start_next_hand(table), [0, 30], 0))
    table = record_hand(table, finished(start_next_hand(table), [30, 0], 1))
    assert winners(table) == [0, 1] and GAME.scoring(table.rules).ranks(table.scores) == [1, 1]


def test_rule9_a_one_round_table_with_no_winner_shares_the_pool_by_weights():
    table = start_match(RulesKart(players=3, prize_pool=100), seed=2)
    table = record_hand(table, finished(start_next_hand(table), [10, 30, 95], None))
    assert winners(table) == [] and prizes(table) == [59, 41, 0]


def test_a_hand_of_another_table_or_not_finished_is_refused():
    table = start_match(RulesKart(players=2), seed=3)
    hand = start_next_hand(table)
    for code, bad in (("hand_not_over", hand),):
        with pytest.raises(EngineError) as info:
            record_hand(table, bad)
        assert info.value.code == code
    other = start_match(RulesKart(players=3), seed=3)
    with pytest.raises(EngineError) as info:
        record_hand(other, finished(hand, [0, 5], 0))
    assert info.value.code == "wrong_hand"
    ended = GAME.end_match(table, reason="left")
    assert GAME.is_over(ended) and winners(ended) == [] and prizes(ended) is None
