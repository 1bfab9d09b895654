"""How strong is each bot level? ``python bench/bots.py [--hands 1000] [--jobs 2] [--level normal]
[--opponents random,greedy,easy,normal,hard]``, or ``--all`` for the table in BENCHMARKS.md (every
level against random and greedy players, easy and hard against normal, hard against easy).

Plays seeded 4-player hands: the bot against three random players, three greedy players (the
time-out auto-play's discard choice, always drawing from the pile), or three bots of another level
(each with its own memory, as on the site). The bot's seat
and the starting seat rotate over the hands, so every seat order is played equally often. Prints
per-seat hand win rates with 95 % Wilson intervals, finishes by kind, pile-outs, the bot's net
points per hand (countdown values, zero-sum) and hands per second.

Every hand is dealt from a seed, so a run is reproducible whatever ``--jobs`` is. The bot watches
the table the way a player does: its memory is shown the bot seat's view after every turn.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine.bots import (  # noqa: E402
    LEVELS,
    BotMemory,
    greedy_discard_move,
    play_bot_turn,
    random_discard_move,
)
from games.engine.deck import deal  # noqa: E402
from games.engine.hand import view_for  # noqa: E402
from games.engine.rules import RuleSet  # noqa: E402
from games.engine.scoring import finish_value  # noqa: E402

OPPONENTS = {"random": random_discard_move, "greedy": greedy_discard_move}
PLAYERS = 4
Z95 = 1.959964


def wilson(wins: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval: honest near 0 % and 100 %, unlike the normal approximation."""
    if trials == 0:
        return 0.0, 1.0
    p = wins / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def play_hand(index: int, opponent: str, level: str, seed: str) -> dict[str, Any]:
    """One hand: the bot at seat ``index % 4``, the starting seat ``(index // 4) % 4``."""
    rules = RuleSet()
    bot_seat = index % PLAYERS
    state = deal(rules, seed=f"{seed}-{index}", starting_seat=(index // PLAYERS) % PLAYERS)
    rng = random.Random(f"{seed}-{index}-players")
    policy = OPPONENTS.get(opponent)
    # Every bot seat watches the table: its memory is shown its own view after every turn.
    watchers = [bot_seat] if policy is not None else list(range(PLAYERS))
    memories = {seat: BotMemory() for seat in watchers}
    while not state.is_over:
        seat = state.turn
        if seat == bot_seat:
            state = play_bot_turn(state, seat, level=level, rng=rng, memory=memories[seat])
        elif policy is None:
            state = play_bot_turn(state, seat, level=opponent, rng=rng, memory=memories[seat])
        else:
            state = play_bot_turn(state, seat, rng=rng, policy=policy)
        if not state.is_over:
            for watcher, memory in memories.items():
                memory.observe(view_for(state, watcher))
    result = state.result
    assert result is not None
    finish = result.finish
    # Zero-sum points: the finisher collects what each other player loses under countdown scoring
    # (2, x4 pairs, x2 okey finish); shown indicators are left out, they are not skill in play.
    value = 0 if finish is None else finish_value(finish, rules, double_okey=result.double_okey)
    if result.finisher is None:
        points = 0
    elif result.finisher == bot_seat:
        points = value * (PLAYERS - 1)
    else:
        points = -value
    return {
        "winner": None if result.finisher is None else ("bot" if result.finisher == bot_seat else "opponent"),
        "kind": None if finish is None else finish.kind + (" + okey" if finish.okey_finish else ""),
        "bot_points": points,
        "moves": state.move,
        "showed": bot_seat in result.shown_indicators,
        "declared": bot_seat in result.declared_pairs,
    }


def _chunk(args: tuple[list[int], str, str, str]) -> list[dict[str, Any]]:
    indices, opponent, level, seed = args
    return [play_hand(index, opponent, level, seed) for index in indices]


def run_matchup(opponent: str, hands: int, jobs: int, level: str, seed: str) -> tuple[list[dict[str, Any]], float]:
    start = time.perf_counter()
    if jobs <= 1:
        results = _chunk((list(range(hands)), opponent, level, seed))
    else:
        step = jobs * 4  # interleaved chunks: every worker gets every seat order
        chunks = [(list(range(first, hands, step)), opponent, level, seed) for first in range(step)]
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            results = [row for rows in pool.map(_chunk, chunks) for row in rows]
    return results, time.perf_counter() - start


def report(level: str, opponent: str, results: list[dict[str, Any]], seconds: float) -> None:
    hands = len(results)
    winners = Counter(row["winner"] for row in results)
    kinds = Counter(row["kind"] for row in results if row["kind"] is not None)
    bot_low, bot_high = wilson(winners["bot"], hands)
    opp_seats = hands * (PLAYERS - 1)
    opp_low, opp_high = wilson(winners["opponent"], opp_seats)
    print(f"\n{level} bot ({hands} hands) vs 3 {opponent} players:")
    print(f"  bot seat        wins {winners['bot']:>5} / {hands:<6} {winners['bot'] / hands:6.1%}  "
          f"95% CI [{bot_low:.1%}, {bot_high:.1%}]")
    print(f"  {opponent} seat{' ' * (11 - len(opponent))}wins {winners['opponent']:>5} / {opp_seats:<6} "
          f"{winners['opponent'] / opp_seats:6.1%}  95% CI [{opp_low:.1%}, {opp_high:.1%}]  (per seat)")
    print(f"  pile-outs       {winners[None]:>5} / {hands:<6} {winners[None] / hands:6.1%}")
    print("  finishes by kind: " + ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items())))
    points = sum(row["bot_points"] for row in results) / hands
    moves = sum(row["moves"] for row in results) / hands
    declared = sum(row["declared"] for row in results)
    showed = sum(row["showed"] for row in results)
    print(f"  bot net points per hand {points:+.2f} (finisher takes each other seat's countdown loss); "
          f"bot declared pairs in {declared} hands, showed the indicator in {showed}; {moves:.0f} moves per hand")
    print(f"  {hands / seconds:.1f} hands/s ({seconds:.1f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=1000, help="hands per matchup (default 1000)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--level", choices=LEVELS, default="normal")
    parser.add_argument("--opponents", default="random,greedy",
                        help="comma-separated: random, greedy, easy, normal, hard")
    parser.add_argument("--all", action="store_true",
                        help="every level against random and greedy, then easy/hard against normal, hard against easy")
    parser.add_argument("--seed", default="bench", help="seed prefix for the deals")
    args = parser.parse_args()
    opponents = [name.strip() for name in args.opponents.split(",") if name.strip()]
    unknown = [name for name in opponents if name not in OPPONENTS and name not in LEVELS]
    if unknown:
        parser.error(f"unknown opponents: {', '.join(unknown)}")
    matchups = [(args.level, opponent) for opponent in opponents]
    if args.all:
        # Each level against the baselines, then each pair of levels once (one against three).
        matchups = [(level, opponent) for level in LEVELS for opponent in OPPONENTS]
        matchups += [("easy", "normal"), ("hard", "normal"), ("hard", "easy")]
    print(f"{args.hands} hands per matchup, {args.jobs} job(s), seed {args.seed!r}")
    for level, opponent in matchups:
        results, seconds = run_matchup(opponent, args.hands, args.jobs, level, args.seed)
        report(level, opponent, results, seconds)
        sys.stdout.flush()
    print("\n(a per-seat win rate of 25 % is parity at a 4-player table; pile-outs count for nobody)")


if __name__ == "__main__":
    main()
