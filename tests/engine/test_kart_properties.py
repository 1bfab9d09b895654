"""Properties over random Kart Okey play: no card is ever lost or duplicated over bot-played hands
(rule 1's decks, rule 7's reshuffles included), and any turn a client may send is applied whole or
refused with a listed code and nothing changed (rule 5)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from games.engine.errors import EngineError
from games.engine.kart import KartOkey
from games.engine.kart.bots import LEVELS, play_bot_turn
from games.engine.kart.cards import format_card
from games.engine.kart.fair import replay
from games.engine.kart.hand import apply_turn, clock_move, deal_from_deck, draw_from_stock
from games.engine.kart.match import shuffled_deck
from games.engine.kart.rules import RulesKart

from .test_kart_support import accounted, snapshot

GAME = KartOkey()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4]), one_deck=st.booleans(),
       levels=st.lists(st.sampled_from([*LEVELS, "clock"]), min_size=4, max_size=4))
def test_rule1_no_card_is_lost_or_duplicated_over_random_bot_played_hands(seed, players, one_deck, levels):
    rules = RulesKart(players=players, decks=1 if one_deck or players < 4 else 2)
    state = deal_from_deck(shuffled_deck(rules, seed), rules, starting_seat=seed % players)
    rng = random.Random(seed)
    while not state.is_over:
        seat = state.turn
        before = sum(len(cards) for cards in state.hands)
        if levels[seat] == "clock":
            state = clock_move(state, seat)
        else:
            state = play_bot_turn(state, seat, level=levels[seat], rng=rng)
        assert accounted(state)
        assert sum(len(cards) for cards in state.hands) <= before
        winner = state.result.winner if state.result is not None else None
        assert all(cards for other, cards in enumerate(state.hands) if other != winner)
    event(state.result.reason)
    assert replay(state.deck, state.rules, state.starting_seat, state.events)[-1].to_dict() == state.to_dict()
    if state.result.winner is not None:
        assert state.hands[state.result.winner] == [] and state.result.scores[state.result.winner] == 0


@st.composite
def hand_and_turn(draw):
    rules = RulesKart(players=draw(st.sampled_from([2, 3, 4])))
    seed = draw(st.integers(0, 10**6))
    state = deal_from_deck(shuffled_deck(rules, seed), rules)
    rng = random.Random(seed)
    for _ in range(draw(st.integers(0, 12))):
        if state.is_over:
            break
        state = play_bot_turn(state, state.turn, level="normal", rng=rng)
    if not state.is_over and draw(st.booleans()):
        state = draw_from_stock(state, state.turn)
    seat = draw(st.sampled_from([state.turn, state.turn, (state.turn + 1) % rules.players]))
    names = [format_card(card) for card in state.hands[seat]] + ["K5", "MA", "SK", "R10"]
    if state.discard_top is not None:
        names.append(format_card(state.discard_top))
    cards = st.lists(st.sampled_from(names), min_size=2, max_size=5)
    action = st.one_of(
        st.fixed_dictionaries({"type": st.just("meld"), "cards": cards}),
        st.fixed_dictionaries({"type": st.just("lay_off"), "meld": st.integers(0, 6),
                               "card": st.sampled_from(names)}),
    )
    turn = {"draw": draw(st.sampled_from([None, "stock", "discard"])),
            "actions": draw(st.lists(action, max_size=4)), "discard": draw(st.sampled_from([*names, None]))}
    return state, seat, turn


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand_and_turn())
def test_rule5_any_turn_is_applied_whole_or_refused_with_nothing_changed(case):
    state, seat, turn = case
    before = snapshot(state)
    try:
        after = apply_turn(state, seat, turn)
    except EngineError as error:
        assert error.code in GAME.error_codes, error.code
        assert snapshot(state) == before
        event(f"refused {error.code}")
        return
    event("applied")
    assert snapshot(state) == before and accounted(after)
    drew = 0 if turn["draw"] is None else 1
    on_table = sum(len(meld.cards) for meld in after.melds) - sum(len(meld.cards) for meld in state.melds)
    assert len(after.hands[seat]) == len(state.hands[seat]) + drew - on_table - 1
    assert Counter(after.located_cards()) == Counter(state.located_cards())
