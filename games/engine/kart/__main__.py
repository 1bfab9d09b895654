"""Command line: ``python -m games.engine.kart check --hand "MA M2 M3 K7 K8 K9 R5" --table "K10 KJ KQ"``.

Given a hand (normally the 11 cards after a draw) and the melds on the table (``--table``, once
per meld, numbered 1, 2, … in that order), it prints one JSON line: the hand's penalty now, every
meld the hand holds, every single card that fits a table meld, and the best plan — the melds and
lay-offs that leave the fewest penalty points, the discard (``--no-discard``: none, e.g. to score
a hand at its end) and whether it goes out. ``--taken CARD``: the card just taken from the
discard pile, which may not be the discard (rule 5). A mistake prints ``{"error": ...}`` and exits
with 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..errors import EngineError
from .cards import format_card, hand_value, parse_card, parse_cards
from .melds import read_meld
from .search import TableView, best_plan, candidate_melds, possible_lay_offs


class UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    """argparse that raises instead of printing usage text and exiting."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m games.engine.kart", description="Kart Okey rules engine tools.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    checker = commands.add_parser("check", help="the melds and lay-offs a hand can make, and what is left")
    checker.add_argument("--hand", required=True, help="the hand in notation, e.g. \"MA M2 M3 K10\"")
    checker.add_argument("--table", action="append", default=[], metavar="MELD",
                         help="a meld on the table, e.g. \"K4 K5 K6\" (repeat for each; numbered from 1)")
    checker.add_argument("--taken", default=None, metavar="CARD", help="the card just taken from the discard pile")
    checker.add_argument("--no-discard", action="store_true", help="no card must stay to be discarded")
    return parser


def check(hand: str, table: list[str] = (), *, taken: str | None = None, discard: bool = True) -> dict[str, Any]:
    cards = parse_cards(hand)
    if not cards:
        raise EngineError("the hand is empty", code="bad_turn")
    melds = []
    for number, text in enumerate(table, start=1):
        reading = read_meld(parse_cards(text))
        melds.append(TableView(number, reading.kind, reading.cards))
    forbidden = parse_card(taken) if taken is not None else None
    if forbidden is not None and forbidden not in cards:
        raise EngineError(f"the taken card {format_card(forbidden)} is not in the hand", code="card_not_in_hand")
    plan = best_plan(cards, melds, discard=discard, forbidden=forbidden)
    return {
        "hand": [format_card(card) for card in cards],
        "penalty_now": hand_value(cards),
        "table": [{"meld": meld.id, "kind": meld.kind, "cards": [format_card(c) for c in meld.cards]} for meld in melds],
        "melds": [[format_card(card) for card in meld] for meld in candidate_melds(cards)],
        "lay_offs": [{"meld": meld_id, "card": format_card(card)} for meld_id, card in possible_lay_offs(cards, melds)],
        "best": plan.to_dict() if plan is not None else None,
    }


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        if args.command != "check":
            raise UsageError("a command is needed: check")
        answer = check(args.hand, args.table, taken=args.taken, discard=not args.no_discard)
    except UsageError as error:
        print(json.dumps({"error": {"code": "usage", "message": str(error)}}, ensure_ascii=False))
        return 2
    except EngineError as error:
        print(json.dumps({"error": error.to_dict()}, ensure_ascii=False))
        return 2
    print(json.dumps(answer, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
