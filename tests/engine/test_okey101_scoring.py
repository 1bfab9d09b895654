"""Hand scores, RULES.md "101 Okey" rules 11 and 12, and "Eşli": the worked examples of rule 11 as
whole turns, multipliers that multiply together, penalties never multiplied, the pile running out,
the all-four-pairs cancel, and eşli's partner writing 0."""

from __future__ import annotations

import pytest

from games.engine.okey101.hand import CANCELLED, FINISHED, MELDS, PAIRS, PILE_OUT, apply_turn
from games.engine.okey101.rules import Rules101
from games.engine.okey101.scoring import hand_scores, team_totals
from games.engine.tiles import parse_tile, parse_tiles

from .test_okey101_support import accounted, table

OKEY = parse_tile("K6")  # indicator K5


def rule11_table(seat0_rack: str, *, seat0_opened: str = MELDS, rules: Rules101 | None = None, **options):
    """Rule 11's example: seat 0 to play; seat 1 opened runs holding K1 K2; seat 2 never opened;
    seat 3 opened runs holding an okey and Y4. Seat 1's run S8 S9 S10 is on the table."""
    return table([seat0_rack, "K1 K2", None, "K6 Y4"], turn=0, rules=rules, pile_top="S11",
                 melds=[(1, "S8 S9 S10")],
                 opened={0: (seat0_opened, 110 if seat0_opened == MELDS else 5), 1: (MELDS, 120), 3: (MELDS, 101)},
                 **options)


def test_rule11_normal_finish_minus_101_and_every_other_seat_its_base():
    state = rule11_table("M1 M2 M3 Y2")
    after = apply_turn(state, 0, {"draw": "pile", "actions": [{"type": "lay_down", "melds": [["M1", "M2", "M3"]]},
                                                              {"type": "lay_off", "meld": 1, "tile": "S11"}],
                                  "discard": "Y2"})
    assert after.result.reason == FINISHED and not after.result.okey_finish
    assert after.result.scores == (-101, 3, 202, 105)


def test_rule11_okey_finish_doubles_everything():
    state = rule11_table("M1 M2 M3 K6")
    after = apply_turn(state, 0, {"draw": "pile", "actions": [{"type": "lay_down", "melds": [["M1", "M2", "M3"]]},
                                                              {"type": "lay_off", "meld": 1, "tile": "S11"}],
                                  "discard": "K6"})
    assert after.result.okey_finish and after.penalties == []
    assert after.result.scores == (-202, 6, 404, 210)


def test_rule11_okey_finish_by_a_pairs_opener_quadruples():
    state = rule11_table("Y1 Y1 K6", seat0_opened=PAIRS)
    after = apply_turn(state, 0, {"draw": "pile", "actions": [{"type": "lay_down", "melds": [["Y1", "Y1"]]},
                                                              {"type": "lay_off", "meld": 1, "tile": "S11"}],
                                  "discard": "K6"})
    assert after.result.pairs_finish and after.result.okey_finish
    assert after.result.scores == (-404, 12, 808, 420)


def test_rule11_pairs_finish_alone_doubles():
    scores = hand_scores([[], parse_tiles("K1 K2"), [], parse_tiles("K6 Y4")], [PAIRS, MELDS, None, MELDS], OKEY,
                         Rules101(), finisher=0)
    assert scores == [-202, 6, 404, 210]


def test_rule11_elden_bitme_doubles_and_stacks_with_an_okey_finish():
    racks = [[], [], [], []]
    assert hand_scores(racks, [MELDS, None, None, None], OKEY, Rules101(), finisher=0, elden=True) == [
        -202, 404, 404, 404]
    assert hand_scores(racks, [MELDS, None, None, None], OKEY, Rules101(), finisher=0, elden=True,
                       okey_finish=True) == [-404, 808, 808, 808]


def test_rule10_elden_bitme_as_a_whole_turn_scores_minus_202_and_404_each():
    rack = "K1 K2 K3 K4 K6 K7 K8 K9 S1 S2 S3 S4 S5 S6 S7 M1 M2 M3 M4 M5 M6 Y13"
    state = table([rack, None, None, None])
    melds = [["K1", "K2", "K3", "K4", "K6"], ["K7", "K8", "K9"], ["S1", "S2", "S3", "S4", "S5", "S6", "S7"],
             ["M1", "M2", "M3", "M4", "M5", "M6"]]
    after = apply_turn(state, 0, {"actions": [{"type": "open", "melds": melds}], "discard": "Y13"})
    assert after.result.scores == (-202, 404, 404, 404)


def test_rule11_a_non_finisher_who_opened_with_pairs_doubles_their_own_base():
    scores = hand_scores([[], parse_tiles("K1 K2"), [], []], [MELDS, PAIRS, None, None], OKEY, Rules101(), finisher=0)
    assert scores[1] == 6


@pytest.mark.parametrize("penalty", [101, 202, 303])
def test_rule11_the_unopened_penalty_is_the_tables_option(penalty):
    rules = Rules101(unopened_penalty=penalty)
    assert hand_scores([[], [], [], []], [MELDS, None, None, None], OKEY, rules, finisher=0)[1:] == [penalty] * 3


def test_rule9_in_hand_penalties_are_added_after_the_multipliers():
    penalties = [{"seat": 2, "reason": "okey_discard", "tile": "K6", "points": 101, "move": 3}]
    scores = hand_scores([[], parse_tiles("K1 K2"), [], parse_tiles("K6 Y4")], [MELDS, MELDS, None, MELDS], OKEY,
                         Rules101(), finisher=0, okey_finish=True, penalties=penalties)
    assert scores == [-202, 6, 505, 210]


def test_rule12_pile_out_everyone_writes_their_base_and_no_multiplier():
    # Seat 0 draws the last tile and discards: the hand ends there.
    state = rule11_table("M1 M2 K2", pile_size=1)
    after = apply_turn(state, 0, {"draw": "pile", "discard": "M1"})
    assert after.result.reason == PILE_OUT and after.result.finisher is None
    assert after.result.scores == (2 + 2 + 11, 3, 202, 105) and accounted(after)


def test_rule12_pile_out_keeps_the_pairs_openers_doubling():
    scores = hand_scores([parse_tiles("Y1"), parse_tiles("K1 K2"), [], []], [PAIRS, MELDS, None, MELDS], OKEY,
                         Rules101(), finisher=None)
    assert scores == [2, 3, 202, 0]


def test_rule12_when_all_four_opened_with_pairs_the_hand_is_cancelled_and_nothing_scored():
    pairs = [["K1", "K1"], ["S2", "S2"], ["M3", "M3"], ["Y4", "Y4"], ["S9", "S9"]]
    state = table(["K1 K1 S2 S2 M3 M3 Y4 Y4 S9 S9 K6 M13 M11 M9 Y13 Y11 Y9 K13 K11 K9 S13", None, None, None],
                  turn=0, pile_top="Y7", melds=[(1, "Y12 Y12"), (2, "M12 M12"), (3, "K12 K12")],
                  opened={1: (PAIRS, 5), 2: (PAIRS, 5), 3: (PAIRS, 5)})
    after = apply_turn(state, 0, {"draw": "pile", "actions": [{"type": "open", "melds": pairs}], "discard": "K6"})
    assert after.result.reason == CANCELLED
    assert after.result.scores == (0, 0, 0, 0)   # the okey-discard penalty included
    assert after.penalties and after.penalties[0]["reason"] == "okey_discard"


# -- eşli ------------------------------------------------------------------------------------------


ESLI = Rules101(partners=True)


def test_esli_when_a_player_finishes_the_partner_writes_0_but_keeps_in_hand_penalties():
    penalties = [{"seat": 2, "reason": "islek", "tile": "S8", "points": 101, "move": 5}]
    scores = hand_scores([[], parse_tiles("K1 K2"), parse_tiles("K13 K12"), parse_tiles("K6 Y4")],
                         [MELDS, MELDS, MELDS, MELDS], OKEY, ESLI, finisher=0, penalties=penalties)
    assert scores == [-101, 3, 101, 105]
    assert team_totals(scores, ESLI) == [0, 108, 0, 108]


def test_esli_the_opposing_team_writes_its_multiplied_bases_elden_to_808():
    scores = hand_scores([[], [], [], []], [MELDS, None, None, None], OKEY, ESLI, finisher=0, elden=True)
    assert scores == [-202, 404, 0, 404]
    assert team_totals(scores, ESLI)[1] == 808


def test_esli_at_a_pile_out_all_four_write_their_base():
    scores = hand_scores([parse_tiles("Y1"), parse_tiles("K1 K2"), [], parse_tiles("K6")], [MELDS, MELDS, None, MELDS],
                         OKEY, ESLI, finisher=None)
    assert scores == [1, 3, 202, 101]
    assert team_totals(scores, ESLI) == [203, 104, 203, 104]


def test_esli_as_a_whole_turn_the_partner_of_the_finisher_writes_0():
    state = rule11_table("M1 M2 M3 Y2", rules=ESLI)
    after = apply_turn(state, 0, {"draw": "pile", "actions": [{"type": "lay_down", "melds": [["M1", "M2", "M3"]]},
                                                              {"type": "lay_off", "meld": 1, "tile": "S11"}],
                                  "discard": "Y2"})
    assert after.result.scores == (-101, 3, 0, 105)


def test_rule11_the_score_sheet_explains_each_score_of_the_okey_finish_by_a_pairs_opener():
    state = rule11_table("Y1 Y1 K6", seat0_opened=PAIRS)
    after = apply_turn(state, 0, {"draw": "pile", "actions": [{"type": "lay_down", "melds": [["Y1", "Y1"]]},
                                                              {"type": "lay_off", "meld": 1, "tile": "S11"}],
                                  "discard": "K6"})
    sheet = after.result.sheet
    assert [(row["kind"], row["base"], row["multiplier"], row["score"]) for row in sheet] == [
        ("finished", -101, 4, -404), ("opened", 3, 4, 12), ("unopened", 202, 4, 808), ("opened", 105, 4, 420)]
    assert sheet[3]["rack"] == 105 and not sheet[3]["pairs_double"]
    assert tuple(row["score"] for row in sheet) == after.result.scores
    assert after.to_dict()["result"]["sheet"] == [dict(row) for row in sheet]


def test_rule9_the_sheet_names_each_penalty_and_adds_it_after_the_multiplier():
    from games.engine.okey101.scoring import hand_sheet

    penalties = [{"seat": 2, "reason": "okey_discard", "tile": "K6", "points": 101, "move": 3},
                 {"seat": 2, "reason": "islek", "tile": "S7", "points": 101, "move": 7}]
    sheet = hand_sheet([[], parse_tiles("K1 K1"), [], parse_tiles("Y4")], [MELDS, PAIRS, None, MELDS], OKEY,
                       Rules101(), finisher=0, okey_finish=True, penalties=penalties)
    assert sheet[1] == {"seat": 1, "kind": "opened", "rack": 2, "pairs_double": True, "base": 4, "multiplier": 2,
                        "penalties": 0, "penalty_reasons": [], "score": 8}
    assert (sheet[2]["base"], sheet[2]["penalties"], sheet[2]["penalty_reasons"], sheet[2]["score"]) == (
        202, 202, ["okey_discard", "islek"], 606)


def test_esli_the_sheet_writes_the_partner_of_the_finisher_as_partner_with_0():
    from games.engine.okey101.scoring import hand_sheet

    sheet = hand_sheet([[], parse_tiles("K1"), parse_tiles("K9 K10"), []], [MELDS, MELDS, MELDS, None], OKEY,
                       Rules101(partners=True), finisher=0)
    assert [(row["kind"], row["score"]) for row in sheet] == [
        ("finished", -101), ("opened", 1), ("partner", 0), ("unopened", 202)]
