"""The stock running out, RULES.md "Kart Okey" rule 7: the discards except the top card are shuffled
into a new stock and the top card starts the new discard pile; when the stock runs out a second
time the hand ends with no winner and every player scores their own hand, without the +25."""

from __future__ import annotations

from collections import Counter

from games.engine.kart.cards import hand_value, parse_card
from games.engine.kart.hand import STOCK_OUT, apply_turn, clock_move, reshuffle_order

from .test_kart_support import accounted, table


def test_rule7_the_first_stock_out_reshuffles_the_discards_under_the_top_into_a_new_stock():
    state = table([None, None], discards="R2 R3 R4 R5", stock_top="SK", stock_size=1)
    under = list(state.discards)
    after = apply_turn(state, 0, {"draw": "stock", "discard": "SK"})
    assert after.stock_outs == 1 and not after.is_over and after.turn == 1
    assert after.discards == [parse_card("SK")]
    assert Counter(after.stock) == Counter(under)
    # The order is the committed deck's: anyone can recompute it once the deck is revealed.
    assert after.stock == reshuffle_order(state.deck, under, 1)
    assert after.events[-1] == {"move": after.move, "type": "reshuffle", "number": 1,
                                "stock_count": len(under), "discard_top": "SK"}
    assert accounted(after)


def test_rule7_the_second_stock_out_ends_the_hand_with_no_winner_and_no_bonus():
    state = table([None, None], discards="R4 R5", stock_top="SK", stock_size=1)
    state = apply_turn(state, 0, {"draw": "stock", "discard": "SK"})        # the first stock out
    assert state.stock_outs == 1
    turns = 0
    while not state.is_over:                                                # the clock never melds
        state = clock_move(state, state.turn)
        turns += 1
    assert turns == len(state.deck) - 20 - 1 and state.stock_outs == 2 and state.stock == []
    result = state.result
    assert (result.reason, result.winner, result.rummy) == (STOCK_OUT, None, False)
    assert list(result.scores) == [hand_value(cards) for cards in state.hands]
    assert all(row["rummy_bonus"] == 0 for row in result.sheet) and accounted(state)


def test_rule7_a_player_who_draws_the_last_card_may_still_go_out():
    state = table(["K5 K6", None], discards="R4 R5", stock_top="K7", stock_size=1, melds=[(1, "K8 K9 K10")],
                  melded=(0,))
    state.stock_outs = 1
    after = apply_turn(state, 0, {"draw": "stock", "actions": [{"type": "lay_off", "meld": 1, "card": "K7"},
                                                               {"type": "lay_off", "meld": 1, "card": "K6"}],
                                  "discard": "K5"})
    assert (after.result.reason, after.result.winner) == ("finished", 0)
