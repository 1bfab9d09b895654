"""A Kart Okey hand's scores and a table's prizes (RULES.md "Kart Okey", rules 6 to 9). Low is good.

**A hand** (rule 8): the winner (who went out) writes 0; every other player the value of the cards
left in hand (2-10 their number, J/Q/K 10, the ace 11), **+25** each when the winner went rummy.
A hand ended by the second stock out (rule 7) has no winner: everyone writes their own hand,
without the +25.

**The prize pool** (rule 9), ``prize_split``: the players under the limit (80 penalty points at a
one-round table, 80 × rounds otherwise) other than the winner share 25 % of the pool, each by the
weight ``limit − points``: ``floor(pool × weight / (4 × Σ weights))``; the winner takes the rest
(at least 75 %, all rounding remainders). Pool 100, losers 10 / 30 / 95 → 14 / 10 / 0, winner 76.

*Interpretations*:

* Tied winners of a multi-round table (rule 8: ties share) split the winner's part evenly; what
  does not divide goes one chip each to the tied winners in play order from the table's first
  starting seat (as 101's rule 13).
* A table with no winner (rule 7's second stock out at a one-round table; at a longer table only
  when none of its rounds had a winner) shares the whole pool by the same weights among the
  players under the limit; the remainder goes one chip each to them, fewest points first (ties in
  play order). When nobody is under the limit every player gets their stake back: the pool evenly,
  the remainder one chip each in play order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .cards import Card, format_card, hand_value, sorted_cards

RUMMY_BONUS = 25
#: Rule 9: the penalty limit of a one-round table (× rounds for longer tables).
PRIZE_LIMIT = 80
WON = "won"
LEFT = "left"


def hand_sheet(hands: Sequence[Sequence[Card]], *, winner: int | None, rummy: bool = False) -> list[dict[str, Any]]:
    """One row per seat: ``kind`` (won / left), the value of the cards left, the rummy +25, the score,
    and ``left``: the cards left, sorted by suit and rank (shown to everyone once the hand is over)."""
    rows = []
    for seat, cards in enumerate(hands):
        if seat == winner:
            rows.append({"seat": seat, "kind": WON, "cards": 0, "rummy_bonus": 0, "score": 0, "left": []})
            continue
        left = hand_value(cards)
        bonus = RUMMY_BONUS if winner is not None and rummy else 0
        rows.append({"seat": seat, "kind": LEFT, "cards": left, "rummy_bonus": bonus, "score": left + bonus,
                     "left": [format_card(card) for card in sorted_cards(cards)]})
    return rows


def hand_scores(hands: Sequence[Sequence[Card]], *, winner: int | None, rummy: bool = False) -> list[int]:
    return [row["score"] for row in hand_sheet(hands, winner=winner, rummy=rummy)]


def prize_split(pool: int, points: Sequence[int], winners: Sequence[int], *, limit: int = PRIZE_LIMIT,
                order: Sequence[int] | None = None) -> list[int]:
    """Rule 9: what each seat gets of ``pool`` given the table's penalty ``points`` and its
    ``winners`` (empty: no winner). ``order`` is the play order from the first starting seat (for
    remainders; default seat order). The shares always add up to ``pool``."""
    players = len(points)
    order = list(order) if order is not None else list(range(players))
    place = {seat: index for index, seat in enumerate(order)}
    shares = [0] * players
    if pool <= 0:
        return shares
    if winners:
        eligible = [seat for seat in range(players) if seat not in winners and points[seat] < limit]
        weights = {seat: limit - points[seat] for seat in eligible}
        total = sum(weights.values())
        for seat in eligible:
            shares[seat] = pool * weights[seat] // (4 * total)
        rest = pool - sum(shares)
        tied = sorted(winners, key=place.__getitem__)
        for seat in tied:
            shares[seat] += rest // len(tied)
        for seat in tied[: rest % len(tied)]:
            shares[seat] += 1
        return shares
    eligible = [seat for seat in range(players) if points[seat] < limit]
    if not eligible:
        for seat in range(players):
            shares[seat] = pool // players
        for seat in order[: pool % players]:
            shares[seat] += 1
        return shares
    weights = {seat: limit - points[seat] for seat in eligible}
    total = sum(weights.values())
    for seat in eligible:
        shares[seat] = pool * weights[seat] // total
    rest = pool - sum(shares)
    for seat in sorted(eligible, key=lambda seat: (points[seat], place[seat]))[:rest]:
        shares[seat] += 1
    return shares
