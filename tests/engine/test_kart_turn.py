"""The Kart Okey turn as one validated unit, RULES.md "Kart Okey" rule 5: draw the stock's top or the
discard pile's top; meld any number of melds and lay off any number of cards onto any meld on the
table (no opening threshold); discard one card; the card taken from the discard pile cannot be
discarded in the same turn. The whole turn is applied or refused with nothing changed."""

from __future__ import annotations

from games.engine.kart import KartOkey
from games.engine.kart.cards import parse_card, parse_cards
from games.engine.kart.hand import apply_turn, draw_from_stock, legal_actions

from .test_kart_support import accounted, cards_of, rejects, snapshot, table

GAME = KartOkey()
HAND = "K5 K6 K7 M9 R9 S9 SA S2 RQ M4"


def two_players(**options):
    """Seat 0 to play HAND; seat 1 has melded K10 KJ KQ; the discard pile's top is K8, the stock's K4."""
    return table([HAND, None], discards="S5 K8", stock_top="K4", melds=[(1, "K10 KJ KQ")], melded=(1,),
                 **options)


def test_rule5_the_plainest_turn_draws_the_stocks_top_and_discards():
    state = two_players()
    after = apply_turn(state, 0, {"draw": "stock", "discard": "RQ"})
    assert parse_card("K4") in after.hands[0] and parse_card("RQ") not in after.hands[0]
    assert after.discards[-1] == parse_card("RQ") and after.turn == 1 and accounted(after)
    assert len(after.stock) == len(state.stock) - 1


def test_rule5_or_the_discard_piles_top_with_no_need_to_use_it():
    state = two_players()
    after = apply_turn(state, 0, {"draw": "discard", "discard": "RQ"})
    assert parse_card("K8") in after.hands[0] and after.discards == parse_cards("S5 RQ")
    assert after.events[-1]["took"] == "K8"


def test_rule5_any_number_of_melds_and_lay_offs_onto_any_meld_on_the_table_no_threshold():
    state = two_players()
    turn = {"draw": "discard", "actions": [
        {"type": "meld", "cards": ["K5", "K6", "K7"]},
        {"type": "meld", "cards": "M9 R9 S9"},
        {"type": "lay_off", "meld": 2, "card": "K8"},          # onto its own meld, melded this turn
        {"type": "lay_off", "meld": 1, "card": "K4"},          # not in hand: refused below
    ], "discard": "RQ"}
    rejects(state, 0, turn, code="card_not_in_hand")
    turn["actions"][-1] = {"type": "lay_off", "meld": 1, "card": "SA"}
    rejects(state, 0, turn, code="not_layable")
    turn["actions"].pop()
    after = apply_turn(state, 0, turn)
    assert [(meld.id, meld.owner) for meld in after.melds] == [(1, 1), (2, 0), (3, 0)]
    assert after.melds[1].cards == tuple(parse_cards("K5 K6 K7 K8")) and after.melded[0]
    assert cards_of(after, 0) == cards_of(table(["SA S2 M4", None]), 0)
    # Another player's meld takes a lay-off as well.
    state = table(["KK S2 S3", None], discards="M5", melds=[(1, "K10 KJ KQ")])
    after = apply_turn(state, 0, {"draw": "stock", "actions": [{"type": "lay_off", "meld": 1, "card": "KK"}],
                                  "discard": "S2"})
    assert after.melds[0].cards == tuple(parse_cards("K10 KJ KQ KK")) and after.melds[0].owner == 1


def test_rule5_the_card_taken_from_the_discard_pile_cannot_be_the_turns_discard():
    state = two_players()
    error = rejects(state, 0, {"draw": "discard", "discard": "K8"}, code="discard_taken")
    assert error.details["card"] == "K8"
    # With two decks its identical twin cannot be thrown either.
    state = table(["K8 M2 M3 M4 R5 R6 R7 S9 S10 SJ", None, None, None], discards="K8")
    rejects(state, 0, {"draw": "discard", "discard": "K8"}, code="discard_taken")
    assert apply_turn(state, 0, {"draw": "stock", "discard": "K8"}).discards[-1] == parse_card("K8")


def test_rule5_a_turn_must_draw_first_and_must_end_with_a_discard():
    state = two_players()
    rejects(state, 0, {"discard": "RQ"}, code="must_draw")
    rejects(state, 0, {"draw": "deck", "discard": "RQ"}, code="must_draw")
    rejects(state, 0, {"draw": "stock"}, code="must_discard")
    rejects(state, 0, {"draw": "stock", "discard": None}, code="must_discard")
    rejects(state, 1, {"draw": "stock", "discard": "RQ"}, code="not_your_turn")
    rejects(state, 5, {"draw": "stock", "discard": "RQ"}, code="bad_seat")
    rejects(state, 0, {"draw": "stock", "discard": "RQ", "pass": True}, code="bad_turn")
    rejects(state, 0, {"draw": "stock", "actions": [{"type": "swap"}], "discard": "RQ"}, code="bad_action")
    rejects(state, 0, {"draw": "stock", "actions": [{"type": "meld", "cards": "K5 K6 K7", "x": 1}],
                       "discard": "RQ"}, code="bad_turn")
    rejects(state, 0, {"draw": "stock", "actions": [{"type": "meld", "cards": "K5 K6 M9"}], "discard": "RQ"},
            code="bad_meld")
    rejects(state, 0, {"draw": "stock", "actions": [{"type": "lay_off", "meld": 7, "card": "K9"}],
                       "discard": "RQ"}, code="no_such_meld")
    rejects(state, 0, {"draw": "stock", "discard": "X9"}, code="bad_card")
    rejects(state, 0, {"draw": "stock", "discard": "SK"}, code="card_not_in_hand")


def test_rule5_a_refused_turn_changes_nothing_even_after_most_of_it_was_played():
    state = two_players()
    before = snapshot(state)
    rejects(state, 0, {"draw": "discard", "actions": [
        {"type": "meld", "cards": "K5 K6 K7"}, {"type": "lay_off", "meld": 2, "card": "K8"},
        {"type": "meld", "cards": "M9 R9 S9"}], "discard": "K8"}, code="discard_taken")
    assert snapshot(state) == before


def test_rule5_the_stock_draw_is_a_message_of_its_own_then_the_rest_of_the_turn():
    state = two_players()
    assert legal_actions(state, 0) == ["draw", "turn"] and legal_actions(state, 1) == []
    drawn = draw_from_stock(state, 0)
    assert drawn.drawn and parse_card("K4") in drawn.hands[0] and legal_actions(drawn, 0) == ["turn"]
    assert GAME.view_for(drawn, 0)["drawn_card"] == "K4" and GAME.view_for(drawn, 1)["drawn_card"] is None
    rejects(drawn, 0, {"draw": "stock", "discard": "K4"}, code="already_drew")
    after = apply_turn(drawn, 0, {"actions": [{"type": "meld", "cards": "K4 K5 K6 K7"}], "discard": "RQ"})
    assert not after.drawn and after.turn == 1 and [e["type"] for e in after.events[-2:]] == ["draw", "turn"]
    assert GAME.apply(state, 0, "draw").to_dict() == drawn.to_dict()
    assert GAME.apply(state, 0, "turn", turn={"draw": "stock", "discard": "RQ"}).turn == 1
