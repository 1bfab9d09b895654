"""Penalised discards, RULES.md "101 Okey" rule 9: +101 for a wild okey or an işlek tile (also
before opening; an okey that is also işlek once), the finishing discard exempt, each an option,
written into the hand with its reason and never multiplied."""

from __future__ import annotations

from games.engine.okey101.hand import ISLEK, MELDS, OKEY_DISCARD, apply_turn, is_islek, view_for
from games.engine.okey101.rules import Rules101
from games.engine.tiles import parse_tile

from .test_okey101_support import table

OKEY = parse_tile("K6")  # indicator K5


def seat1_discards(tile: str, rack: str = "S8 M3 K6 K2", rules: Rules101 | None = None, opened_1: bool = False):
    """Seat 1 (opened or not) discards ``tile``; seat 2's run S5 S6 S7 and group K8 Y8 M8 are on the table."""
    opened = {2: (MELDS, 120)}
    if opened_1:
        opened[1] = (MELDS, 110)
    state = table([None, rack, None, None], turn=1, pile_top="Y13", rules=rules,
                  melds=[(2, "S5 S6 S7"), (2, "K8 Y8 M8")], opened=opened)
    return apply_turn(state, 1, {"draw": "pile", "discard": tile})


def test_rule9_discarding_a_wild_okey_costs_101_written_with_its_reason():
    after = seat1_discards("K6")
    assert after.penalties == [{"seat": 1, "reason": OKEY_DISCARD, "tile": "K6", "points": 101, "move": 1}]
    assert after.events[-1]["penalties"] == after.penalties
    # The table is told at once, tile and all; later the covered discard is no longer named.
    assert view_for(after, 3)["last_turn"]["penalties"] == after.penalties
    assert view_for(after, 3)["penalties"] == [{"seat": 1, "reason": OKEY_DISCARD, "points": 101, "move": 1}]


def test_rule9_discarding_an_islek_tile_costs_101_also_before_opening():
    unopened = seat1_discards("S8")
    assert [(p["seat"], p["reason"], p["tile"]) for p in unopened.penalties] == [(1, ISLEK, "S8")]
    opened = seat1_discards("S8", opened_1=True)
    assert [p["reason"] for p in opened.penalties] == [ISLEK]


def test_rule9_a_tile_that_fits_no_meld_costs_nothing():
    assert seat1_discards("M3").penalties == []
    assert seat1_discards("K2").penalties == []


def test_rule9_an_okey_that_is_also_islek_costs_101_once():
    after = seat1_discards("K6")
    assert is_islek(OKEY, after.melds, OKEY)
    assert sum(p["points"] for p in after.penalties) == 101


def test_rule9_each_penalty_is_an_option():
    assert seat1_discards("K6", rules=Rules101(okey_discard_penalty=False)).penalties[0]["reason"] == ISLEK
    assert seat1_discards("K6", rules=Rules101(okey_discard_penalty=False, islek_penalty=False)).penalties == []
    assert seat1_discards("S8", rules=Rules101(islek_penalty=False)).penalties == []
    assert seat1_discards("K6", rules=Rules101(islek_penalty=False)).penalties[0]["reason"] == OKEY_DISCARD


def test_rule9_islek_is_judged_against_every_meld_on_the_table_for_any_tile():
    state = table([None, "K2", None, None], turn=1,
                  melds=[(2, "S5 S6 S7"), (2, "K8 Y8 M8"), (0, "M12 M13 K6"), (3, "Y9 Y9")],
                  opened={2: (MELDS, 120), 0: (MELDS, 101), 3: ("pairs", 5)})
    candidates = ("S3", "S4", "S8", "S9", "M10", "M11", "S13", "K2")
    islek = {name for name in candidates if is_islek(parse_tile(name), state.melds, OKEY)}
    # S4/S8 grow S5-S7; M11 and M10 grow M12 M13 okey (the okey moves down); nothing fits S3, S9, K2.
    assert islek == {"S4", "S8", "M10", "M11"}
    assert not is_islek(parse_tile("K8"), [], OKEY)
    # A group takes the missing colour; a pair takes nothing.
    assert is_islek(parse_tile("S8"), state.melds[1:2], OKEY)
    assert not is_islek(parse_tile("Y9"), state.melds[3:], OKEY)
    assert not is_islek(parse_tile("M1"), state.melds, OKEY)  # 12-13-1 is no run


def test_rule9_replacing_an_okey_does_not_make_a_tile_islek():
    # A full group with an okey (K8 Y8 M8 okey): S8 goes in only by a swap.
    state = table([None, "K2", None, None], turn=1, melds=[(2, "K8 Y8 M8 K6")], opened={2: (MELDS, 120)})
    assert not is_islek(parse_tile("S8"), state.melds, OKEY)


def test_rule9_the_finishing_discard_is_exempt():
    state = table([None, "S9 S10 S11 S8", None, None], turn=1, pile_top="S12",
                  melds=[(2, "S5 S6 S7")], opened={1: (MELDS, 110), 2: (MELDS, 120)})
    after = apply_turn(state, 1, {"draw": "pile", "actions": [{"type": "lay_down", "melds": [["S9", "S10", "S11", "S12"]]}],
                                  "discard": "S8"})
    assert after.result is not None and after.penalties == []
