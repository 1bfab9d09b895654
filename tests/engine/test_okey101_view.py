"""What a seat sees of a 101 hand, RULES.md "101 Okey" rule 15: its own rack only, every meld with
its owner, the opening totals, the top of each discard pile and the tile counts; a watcher sees no
rack; a pairs opener sees the hand's whole discard history. No other seat's tile ever leaks."""

from __future__ import annotations

import json

import pytest

from games.engine.deck import shuffled_deck
from games.engine.okey101.hand import MELDS, PAIRS, Hand101, apply_turn, clock_move, deal_from_deck, view_for
from games.engine.okey101.rules import Rules101
from games.engine.tiles import format_tile

from .conftest import tiles_in
from .test_okey101_support import table

SECRETS = ("pile", "deck", "racks", "discard_log", "events", "seed")


def secret_faces(state: Hand101, seat: int | None) -> set[str]:
    """Faces the seat cannot know: those that lie only in other racks, in the pile or under the top of
    a discard pile (a pairs opener sees every discard)."""
    public = {state.indicator, state.okey, *(t for meld in state.melds for t in meld.tiles),
              *(pile[-1] for pile in state.discards if pile)}
    if seat is not None and state.opened[seat] == PAIRS:
        public |= {tile for _, tile, _ in state.discard_log}
    hidden_discards = {t for pile in state.discards for t in pile[:-1]}
    own = set(state.racks[seat]) if seat is not None else set()
    hidden = {t for other, rack in enumerate(state.racks) if other != seat for t in rack} | set(state.pile)
    hidden |= hidden_discards
    return {format_tile(face) for face in hidden - public - own}


def assert_private(state: Hand101, seat: int | None) -> dict:
    view = view_for(state, seat)
    assert json.loads(json.dumps(view)) == view
    leaked = set(tiles_in(view)) & secret_faces(state, seat)
    assert not leaked, f"seat {seat} sees {leaked}"
    assert not set(SECRETS) & set(view)
    if seat is None:
        assert view["rack"] is None and view["actions"] == []
    else:
        assert view["rack"] == [format_tile(t) for t in state.racks[seat]]
    return view


def played_table() -> Hand101:
    """Seat 1 opened with runs (116), seat 2 with pairs; seat 3 to play."""
    return table([None, "K2 K3", "Y1 Y3 M5", None], turn=3, discard=(2, "Y5"),
                 melds=[(1, "S10 S11 S12 S13"), (1, "M10 M11 M12 M13"), (1, "Y7 Y8 Y9"),
                        (2, "K1 K1"), (2, "S2 S2"), (2, "M3 M3"), (2, "Y4 Y4"), (2, "S9 S9")],
                 opened={1: (MELDS, 116), 2: (PAIRS, 5)})


def test_rule15_a_seat_sees_its_own_rack_the_melds_with_owners_the_opening_totals_tops_and_counts():
    state = played_table()
    view = assert_private(state, 3)
    assert view["rack_counts"] == [21, 2, 3, 21] and view["pile_count"] == len(state.pile)
    assert [(meld["id"], meld["owner"], meld["kind"]) for meld in view["melds"][:4]] == [
        (1, 1, "run"), (2, 1, "run"), (3, 1, "run"), (4, 2, "pair")]
    assert view["melds"][0]["value"] == 46
    assert view["opened"] == [None, MELDS, PAIRS, None] and view["opening_totals"] == [None, 116, 5, None]
    assert view["discard_tops"] == [None, None, "Y5", None] and view["available_discard"] == "Y5"
    assert view["actions"] == ["draw", "turn"] and view["discard_history"] is None


def test_rule15_a_watcher_sees_no_rack():
    view = assert_private(played_table(), None)
    assert view["rack"] is None and view["rack_counts"] == [21, 2, 3, 21]


def test_rule15_a_pairs_opener_sees_the_hands_whole_discard_history_and_nobody_else_does():
    state = played_table()
    assert assert_private(state, 2)["discard_history"] == [{"seat": 2, "tile": "Y5", "taken_by": None}]
    assert all(assert_private(state, seat)["discard_history"] is None for seat in (0, 1, 3))


def test_rule15_an_okey_in_a_run_shows_what_it_stands_for():
    state = table([None, "K2", None, None], turn=1, melds=[(2, "S5 K6 S7")], opened={2: (MELDS, 120)})
    assert view_for(state, 1)["melds"][0]["stands_for"] == ["S6"]


@pytest.mark.parametrize("seed", ["a", "b", "c"])
def test_rule15_no_other_seats_tile_leaks_into_any_view_through_a_whole_hand(seed):
    state = deal_from_deck(shuffled_deck(seed), Rules101(), starting_seat=0)
    steps = 0
    while state.result is None:
        for seat in (None, 0, 1, 2, 3):
            assert_private(state, seat)
        state = clock_move(state, state.turn)
        steps += 1
    for seat in (None, 0, 1, 2, 3):
        assert_private(state, seat)
    assert steps == 21 and state.result.reason == "pile_out"


def test_rule15_after_an_opening_the_turn_seen_by_others_names_only_table_tiles():
    state = table([None, "S10 S11 S12 S13 M10 M11 M12 M13 Y7 Y8 Y9 K1 K3 S1 S3 M1 M3 Y1 Y3 K9 S7", None, None],
                  turn=1, pile_top="K13")
    after = apply_turn(state, 1, {"draw": "pile", "actions": [{"type": "open", "melds": [
        ["S10", "S11", "S12", "S13"], ["M10", "M11", "M12", "M13"], ["Y7", "Y8", "Y9"]]}], "discard": "K1"})
    for seat in (None, 0, 2, 3):
        view = assert_private(after, seat)
        assert view["last_turn"]["draw"] == "pile" and "K13" not in tiles_in(view["last_turn"])


def test_rule15_a_penalised_discard_once_covered_is_no_longer_named_to_the_table():
    state = table([None, "S8 K2 M3", "M9 M10 Y2", None], turn=1, pile_top="Y13 Y12", melds=[(0, "S5 S6 S7")],
                  opened={0: (MELDS, 110)})
    state = apply_turn(state, 1, {"draw": "pile", "discard": "S8"})          # işlek: +101
    assert view_for(state, 0)["last_turn"]["penalties"][0]["tile"] == "S8"   # the table is told at once
    state = apply_turn(state, 2, {"draw": "pile", "discard": "Y2"})
    for seat in (3, 0):
        state = apply_turn(state, seat, {"draw": "pile", "discard": format_tile(state.racks[seat][0])})
    state = apply_turn(state, 1, {"draw": "pile", "discard": "K2"})          # S8 is covered now
    view = assert_private(state, 3)
    assert view["discard_tops"][1] == "K2"
    assert view["penalties"][0] == {"seat": 1, "reason": "islek", "points": 101, "move": 1}
