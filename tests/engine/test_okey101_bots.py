"""The 101 bots (games.engine.okey101.bots): stories of what a bot does with a given rack (RULES.md
"101 Okey" rules 6-10), that it decides from its own view only, and that four bots always play a
whole hand legally with every tile accounted for and the scores the rules give."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.engine.deck import shuffled_deck
from games.engine.okey101.bots import LEVELS, play_bot_turn
from games.engine.okey101.hand import (
    CANCELLED,
    FINISHED,
    MELDS,
    PAIRS,
    Hand101,
    deal_from_deck,
    is_islek,
)
from games.engine.okey101.rules import Rules101
from games.engine.okey101.scoring import hand_scores
from games.engine.okey101.search import best_opening, best_pairs
from games.engine.tiles import parse_tile, parse_tiles

from .test_okey101_support import accounted, table

# Indicator K5 throughout (the support's default): the okey is K6.
OKEY = parse_tile("K6")
RNG_SEED = 101


def play(state: Hand101, seat: int, level: str = "normal") -> Hand101:
    return play_bot_turn(state, seat, level=level, rng=random.Random(RNG_SEED), strict=True)


def last_turn(state: Hand101) -> dict:
    return next(event for event in reversed(state.events) if event["type"] == "turn")


def on_table(state: Hand101) -> Counter[int]:
    return Counter(tile for meld in state.melds for tile in meld.tiles)


def test_the_levels_and_an_unknown_level_is_refused():
    assert LEVELS == ("easy", "normal", "hard")
    with pytest.raises(ValueError):
        play_bot_turn(table([None] * 4), 0, level="expert", rng=random.Random(1))


# -- opening (rule 7) -----------------------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_the_bot_opens_when_its_rack_holds_101_or_more(level):
    rack = "S10 S11 S12 S13 M10 M11 M12 M13 Y7 Y8 Y9 K1 K3 S1 S3 M1 M3 Y1 Y3 K9 S7 Y12"
    # An easy bot may overlook an opening now and then; over a few tries it opens too.
    for seed in range(6):
        after = play_bot_turn(table([rack, None, None, None]), 0, level=level, rng=random.Random(seed), strict=True)
        if after.opened[0] is not None:
            break
    assert after.opened[0] == MELDS and after.opening_totals[0] >= 101
    assert accounted(after) and not after.penalties


def test_the_bot_does_not_open_under_101_and_keeps_its_tiles():
    rack = "S10 S11 S12 S13 M10 M11 M12 M13 Y11 Y12 K1 K4 S2 S7 M5 Y8 K12 M2 Y5 S4 K9 Y3"
    assert best_opening(parse_tiles(rack), OKEY) is None
    after = play(table([rack, None, None, None]), 0)
    assert after.opened[0] is None and not after.melds


def test_a_rising_table_needs_more_than_the_best_opening_so_far():
    """Seat 0 opened with 140 at a yükselen table: 132 is no longer enough (rule 14)."""
    rack = "S10 S11 S12 S13 M10 M11 M12 M13 Y7 Y8 Y9 K1 K3 S1 S3 M1 M3 Y1 Y3 K9 S7"
    state = table([None, rack, None, None], turn=1, pile_top="S5", rules=Rules101(rising_opening=True),
                  melds=[(0, "Y10 Y11 Y12 Y13")], opened={0: (MELDS, 140)})
    after = play(state, 1)
    assert after.opened[1] is None
    lower = table([None, rack, None, None], turn=1, pile_top="S5", rules=Rules101(rising_opening=True),
                  melds=[(0, "Y10 Y11 Y12 Y13")], opened={0: (MELDS, 120)})
    assert play(lower, 1).opening_totals[1] > 120


def test_the_bot_opens_with_pairs_when_it_has_five_and_no_melds_worth_101():
    rack = "K1 K1 S2 S2 M3 M3 Y4 Y4 S9 S9 M12 K7 S5 M9 Y11 K13 S11 Y6 M7 K10 Y2 K4"
    tiles = parse_tiles(rack)
    assert best_opening(tiles, OKEY) is None and best_pairs(tiles, OKEY).total == 5
    after = play(table([rack, None, None, None]), 0)
    assert after.opened[0] == PAIRS and after.opening_totals[0] == 5


def test_the_bot_prefers_runs_when_they_are_as_strong_as_its_pairs():
    # Five pairs (10 tiles), but the runs and groups put down 13 tiles for 101 or more.
    rack = "S10 S11 S12 S13 M10 M11 M12 M13 Y7 Y8 Y9 K1 K1 S3 S3 M5 M5 Y2 Y2 K12 Y13 K12"
    assert best_pairs(parse_tiles(rack), OKEY).total == 5
    after = play(table([rack, None, None, None]), 0)
    assert after.opened[0] == MELDS


# -- taking the discard (rule 6) -----------------------------------------------------------------------


UNDER = "S10 S11 S12 S13 M10 M11 M12 M13 Y11 Y12 K1 K4 S2 S7 M5 Y8 K12 M2 Y5 S4 K9"


def test_the_bot_takes_a_discard_that_lets_it_open_and_puts_it_on_the_table():
    tiles = parse_tiles(UNDER)
    assert best_opening(tiles, OKEY) is None and best_opening([*tiles, parse_tile("Y10")], OKEY) is not None
    state = table([None, UNDER, None, None], turn=1, discard=(0, "Y10"), pile_top="K13")
    after = play(state, 1)
    turn = last_turn(after)
    assert turn["draw"] == "discard" and turn["took"] == "Y10"
    assert on_table(after)[parse_tile("Y10")] == 1 and after.opened[1] == MELDS
    assert parse_tile("K13") in after.pile


def test_the_bot_never_takes_a_discard_it_cannot_use_and_draws_from_the_pile():
    assert best_opening(parse_tiles(UNDER + " K2 Y1"), OKEY) is None
    state = table([None, UNDER, None, None], turn=1, discard=(0, "K2"), pile_top="Y1")
    after = play(state, 1)
    assert [event["type"] for event in after.events[-2:]] == ["draw", "turn"]
    assert last_turn(after)["draw"] is None and after.discards[0][-1] == parse_tile("K2")
    assert after.opened[1] is None


def test_an_opened_bot_takes_a_discard_it_can_lay_off_and_leaves_one_it_cannot():
    melds = [(0, "M4 M5 M6")]
    opened = {1: (MELDS, 110), 0: (MELDS, 101)}
    state = table([None, "S1 Y9 K13 S5 Y2", None, None], turn=1, discard=(0, "M7"), pile_top="K13",
                  melds=melds, opened=opened)
    after = play(state, 1)
    assert last_turn(after)["took"] == "M7" and parse_tile("M7") in after.melds[0].tiles
    state = table([None, "S1 Y9 K12 S5 Y2", None, None], turn=1, discard=(0, "M9"), pile_top="K13",
                  melds=melds, opened=opened)
    assert last_turn(play(state, 1))["draw"] is None


# -- the discard (rule 9) --------------------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_the_bot_never_discards_an_islek_tile_while_another_tile_is_free_of_penalty(level):
    """Unopened, it cannot lay off M3 or M7 (they fit seat 0's M4 M5 M6): discarding them would cost
    101, so it throws something else, though M3 is its lowest loose tile."""
    rack = "M3 M7 K9 K11 S12 Y13 S10 Y8 K13 S8 M12 Y10 K1 S5 Y2 M9 K3 S7 Y6 M11 K7"
    for seed in range(5):
        state = table([None, rack, None, None], turn=1, pile_top="S13", melds=[(0, "M4 M5 M6")],
                      opened={0: (MELDS, 101)})
        after = play_bot_turn(state, 1, level=level, rng=random.Random(seed), strict=True)
        discarded = after.discards[1][-1]
        assert not is_islek(discarded, after.melds, after.okey) and discarded != after.okey
        assert not after.penalties


def test_a_pairs_opener_at_its_lay_off_limit_keeps_the_third_islek_tile():
    state = table([None, "M7 M8 M9 M3 S1 Y12", None, None], turn=1, pile_top="K13", melds=[(0, "M4 M5 M6")],
                  opened={1: (PAIRS, 5), 0: (MELDS, 101)})
    after = play(state, 1)
    assert sum(action["type"] == "lay_off" for action in last_turn(after)["actions"]) == 2
    assert not after.penalties and not is_islek(after.discards[1][-1], after.melds, after.okey)


def test_an_opened_bot_discards_its_highest_useless_tile_and_keeps_the_okey():
    state = table([None, "K6 S2 M13 Y4 K9", None, None], turn=1, pile_top="S9",
                  melds=[(0, "Y10 Y11 Y12")], opened={1: (MELDS, 110), 0: (MELDS, 101)})
    after = play(state, 1)
    assert after.discards[1][-1] == parse_tile("M13") and not after.penalties


# -- after opening (rules 8, 10) -------------------------------------------------------------------------


def test_the_bot_lays_off_after_opening():
    state = table([None, "M7 M8 S2 Y9 K13", None, None], turn=1, pile_top="S13", melds=[(0, "M4 M5 M6")],
                  opened={1: (MELDS, 110), 0: (MELDS, 101)})
    after = play(state, 1)
    assert {parse_tile("M7"), parse_tile("M8")} <= set(after.melds[0].tiles)


def test_the_bot_lays_off_in_its_opening_turn_too():
    """K10 fits no meld of its own rack but goes on seat 2's K11 K12 K13 once the rack has opened (and
    with everything else down, S7 is the finishing discard)."""
    rack = "S11 S12 S13 M11 M12 M13 Y7 Y8 Y9 K1 K3 S1 S3 M1 M3 Y1 Y3 Y10 Y11 Y12 S7 K10"
    state = table([rack, None, None, None], melds=[(2, "K11 K12 K13")], opened={2: (MELDS, 130)})
    after = play(state, 0)
    assert after.opened[0] == MELDS and parse_tile("K10") in after.melds[0].tiles
    assert after.result.finisher == 0 and after.discards[0][-1] == parse_tile("S7")


def test_the_bot_lays_down_new_melds_after_opening():
    state = table([None, "K1 K2 K3 S9 Y12 M2", None, None], turn=1, pile_top="S13",
                  opened={1: (MELDS, 110)})
    after = play(state, 1)
    assert any(sorted(meld.tiles) == parse_tiles("K1 K2 K3") for meld in after.melds)


@pytest.mark.parametrize("level", LEVELS)
def test_the_bot_finishes_when_it_can(level):
    state = table([None, "M7 M8 K1 K2 K3", None, None], turn=1, pile_top="Y9", melds=[(0, "M4 M5 M6")],
                  opened={1: (MELDS, 110), 0: (MELDS, 101)})
    after = play(state, 1, level)
    assert after.result is not None and after.result.reason == FINISHED and after.result.finisher == 1
    assert accounted(after)


def test_the_hard_bot_keeps_the_okey_for_the_last_discard():
    """K1 K2 K3 and S13 can go down with the okey last (an okey finish, x2) or the okey in the run
    and S13 last: the hard bot takes the double, the normal one just finishes."""
    state = table([None, "K1 K2 K3 K6", None, None], turn=1, pile_top="S13", melds=[(0, "S10 S11 S12")],
                  opened={1: (MELDS, 110), 0: (MELDS, 101)})
    hard = play(state, 1, "hard")
    assert hard.result.finisher == 1 and hard.result.okey_finish
    normal = play(state, 1, "normal")
    assert normal.result.finisher == 1


def test_the_hard_bot_finishes_elden_below_101_while_nobody_has_opened():
    rack = "K1 K2 K3 S1 S2 S3 M1 M2 M3 Y1 Y2 Y3 K4 S4 M4 Y4 Y5 Y6 S5 S6 S7 M12"
    hard = play(table([rack, None, None, None]), 0, "hard")
    assert hard.result is not None and hard.result.elden and hard.result.finisher == 0
    normal = play(table([rack, None, None, None]), 0, "normal")
    assert normal.result is None and normal.opened[0] is None


# -- fair play: the bot sees only its view ---------------------------------------------------------------


def hidden_shuffled(state: Hand101, seed: int, *, top: bool = False) -> Hand101:
    """The same hand as the seat to play sees it: the other racks and the pile under its top tile
    (``top``: the top too) dealt anew from the same tiles."""
    seat = state.turn
    other = Hand101.from_dict(state.to_dict())
    start = 0 if top else 1
    hidden = [tile for index, rack in enumerate(other.racks) if index != seat for tile in rack] + other.pile[start:]
    random.Random(seed).shuffle(hidden)
    for index in range(4):
        if index != seat:
            size = len(other.racks[index])
            other.racks[index], hidden = hidden[:size], hidden[size:]
    other.pile[start:] = hidden
    return other


@pytest.mark.parametrize("level", LEVELS)
def test_the_bot_decides_from_its_own_view_never_other_racks_or_the_pile(level):
    for seed in range(12):
        state = deal_from_deck(shuffled_deck(f"fair-{seed}"), Rules101(), starting_seat=seed % 4)
        rng = random.Random(seed)
        for _ in range(seed % 9):
            state = play_bot_turn(state, state.turn, level="normal", rng=rng, strict=True)
            if state.is_over:
                break
        if state.is_over:
            continue
        seat = state.turn
        mine = play_bot_turn(state, seat, level=level, rng=random.Random(seed), strict=True)
        other = play_bot_turn(hidden_shuffled(state, seed), seat, level=level, rng=random.Random(seed), strict=True)
        assert mine.events[len(state.events):] == other.events[len(state.events):]
        # Whether it takes the discard is decided before it sees the pile's top.
        blind = play_bot_turn(hidden_shuffled(state, seed, top=True), seat, level=level, rng=random.Random(seed),
                              strict=True)
        first, again = mine.events[len(state.events)], blind.events[len(state.events)]
        assert (first["type"], first.get("draw")) == (again["type"], again.get("draw"))


# -- property: four bots always play a legal hand ---------------------------------------------------------


def rules_for(rng: random.Random) -> Rules101:
    return Rules101(rising_opening=rng.random() < 0.3, islek_penalty=rng.random() < 0.85,
                    okey_discard_penalty=rng.random() < 0.85, pairs_layoff_limit=rng.choice([2, 2, None]),
                    unopened_penalty=rng.choice([101, 202, 303]), partners=rng.random() < 0.2)


def play_hand(seed: int) -> Hand101:
    rng = random.Random(f"bots-{seed}")
    rules = rules_for(rng)
    levels = [rng.choice(LEVELS) for _ in range(4)]
    state = deal_from_deck(shuffled_deck(f"bots-{seed}"), rules, starting_seat=seed % 4)
    for _ in range(400):
        if state.is_over:
            break
        state = play_bot_turn(state, state.turn, level=levels[state.turn], rng=rng, strict=True)
        assert accounted(state), f"hand {seed}: a tile went missing at move {state.move}"
    assert state.is_over, f"hand {seed} did not end"
    return state


@pytest.mark.parametrize("part", range(4))
def test_two_hundred_bot_hands_play_legally_to_the_end_with_the_rules_scores(part):
    reasons = Counter()
    for seed in range(part * 50, part * 50 + 50):
        state = play_hand(seed)
        result = state.result
        reasons[result.reason] += 1
        if result.reason == CANCELLED:
            assert result.scores == (0, 0, 0, 0)
            continue
        expected = hand_scores(state.racks, state.opened, state.okey, state.rules, finisher=result.finisher,
                               okey_finish=result.okey_finish, elden=result.elden, penalties=state.penalties)
        assert list(result.scores) == expected, f"hand {seed}"
    assert reasons[FINISHED] > 0
