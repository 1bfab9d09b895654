"""The best melds and lay-offs of a hand against the table (``search``) and the ``check`` command."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.kart.__main__ import check, main
from games.engine.kart.cards import card_value, format_cards, full_deck, hand_value, parse_cards
from games.engine.kart.hand import apply_turn
from games.engine.kart.melds import is_meld
from games.engine.kart.search import TableView, best_plan, candidate_melds, possible_lay_offs

from .test_kart_support import table

ROOT = Path(__file__).resolve().parents[2]


def views(*melds: str) -> list[TableView]:
    from games.engine.kart.melds import read_meld

    return [TableView(number, read_meld(parse_cards(text)).kind, read_meld(parse_cards(text)).cards)
            for number, text in enumerate(melds, start=1)]


def test_it_finds_going_out_with_melds_and_lay_off_chains():
    plan = best_plan(parse_cards("K5 K4 MA RA SA KQ KK KA R2 R3 R4 S9"), views("K6 K7 K8"))
    assert plan.goes_out and plan.penalty == 0 and format_cards([plan.discard]) == "S9"
    assert format_cards(card for _, card in plan.lay_offs) == "K5 K4"     # the nearest first
    assert sorted(map(format_cards, plan.melds)) == ["KQ KK KA", "MA RA SA", "R2 R3 R4"]


def test_it_leaves_the_fewest_points_and_never_throws_the_taken_card():
    plan = best_plan(parse_cards("MA M2 M3 RQ RK RA S5 S6 S7 K9 K2"))
    assert plan.discard == parse_cards("K9")[0] and format_cards(plan.left) == "K2" and plan.penalty == 2
    plan = best_plan(parse_cards("MA M2 M3 RQ RK RA S5 S6 S7 K9 K2"), forbidden=parse_cards("K9")[0])
    assert plan.discard == parse_cards("K2")[0] and plan.penalty == 9
    assert best_plan(parse_cards("K9"), forbidden=parse_cards("K9")[0]) is None
    assert best_plan(parse_cards("K9 K10"), discard=False).penalty == 19


def test_lay_offs_respect_the_ace_and_the_four_suits():
    found = possible_lay_offs(parse_cards("MA M2 R9 S9"), views("MJ MQ MK", "M9 K9 R9", "M3 M4 M5"))
    assert [(meld, format_cards([card])) for meld, card in found] == [(1, "MA"), (2, "S9"), (3, "M2")]
    # Both ends of a run at once, up to A…K, never both aces.
    plan = best_plan(parse_cards("MA MK M2 MA"), views("M3 M4 M5 M6 M7 M8 M9 M10 MJ MQ"))
    assert format_cards(sorted(card for _, card in plan.lay_offs)) == "MA M2 MK" and plan.goes_out


def brute(cards: list[int]) -> int:
    """The fewest points left after the discard, by trying every set of disjoint melds."""
    best = 10**9

    def walk(rest: Counter, start: int, melds: list) -> None:
        nonlocal best
        left = list(rest.elements())
        if left:
            best = min(best, hand_value(left) - max(card_value(card) for card in left))
        for index, meld in enumerate(candidates[start:], start=start):
            need = Counter(meld)
            if all(rest[card] >= n for card, n in need.items()):
                walk(rest - need, index, [*melds, meld])

    candidates = candidate_melds(cards)
    walk(Counter(cards), 0, [])
    return best


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 9))
def test_it_agrees_with_trying_every_set_of_melds(seed, size):
    import random

    deck = full_deck(2)
    random.Random(seed).shuffle(deck)
    cards = deck[:size]
    plan = best_plan(cards)
    assert plan.penalty == brute(cards)
    assert all(is_meld(meld) for meld in plan.melds)
    assert Counter([*plan.placed, *plan.left, plan.discard]) == Counter(cards)


def test_a_plan_is_a_turn_the_engine_accepts():
    state = table(["K5 K4 MA RA SA KQ KK R2 R3 R4", None], discards="S9", stock_top="KA",
                  melds=[(1, "K6 K7 K8")])
    cards = [*state.hands[0], state.stock[0]]
    plan = best_plan(cards, state.melds)
    after = apply_turn(state, 0, {"draw": "stock", "actions": plan.actions(), "discard": plan.to_dict()["discard"]})
    assert after.result.winner == 0 and after.result.rummy


def test_the_check_command_prints_one_json_line():
    answer = check("MA M2 M3 K7 K8 K9 R5 SQ K10 RA S2", ["K10 KJ KQ", "M5 K5 S5"])
    assert answer["penalty_now"] == hand_value(parse_cards("MA M2 M3 K7 K8 K9 R5 SQ K10 RA S2"))
    assert {"meld": 2, "card": "R5"} in answer["lay_offs"] and ["MA", "M2", "M3"] in answer["melds"]
    assert answer["best"]["penalty"] == 10 + 2 and answer["best"]["discard"] == "RA"
    result = subprocess.run([sys.executable, "-m", "games.engine.kart", "check", "--hand", "MA M2 M3 SK",
                             "--table", "S9 S10 SJ SQ"], capture_output=True, text=True, cwd=ROOT, check=False)
    lines = result.stdout.strip().splitlines()
    assert result.returncode == 0 and len(lines) == 1 and json.loads(lines[0])["best"]["goes_out"]


def test_the_check_command_names_a_mistake(capsys):
    assert main(["check", "--hand", "MA MX"]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "bad_card"
    assert main(["check", "--hand", "MA", "--table", "M2 M3"]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "bad_meld"
    assert main(["check"]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "usage"
    assert main(["check", "--hand", "MA K2", "--taken", "K2", "--no-discard"]) == 0
    assert json.loads(capsys.readouterr().out)["best"]["discard"] is None
