"""A whole 101 match in the browser (issue 21, "Done when"): a person opens a practice table of 101
Okey against three real bots (the engine's own, at the normal level) and plays all 7 hands through
the page at a desktop, a portrait phone and a phone on its side. On each turn they draw from the
pile, open with the best runs and groups they hold when those reach what is needed (picking the
tiles, "Per yap", "El aç"), and discard the highest tile that costs no penalty. At the end every
hand's scores are worked out again from its final state by the rules and compared with what the
table wrote and with the score sheet the page shows.

No worker runs beside the test server, so the test does the turn clock's job: when a bot's turn
is due it runs the clock's own service (the bot plays its turn, ``Okey101.bot_move``), and after a
hand it deals the next one; the person's turns are the page's alone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games import services
from games.engine.okey101.hand import Hand101, discard_penalty
from games.engine.okey101.melds import tile_value
from games.engine.okey101.rules import Rules101
from games.engine.okey101.scoring import hand_sheet
from games.engine.okey101.search import best_opening_with_discard
from games.engine.tiles import format_tile, parse_tile
from games.models import Hand, Match
from games.practice import start_practice
from tests.e2e.table_helpers import (
    NOTATION,
    VIEWPORTS,
    in_thread,
    open_table,
    play_one_turn_for_the_clock,
    visible_text,
)
from tests.games.conftest import make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("machine_pace")]

TURN_TIMEOUT = 30_000


def frame(page) -> dict:
    return page.evaluate("() => window.__okeyTest.lastFrame")


def my_turn(page) -> bool:
    data = frame(page)
    hand = data.get("hand") or {}
    return bool(hand) and not hand.get("result") and hand.get("turn") == hand.get("seat") and bool(hand.get("actions"))


def safe_discard(state: Hand101, seat: int, rack: list[int]) -> int:
    """The highest tile that costs no penalty (a penalised one only when nothing else is left)."""
    okey = state.okey
    return min(rack, key=lambda tile: (discard_penalty(state, tile) is not None, tile == okey, -tile_value(tile, okey)))


def play_my_turn(page, table) -> bool:
    """Draw, maybe open, discard: all through the page. Returns whether the person opened."""
    view = frame(page)["hand"]
    move = frame(page)["move"]
    if "draw" in view["actions"]:
        page.locator("#pile").click()
        page.wait_for_function("(m) => window.__okeyTest.lastFrame.move > m", arg=move, timeout=TURN_TIMEOUT)
        view = frame(page)["hand"]
        move = frame(page)["move"]
    hand = Hand.objects.filter(match__table=table).order_by("-match__started_at", "-number").first()
    state = Hand101.from_dict(hand.state)
    seat = view["seat"]
    rack = list(state.racks[seat])
    opened = False
    if view["opened"][seat] is None:
        opening = best_opening_with_discard(rack, state.okey, needed=view["opening_needed"]["melds"])
        if opening is not None:
            for meld in opening.melds:
                for tile in meld:
                    page.locator(f'#rack .tile[data-tile="{tile}"]:not(.selected)').first.click()
                page.locator("#btn-meld").click()
            expect(page.locator("#counter101")).to_contain_text(str(opening.total))
            page.locator("#btn-open").click()
            rack = opening.rest(rack)
            opened = True
    tile = format_tile(safe_discard(state, seat, rack))
    page.locator(f'#rack .tile[data-tile="{tile}"]:not(.selected)').first.click()
    page.locator("#btn-discard").click()
    if discard_penalty(state, parse_tile(tile)) is not None and len(rack) > 1:
        page.locator("#btn-discard").click()  # warned once of the +101: thrown anyway
    page.wait_for_function("(m) => window.__okeyTest.lastFrame.move > m", arg=move, timeout=TURN_TIMEOUT)
    return opened


def check_match(match_id: int) -> list[int]:
    match = Match.objects.get(pk=match_id)
    rules = Rules101()
    totals = [0, 0, 0, 0]
    for hand in match.hands.order_by("number"):
        state = Hand101.from_dict(hand.state)
        result = state.result
        if result.reason == "cancelled":
            continue
        sheet = hand_sheet(state.racks, state.opened, state.okey, rules, finisher=result.finisher,
                           okey_finish=result.okey_finish, elden=result.elden, penalties=state.penalties)
        assert [row["score"] for row in sheet] == list(result.scores)
        assert [dict(row) for row in result.sheet] == sheet
        totals = [a + b for a, b in zip(totals, result.scores, strict=True)]
    assert match.state["scores"] == totals and match.state["hands_played"] == 7
    return totals


@pytest.mark.parametrize("viewport", ["desktop", "portrait", "landscape"])
def test_a_person_plays_a_whole_101_match_against_three_bots(new_page, asgi_live_server, viewport):
    person = make_user("Ayşe")
    table = in_thread(start_practice, user=person, level="normal", game="okey101")
    page = new_page(person, viewport=VIEWPORTS[viewport])
    page.add_init_script("try { localStorage.setItem('okey101.tutorial.seen', '1') } catch (e) {}")
    open_table(page, table)
    openings = turns = 0
    for _ in range(7 * 40):
        data = frame(page)
        if data["match"].get("over"):
            break
        if my_turn(page):
            openings += play_my_turn(page, table)
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
    assert data["match"]["over"], "the match did not end"
    match_id = data["match"]["id"]
    totals = check_match(match_id)
    assert turns >= 7
    # The page's score sheet: every hand's column and the match's totals, as the server wrote them.
    expect(page.locator("#result-dialog")).to_be_visible(timeout=TURN_TIMEOUT)
    sheet = page.locator("#result-dialog")
    for total in totals:
        expect(sheet).to_contain_text(str(total).replace("-", "−"))
    assert not NOTATION.search(visible_text(page))
    assert data["match"]["scores"] == totals
