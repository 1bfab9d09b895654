"""Random games: whatever legal and illegal actions players throw at a hand, the invariants hold.

After every move: all 106 tiles are somewhere exactly once, no view shows a tile its seat may not
know, the state survives JSON exactly, every refused action left the state untouched, and the move
counter and event log agree.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.autoplay import auto_move
from games.engine.deck import deal_from_deck, shuffled_deck
from games.engine.errors import EngineError
from games.engine.finish import best_finish
from games.engine.hand import (
    PHASE_DISCARD,
    PHASE_DRAW,
    HandState,
    can_finish,
    declare_pairs,
    discard,
    draw,
    finish,
    lay_first_okey,
    legal_actions,
    show_indicator,
    take_indicator,
)
from games.engine.rules import RuleSet
from games.engine.tiles import FALSE_JOKER, Tile, okey_for, parse_tiles

from .conftest import accounted, assert_view_is_private, roundtrip, snapshot

RULE_SETS = [
    RuleSet(),
    RuleSet(players=2),
    RuleSet(indicator_binds_pair=True, double_okey=True, color_finish=True),
    RuleSet(scoring="chips", players=2),
    RuleSet(players=2, indicator_binds_pair=True, double_okey=True),
    RuleSet(scoring="penalty", okey_completes_pair=False),
]


# Starting racks that can finish at once (sets, pairs, one colour in order), spare Y13 last.
READY_RACKS = [
    parse_tiles("S1 S2 S3 S4 M5 M6 M7 Y8 Y9 Y10 K11 S11 M11 Y11 Y13"),
    parse_tiles("K3 K3 S4 S4 M5 M5 Y6 Y6 K7 K7 S8 S8 M9 M9 Y13"),
    parse_tiles("M1 M2 M3 M4 M5 M6 M7 M8 M9 M10 M11 M12 M13 M1 Y13"),
]


def recolour(tiles: list[Tile], order: list[int]) -> list[Tile]:
    return [tile if tile == FALSE_JOKER else order[tile // 13] * 13 + tile % 13 for tile in tiles]


def rigged_deck(seed: int, kind: str, rng: random.Random) -> list[Tile]:
    """A shuffled deck, or one whose first player is dealt gifts that open rarer paths of the game:
    the indicator's twin and both okeys, or a rack that can finish at once (colours permuted)."""
    deck = shuffled_deck(seed)
    if kind == "shuffled":
        return deck
    if kind == "gifts":
        indicator = next(tile for tile in deck if tile != FALSE_JOKER)
        wanted = [indicator, okey_for(indicator), okey_for(indicator)]
    else:
        order = list(range(4))
        rng.shuffle(order)
        wanted = recolour(rng.choice(READY_RACKS), order)
        indicator = next(tile for tile in deck if tile != FALSE_JOKER and wanted.count(tile) < 2)
    rest = list(deck)
    for tile in [indicator, *wanted]:
        rest.remove(tile)
    # Top of the deck: the indicator, then the starting seat's 15 tiles.
    return [indicator, *wanted, *rest]


def check_invariants(state: HandState) -> None:
    assert accounted(state), "a tile went missing or was duplicated"
    assert roundtrip(state) == state
    assert state.move == len(state.events) - 1
    assert [event["move"] for event in state.events] == list(range(state.move + 1))
    # One rack holds 15: the seat to discard, or the seat that took the last discard once the pile
    # was gone and for which the clock then declined to finish (the hand ends on that pile out).
    declined = (state.is_over and len(state.events) >= 2 and state.events[-1]["type"] == "pile_out"
                and state.events[-2]["type"] == "draw" and state.events[-2].get("source") == "discard")
    extra = 1 if state.phase == PHASE_DISCARD or declined else 0
    assert sum(len(rack) for rack in state.racks) == 14 * state.players + extra
    for seat in [*range(state.players), None]:
        assert_view_is_private(state, seat)
    if not state.pile and not state.is_over:
        # Pile out: only a finish keeps the hand going once the pile is gone.
        if state.phase == PHASE_DRAW:
            assert state.available_discard is not None and can_finish(state, state.turn, state.available_discard)
        elif state.must_finish:
            assert can_finish(state, state.turn)
    if not state.is_over:
        # "actions" tells the truth about finishing.
        assert ("finish" in legal_actions(state, state.turn)) == (state.phase == PHASE_DISCARD
                                                                  and can_finish(state, state.turn))


def fuzz(state: HandState, rng: random.Random) -> HandState | None:
    """One random action, often illegal: refused ones must leave the state untouched."""
    seat = state.turn if rng.random() < 0.7 else rng.randrange(-1, state.players + 1)
    rack = state.racks[seat] if 0 <= seat < state.players else []
    tile = rng.choice(rack) if rack and rng.random() < 0.8 else rng.randrange(53)
    action, args = rng.choice([
        (draw, (rng.choice(["pile", "discard", "stack"]),)),
        (discard, (tile,)),
        (finish, (tile,)),
        (show_indicator, ()),
        (declare_pairs, ()),
        (take_indicator, ()),
        (lay_first_okey, ()),
        (auto_move, ()),
    ])
    before = snapshot(state)
    try:
        after = action(state, seat, *args)
    except EngineError:
        assert snapshot(state) == before, f"refused {action.__name__} changed the state"
        return None
    return after[0] if isinstance(after, tuple) else after


def sensible(state: HandState, rng: random.Random) -> HandState:
    """A move that makes progress, the way a real (if erratic) player would."""
    seat = state.turn
    for action, chance in ((show_indicator, 0.8), (take_indicator, 0.8), (lay_first_okey, 0.5)):
        if action.__name__ in legal_actions(state, seat) and rng.random() < chance:
            try:
                return action(state, seat)
            except EngineError as error:
                assert error.code == "invalid_finish"  # lay_first_okey with a rack that cannot finish
    if state.shown_indicators and seat in state.shown_indicators and seat not in state.declared_pairs:
        if state.rules.indicator_binds_pair and rng.random() < 0.5:
            return declare_pairs(state, seat)
    if state.phase == PHASE_DRAW:
        if state.available_discard is not None and rng.random() < 0.3:
            return draw(state, seat, "discard")
        return draw(state, seat, "pile")
    if state.must_finish:
        # The seat took the last discard: the turn clock declines to finish for it (pile out).
        return auto_move(state, seat)[0]
    if rng.random() < 0.6:
        found = best_finish(list(state.racks[seat]), state.okey, state.rules,
                            pairs_only=seat in state.declared_pairs)
        if found is not None and rng.random() < 0.8:
            return finish(state, seat, found.discard)
    if rng.random() < 0.5:
        return auto_move(state, seat)[0]
    return discard(state, seat, rng.choice(state.racks[seat]))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    rules=st.sampled_from(RULE_SETS),
    kind=st.sampled_from(["shuffled", "gifts", "ready"]),
    choices=st.randoms(use_true_random=False),
)
def test_random_games_keep_every_tile_accounted_for_and_every_view_private(seed, rules, kind, choices):
    deck = rigged_deck(seed, kind, choices)
    state = deal_from_deck(deck, rules, starting_seat=choices.randrange(rules.players))
    check_invariants(state)
    for _ in range(400):
        if state.is_over:
            break
        after = fuzz(state, choices) if choices.random() < 0.4 else None
        if after is None:
            after = sensible(state, choices)
        assert after.move > state.move
        state = after
        check_invariants(state)
    assert state.is_over, "400 moves is more than a hand can take when most draws come from the pile"
    assert state.result is not None


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), players=st.sampled_from([2, 4]))
def test_auto_play_alone_always_reaches_a_pile_out(seed, players):
    state = deal_from_deck(shuffled_deck(seed), RuleSet(players=players))
    turns = 0
    while not state.is_over:
        state, played = auto_move(state, state.turn)
        turns += 1
    assert state.result.reason == "pile_out"
    # The opening discard and one turn per pile tile; the last discard ends the hand unless the next
    # seat could finish with it (auto-play then declines it: one more turn).
    pile = len(state.deck) - 1 - (14 * players + 1)
    declined = [event["type"] for event in played] == ["pile_out"]
    assert turns == pile + 1 + declined
    assert accounted(state)
