"""The bot: legal, fair (it decides from its seat's view only), sensible, and better than chance."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.bots import (
    BotMemory,
    apply_move,
    bot_move,
    greedy_discard_move,
    play_bot_turn,
    random_discard_move,
)
from games.engine.deck import deal, deal_from_deck, shuffled_deck
from games.engine.errors import EngineError
from games.engine.hand import PHASE_DISCARD, PHASE_DRAW, HandState, apply, discard, view_for
from games.engine.rules import RuleSet
from games.engine.tiles import FALSE_JOKER, format_tile, okey_for, parse_tile, parse_tiles

from .conftest import accounted, hand_with

T = parse_tile
READY = "S1 S2 S3 S4 M5 M6 M7 Y8 Y9 Y10 K11 S11 M11 Y11 Y13"  # finishes by throwing Y13 (indicator K1)
RULE_SETS = [
    RuleSet(),
    RuleSet(players=2),
    RuleSet(indicator_binds_pair=True, double_okey=True, color_finish=True),
    RuleSet(scoring="chips", players=2),
    RuleSet(players=2, indicator_binds_pair=True),
    RuleSet(scoring="penalty", okey_completes_pair=False),
]


def gifted_deck(seed: int, rules: RuleSet) -> list[int]:
    """A shuffled deck whose starting seat (0) is dealt the indicator's twin and both okeys, so the
    rarer paths (show the indicator, wait for an okey finish, bind a pair) get played too."""
    deck = shuffled_deck(seed)
    while deck[0] == FALSE_JOKER:
        deck.append(deck.pop(0))
    indicator = deck[0]
    wanted = [indicator, okey_for(indicator), okey_for(indicator)]
    for position, tile in zip((1, 2, 3), wanted, strict=True):
        other = deck.index(tile, position)
        deck[position], deck[other] = deck[other], deck[position]
    assert deal_from_deck(deck, rules).racks[0].count(okey_for(indicator)) == 2
    return deck


def play_checked_hand(state: HandState, levels: list[str], rng: random.Random) -> HandState:
    """Every seat a bot; each message checked for the guarantees before the engine applies it
    (the engine itself refuses anything illegal, which would fail the test)."""
    memories = [BotMemory() for _ in range(state.players)]
    for _ in range(500):
        if state.is_over:
            return state
        seat = state.turn
        view = view_for(state, seat)
        message = bot_move(view, level=levels[seat], rng=rng, memory=memories[seat])
        json.dumps(message)
        if message["type"] == "discard":
            rack = state.racks[seat]
            assert message["tile"] != format_tile(state.okey) or all(tile == state.okey for tile in rack), \
                f"seat {seat} threw a wild okey from {rack}"
        state = apply_move(state, seat, message)
        assert accounted(state)
        for other, memory in enumerate(memories):
            if not state.is_over:
                memory.observe(view_for(state, other))
    raise AssertionError("the hand did not end")


# -- legality ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda rules: f"{rules.scoring}-{rules.players}p")
def test_bots_play_whole_hands_legally_under_every_rule_set(rules):
    rng = random.Random(7)
    for hand in range(6):
        deck = gifted_deck(hand, rules) if hand % 2 else shuffled_deck(hand)
        levels = ["normal", "easy", "normal", "easy"][: rules.players]
        state = play_checked_hand(deal_from_deck(deck, rules), levels, rng)
        assert state.is_over


@settings(max_examples=12, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), rules=st.sampled_from(RULE_SETS), gifted=st.booleans())
def test_any_deal_is_played_to_the_end_without_an_illegal_move(seed, rules, gifted):
    deck = gifted_deck(seed, rules) if gifted else shuffled_deck(seed)
    play_checked_hand(deal_from_deck(deck, rules), ["normal"] * rules.players, random.Random(seed))


@pytest.mark.parametrize("policy", [random_discard_move, greedy_discard_move])
def test_the_baselines_play_legally_too(policy):
    rng = random.Random(3)
    for seed in range(4):
        state = deal(RuleSet(), seed=seed)
        while not state.is_over:
            state = play_bot_turn(state, state.turn, rng=rng, policy=policy)
        assert accounted(state)


def test_play_bot_turn_plays_exactly_one_turn():
    state = deal(RuleSet(), seed=11)
    after = play_bot_turn(state, 0)
    assert after.is_over or (after.turn == 1 and after.phase == PHASE_DRAW)
    assert play_bot_turn(after, 3) is after, "not seat 3's turn: nothing happens"


def test_a_bot_asked_out_of_turn_or_for_a_spectator_refuses():
    state = deal(RuleSet(), seed=1)
    with pytest.raises(EngineError) as info:
        bot_move(view_for(state, 2))
    assert info.value.code == "not_your_turn"
    with pytest.raises(ValueError):
        bot_move(view_for(state, None))
    with pytest.raises(ValueError):
        bot_move(view_for(state, 0), level="grandmaster")


# -- sensible play ----------------------------------------------------------------------------------


def test_a_wild_okey_is_never_discarded_while_another_tile_would_do():
    for rack in ("K2 K2 S1 M4 Y7 K9 S12 M13 Y3 K6 S9 M2 Y11 K13 S5",
                 "K2 S1 S2 S3 M4 M5 M6 Y7 Y8 Y9 K9 K10 K11 S12 S13"):
        state = hand_with([rack, None, None, None], "K1")
        message = bot_move(view_for(state, 0))
        assert message["type"] == "discard" and message["tile"] != "K2"


def test_it_finishes_when_its_rack_wins():
    state = hand_with([READY, None, None, None], "K1")
    assert bot_move(view_for(state, 0)) == {"type": "finish", "tile": "Y13"}
    after = play_bot_turn(state, 0)
    assert after.is_over and after.result.finisher == 0


def test_it_takes_the_discard_that_completes_a_set():
    racks = ["K7 K1 K3 S5 S9 M2 M6 M12 Y1 Y4 Y9 Y12 K12 S13 M8",
             "K5 K6 S1 S2 S3 M9 M10 M11 Y5 Y13 K10 S7 M3 Y8", None, None]
    state = discard(hand_with(racks, "S9"), 0, "K7")
    assert bot_move(view_for(state, 1)) == {"type": "draw", "source": "discard"}
    after = play_bot_turn(state, 1)
    assert T("K7") in after.racks[1]


def test_it_takes_a_discard_that_extends_a_set_but_not_one_it_cannot_use():
    racks = ["K7 Y2 K1 S5 S9 M2 M6 M12 Y1 Y4 Y9 Y12 K12 S13 M8",
             "K4 K5 K6 S1 S2 S3 M9 M10 M11 Y6 Y13 K10 S7 M3", None, None]
    state = hand_with(racks, "S9")
    assert bot_move(view_for(discard(state, 0, "K7"), 1)) == {"type": "draw", "source": "discard"}
    assert bot_move(view_for(discard(state, 0, "Y2"), 1)) == {"type": "draw", "source": "pile"}


def test_it_always_takes_a_wild_okey():
    racks = ["K2 K5 K1 S5 S9 M2 M6 M12 Y1 Y4 Y9 Y12 K12 S13 M8",
             "K9 K10 S1 S2 S3 M9 M10 M11 Y6 Y13 K13 S7 M3 Y3", None, None]
    state = discard(hand_with(racks, "K1"), 0, "K2")
    assert bot_move(view_for(state, 1)) == {"type": "draw", "source": "discard"}


def test_it_declares_pairs_with_six_pairs_and_then_plays_for_them():
    rack = "K3 K3 S4 S4 M5 M5 Y6 Y6 K7 K7 S8 S8 M9 Y13 Y11"
    state = hand_with([rack, None, None, None], "K1")
    assert bot_move(view_for(state, 0)) == {"type": "declare_pairs"}
    after = play_bot_turn(state, 0)
    assert after.declared_pairs == [0]
    assert after.discards[0][-1] in parse_tiles("M9 Y13 Y11"), "a single goes, every pair stays"


def test_a_rack_of_sets_does_not_declare_pairs():
    state = hand_with(["K3 K3 K4 K4 K5 K5 S7 M7 Y7 S10 S11 S12 M1 M13 Y2", None, None, None], "K1")
    assert bot_move(view_for(state, 0))["type"] == "discard"


def test_it_shows_the_indicator_when_it_holds_the_twin():
    state = hand_with(["K1 K3 S4 M5 Y6 K7 S8 M9 Y10 K11 S12 M13 Y1 K4 S5", None, None, None], "K1")
    assert bot_move(view_for(state, 0)) == {"type": "show_indicator"}
    after = play_bot_turn(state, 0)
    assert after.shown_indicators == [0] and after.turn == 1


OKEY_READY = "S1 S2 S3 S4 M5 M6 K2 Y8 Y9 Y10 K11 S11 M11 Y11 Y13"  # K2 (the okey) stands for M4 or M7


def passive(view: dict, **_: object) -> dict:
    """Draws from the pile and gives the drawn tile straight back: never finishes, never takes."""
    if view["phase"] == PHASE_DRAW:
        return {"type": "draw", "source": "pile"}
    return {"type": "discard", "tile": view["rack"][-1]}


def test_with_an_okey_and_a_long_pile_it_waits_for_an_okey_finish_at_most_twice():
    # Seat 0 draws every fourth pile tile: Y5 and S9, neither of which allows an okey finish.
    state = hand_with([OKEY_READY, None, None, None], "K1", pile_top="K9 K9 K10 Y5 K10 K12 K12 S9")
    memory = BotMemory()
    played = []
    while not state.is_over:
        seat = state.turn
        if seat == 0:
            view = view_for(state, 0)
            played.append(bot_move(view, memory=memory))
            state = apply_move(state, 0, played[-1])
            if not state.is_over and state.phase == PHASE_DISCARD:
                played.append(bot_move(view_for(state, 0), memory=memory))
                state = apply_move(state, 0, played[-1])
        else:
            state = play_bot_turn(state, seat, policy=passive)
    assert [message["type"] for message in played] == ["discard", "draw", "discard", "draw", "finish"]
    assert played[0] == {"type": "discard", "tile": "Y13"}, "the ready 14 are kept"
    assert played[1] == played[3] == {"type": "draw", "source": "pile"}, "the pile may bring an okey finish"
    assert state.result.finisher == 0 and memory.okey_waits == 2


def test_the_waits_are_counted_from_the_views_alone():
    """A memory rebuilt from the seat's views (as a server replaying the hand would) agrees."""
    state = hand_with([OKEY_READY, None, None, None], "K1", pile_top="K9 K9 K10 Y5")
    views = []
    memory = BotMemory()
    while state.move < 9:
        seat = state.turn
        views.append(view_for(state, 0))
        state = play_bot_turn(state, seat, memory=memory) if seat == 0 else play_bot_turn(state, seat, policy=passive)
    views.append(view_for(state, 0))
    rebuilt = BotMemory()
    for view in views:
        rebuilt.observe(view)
    assert rebuilt.okey_waits == memory.okey_waits == 1


def test_without_time_to_wait_it_finishes_at_once():
    short = hand_with([OKEY_READY, None, None, None], "K1", pile_size=12)
    assert bot_move(view_for(short, 0), memory=BotMemory()) == {"type": "finish", "tile": "Y13"}
    long = hand_with([OKEY_READY, None, None, None], "K1")
    assert bot_move(view_for(long, 0)) == {"type": "finish", "tile": "Y13"}, "no memory: no waiting"
    assert bot_move(view_for(long, 0), level="easy", memory=BotMemory())["type"] == "finish"


def test_it_throws_the_okey_for_an_okey_finish():
    rack = "S1 S2 S3 S4 M5 M6 M7 Y8 Y9 Y10 K11 S11 M11 Y11 K2"
    state = hand_with([rack, None, None, None], "K1")
    assert bot_move(view_for(state, 0), memory=BotMemory()) == {"type": "finish", "tile": "K2"}


# -- memory and not feeding the next seat -----------------------------------------------------------


def next_seat_takes_k7() -> tuple[HandState, BotMemory]:
    """Seat 0 throws K7, seat 1 takes it; the others play on; seat 0 draws S4 and must discard.

    Seat 0 then holds 13 tiles in sets and two loose singles with no partner, K8 and Y5: equal for
    its own rack, but K8 sits right next to the K7 the next seat picked up."""
    racks = ["S1 S2 S3 M1 M2 M3 Y11 Y12 Y13 S10 M10 Y10 K8 Y5 K7", None, None, None]
    state = hand_with(racks, "K3", pile_top="K13 M6 S4")
    memory = BotMemory()
    script = [(0, "discard", {"tile": "K7"}), (1, "draw", {"source": "discard"}), (1, "discard", {"tile": "K7"}),
              (2, "draw", {"source": "pile"}), (2, "discard", {"tile": "K13"}),
              (3, "draw", {"source": "pile"}), (3, "discard", {"tile": "M6"}), (0, "draw", {"source": "pile"})]
    for seat, action, args in script:
        if action == "discard" and seat == 1:
            args = {"tile": state.racks[1][0]}
        state = apply(state, seat, action, **args)
        memory.observe(view_for(state, 0))
    return state, memory


def test_the_memory_sees_which_discards_the_next_seat_picked_up():
    state, memory = next_seat_takes_k7()
    assert memory.taken[1] == [T("K7")]
    assert memory.gone[T("K13")] == 1 and memory.gone[T("M6")] == 1
    restored = BotMemory.from_dict(json.loads(json.dumps(memory.to_dict())))
    assert restored == memory


def test_the_hard_bot_does_not_feed_the_next_seat_what_it_collects():
    state, memory = next_seat_takes_k7()
    view = view_for(state, 0)
    assert bot_move(view) == {"type": "discard", "tile": "K8"}, "on its own the rack cannot tell K8 from Y5"
    assert bot_move(view, memory=copy.deepcopy(memory)) == {"type": "discard", "tile": "K8"}, \
        "the normal bot does not track what the next seat picks up"
    assert bot_move(view, level="hard", memory=memory) == {"type": "discard", "tile": "Y5"}


def test_the_easy_bot_sometimes_overlooks_a_finish():
    state = hand_with([READY, None, None, None], "K1")
    moves = Counter(bot_move(view_for(state, 0), level="easy", rng=random.Random(seed))["type"] for seed in range(40))
    assert moves["finish"] and moves["discard"], moves
    assert all(bot_move(view_for(state, 0), level=level)["type"] == "finish" for level in ("normal", "hard"))


def test_the_hard_bot_counts_the_tiles_that_would_finish_its_rack():
    """Outs: the unseen tiles that would finish 14 kept tiles. One tile short of finishing there are
    a few; a complete rack finishes with any draw."""
    from games.engine.bots import _Seat

    rack = "S1 S2 S3 S4 M5 M6 M7 Y8 Y9 Y10 K11 M11 Y11 M9 S13"
    state = hand_with([rack, None, None, None], "K1")
    seat = _Seat(view_for(state, 0), BotMemory(), "hard")
    keep_m9 = seat.finish_outs(parse_tiles("S1 S2 S3 S4 M5 M6 M7 Y8 Y9 Y10 K11 M11 Y11 M9"))
    keep_s13 = seat.finish_outs(parse_tiles("S1 S2 S3 S4 M5 M6 M7 Y8 Y9 Y10 K11 M11 Y11 S13"))
    assert keep_m9 > 0 and keep_s13 > 0
    complete = seat.finish_outs(parse_tiles("S1 S2 S3 S4 M5 M6 M7 Y8 Y9 Y10 K11 M11 Y11 S11"))
    assert complete > keep_m9, "a complete rack finishes with any tile"
