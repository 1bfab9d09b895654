"""Going out and going rummy, RULES.md "Kart Okey" rule 6: going out is discarding the last card (a
final discard is required); going rummy is going out in one turn without having melded or laid off
earlier in the hand."""

from __future__ import annotations

from games.engine.kart.hand import FINISHED, apply_turn

from .test_kart_support import rejects, table

TEN = "K5 K6 K7 M9 R9 S9 SA S2 S3 RQ"


def test_rule6_going_out_is_discarding_the_last_card_and_a_final_discard_is_required():
    state = table(["K8 K9", "MK M2 M3", None], discards="R4", stock_top="K10", melds=[(1, "K5 K6 K7")],
                  melded=(0, 1))
    # Laying off every card leaves none to discard: refused, nothing changed.
    rejects(state, 0, {"draw": "stock", "actions": [{"type": "lay_off", "meld": 1, "card": card}
                                                    for card in ("K8", "K9", "K10")], "discard": "K10"},
            code="must_discard")
    rejects(state, 0, {"draw": "stock", "actions": [{"type": "meld", "cards": "K8 K9 K10"}], "discard": None},
            code="must_discard")
    after = apply_turn(state, 0, {"draw": "stock", "actions": [{"type": "lay_off", "meld": 1, "card": "K8"},
                                                               {"type": "lay_off", "meld": 1, "card": "K9"}],
                                  "discard": "K10"})
    result = after.result
    assert (result.reason, result.winner, result.rummy) == (FINISHED, 0, False)
    assert after.hands[0] == [] and after.is_over and after.events[-1]["type"] == "hand_end"
    rejects(after, 1, {"draw": "stock", "discard": "MK"}, code="hand_over")


def test_rule6_going_rummy_is_the_whole_hand_down_in_one_turn_with_nothing_melded_before():
    state = table([TEN, "MK M2 M3", "RK RJ"], rules=None, discards="K4", stock_top="S4",
                  melds=[(1, "R5 R6 R7")], melded=(1,))
    turn = {"draw": "stock", "actions": [
        {"type": "meld", "cards": "K5 K6 K7"}, {"type": "meld", "cards": "M9 R9 S9"},
        {"type": "meld", "cards": "SA S2 S3 S4"}], "discard": "RQ"}
    after = apply_turn(state, 0, turn)
    assert (after.result.winner, after.result.rummy) == (0, True)
    # Laying off onto another's meld is part of going rummy too; having melded before is not.
    state = table(["S2 S3 S4", None, None], discards="K4", stock_top="S5", melds=[(0, "M9 R9 S9")], melded=(0,))
    after = apply_turn(state, 0, {"draw": "stock", "actions": [{"type": "meld", "cards": "S2 S3 S4"}],
                                  "discard": "S5"})
    assert (after.result.winner, after.result.rummy) == (0, False)
