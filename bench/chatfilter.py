"""Chat filter speed: microseconds per message for table talk, insults and advertising.

    .venv/bin/python bench/chatfilter.py [--runs 300]

Prints the best of three passes (the filter runs on every chat line, inside the socket's turn)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from moderation.chatfilter import filter_message  # noqa: E402

MESSAGES = {
    "table talk": "selam millet bu el çok uzun sürdü, okeyi bana ver bakalım 12 13 1 seri yaptım iyi oyunlar herkese",
    "insults": "sen ne salak adamsın ya, s a l a k, bu nasıl oyun aptal mısın geri zekalı herif taş at hadi bakalım",
    "advertising": "arkadaşlar bedavaokey nokta com adresine gelin, 0532 123 45 67 arayın, instagram: okeyci34 takip edin",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=300)
    args = parser.parse_args()
    for name, message in MESSAGES.items():
        filter_message(message)  # warm-up: rules compiled, caches filled
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            for _ in range(args.runs):
                filter_message(message)
            best = min(best, (time.perf_counter() - start) / args.runs)
        print(f"{name:12s} {len(message):4d} chars  {best * 1e6:8.1f} µs per message")


if __name__ == "__main__":
    main()
