"""Auto-play, the turn clock's move for a seat out of time, away or gone: draw from the pile, give the
least useful tile, and nothing else — never a finish, a shown indicator or a pairs declaration
(RULES.md "Absent players never win")."""

from __future__ import annotations

from games.engine.autoplay import auto_move, choose_discard, connections
from games.engine.deck import deal_from_deck, shuffled_deck
from games.engine.fairness import verify_hand
from games.engine.hand import (
    PHASE_DRAW,
    PHASE_OVER,
    can_finish,
    declare_pairs,
    discard,
    draw,
    finish,
    show_indicator,
)
from games.engine.replay import replay
from games.engine.rules import RuleSet
from games.engine.tiles import parse_tile, parse_tiles

from .conftest import accounted, hand_with, rejects

T = parse_tile
OKEY = T("K2")  # indicator K1 throughout
RULES = RuleSet()

READY = "S1 S2 S3 S4 M5 M6 M7 Y8 Y9 Y10 K11 S11 M11 Y11 Y13"


def test_a_timed_out_seat_draws_from_the_pile_then_discards():
    state = discard(hand_with([READY, None, None, None], "K1", pile_top="M13"), 0, "Y13")
    after, actions = auto_move(state, 1)
    assert [action["type"] for action in actions] == ["draw", "discard"]
    assert actions[0] == {"move": 2, "type": "draw", "seat": 1, "source": "pile"}, "the drawn tile stays private"
    assert len(after.racks[1]) == 14 and after.turn == 2 and after.phase == PHASE_DRAW
    assert after.events[-2:] == actions and accounted(after)


def test_the_starter_s_first_turn_only_needs_a_discard():
    state = hand_with([READY, None, None, None], "K1")
    after, actions = auto_move(state, 0)
    assert [action["type"] for action in actions] == ["discard"]
    assert after.turn == 1


def test_auto_play_never_finishes_even_with_a_ready_rack():
    state = hand_with([READY, None, None, None], "K1")
    after, _ = auto_move(state, 0)
    assert after.phase != PHASE_OVER
    assert after.discards[0] == [T("Y13")], "the loose tile goes, the sets stay"


def test_a_wild_okey_is_never_thrown_while_another_tile_would_do():
    rack = parse_tiles("K2 K2 S1 M4 Y7 K9 S12 M13 Y3 K6 S9 M2 Y11 K13 S5")
    assert choose_discard(rack, OKEY, RULES) != OKEY


def test_a_tile_in_a_complete_set_is_kept_while_a_loose_tile_exists():
    rack = parse_tiles("S1 S2 S3 S4 M5 M6 M7 Y8 Y9 Y10 K11 S11 M11 K6 Y13")
    # Both K6 and Y13 are loose; K6 still has a partner (M6 for a group of 6s), Y13 has none.
    assert choose_discard(rack, OKEY, RULES) == T("Y13")


def test_when_every_tile_sits_in_a_set_the_end_of_a_long_set_goes_never_the_okey():
    rack = parse_tiles("S1 S2 S3 S4 S5 M5 M6 M7 Y8 Y9 Y10 K11 S11 M11 K2")
    tile = choose_discard(rack, OKEY, RULES)
    assert tile != OKEY
    assert tile in parse_tiles("S1 S5 S2 S4 K11 S11 M11 Y8 Y10 M5 M7")


def test_a_seat_going_for_pairs_throws_a_tile_without_its_twin():
    rack = parse_tiles("K3 K3 S4 S4 M5 M5 Y6 Y6 K7 K7 S8 S8 M9 Y13 Y12")
    tile = choose_discard(rack, OKEY, RULES, pairs_only=True)
    assert tile in parse_tiles("M9 Y13 Y12")
    state = declare_pairs(hand_with(["K3 K3 S4 S4 M5 M5 Y6 Y6 K7 K7 S8 S8 M9 Y13 Y12", None, None, None], "K1"), 0)
    after, _ = auto_move(state, 0)
    assert after.discards[0][-1] in parse_tiles("M9 Y13 Y12")


def test_a_twin_waiting_for_its_shown_indicator_counts_as_a_pair():
    rack = parse_tiles("K1 K3 K3 S4 S4 M5 M5 Y6 Y6 K7 K7 S8 S8 Y13 Y13")
    assert choose_discard(rack, OKEY, RULES, pairs_only=True) == T("K1")
    assert choose_discard(rack, OKEY, RULES, pairs_only=True, bound_twin=T("K1")) != T("K1")


def test_auto_play_keeps_the_twin_of_a_shown_indicator_that_binds_a_pair():
    rules = RuleSet(players=2, indicator_binds_pair=True)
    state = hand_with(["K1 K3 K3 S4 S4 M5 M5 Y6 Y6 K7 K7 S8 S8 Y13 M12", None], "K1", rules=rules)
    state = declare_pairs(show_indicator(state, 0), 0)
    after, _ = auto_move(state, 0)
    assert after.discards[0] != [T("K1")] and T("K1") in after.racks[0]


def test_connections_count_partners_for_pairs_groups_and_runs():
    assert connections(T("Y13"), parse_tiles("K1 S5 M9"), OKEY) == 0
    assert connections(T("Y13"), parse_tiles("Y13"), OKEY) == 3   # its twin
    assert connections(T("Y13"), parse_tiles("K13"), OKEY) == 2   # a group partner
    assert connections(T("Y13"), parse_tiles("Y12 Y1"), OKEY) == 4  # 12-13 and 13-1 are neighbours
    assert connections(T("Y13"), parse_tiles("Y11"), OKEY) == 1     # one gap: Y11 _ Y13
    assert connections(T("Y13"), parse_tiles("Y2"), OKEY) == 0      # 13-1-2 would wrap around
    assert connections(T("Y13"), parse_tiles("K2 K2"), OKEY) == 0   # wilds say nothing
    assert connections(T("J"), parse_tiles("K3"), OKEY) == 2        # the false joker plays as K2


def test_an_empty_pile_ends_the_hand_when_auto_play_draws():
    state = discard(hand_with([READY, None, None, None], "K1", pile_size=0), 0, "Y13")
    assert not state.is_over  # seat 1's sorted rack finishes with Y13: it may take it to finish
    after, actions = auto_move(state, 1)
    assert after.result.reason == "pile_out" and after.result.finisher is None
    assert [action["type"] for action in actions] == ["pile_out"]


WAITS = "K3 K4 K5 K6 S6 S7 S8 M9 M10 M11 M12 Y11 Y12 S13"


def test_a_seat_that_took_the_last_discard_and_ran_out_of_time_is_not_finished_for_the_clock_declines():
    state = discard(hand_with([READY, WAITS, None, None], "K1", pile_size=0), 0, "Y13")
    taken = draw(state, 1, "discard")
    assert taken.must_finish and can_finish(taken, 1), "the seat could finish with the tile it took"
    after, actions = auto_move(taken, 1)
    assert after.result.reason == "pile_out" and after.result.finisher is None
    assert [action["type"] for action in actions] == ["pile_out"]
    assert len(after.racks[1]) == 15, "nothing was shown or thrown: the hand simply ends"


def test_the_clock_never_shows_the_indicator_nor_declares_pairs_for_a_seat():
    # Seat 0 was dealt the indicator's twin (K1) and holds six pairs: a bot would show and declare.
    rack = "K1 K3 K3 S4 S4 M5 M5 Y6 Y6 K7 K7 S8 S8 Y13 M12"
    state = hand_with([rack, None, None, None], "K1")
    assert state.twin_dealt_to == 0
    after, actions = auto_move(state, 0)
    assert [action["type"] for action in actions] == ["discard"]
    assert after.shown_indicators == [] and after.declared_pairs == []


def test_a_hand_the_clock_declined_replays_and_its_proof_checks():
    for seed in range(40):
        state = deal_from_deck(shuffled_deck(seed), RULES, starting_seat=0)
        # Everyone plays by the clock until the pile is empty and the next seat could finish with
        # the last discard; it takes it (a person's move), then its time runs out too.
        while not state.is_over and not (not state.pile and state.available_discard is not None
                                          and can_finish(state, state.turn, state.available_discard)):
            state, _ = auto_move(state, state.turn)
        if state.is_over:
            continue
        seat = state.turn
        state = draw(state, seat, "discard")
        state, actions = auto_move(state, seat)
        assert [action["type"] for action in actions] == ["pile_out"] and state.result.finisher is None
        logged = [{"seat": e.get("seat"), **{k: v for k, v in e.items() if k not in ("move", "seat")}}
                  for e in state.events]
        assert replay(state.deck, RULES, None, logged)[-1].to_dict() == state.to_dict()
        report = verify_hand(state.deck, "s" * 32, "0" * 64, moves=state.events)
        assert report.moves_checked == len(state.events) - 1 and report.result["reason"] == "pile_out", report.problems
        return
    raise AssertionError("no deal in 40 left a seat able to finish with the last discard")


def test_auto_play_follows_the_turn_and_the_end_of_the_hand():
    state = hand_with([READY, None, None, None], "K1")
    rejects(auto_move, state, 2, code="not_your_turn")
    rejects(auto_move, finish(state, 0, "Y13"), 0, code="hand_over")
    rejects(auto_move, state, 9, code="bad_seat")


def test_auto_play_alone_plays_a_whole_hand_to_a_pile_out_with_every_tile_accounted_for():
    state = hand_with([READY, None, None, None], "K1")
    moves = 0
    while not state.is_over:
        state, _ = auto_move(state, state.turn)
        assert accounted(state)
        moves += 1
    assert state.result.reason == "pile_out"
    # The opening discard, 48 turns that empty the pile, and the next seat, which could finish with
    # the last discard, declines it (auto-play never finishes on its own).
    assert moves == 50
    assert [event["type"] for event in state.events[-3:]] == ["draw", "discard", "pile_out"]
