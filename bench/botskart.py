"""How strong is each Kart Okey bot level? ``python bench/botskart.py [--matches 300] [--jobs 2]
[--levels easy,normal,hard] [--seed benchkart]``.

Each level plays seeded 3-round tables of four (RULES.md "Kart Okey", two decks) in one seat
against three ``normal`` bots. The bot's seat rotates with the match (match ``i``: seat ``i % 4``)
and every match's first starting seat comes from its seed, so every seat order is played; every
level plays the same deals (the same seeds), so the levels are compared on the same cards.

Prints, per level: round wins (the bot went out; a round ended by the second stock out counts for
nobody) and table wins (the lowest total after 3 rounds; a tie for first counts as a win for each
tied seat, as the rules share first place), each with a 95 % Wilson interval, against the parity
of one seat in four; then the bot's mean points per round (low is good) against the normal seats',
how often it went rummy, and rounds per second. Last, each level against ``normal`` paired on the
same deals: the mean difference of the bot seat's match totals per hand, with a 95 % interval (the
same seeds deal the same cards, so this leaves out most of the deal's luck).

Deals and the bots' choices are seeded, so a run is reproducible whatever ``--jobs`` is.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bots101 import Z95, wilson  # noqa: E402  (the same interval as the 101 levels' figures)

from games.engine.kart.bots import LEVELS, play_bot_turn  # noqa: E402
from games.engine.kart.match import is_over, record_hand, start_match, start_next_hand, winners  # noqa: E402
from games.engine.kart.rules import RulesKart  # noqa: E402

PLAYERS = 4
ROUNDS = 3
OPPONENT = "normal"


def play_match(index: int, level: str, seed: str) -> dict[str, Any]:
    """One 3-round table: ``level`` at seat ``index % 4``, three normal bots elsewhere."""
    bot = index % PLAYERS
    levels = [level if seat == bot else OPPONENT for seat in range(PLAYERS)]
    match = start_match(RulesKart(players=PLAYERS, rounds=ROUNDS), seed=f"{seed}-{index}")
    rng = random.Random(f"{seed}-{index}-{level}")
    hands = finishes = rummies = bot_points = other_points = 0
    while not is_over(match):
        state = start_next_hand(match)
        while not state.is_over:
            seat = state.turn
            state = play_bot_turn(state, seat, level=levels[seat], rng=rng)
        result = state.result
        match = record_hand(match, state)
        hands += 1
        finishes += result.winner == bot
        rummies += result.winner == bot and result.rummy
        bot_points += result.scores[bot]
        other_points += sum(result.scores) - result.scores[bot]
    won = winners(match)
    return {"index": index, "bot_total": match.scores[bot], "hands": hands, "finishes": finishes, "finished_hands": sum(
        1 for entry in match.history if entry["winner"] is not None), "rummies": rummies,
        "match_win": bot in won, "tied": bot in won and len(won) > 1,
        "bot_points": bot_points, "other_points": other_points}


def _chunk(args: tuple[list[int], str, str]) -> list[dict[str, Any]]:
    indices, level, seed = args
    return [play_match(index, level, seed) for index in indices]


def run_level(level: str, matches: int, jobs: int, seed: str) -> tuple[list[dict[str, Any]], float]:
    start = time.perf_counter()
    if jobs <= 1:
        rows = _chunk((list(range(matches)), level, seed))
    else:
        step = jobs * PLAYERS  # interleaved chunks: every worker plays every seat
        chunks = [(list(range(first, matches, step)), level, seed) for first in range(step)]
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            rows = [row for part in pool.map(_chunk, chunks) for row in part]
    rows.sort(key=lambda row: row["index"])
    return rows, time.perf_counter() - start


def report(level: str, rows: list[dict[str, Any]], seconds: float) -> None:
    matches = len(rows)
    totals = Counter()
    for row in rows:
        totals.update({key: value for key, value in row.items() if not isinstance(value, bool) and key != "index"})
        totals["match_wins"] += row["match_win"]
        totals["ties"] += row["tied"]
    hands = totals["hands"]
    hand_low, hand_high = wilson(totals["finishes"], hands)
    match_low, match_high = wilson(totals["match_wins"], matches)
    print(f"\n{level} bot against 3 {OPPONENT} bots: {matches} tables of {ROUNDS} rounds ({hands} rounds)")
    print(f"  round wins  {totals['finishes']:>5} / {hands:<6} {totals['finishes'] / hands:6.1%}  "
          f"95% CI [{hand_low:.1%}, {hand_high:.1%}]   (someone went out in {totals['finished_hands'] / hands:.1%} "
          f"of rounds: parity {totals['finished_hands'] / hands / PLAYERS:.1%})")
    print(f"  table wins  {totals['match_wins']:>5} / {matches:<6} {totals['match_wins'] / matches:6.1%}  "
          f"95% CI [{match_low:.1%}, {match_high:.1%}]   (parity 25.0%; {totals['ties']} shared first places)")
    print(f"  points per round: bot {totals['bot_points'] / hands:+.1f}, each normal seat "
          f"{totals['other_points'] / hands / (PLAYERS - 1):+.1f}; it went rummy in {totals['rummies']} of its "
          f"{totals['finishes']} wins")
    print(f"  {hands / seconds:.1f} rounds/s ({seconds:.0f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=300, help="3-round tables per level (default 300)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--levels", default=",".join(LEVELS), help="comma-separated: easy, normal, hard")
    parser.add_argument("--seed", default="benchkart", help="seed prefix for the matches")
    args = parser.parse_args()
    levels = [name.strip() for name in args.levels.split(",") if name.strip()]
    unknown = [name for name in levels if name not in LEVELS]
    if unknown:
        parser.error(f"unknown levels: {', '.join(unknown)}")
    print(f"{args.matches} tables per level, {args.jobs} job(s), seed {args.seed!r}")
    results = {}
    for level in levels:
        rows, seconds = run_level(level, args.matches, args.jobs, args.seed)
        report(level, rows, seconds)
        results[level] = rows
        sys.stdout.flush()
    if OPPONENT in results and len(results) > 1:
        print(f"\nPaired on the same deals: the bot seat's table total minus the {OPPONENT} level's in that "
              "seat (low is good), per round, with a 95 % interval:")
        for level, rows in results.items():
            if level != OPPONENT:
                paired(level, rows, results[OPPONENT])
    print("\n(the normal level against three normal bots is the control: any gap from parity there is noise)")


def paired(level: str, rows: list[dict[str, Any]], control: list[dict[str, Any]]) -> None:
    """The same match seeds deal the same cards whoever plays, so differences of totals per match
    leave out most of the deal's luck (play still changes who draws what later)."""
    diffs = [(row["bot_total"] - base["bot_total"]) / max(1, row["hands"])
             for row, base in zip(rows, control, strict=True)]
    mean = statistics.fmean(diffs)
    half = Z95 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else float("inf")
    print(f"  {level:<7} {mean:+.1f} points per round [{mean - half:+.1f}, {mean + half:+.1f}]")


if __name__ == "__main__":
    main()
