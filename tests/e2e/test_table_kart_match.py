"""A whole Kart Okey table in the browser (RULES.md "Kart Okey", rules 5 to 9): a person plays a
3-round pool table against three real bots (the engine's own, at the normal level) through the
page at a desktop, a portrait phone and a phone on its side. On each turn they take the discard
pile's top when their best plan uses it (a tap on the pile) or draw from the stock (a tap on the
stock), meld by picking the cards and "Per aç", lay off by picking a card and tapping the meld,
and discard with "At". At the end every round's scores are worked out again from its final state
by the rules (the winner's 0, the cards left, the +25 for going rummy, the second stock out), the
totals, the winner and rule 9's prize split recomputed from them, and compared with what the table
wrote and what the page's result shows.

No worker runs beside the test server, so the test does the turn clock's job: when a bot's turn
is due it runs the clock's own service (the bot plays its turn), and after a round it deals the
next one; the person's turns are the page's alone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games import services
from games.engine.kart.cards import format_card, hand_value, parse_card
from games.engine.kart.hand import HandKart
from games.engine.kart.scoring import RUMMY_BONUS, prize_split
from games.engine.kart.search import TableView, best_plan
from games.models import Hand, Match
from tests.e2e.kart_helpers import CARD_NOTATION, table_kart
from tests.e2e.table_helpers import (
    VIEWPORTS,
    in_thread,
    open_table,
    play_one_turn_for_the_clock,
    visible_text,
)
from tests.games.conftest import make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("machine_pace")]

TURN_TIMEOUT = 30_000
POOL = 400


def frame(page) -> dict:
    return page.evaluate("() => window.__okeyTest.lastFrame")


def my_turn(page) -> bool:
    hand = frame(page).get("hand") or {}
    return bool(hand) and not hand.get("result") and hand.get("turn") == hand.get("seat") and bool(hand.get("actions"))


def table_of(view: dict) -> list[TableView]:
    return [TableView(meld["id"], meld["kind"], tuple(parse_card(card) for card in meld["cards"])) for meld in view["melds"]]


def pick(page, cards) -> None:
    for card in cards:
        page.locator(f'#rack .kcard[data-card="{card}"]:not(.selected)').first.click()


def play_my_turn(page) -> None:
    """From the page's own view: take the discard when the best plan with it places it and leaves
    fewer points, else draw; then the plan's melds, lay-offs and discard, all through the page."""
    view = frame(page)["hand"]
    move = frame(page)["move"]
    hand = [parse_card(card) for card in view["hand"]]
    top = parse_card(view["discard_top"]) if view["discard_top"] else None
    took = None
    if top is not None and not view["drawn"]:
        with_top = best_plan([*hand, top], table_of(view), forbidden=top)
        without = best_plan(hand, table_of(view), discard=False)
        if with_top is not None and top in with_top.placed and (
                with_top.goes_out or without is None or with_top.penalty < without.penalty):
            took = top
    if took is not None:
        page.locator("#discard-pile").click()
        expect(page.locator("#rack .kcard.staged")).to_have_count(1)
        hand.append(took)
    elif not view["drawn"]:
        page.locator("#stock").click()
        page.wait_for_function("(m) => window.__okeyTest.lastFrame.move > m", arg=move, timeout=TURN_TIMEOUT)
        view = frame(page)["hand"]
        move = frame(page)["move"]
        hand = [parse_card(card) for card in view["hand"]]
    plan = best_plan(hand, table_of(view), forbidden=took)
    for meld in plan.melds:
        pick(page, [format_card(card) for card in meld])
        page.locator("#btn-meld").click()
        expect(page.locator("#rack .kcard.selected")).to_have_count(0)
    for meld_id, card in plan.lay_offs:
        pick(page, [format_card(card)])
        page.locator(f'#melds .meld[data-meld="{meld_id}"]').click()
        expect(page.locator("#rack .kcard.selected")).to_have_count(0)
    pick(page, [format_card(plan.discard)])
    page.locator("#btn-discard").click()
    page.wait_for_function("(m) => window.__okeyTest.lastFrame.move > m", arg=move, timeout=TURN_TIMEOUT)


def rescored(match: Match) -> tuple[list[list[int]], list[int], list[int], list[int]]:
    """Every round's scores by rule 8 from its final state, the totals, the winners, the prizes."""
    rounds = []
    winners_by_round = []
    for hand in match.hands.order_by("number"):
        state = HandKart.from_dict(hand.state)
        result = state.result
        assert result is not None
        winner = result.winner
        if winner is not None:
            assert not state.hands[winner], "the winner went out: no card left"
        bonus = RUMMY_BONUS if winner is not None and result.rummy else 0
        scores = [0 if seat == winner else hand_value(cards) + bonus for seat, cards in enumerate(state.hands)]
        assert scores == list(result.scores)
        rounds.append(scores)
        winners_by_round.append(winner)
    totals = [sum(column) for column in zip(*rounds, strict=True)]
    low = min(totals)
    winners = [] if all(w is None for w in winners_by_round) else [seat for seat, total in enumerate(totals) if total == low]
    first = match.state["first_starting_seat"]
    order = [(first + offset) % 4 for offset in range(4)]
    prizes = prize_split(POOL, totals, winners, limit=80 * 3, order=order)
    assert sum(prizes) == POOL
    return rounds, totals, winners, prizes


@pytest.mark.parametrize("viewport", ["desktop", "portrait", "landscape"])
def test_a_person_plays_a_whole_three_round_pool_table_against_three_bots(new_page, asgi_live_server, viewport):
    person = make_user("Ayşe")
    table = table_kart(person, rounds=3, prize_pool=POOL, turn_seconds=60)
    page = new_page(person, viewport=VIEWPORTS[viewport])
    open_table(page, table)
    turns = 0
    for _ in range(3 * 120):
        data = frame(page)
        if data["match"].get("over"):
            break
        if my_turn(page):
            play_my_turn(page)
            turns += 1
            continue
        hand = Hand.objects.filter(match__table=table).order_by("-match__started_at", "-number").first()
        if hand.status == Hand.Status.PLAYING:
            assert hand.turn_seat != 0 or hand.move != data.get("move"), "the page missed its turn"
            if hand.turn_seat != 0:
                play_one_turn_for_the_clock(table)
        else:
            if page.locator("#result-dialog").evaluate("(d) => d.open"):
                page.locator("#result-close").click()
            in_thread(services.start_next_hand, match_id=hand.match_id)
        page.wait_for_function(
            "(m) => { const f = window.__okeyTest.lastFrame; return f.move !== m || (f.match && f.match.over) "
            "|| (f.hand && f.hand.turn === f.hand.seat) }",
            arg=data.get("move"), timeout=TURN_TIMEOUT)
    data = frame(page)
    assert data["match"]["over"], "the table did not end"
    assert turns >= 3
    match = Match.objects.get(pk=data["match"]["id"])
    assert match.hands.count() == 3
    rounds, totals, winners, prizes = rescored(match)
    assert match.state["scores"] == totals
    assert data["match"]["scores"] == totals
    assert sorted(data["match"]["winners"]) == winners
    assert data["match"]["prizes"] == prizes
    # The page's result: each round's column, the totals, the winner and the prizes.
    dialog = page.locator("#result-dialog")
    expect(dialog).to_be_visible(timeout=TURN_TIMEOUT)
    sheet = dialog.locator(".sheetk--match")
    for seat in range(4):
        row = sheet.locator(f'tr[data-seat="{seat}"]')
        cells = row.locator("td.num").all_inner_texts()
        assert [int(text.replace("\u2212", "-")) for text in cells[:4]] == [*(r[seat] for r in rounds), totals[seat]]
        expect(row.locator("td.prize")).to_have_text(re.compile(rf"^{prizes[seat]}\b"))
        if seat in winners:
            expect(row).to_have_class(re.compile(r"\bwinner\b"))
        else:
            expect(row).not_to_have_class(re.compile(r"\bwinner\b"))
    names = [p["nickname"] for p in sorted(data["players"], key=lambda p: p["seat"])]
    title = dialog.locator("#result-title")
    if 0 in winners:
        expect(title).to_have_text("Maçı kazandınız!")
    elif winners:
        expect(title).to_have_text(f"Maçı {', '.join(names[seat] for seat in winners)} kazandı")
    else:
        expect(title).to_have_text("Maç bitti: kazanan yok")
    assert not re.search(CARD_NOTATION, visible_text(page))
