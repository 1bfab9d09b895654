"""``KartOkey`` behind the GameType protocol (docs/game-types.md), not registered; what a seat sees
(its own hand only, melds with owners, the discard pile's top, the stock's count, card counts)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from games.engine import game_types
from games.engine.kart import KartOkey
from games.engine.kart.cards import format_card
from games.engine.kart.hand import HandKart
from games.engine.kart.rules import RulesKart

from .test_import_graph import import_graph
from .test_kart_support import played_hand, table

GAME = KartOkey()
PACKAGE = Path(__file__).resolve().parents[2] / "games" / "engine" / "kart"


def test_it_implements_every_protocol_member_and_is_named_kart():
    assert (GAME.name, GAME.actions) == ("kart", ("draw", "turn"))
    members = [name for name in vars(game_types.GameType) if not name.startswith("_")]
    missing = [name for name in members if name not in ("name", "actions", "error_codes")
               and not callable(getattr(GAME, name, None))]
    assert not missing and members


def test_it_is_registered_and_imports_no_game_types():
    assert "kart" in game_types.names() and game_types.game_type("kart").name == "kart"
    graph = import_graph()
    kart = {name: targets for name, targets in graph.items() if name.startswith("games.engine.kart")}
    assert len(kart) >= 10
    allowed = {"games.engine.errors", "games.engine.scoring", "games.engine.fairness"}
    for name, targets in kart.items():
        outside = {target for target in targets if not target.startswith("games.engine.kart")}
        assert outside <= allowed, (name, outside)


def test_every_error_code_the_package_raises_is_listed():
    raised = set()
    for path in PACKAGE.glob("*.py"):
        raised |= set(re.findall(r'code="([a-z_]+)"', path.read_text(encoding="utf-8")))
    raised -= {"usage"}
    assert raised <= set(GAME.error_codes), raised - set(GAME.error_codes)


def test_rules_come_from_a_stored_rule_set_that_names_its_game():
    rules = RulesKart(players=3, rounds=2, prize_pool=40)
    stored = GAME.stored_rules(rules)
    assert stored["game"] == "kart" and GAME.rules(stored) == rules
    assert not GAME.scoring(rules).higher_is_better and not GAME.plays_for_chips(rules)
    assert GAME.hand_cover(rules) == 0


def test_a_table_and_a_hand_round_trip_through_json_and_play_to_the_end():
    table_state = GAME.start_match(RulesKart(players=2), seed="g")
    hand = GAME.deal(table_state)
    while not hand.is_over:
        hand = GAME.bot_move(hand, hand.turn, level="normal") if hand.turn == 0 else GAME.clock_move(hand, hand.turn)
        again = GAME.hand_from_dict(json.loads(json.dumps(hand.to_dict())))
        assert again.to_dict() == hand.to_dict() and isinstance(again, HandKart)
    table_state = GAME.record_hand(table_state, hand)
    assert GAME.is_over(table_state) and GAME.hand_deltas(hand) == list(hand.result.scores)
    assert GAME.live_scores(table_state, hand) == [2 * score for score in hand.result.scores]
    assert GAME.match_from_dict(json.loads(json.dumps(table_state.to_dict()))).to_dict() == table_state.to_dict()
    assert GAME.public_match(table_state)["over"]
    with pytest.raises(ValueError):
        GAME.hand_from_dict({**hand.to_dict(), "game": "okey101"})


def test_a_seat_sees_its_own_hand_the_melds_with_owners_the_top_and_the_counts_never_another_hand():
    state = table(["K5 K6 K7 M9 R9 S9 SA S2 RQ M4", None, None], discards="S5 R8", melds=[(1, "MJ MQ MK")],
                  melded=(1,))
    view = GAME.view_for(state, 0)
    assert view["hand"][:3] == ["K5", "K6", "K7"] and view["hand_value"] == 5 + 6 + 7 + 27 + 11 + 2 + 10 + 4
    assert view["melds"] == [{"id": 1, "owner": 1, "kind": "run", "cards": ["MJ", "MQ", "MK"], "ace_high": False,
                              "value": 30}]
    assert (view["discard_top"], view["discard_count"], view["stock_count"]) == ("R8", 2, len(state.stock))
    assert view["card_counts"] == [10, 10, 10] and view["actions"] == ["draw", "turn"]
    text = json.dumps(view)
    for other in (1, 2):
        for card in set(state.hands[other]) - set(state.hands[0]):
            assert f'"{format_card(card)}"' not in text.replace('"R8"', "").replace('"MJ"', "")
    watcher = GAME.view_for(state, None)
    assert watcher["hand"] is None and watcher["actions"] == []
    assert not {"stock", "deck", "hands", "events"} & set(view)


def test_a_played_hand_ends_with_a_result_everyone_sees():
    state = played_hand(5)
    assert all(GAME.view_for(state, seat)["result"] == state.result.to_dict() for seat in range(4))
    assert GAME.legal_actions(state, state.turn) == []
