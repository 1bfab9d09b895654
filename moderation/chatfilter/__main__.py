"""Try sentences from a shell: ``python -m moderation.chatfilter "sen ne salaksın"``.

Prints the decision and the reasons, like the staff "test a sentence" tool; reads lines from
standard input when no argument is given.
"""

from __future__ import annotations

import sys

from . import filter_message


def main(argv: list[str]) -> int:
    lines = argv or [line.rstrip("\n") for line in sys.stdin]
    for line in lines:
        result = filter_message(line)
        print(f"{result.action:6} {','.join(result.categories) or '-':24} {result.text}")
        for reason in result.reasons:
            print(f"       - {reason}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main(sys.argv[1:]))
