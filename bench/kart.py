"""Kart Okey engine timings: ``python bench/kart.py [--positions 10000] [--seed kart]``.

Collects ``--positions`` positions (a seat about to play its turn) from seeded hands at tables of
2, 3 and 4 (one deck, one deck, two decks; every fourth table of four plays one deck), played by
bots of mixed levels and the clock, so positions come from every stage of a hand, the stock
reshuffled ones included. Then, for every position:

* **turn validation**: ``apply_turn`` on a whole turn — the stock's top drawn and the best plan's
  melds, lay-offs and discard (what a player who plays well sends; the plan is found untimed);
* **bot turn**: ``play_bot_turn`` at each level (easy, normal, hard): deciding on the discard
  pile's top, the stock draw if any, the search, and applying the turn.

Each position is timed ``--repeats`` times (3) and the fastest run is kept: the calls are pure, so
the spread between runs is the host's (a shared machine preempts a process now and then), not the
position's. Prints median, p99 and worst in ms of those, and the same of the first run alone. The
garbage collector is run between timings and kept off during each one, so a collection of the
bench's own garbage is not charged to one turn.
Targets: a turn validated in < 1 ms; a bot's turn < 5 ms worst case.
"""

from __future__ import annotations

import argparse
import gc
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine.kart.bots import LEVELS, choose_turn, play_bot_turn  # noqa: E402
from games.engine.kart.hand import HandKart, apply_turn, clock_move, deal_from_deck  # noqa: E402
from games.engine.kart.match import shuffled_deck  # noqa: E402
from games.engine.kart.rules import RulesKart  # noqa: E402
from games.engine.kart.search import table_views  # noqa: E402

TABLES = [RulesKart(players=2), RulesKart(players=3), RulesKart(players=4), RulesKart(players=4),
          RulesKart(players=4), RulesKart(players=4, decks=1)]


def positions(count: int, seed: str) -> list[HandKart]:
    found: list[HandKart] = []
    number = 0
    while len(found) < count:
        rules = TABLES[number % len(TABLES)]
        state = deal_from_deck(shuffled_deck(rules, f"{seed}/{number}"), rules, starting_seat=number % rules.players)
        rng = random.Random(f"{seed}/{number}/players")
        players = [rng.choice([*LEVELS, "clock"]) for _ in range(rules.players)]
        while not state.is_over and len(found) < count:
            found.append(state)
            seat = state.turn
            if players[seat] == "clock":
                state = clock_move(state, seat)
            else:
                state = play_bot_turn(state, seat, level=players[seat], rng=rng)
        number += 1
    return found


def whole_turn(state: HandKart) -> dict:
    seat = state.turn
    cards = [*state.hands[seat], state.stock[0]]
    turn = choose_turn(state, seat, cards, table_views(state.melds), level="normal", rng=random.Random(0),
                       taken=None)
    turn["draw"] = "stock"
    return turn


def timed(call, items, repeats: int) -> tuple[list[float], list[float]]:
    """Per item: the first run's time and the fastest of ``repeats`` runs (the calls are pure: the
    same input every time), in ms."""
    first, best = [], []
    gc.collect()
    for index, item in enumerate(items):
        if index % 500 == 0:
            gc.collect()
        runs = []
        for _ in range(repeats):
            gc.disable()
            start = time.perf_counter_ns()
            call(item)
            runs.append((time.perf_counter_ns() - start) / 1e6)
            gc.enable()
        first.append(runs[0])
        best.append(min(runs))
    return first, best


def summary(name: str, times: tuple[list[float], list[float]]) -> str:
    first, best = (sorted(series) for series in times)

    def p99(ordered: list[float]) -> float:
        return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]

    return (f"| {name} | {len(best):,} | {statistics.median(best):.3f} | {p99(best):.3f} | {best[-1]:.3f} "
            f"| {statistics.median(first):.3f} / {p99(first):.3f} / {first[-1]:.3f} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=10_000)
    parser.add_argument("--seed", default="kart")
    parser.add_argument("--repeats", type=int, default=3, help="runs per position (the fastest is kept)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    found = positions(args.positions, args.seed)
    turns = [(state, whole_turn(state)) for state in found]
    print(f"{len(found):,} positions from seeded hands ({time.perf_counter() - started:.1f} s to collect); "
          f"Python {platform.python_version()} on {platform.machine()}")
    print("| what | positions | median ms | p99 ms | worst ms | first run only: median / p99 / worst ms |")
    print("|---|---|---|---|---|---|")
    print(summary("turn validation (`apply_turn`, whole turn)", timed(lambda item: apply_turn(item[0], item[0].turn,
                                                                                              item[1]), turns, args.repeats)))
    for level in LEVELS:
        rng = random.Random(level)
        print(summary(f"bot turn, {level}", timed(lambda state, level=level, rng=rng: play_bot_turn(
            state, state.turn, level=level, rng=rng), found, args.repeats)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
