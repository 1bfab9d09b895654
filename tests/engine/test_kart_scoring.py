"""Scores and prizes, RULES.md "Kart Okey" rules 8 and 9: the winner 0, every other player the value
of the cards left, +25 each if the winner went rummy; the prize pool: the winner at least 75 %, the
other 25 % to the other players under 80 penalty points (80 × rounds at longer tables), weight
80 − points, rounded down, remainders to the winner; a table with no winner shares the whole pool by
the same weights, or gives the stakes back when nobody is under the limit."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from games.engine.kart.cards import parse_cards
from games.engine.kart.scoring import hand_scores, hand_sheet, prize_split


def test_rule8_the_winner_writes_0_the_others_their_cards_and_25_more_each_when_the_winner_went_rummy():
    hands = [[], parse_cards("MA K10"), parse_cards("R2 R3 SK"), parse_cards("SQ")]
    assert hand_scores(hands, winner=0) == [0, 21, 15, 10]
    assert hand_scores(hands, winner=0, rummy=True) == [0, 46, 40, 35]
    sheet = hand_sheet(hands, winner=0, rummy=True)
    assert sheet[1] == {"seat": 1, "kind": "left", "cards": 21, "rummy_bonus": 25, "score": 46, "left": ["MA", "K10"]}
    assert sheet[2]["left"] == ["R2", "R3", "SK"]
    assert sheet[0]["kind"] == "won" and sheet[0]["left"] == []
    # The second stock out: nobody won; everyone their own hand, never the +25.
    assert hand_scores([parse_cards("MA"), *hands[1:]], winner=None, rummy=True) == [11, 21, 15, 10]


def test_rule9_the_prize_example_pool_100_losers_10_30_95_get_14_10_0_and_the_winner_76():
    assert prize_split(100, [0, 10, 30, 95], [0]) == [76, 14, 10, 0]


def test_rule9_longer_tables_use_80_per_round_and_only_players_under_the_limit_share():
    # Three rounds: the limit is 240; 230 shares (weight 10), 240 does not.
    shares = prize_split(1000, [40, 230, 240, 100], [0], limit=240)
    assert shares[2] == 0 and shares[1] == 1000 * 10 // (4 * 150) and shares[3] == 1000 * 140 // (4 * 150)
    assert sum(shares) == 1000 and shares[0] >= 750
    # Nobody else under the limit: the winner takes all.
    assert prize_split(100, [0, 80, 95], [0]) == [100, 0, 0]


def test_rule9_a_table_with_no_winner_shares_the_whole_pool_or_gives_the_stakes_back():
    assert prize_split(100, [10, 30, 95], []) == [59, 41, 0]     # weights 70 and 50: 58.3 and 41.6, remainder to 10
    assert prize_split(100, [85, 90, 95], []) == [34, 33, 33]    # stakes back, the remainder in play order
    assert prize_split(100, [85, 90, 95], [], order=[1, 2, 0]) == [33, 34, 33]


def test_rule9_tied_winners_split_the_winners_part():
    shares = prize_split(102, [20, 20, 60], [0, 1], order=[1, 2, 0])
    assert shares == [38, 39, 25]
    assert shares[1] == shares[0] + 1                            # the odd chip to the first in play order


@given(pool=st.integers(0, 10_000), points=st.lists(st.integers(0, 300), min_size=2, max_size=4),
       limit=st.sampled_from([80, 160, 240]), data=st.data())
def test_rule9_shares_always_add_up_to_the_pool_and_a_winner_gets_at_least_75_percent(pool, points, limit, data):
    winners = data.draw(st.lists(st.integers(0, len(points) - 1), unique=True, max_size=2))
    shares = prize_split(pool, points, winners, limit=limit)
    assert sum(shares) == pool and all(share >= 0 for share in shares)
    if winners:
        assert sum(shares[seat] for seat in winners) * 4 >= pool * 3
        assert all(shares[seat] == 0 for seat in range(len(points)) if seat not in winners and points[seat] >= limit)
