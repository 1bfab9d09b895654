"""The 101 turn as one validated unit, RULES.md "101 Okey" rules 5 to 8 and 10: draw, table
actions, always a discard; the whole turn is applied or refused with nothing changed."""

from __future__ import annotations

from games.engine.okey101.hand import FINISHED, MELDS, PAIRS, apply_turn, view_for
from games.engine.okey101.rules import Rules101
from games.engine.tiles import parse_tile, parse_tiles

from .test_okey101_support import accounted, rack_of, rejects, table

# Indicator K5: the okey is K6. Seat 1 holds three runs worth 46 + 46 + 24 = 116 and ten loose tiles.
OPENER = "S10 S11 S12 S13 M10 M11 M12 M13 Y7 Y8 Y9 K1 K3 S1 S3 M1 M3 Y1 Y3 K9 S7"
RUNS = [["S10", "S11", "S12", "S13"], ["M10", "M11", "M12", "M13"], ["Y7", "Y8", "Y9"]]
PAIRS_RACK = "K1 K1 S2 S2 M3 M3 Y4 Y4 S9 S9 K10 K12 S4 S6 M8 M11 Y13 Y11 K2 S8 M5"
FIVE_PAIRS = [["K1", "K1"], ["S2", "S2"], ["M3", "M3"], ["Y4", "Y4"], ["S9", "S9"]]


def opening_table(**options):
    """Seat 1 to play after seat 0 discarded Y10; the pile's top is K13."""
    return table([None, OPENER, None, None], turn=1, discard=(0, "Y10"), pile_top="K13", **options)


def opened(rack: str, kind: str = MELDS, **options):
    """Seat 1 opened already (with ``kind``) and holds ``rack``; seat 2's run S5 K6 S7 and group
    K8 Y8 K6 lie on the table, and seat 0's run M4 M5 M6."""
    return table([None, rack, None, None], turn=1, pile_top="K13",
                 melds=[(2, "S5 K6 S7"), (2, "K8 Y8 K6"), (0, "M4 M5 M6")],
                 opened={1: (kind, 116 if kind == MELDS else 5), 2: (MELDS, 120), 0: (MELDS, 101)}, **options)


# -- rule 5: draw, act, always discard -------------------------------------------------------


def test_rule5_a_turn_without_a_draw_or_without_a_discard_is_refused():
    state = opening_table()
    rejects(state, 1, {"discard": "K1"}, code="must_draw")
    rejects(state, 1, {"draw": "pile"}, code="must_discard")
    rejects(state, 1, {"draw": "deck", "discard": "K1"}, code="must_draw")


def test_rule5_the_plainest_turn_draws_the_top_of_the_pile_and_discards():
    state = opening_table()
    after = apply_turn(state, 1, {"draw": "pile", "discard": "K1"})
    assert parse_tile("K13") in after.racks[1] and parse_tile("K1") not in after.racks[1]
    assert after.discards[1][-1] == parse_tile("K1") and after.turn == 2 and accounted(after)


def test_rule5_the_last_tile_never_goes_into_a_meld_so_a_turn_that_lays_down_every_tile_is_refused():
    state = table([None, "S9 S10 S11", None, None], turn=1, pile_top="S12",
                  melds=[(0, "M4 M5 M6")], opened={1: (MELDS, 110), 0: (MELDS, 101)})
    rejects(state, 1, {"draw": "pile", "actions": [{"type": "lay_down", "melds": [["S9", "S10", "S11", "S12"]]}],
                       "discard": "S9"}, code="must_discard")


# -- rule 6: taking the discard ----------------------------------------------------------------


def test_rule6_a_taken_discard_must_be_used_this_turn_or_the_turn_is_refused():
    state = opening_table()
    rejects(state, 1, {"draw": "discard", "discard": "K1"}, code="discard_unused")
    rejects(state, 1, {"draw": "discard", "actions": [{"type": "open", "melds": RUNS}], "discard": "K1"},
            code="discard_unused")
    rejects(state, 1, {"draw": "discard", "discard": "Y10"}, code="discard_unused")


def test_rule6_the_taken_discard_may_go_into_the_opening():
    state = opening_table()
    runs = [RUNS[0], RUNS[1], ["Y7", "Y8", "Y9", "Y10"]]
    after = apply_turn(state, 1, {"draw": "discard", "actions": [{"type": "open", "melds": runs}], "discard": "K1"})
    assert after.opened[1] == MELDS and after.opening_totals[1] == 46 + 46 + 34
    assert after.discards[0] == [] and after.discard_log[0][2] == 1 and accounted(after)


def test_rule6_an_opened_player_may_use_it_as_a_lay_off():
    state = table([None, "K2 K3", None, None], turn=1, discard=(0, "S8"),
                  melds=[(2, "S5 K6 S7")], opened={1: (MELDS, 101), 2: (MELDS, 120)})
    after = apply_turn(state, 1, {"draw": "discard", "actions": [{"type": "lay_off", "meld": 1, "tile": "S8"}],
                                  "discard": "K2"})
    assert sorted(after.melds[0].tiles) == sorted(parse_tiles("S5 K6 S7 S8"))


def test_rule6_giving_it_back_is_just_a_turn_that_draws_from_the_pile_instead_with_no_penalty():
    state = opening_table()
    after = apply_turn(state, 1, {"draw": "pile", "discard": "K1"})
    assert after.penalties == [] and after.discards[0] == [parse_tile("Y10")]


def test_rule6_only_the_previous_seats_latest_discard_may_be_taken():
    state = table([None, OPENER, None, None], turn=1, discard=(2, "Y10"))
    rejects(state, 1, {"draw": "discard", "discard": "K1"}, code="discard_pile_empty")


# -- rule 7: opening ---------------------------------------------------------------------------


def test_rule7_runs_and_groups_worth_101_or_more_open_the_hand():
    state = opening_table()
    after = apply_turn(state, 1, {"draw": "pile", "actions": [{"type": "open", "melds": RUNS}], "discard": "K1"})
    assert after.opened[1] == MELDS and after.opening_totals[1] == 116
    assert [meld.owner for meld in after.melds] == [1, 1, 1] and [meld.id for meld in after.melds] == [1, 2, 3]
    assert len(after.racks[1]) == 21 - 11 + 1 - 1


def test_rule7_an_opening_under_101_is_refused_and_changes_nothing():
    state = opening_table()
    error = rejects(state, 1, {"draw": "pile", "actions": [{"type": "open", "melds": RUNS[:2]}], "discard": "K1"},
                    code="opening_too_low")
    assert (error.details["needed"], error.details["total"]) == (101, 92)


def test_rule7_an_invalid_meld_in_an_opening_is_refused_and_changes_nothing():
    state = table([None, "S12 S13 S1 M10 M11 M12 M13 Y7 Y8 Y9 Y10 Y11 Y12 K1 K3 S3 M1 M3 Y1 Y3 K9", None, None],
                  turn=1, pile_top="K13")
    rejects(state, 1, {"draw": "pile", "actions": [{"type": "open", "melds": [
        ["S12", "S13", "S1"], ["M10", "M11", "M12", "M13"], ["Y7", "Y8", "Y9", "Y10", "Y11", "Y12"]]}],
        "discard": "K1"}, code="bad_meld")


def test_rule7_five_pairs_open_the_hand_and_four_do_not():
    state = table([None, PAIRS_RACK, None, None], turn=1, pile_top="K13")
    rejects(state, 1, {"draw": "pile", "actions": [{"type": "open", "melds": FIVE_PAIRS[:4]}], "discard": "K10"},
            code="opening_too_low")
    after = apply_turn(state, 1, {"draw": "pile", "actions": [{"type": "open", "melds": FIVE_PAIRS}],
                                  "discard": "K10"})
    assert (after.opened[1], after.opening_totals[1]) == (PAIRS, 5)


def test_rule7_an_opening_is_melds_or_pairs_never_both():
    state = table([None, "K1 K1 S2 S2 M3 M3 Y4 Y4 S9 S9 S10 S11 S12 S13 M8 M11 Y13 Y11 K2 S8 M5", None, None],
                  turn=1, pile_top="K13")
    rejects(state, 1, {"draw": "pile", "actions": [{"type": "open", "melds": [*FIVE_PAIRS[:4], ["S10", "S11", "S12"]]}],
                       "discard": "K2"}, code="mixed_opening")


def test_rule7_a_hand_is_opened_once():
    state = opened("S8 S9 S10 Y1 Y2 Y3 K2")
    rejects(state, 1, {"draw": "pile", "actions": [{"type": "open", "melds": [["S8", "S9", "S10"]]}],
                       "discard": "K2"}, code="already_opened")


def test_rule14_yukselen_acma_each_opener_must_beat_the_highest_opening_so_far():
    rules = Rules101(rising_opening=True)
    state = table([None, OPENER, None, None], turn=1, pile_top="K13", rules=rules,
                  melds=[(0, "K11 K12 K13")], opened={0: (MELDS, 120)})
    error = rejects(state, 1, {"draw": "pile", "actions": [{"type": "open", "melds": RUNS}], "discard": "K1"},
                    code="opening_too_low")
    assert error.details["needed"] == 121
    assert view_for(state, 1)["opening_needed"] == {MELDS: 121, PAIRS: 5}
    # Without the option 116 is enough.
    flat = table([None, OPENER, None, None], turn=1, pile_top="K13",
                 melds=[(0, "K11 K12 K13")], opened={0: (MELDS, 120)})
    assert apply_turn(flat, 1, {"draw": "pile", "actions": [{"type": "open", "melds": RUNS}],
                                "discard": "K1"}).opened[1] == MELDS


def test_rule14_rising_pairs_are_tracked_apart_from_melds():
    rules = Rules101(rising_opening=True)
    state = table([None, PAIRS_RACK, None, None], turn=1, pile_top="K13", rules=rules,
                  melds=[(0, "K11 K12 K13"), (2, "M12 M12")], opened={0: (MELDS, 150), 2: (PAIRS, 5)})
    assert view_for(state, 1)["opening_needed"] == {MELDS: 151, PAIRS: 6}
    rejects(state, 1, {"draw": "pile", "actions": [{"type": "open", "melds": FIVE_PAIRS}], "discard": "K10"},
            code="opening_too_low")


# -- rule 8: after opening -------------------------------------------------------------------


def test_rule8_a_meld_opener_lays_down_more_melds_with_no_threshold_but_never_pairs():
    state = opened("S8 S9 S10 Y1 Y1 K2")
    after = apply_turn(state, 1, {"draw": "pile", "actions": [{"type": "lay_down", "melds": [["S8", "S9", "S10"]]}],
                                  "discard": "K2"})
    assert after.melds[-1].owner == 1 and after.melds[-1].id == 4
    rejects(state, 1, {"draw": "pile", "actions": [{"type": "lay_down", "melds": [["Y1", "Y1"]]}], "discard": "K2"},
            code="wrong_kind")


def test_rule8_a_pairs_opener_lays_down_more_pairs_but_never_runs_or_groups():
    state = opened("S8 S9 S10 Y1 Y1 K2", PAIRS)
    after = apply_turn(state, 1, {"draw": "pile", "actions": [{"type": "lay_down", "melds": [["Y1", "Y1"]]}],
                                  "discard": "K2"})
    assert after.melds[-1].kind == "pair"
    rejects(state, 1, {"draw": "pile", "actions": [{"type": "lay_down", "melds": [["S8", "S9", "S10"]]}],
                       "discard": "K2"}, code="wrong_kind")


def test_rule8_an_opened_player_lays_off_on_anyones_run_or_group():
    state = opened("S8 M8 M7 K2")
    after = apply_turn(state, 1, {"draw": "pile", "actions": [
        {"type": "lay_off", "meld": 1, "tile": "S8"},
        {"type": "lay_off", "meld": 2, "tile": "M8"},
        {"type": "lay_off", "meld": 3, "tile": "M7"}], "discard": "K2"})
    assert [len(meld.tiles) for meld in after.melds] == [4, 4, 4]
    assert [meld.owner for meld in after.melds] == [2, 2, 0]


def test_rule8_nobody_lays_off_before_opening():
    state = table([None, "S8 K2", None, None], turn=1, pile_top="K13",
                  melds=[(2, "S5 K6 S7")], opened={2: (MELDS, 120)})
    rejects(state, 1, {"draw": "pile", "actions": [{"type": "lay_off", "meld": 1, "tile": "S8"}], "discard": "K2"},
            code="not_opened")
    rejects(state, 1, {"draw": "pile", "actions": [{"type": "lay_down", "melds": [["K13", "S13", "M13"]]}],
                       "discard": "K2"}, code="not_opened")


def test_rule8_a_tile_that_does_not_fit_or_a_meld_that_does_not_exist_is_refused():
    state = opened("S9 K2")
    rejects(state, 1, {"draw": "pile", "actions": [{"type": "lay_off", "meld": 1, "tile": "S9"}], "discard": "K2"},
            code="not_layable")
    rejects(state, 1, {"draw": "pile", "actions": [{"type": "lay_off", "meld": 9, "tile": "K13"}], "discard": "K2"},
            code="no_such_meld")
    rejects(state, 1, {"draw": "pile", "actions": [{"type": "lay_off", "meld": 3, "tile": "M7"}], "discard": "K2"},
            code="tile_not_in_rack")


def test_rule8_lay_offs_are_allowed_already_in_the_opening_turn():
    state = table([None, OPENER.replace("S7", "M7"), None, None], turn=1, pile_top="K13",
                  melds=[(0, "M4 M5 M6")], opened={0: (MELDS, 101)})
    after = apply_turn(state, 1, {"draw": "pile", "actions": [{"type": "open", "melds": RUNS},
                                                              {"type": "lay_off", "meld": 1, "tile": "M7"}],
                                  "discard": "K1"})
    assert len(after.melds[0].tiles) == 4 and after.opening_totals[1] == 116


def test_rule8_a_pairs_opener_lays_off_at_most_two_tiles_a_turn_unless_the_option_lifts_it():
    turn = {"draw": "pile", "actions": [{"type": "lay_off", "meld": 3, "tile": tile} for tile in ("M7", "M8", "M3")],
            "discard": "K2"}
    state = opened("M7 M8 M3 K2", PAIRS)
    rejects(state, 1, turn, code="layoff_limit")
    two = {**turn, "actions": turn["actions"][:2]}
    assert len(apply_turn(state, 1, two).melds[2].tiles) == 5
    free = opened("M7 M8 M3 K2", PAIRS, rules=Rules101(pairs_layoff_limit=None))
    assert len(apply_turn(free, 1, turn).melds[2].tiles) == 6


def test_rule8_the_okey_swap_puts_the_real_tile_in_a_run_and_takes_the_okey_into_the_rack():
    state = opened("S6 K2 K3")
    after = apply_turn(state, 1, {"draw": "pile", "actions": [{"type": "swap", "meld": 1, "tile": "S6"}],
                                  "discard": "K2"})
    assert sorted(after.melds[0].tiles) == sorted(parse_tiles("S5 S6 S7"))
    assert rack_of(after, 1)[parse_tile("K6")] == 1 and accounted(after)


def test_rule8_in_a_group_the_okey_is_freed_only_when_real_tiles_fill_all_four_colours():
    state = opened("M8 S8 K2")
    rejects(state, 1, {"draw": "pile", "actions": [{"type": "swap", "meld": 2, "tile": "S8"}], "discard": "K2"},
            code="bad_swap")
    after = apply_turn(state, 1, {"draw": "pile", "actions": [{"type": "lay_off", "meld": 2, "tile": "M8"},
                                                              {"type": "swap", "meld": 2, "tile": "S8"}],
                                  "discard": "K2"})
    assert sorted(after.melds[1].tiles) == sorted(parse_tiles("K8 Y8 M8 S8"))
    assert rack_of(after, 1)[parse_tile("K6")] == 1


def test_rule8_for_a_pairs_opener_a_swap_counts_as_one_of_the_turns_lay_offs():
    state = opened("S6 M7 M8 K2", PAIRS)
    rejects(state, 1, {"draw": "pile", "actions": [{"type": "swap", "meld": 1, "tile": "S6"},
                                                    {"type": "lay_off", "meld": 3, "tile": "M7"},
                                                    {"type": "lay_off", "meld": 3, "tile": "M8"}],
                       "discard": "K2"}, code="layoff_limit")


def test_rule8_an_unopened_player_cannot_swap_an_okey():
    state = table([None, "S6 K2", None, None], turn=1, pile_top="K13", melds=[(2, "S5 K6 S7")],
                  opened={2: (MELDS, 120)})
    rejects(state, 1, {"draw": "pile", "actions": [{"type": "swap", "meld": 1, "tile": "S6"}], "discard": "K2"},
            code="not_opened")


# -- rule 10: finishing ----------------------------------------------------------------------


def test_rule10_an_opened_player_who_laid_everything_but_one_tile_finishes_by_discarding_it():
    state = table([None, "S8 S9 S10 Y2", None, None], turn=1, pile_top="S11",
                  melds=[(0, "M4 M5 M6")], opened={1: (MELDS, 110), 0: (MELDS, 101)})
    after = apply_turn(state, 1, {"draw": "pile", "actions": [{"type": "lay_down", "melds": [["S8", "S9", "S10", "S11"]]}],
                                  "discard": "Y2"})
    assert after.result is not None and after.result.reason == FINISHED and after.result.finisher == 1
    assert not after.result.elden and after.racks[1] == [] and accounted(after)
    rejects(after, 2, {"draw": "pile", "discard": "K1"}, code="hand_over")


# Indicator K5, okey K6 (here the K5 of K1-K5). 22 tiles worth 88 in melds, and Y13.
ELDEN = "K1 K2 K3 K4 K6 K7 K8 K9 S1 S2 S3 S4 S5 S6 S7 M1 M2 M3 M4 M5 M6 Y13"
ELDEN_MELDS = [["K1", "K2", "K3", "K4", "K6"], ["K7", "K8", "K9"], ["S1", "S2", "S3", "S4", "S5", "S6", "S7"],
               ["M1", "M2", "M3", "M4", "M5", "M6"]]


def test_rule10_elden_bitme_opens_and_finishes_in_one_turn_below_101_while_nobody_else_opened():
    state = table([ELDEN, None, None, None])
    after = apply_turn(state, 0, {"actions": [{"type": "open", "melds": ELDEN_MELDS}], "discard": "Y13"})
    assert after.result.reason == FINISHED and after.result.elden and after.result.finisher == 0
    assert after.opening_totals[0] == 88


def test_rule10_elden_bitme_is_all_own_melds_with_no_lay_off_so_a_lay_off_brings_back_the_threshold():
    state = table([ELDEN, None, None, None])
    melds = [*ELDEN_MELDS[:2], ["S1", "S2", "S3", "S4", "S5", "S6"], ELDEN_MELDS[3]]
    rejects(state, 0, {"actions": [{"type": "open", "melds": melds}, {"type": "lay_off", "meld": 3, "tile": "S7"}],
                       "discard": "Y13"}, code="opening_too_low")


def test_rule10_once_someone_else_opened_the_same_turn_needs_the_101_threshold():
    state = table([None, "K1 K2 K3 K4 K6 K7 K8 K9 S1 S2 S3 S4 S5 S6 S7 M1 M2 M3 M4 M5 M6", None, None],
                  turn=1, pile_top="M7", melds=[(0, "Y11 Y12 Y13")], opened={0: (MELDS, 120)})
    melds = [["K1", "K2", "K3", "K4", "K6"], ["K7", "K8", "K9"], ["S1", "S2", "S3", "S4", "S5", "S6", "S7"],
             ["M1", "M2", "M3", "M4", "M5", "M6"]]
    rejects(state, 1, {"draw": "pile", "actions": [{"type": "open", "melds": melds}], "discard": "M7"},
            code="opening_too_low")
