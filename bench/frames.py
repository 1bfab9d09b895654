"""What listing ``finish`` in ``actions`` costs per frame: ``python bench/frames.py [--quick]``.

``actions`` lists ``finish`` only when the rack can finish, so every frame of the seat to play in
the discard phase runs the engine's finish search (``hand.can_finish``). This collects those
positions from bot-played hands (real racks, near-winning ones included), then times, per frame:
the search alone, ``legal_actions`` and the whole ``view_for``. Process CPU time on one core;
tests never assert a timing.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine.bots import play_bot_turn  # noqa: E402
from games.engine.deck import deal  # noqa: E402
from games.engine.hand import PHASE_DISCARD, HandState, apply, can_finish, legal_actions, view_for  # noqa: E402
from games.engine.rules import RuleSet  # noqa: E402

clock = time.process_time


def discard_positions(hands: int) -> list[HandState]:
    """Every position where a seat holds 15 tiles, from ``hands`` seeded bot hands."""
    positions = []
    for seed in range(hands):
        state = deal(RuleSet(), seed=f"frames/{seed}", starting_seat=seed % 4)
        while not state.is_over:
            if state.phase == PHASE_DISCARD:
                positions.append(state)
                state = play_bot_turn(state, state.turn)
            elif state.pile:
                state = apply(state, state.turn, "draw", source="pile")  # stop in the discard phase
            else:
                state = play_bot_turn(state, state.turn)
    return positions


def percentiles(name: str, seconds: list[float]) -> None:
    ordered = sorted(seconds)
    pick = lambda q: ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1e6  # noqa: E731
    print(f"  {name:<28} mean {sum(ordered) / len(ordered) * 1e6:6.0f} us   p50 {pick(0.5):6.0f} us   "
          f"p99 {pick(0.99):6.0f} us   worst {ordered[-1] * 1e6:6.0f} us")


def timed(function, positions: list[HandState]) -> list[float]:
    seconds = []
    for state in positions:
        start = clock()
        function(state, state.turn)
        seconds.append(clock() - start)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer hands, for a smoke run")
    hands = 20 if parser.parse_args().quick else 200
    positions = discard_positions(hands)
    ready = sum(can_finish(state, state.turn) for state in positions)
    print(f"{len(positions)} discard-phase frames from {hands} bot hands ({ready} of them can finish)")
    timed(can_finish, positions)  # warm the finish search's tables, as a running server has them
    gc.collect()
    gc.freeze()
    percentiles("finish search (can_finish)", timed(can_finish, positions))
    percentiles("legal_actions", timed(legal_actions, positions))
    percentiles("view_for (whole seat view)", timed(view_for, positions))
    print(f"(CPython {sys.version.split()[0]}, process CPU time on one core)")


if __name__ == "__main__":
    main()
