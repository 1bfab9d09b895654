"""The pure tournament logic: seeding, tables, advancement, arena pairing and points, payouts.
Plain pytest + hypothesis, no database (like the engine's tests)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments import logic
from tournaments.logic import BOT, ArenaPlayer, Entrant, TableResult


def entrants(ratings):
    return [Entrant(player_id=index + 1, rating=rating) for index, rating in enumerate(ratings)]


# -- seeding -------------------------------------------------------------------------------------------


def test_seed_order_is_strongest_first_and_ties_go_by_id():
    assert logic.seed_order(entrants([10, 30, 20, 30])) == [2, 4, 3, 1]


def test_sixteen_players_four_tables_top_four_seeds_apart():
    tables = logic.seeded_tables(list(range(1, 17)))
    assert len(tables) == 4
    assert [table[0] for table in tables] == [1, 2, 3, 4]
    # Snake: the second row comes back, so table 1 has seeds 1, 8, 9, 16.
    assert tables[0] == [1, 8, 9, 16]
    assert all(BOT not in table for table in tables)


@pytest.mark.parametrize("players,bots", [(5, 3), (6, 2), (7, 1), (9, 3), (13, 3), (63, 1), (2, 2), (3, 1)])
def test_bots_fill_uneven_tables(players, bots):
    tables = logic.seeded_tables(list(range(players)))
    seats = [seat for table in tables for seat in table]
    assert seats.count(BOT) == bots
    assert all(len(table) == 4 for table in tables)
    assert all(any(seat is not BOT for seat in table) for table in tables)


def test_bots_spread_over_tables_when_there_are_enough():
    tables = logic.seeded_tables(list(range(9)))  # three tables, three bots
    assert [table.count(BOT) for table in tables] == [1, 1, 1]


def test_a_player_sits_once():
    with pytest.raises(ValueError):
        logic.seeded_tables([1, 1, 2])


@given(st.integers(min_value=1, max_value=300), st.sampled_from([2, 4]))
def test_tables_hold_everyone_once_and_top_seeds_apart(players, size):
    seeded = list(range(players))
    tables = logic.seeded_tables(seeded, size)
    seated = [seat for table in tables for seat in table if seat is not BOT]
    assert sorted(seated) == seeded
    assert all(len(table) == size for table in tables)
    assert sum(table.count(BOT) for table in tables) < size
    assert all(any(seat is not BOT for seat in table) for table in tables)
    count = len(tables)
    # The strongest ``count`` seeds sit at different tables: they can only meet later.
    firsts = {index for index, table in enumerate(tables) for seat in table if seat is not BOT and seat < count}
    assert len(firsts) == min(count, players)


# -- knockout advancement ------------------------------------------------------------------------------


def test_countdown_ranking_high_first_penalty_low_first():
    seats = [1, 2, 3, 4]
    assert logic.table_ranking(seats, [5, 0, 12, 3], logic.COUNTDOWN) == [2, 0, 3, 1]
    assert logic.table_ranking(seats, [20, 0, 40, 20], logic.PENALTY) == [1, 0, 3, 2]


def test_ties_go_to_the_better_seed_and_a_bot_is_worst():
    seats = [7, BOT, 9, 8]
    ranking = logic.table_ranking(seats, [10, 10, 10, 10], logic.COUNTDOWN, seed_rank={9: 0, 8: 1, 7: 2})
    assert ranking == [2, 3, 0, 1]


def test_a_bot_never_goes_on_the_best_placed_person_does():
    seats = [BOT, 11, 12, 13]
    ranking = logic.table_ranking(seats, [30, 4, 0, 2], logic.COUNTDOWN)  # the bot won the table
    assert logic.advancers(seats, ranking, 1) == [11]
    assert logic.advancers(seats, ranking, 2) == [11, 13]


def test_removed_players_do_not_go_on():
    seats = [1, 2, 3, 4]
    ranking = [0, 1, 2, 3]
    assert logic.advancers(seats, ranking, 1, out={1}) == [2]
    assert logic.advancers(seats, ranking, 2, out={1, 2, 3, 4}) == []


def test_go_on_is_one_or_two():
    with pytest.raises(ValueError):
        logic.advancers([1, 2, 3, 4], [0, 1, 2, 3], 3)


@pytest.mark.parametrize("players,go_on,rounds", [(64, 1, 3), (64, 2, 5), (4, 1, 1), (5, 1, 2), (17, 1, 3),
                                                    (256, 1, 4), (2, 1, 1), (5, 2, 2), (30, 2, 4)])
def test_rounds_until_one_final_table(players, go_on, rounds):
    assert logic.knockout_rounds(players, go_on) == rounds


@given(st.integers(min_value=2, max_value=500), st.sampled_from([1, 2]))
def test_every_round_shrinks_to_a_final_table(players, go_on):
    while not logic.is_final_round(players):
        tables = logic.seeded_tables(list(range(players)))
        going = sum(len(logic.advancers(t, list(range(4)), go_on)) for t in tables)
        assert going < players
        players = going
    assert 1 <= players <= 4


def test_knockout_standings_by_round_then_table_place():
    results = [
        TableResult(round=1, seats=(1, 2, 3, 4), ranking=(0, 1, 2, 3)),
        TableResult(round=1, seats=(5, 6, 7, BOT), ranking=(3, 1, 0, 2)),
        TableResult(round=2, seats=(1, 6, BOT, BOT), ranking=(1, 0, 2, 3)),
    ]
    assert logic.knockout_standings(results) == [6, 1, 2, 5, 3, 7, 4]
    assert logic.knockout_standings(results, removed={6}) == [1, 2, 5, 3, 7, 4, 6]


# -- arena ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("entry,points", [
    ({"reason": "finished", "finisher": 1, "kind": "sets"}, [0, 2, 0, 0]),
    ({"reason": "finished", "finisher": 1, "kind": "sets", "okey_finish": True}, [0, 4, 0, 0]),
    ({"reason": "finished", "finisher": 2, "kind": "pairs"}, [0, 0, 8, 0]),
    ({"reason": "finished", "finisher": 2, "kind": "pairs", "okey_finish": True}, [0, 0, 16, 0]),
    ({"reason": "finished", "finisher": 0, "kind": "sets", "double_okey": True, "okey_finish": True}, [8, 0, 0, 0]),
    ({"reason": "finished", "finisher": 0, "kind": "sets", "color": "unordered"}, [8, 0, 0, 0]),
    ({"reason": "finished", "finisher": 0, "kind": "sets", "color": "ordered"}, [16, 0, 0, 0]),
    ({"reason": "pile_out", "finisher": None, "shown_indicators": [3]}, [0, 0, 0, 1]),
    ({"reason": "finished", "finisher": 3, "kind": "sets", "shown_indicators": [3, 0]}, [1, 0, 0, 3]),
])
def test_arena_hand_points(entry, points):
    assert logic.arena_hand_points(entry, 4) == points


def test_arena_seats_similar_scores_together():
    free = [ArenaPlayer(player_id=i, points=p) for i, p in enumerate([0, 30, 2, 28, 1, 29, 3, 31])]
    tables, waiting = logic.arena_tables(free)
    assert tables == [[7, 1, 5, 3], [6, 2, 4, 0]]
    assert waiting == []


def test_arena_leftovers_wait_for_players_still_at_tables():
    free = [ArenaPlayer(player_id=i, points=0) for i in range(6)]
    tables, waiting = logic.arena_tables(free, playing=8)
    assert len(tables) == 1 and waiting == [4, 5]


def test_arena_leftovers_get_bots_when_nobody_can_join_them_or_after_waiting():
    free = [ArenaPlayer(player_id=i, points=0) for i in range(6)]
    tables, waiting = logic.arena_tables(free, playing=1)
    assert tables[1] == [4, 5, BOT, BOT] and waiting == []
    free = [ArenaPlayer(player_id=0, points=0, waited=20.0)]
    assert logic.arena_tables(free, playing=40) == ([[0, BOT, BOT, BOT]], [])


@given(st.lists(st.integers(min_value=0, max_value=100), max_size=60), st.integers(min_value=0, max_value=50),
       st.sampled_from([2, 4]))
def test_arena_seats_each_free_player_at_most_once(points, playing, size):
    free = [ArenaPlayer(player_id=i, points=p) for i, p in enumerate(points)]
    tables, waiting = logic.arena_tables(free, table_size=size, playing=playing)
    seated = [seat for table in tables for seat in table if seat is not BOT]
    assert sorted(seated + waiting) == list(range(len(points)))
    assert all(len(table) == size for table in tables)
    assert len(waiting) < size
    for table in tables:
        scores = [points[seat] for seat in table if seat is not BOT]
        # Similar scores: nobody outside the table sits between its lowest and highest score.
        others = [points[i] for i in range(len(points)) if i not in table and i not in waiting]
        assert not any(min(scores) < other < max(scores) for other in others)


def test_arena_standings():
    players = [ArenaPlayer(1, 10, rating=5), ArenaPlayer(2, 10, rating=1), ArenaPlayer(3, 12), ArenaPlayer(4, 10, 5)]
    assert logic.arena_standings(players, {1: 2, 4: 3}) == [3, 4, 1, 2]


# -- prizes --------------------------------------------------------------------------------------------


def test_knockout_penalty_pool_as_source_001():
    payout = logic.knockout_prizes(1000, [(1, 0), (2, 20), (3, 20), (4, 40)], scoring=logic.PENALTY)
    assert payout == {1: 750, 2: 125, 3: 125}


def test_knockout_three_hand_limit_is_80():
    payout = logic.knockout_prizes(1000, [(1, 20), (2, 40), (3, 60), (4, 100)], scoring=logic.PENALTY,
                                   hands_per_match=3)
    assert payout == {1: 750, 2: 167, 3: 83}


def test_knockout_nobody_under_the_limit_winner_takes_all():
    assert logic.knockout_prizes(999, [(1, 20), (2, 40), (3, 60)], scoring=logic.PENALTY) == {1: 999}


def test_knockout_countdown_final_shares_by_points_left():
    payout = logic.knockout_prizes(100, [(1, 6), (2, 3), (3, 0), (4, -2)], scoring=logic.COUNTDOWN)
    assert payout == {1: 75, 2: 25}


def test_knockout_bots_and_removed_get_nothing():
    payout = logic.knockout_prizes(100, [(BOT, 0), (5, 20), (BOT, 20), (6, 30)], scoring=logic.PENALTY)
    assert payout == {5: 75, 6: 25}
    assert logic.knockout_prizes(100, [(5, 0), (6, 20)], scoring=logic.PENALTY, out={5}) == {6: 100}
    assert logic.knockout_prizes(100, [(BOT, 0)], scoring=logic.PENALTY) == {}


def test_arena_pays_50_30_20_and_the_rest_to_the_winner():
    assert logic.arena_prizes(1000, [4, 2, 9, 1]) == {4: 500, 2: 300, 9: 200}
    assert logic.arena_prizes(101, [4, 2, 9]) == {4: 51, 2: 30, 9: 20}
    assert logic.arena_prizes(100, [4, 2]) == {4: 70, 2: 30}
    assert logic.arena_prizes(100, [4]) == {4: 100}
    assert logic.arena_prizes(0, [4]) == {}


def test_negative_pools_are_refused():
    with pytest.raises(ValueError):
        logic.arena_prizes(-1, [1])
    with pytest.raises(ValueError):
        logic.knockout_prizes(-1, [(1, 0)], scoring=logic.PENALTY)


final_tables = st.lists(
    st.tuples(st.one_of(st.none(), st.integers(min_value=1, max_value=10_000)), st.integers(min_value=-50, max_value=200)),
    min_size=1, max_size=4, unique_by=lambda seat: seat[0] if seat[0] is not None else object(),
)


@given(st.integers(min_value=0, max_value=10**9), final_tables, st.sampled_from([logic.PENALTY, logic.COUNTDOWN]),
       st.sampled_from([1, 3]))
def test_knockout_payouts_add_up(pool, final, scoring, hands):
    payout = logic.knockout_prizes(pool, final, scoring=scoring, hands_per_match=hands)
    people = [player for player, _ in final if player is not BOT]
    if not people or pool == 0:
        assert payout == {}
        return
    assert sum(payout.values()) == pool
    assert all(amount >= 0 for amount in payout.values())
    assert set(payout) <= set(people)
    assert payout[people[0]] * 100 >= pool * logic.WINNER_MIN_PERCENT
    assert payout[people[0]] == max(payout.values())


@given(st.integers(min_value=0, max_value=10**9), st.lists(st.integers(min_value=1), unique=True, max_size=50))
def test_arena_payouts_add_up(pool, standings):
    payout = logic.arena_prizes(pool, standings)
    if not standings or pool == 0:
        assert payout == {}
        return
    assert sum(payout.values()) == pool
    assert all(amount >= 0 for amount in payout.values())
    assert set(payout) <= set(standings[:3])
    assert payout[standings[0]] == max(payout.values())
