"""Command line: ``python -m games.engine check --indicator K2 K1 K2 K3 ...``.

Always exactly one JSON object on stdout, so scripts and bug reports can rely on it: the answer
(exit 0) or ``{"error": ...}`` (exit 2), including for mistakes in the command line itself.

``python -m games.engine verify --deck "K1 S2 ..." --salt HEX --commitment HEX [--moves FILE.json]``
checks a revealed deal (see ``fairness.py``): the report, with exit 0 when it is valid and 1 when
it is not, so a script can tell "the server cheated" from "you typed it wrong" (2). ``FILE.json``
may be a hand's ``proof.json`` as the site serves it: its rules, starting seat and moves (the deal
first) are all the command needs, and a deck, salt or commitment in it must agree with the
command line.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from typing import Any

from .check import CheckError, check
from .fairness import FairnessError, normal_salt, verify_hand
from .rules import PRESETS, RuleSet, RuleSetError


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
    verifier = commands.add_parser("verify", help="check a revealed deck against its commitment and the hand's moves")
    verifier.add_argument("--deck", required=True, help="the revealed deck, top first, e.g. \"K1 S2 J ...\"")
    verifier.add_argument("--salt", required=True, help="the revealed salt (64 hex digits)")
    verifier.add_argument("--commitment", required=True, help="the SHA-256 published before the hand")
    verifier.add_argument("--moves", metavar="FILE.json",
                          help="the hand's proof.json, or its public moves: a JSON list, or an object with "
                               "\"moves\" (and \"rules\", \"starting_seat\")")
    verifier.add_argument("--starting-seat", type=int, default=None, metavar="N",
                          help="default: the file's starting_seat, else its deal entry's, else 0")
    verifier.add_argument("--players", type=int, choices=(2, 4), default=None)
    verifier.set_defaults(run=_run_verify, status=_verify_status)
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


def _run_verify(args: argparse.Namespace) -> dict[str, Any]:
    moves: list[Any] = []
    proof: dict[str, Any] | None = None
    rules_data: dict[str, Any] | None = None
    file_seat: Any = None
    disagreements: list[str] = []
    if args.moves is not None:
        try:
            with open(args.moves, encoding="utf-8") as handle:
                data = json.load(handle)
        except (OSError, ValueError) as error:
            raise UsageError(f"--moves: cannot read {args.moves}: {error}") from None
        if isinstance(data, dict):
            rules_data = data.get("rules")
            file_seat = data.get("starting_seat")
            proof = data
            data = data.get("moves", [])
        if not isinstance(data, list) or (rules_data is not None and not isinstance(rules_data, dict)):
            raise UsageError("--moves: give a JSON list of moves, or an object with a \"moves\" list")
        if not all(isinstance(move, dict) and isinstance(move.get("type"), str) for move in data):
            raise UsageError("--moves: every move is an object with a \"type\"")
        moves = data
    # The file's rules name their game (101 Okey: "game": "okey101"); no name is classic Okey.
    from .errors import EngineError
    from .game_types import game_type_of

    try:
        game = game_type_of(rules_data) if rules_data is not None else game_type_of({})
        rules = game.rules(rules_data) if rules_data is not None else RuleSet(players=args.players or 4)
    except (EngineError, RuleSetError, TypeError, ValueError) as error:
        raise UsageError(f"--moves: bad rules: {error}") from None
    if proof is not None:
        disagreements = _disagreements(proof, args, game)
    if args.players is not None and args.players != rules.players:
        raise UsageError(f"--players {args.players} disagrees with the {rules.players}-player rules in --moves")
    if args.starting_seat is not None and not 0 <= args.starting_seat < rules.players:
        raise UsageError(f"--starting-seat must be 0..{rules.players - 1}")
    if args.starting_seat is not None and file_seat is not None and file_seat != args.starting_seat:
        disagreements.append(f"--starting-seat {args.starting_seat} disagrees with the file's starting seat {file_seat!r}")
    starting_seat = args.starting_seat if args.starting_seat is not None else file_seat
    if starting_seat is not None and (isinstance(starting_seat, bool) or not isinstance(starting_seat, int)
                                      or not 0 <= starting_seat < rules.players):
        raise UsageError(f"--moves: the starting seat must be 0..{rules.players - 1}, not {starting_seat!r}")
    normal_salt(args.salt)  # a malformed salt is a typing mistake (2), not a failed check (1)
    if not re.fullmatch(r"[0-9a-fA-F]{64}", args.commitment.strip()):
        raise UsageError("--commitment must be a SHA-256 in hex (64 digits)")
    if not isinstance(rules, RuleSet):
        try:
            report = game.verify_hand(args.deck, args.salt, args.commitment, rules=rules, starting_seat=starting_seat,
                                      moves=moves)
        except FairnessError as error:
            raise UsageError(f"--deck: {error}") from None
        report.problems[:0] = disagreements
        return report.to_dict()
    report = verify_hand(args.deck, args.salt, args.commitment, rules=rules, starting_seat=starting_seat, moves=moves)
    report.problems[:0] = disagreements
    return report.to_dict()


def _disagreements(data: dict[str, Any], args: argparse.Namespace, game: Any) -> list[str]:
    """A proof file that carries the deck, salt or commitment must say what the command line says:
    otherwise the file was changed, or belongs to another hand."""
    problems = []
    try:
        if "deck" in data and game.canonical_deck(data["deck"]) != game.canonical_deck(args.deck):
            problems.append("the file's deck differs from --deck")
    except FairnessError as error:
        problems.append(f"the file's deck cannot be read: {error}")
    for key in ("salt", "commitment"):
        value = data.get(key)
        if value is not None and (not isinstance(value, str)
                                  or value.strip().lower() != getattr(args, key).strip().lower()):
            problems.append(f"the file's {key} differs from --{key}")
    return problems


def _verify_status(result: dict[str, Any]) -> int:
    return 0 if result["valid"] else 1


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        if args.command is None:
            raise UsageError("give a command: check or verify")
        result = args.run(args)
    except (UsageError, CheckError, FairnessError) as error:
        print(json.dumps({"error": str(error)}, ensure_ascii=False))
        return 2
    print(json.dumps(result, ensure_ascii=False))
    return getattr(args, "status", lambda _: 0)(result)


if __name__ == "__main__":
    sys.exit(main())
