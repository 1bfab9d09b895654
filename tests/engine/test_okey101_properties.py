"""The whole turn is all or nothing (RULES.md "101 Okey" rules 5-7): any turn a client may send,
however wrong, is either refused with a listed code and the state exactly as before, or applied
with all 106 tiles still accounted for and the rack one tile lighter per tile that left it."""

from __future__ import annotations

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from games.engine.deck import shuffled_deck
from games.engine.errors import EngineError
from games.engine.okey101 import Okey101
from games.engine.okey101.hand import apply_turn, clock_move, deal_from_deck
from games.engine.okey101.rules import Rules101
from games.engine.tiles import format_tile

from .test_okey101_support import accounted, snapshot, table

GAME = Okey101()


@st.composite
def hand_and_turn(draw):
    seed = draw(st.integers(0, 10_000))
    state = deal_from_deck(shuffled_deck(seed), Rules101(rising_opening=draw(st.booleans())),
                           starting_seat=draw(st.integers(0, 3)))
    for _ in range(draw(st.integers(0, 6))):
        state = clock_move(state, state.turn)
    seat = state.turn
    rack = sorted(state.racks[seat])
    names = [format_tile(tile) for tile in rack] + ["K6", "J", "S13"]
    meld = st.lists(st.sampled_from(names), min_size=2, max_size=5)
    action = st.one_of(
        st.fixed_dictionaries({"type": st.just("open"), "melds": st.lists(meld, min_size=1, max_size=5)}),
        st.fixed_dictionaries({"type": st.just("lay_down"), "melds": st.lists(meld, min_size=1, max_size=2)}),
        st.fixed_dictionaries({"type": st.sampled_from(["lay_off", "swap"]), "meld": st.integers(0, 6),
                               "tile": st.sampled_from(names)}),
    )
    turn = {"draw": draw(st.sampled_from([None, "pile", "discard"])),
            "actions": draw(st.lists(action, max_size=3)),
            "discard": draw(st.sampled_from(names))}
    return state, seat, turn


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand_and_turn())
def test_rule7_any_turn_is_applied_whole_or_refused_with_nothing_changed(case):
    whole_or_nothing(*case)


def whole_or_nothing(state, seat, turn) -> None:
    before = snapshot(state)
    try:
        after = apply_turn(state, seat, turn)
    except EngineError as error:
        assert error.code in GAME.error_codes, error.code
        assert snapshot(state) == before
        event(f"refused {error.code}")
        return
    event("applied")
    assert snapshot(state) == before
    assert accounted(after)
    on_table = sum(len(meld.tiles) for meld in after.melds) - sum(len(meld.tiles) for meld in state.melds)
    drew = 0 if turn["draw"] is None else 1
    # A swap puts one tile in and takes the okey out: the table and the rack keep their counts.
    assert len(after.racks[seat]) == len(state.racks[seat]) + drew - on_table - 1


@st.composite
def opened_table_and_turn(draw):
    """Seat 1 opened (runs or pairs) holds a random rack; runs, a group with an okey and a pair lie on
    the table; the turn lays off, swaps and lays down tiles of the rack."""
    kind = draw(st.sampled_from(["melds", "pairs"]))
    pool = "S4 S8 S9 M3 M7 M8 K8 Y8 Y1 K2 K3 K4 S6 J M9 M10 Y13 K13"
    rack = " ".join(draw(st.lists(st.sampled_from(pool.split()), min_size=2, max_size=8, unique=True)))
    state = table([None, rack, None, None], turn=1, pile_top=draw(st.sampled_from(["K5", "S3", "M6"])),
                  melds=[(2, "S5 K6 S7"), (2, "K8 Y8 K6"), (0, "M4 M5 M6"), (0, "Y12 Y12")],
                  opened={1: (kind, 120 if kind == "melds" else 5), 2: ("melds", 120), 0: ("melds", 101)},
                  rules=Rules101(pairs_layoff_limit=draw(st.sampled_from([2, None]))))
    names = [format_tile(tile) for tile in state.racks[1]] + [draw(st.sampled_from(["K5", "S3", "M6"]))]
    action = st.one_of(
        st.fixed_dictionaries({"type": st.sampled_from(["lay_off", "swap"]), "meld": st.integers(1, 4),
                               "tile": st.sampled_from(names)}),
        st.fixed_dictionaries({"type": st.just("lay_down"),
                               "melds": st.lists(st.lists(st.sampled_from(names), min_size=2, max_size=4),
                                                 min_size=1, max_size=2)}),
    )
    turn = {"draw": "pile", "actions": draw(st.lists(action, max_size=4)), "discard": draw(st.sampled_from(names))}
    return state, 1, turn


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(opened_table_and_turn())
def test_rule8_lay_offs_and_swaps_are_applied_whole_or_refused_with_nothing_changed(case):
    whole_or_nothing(*case)
