"""Command line: ``python -m games.engine check --indicator K2 K1 K2 K3 ...``.

Always exactly one JSON object on stdout, so scripts and bug reports can rely on it: the answer
(exit 0) or ``{"error": ...}`` (exit 2), including for mistakes in the command line itself.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .check import CheckError, check
from .rules import PRESETS


class UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    """argparse that raises instead of printing usage text and exiting."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m games.engine", description="Okey rules engine tools.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    checker = commands.add_parser("check", help="does a 14- or 15-tile rack finish, and how")
    checker.add_argument("tiles", nargs="*", help="the rack in notation, e.g. K1 S13 J")
    checker.add_argument("--indicator", required=True, help="the face-up indicator tile, e.g. K5")
    checker.add_argument("--scoring", choices=PRESETS, default="countdown")
    checker.add_argument("--max-jokers-per-set", type=_joker_limit, default=None, metavar="1|none")
    checker.add_argument("--pairs-only", action="store_true", help="the player declared pairs")
    checker.add_argument("--color-finish", action="store_true", help="renkten bitme scores extra")
    checker.add_argument("--no-okey-pairs", action="store_true", help="a wild okey may not complete a pair")
    checker.set_defaults(run=_run_check)
    return parser


def _joker_limit(text: str) -> int | None:
    if text.lower() in ("none", "unlimited"):
        return None
    if text == "1":
        return 1
    raise argparse.ArgumentTypeError(f"'{text}' is not a joker limit: use 1 or none")


def _run_check(args: argparse.Namespace) -> dict[str, Any]:
    options: dict[str, Any] = {"scoring": args.scoring, "pairs_only": args.pairs_only}
    if args.max_jokers_per_set is not None:
        options["max_jokers_per_set"] = args.max_jokers_per_set
    if args.color_finish:
        options["color_finish"] = True
    if args.no_okey_pairs:
        options["okey_completes_pair"] = False
    return check(" ".join(args.tiles), args.indicator, **options)


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        if args.command is None:
            raise UsageError("give a command: check")
        result = args.run(args)
    except (UsageError, CheckError) as error:
        print(json.dumps({"error": str(error)}, ensure_ascii=False))
        return 2
    print(json.dumps(result, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
