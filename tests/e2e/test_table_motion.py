"""Little motion at the table (issue 19, item 13): the deal comes into the rack tile by tile,
another player's draw flies from the centre to their seat, the winning hand's groups turn face up;
CSS and Web Animations only (the frame never waits), and none of it with prefers-reduced-motion."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.table_helpers import (
    VIEWPORTS,
    bot_draws_and_throws,
    current_hand,
    deal_next_hand,
    open_table,
    rig_win_for_seat_zero,
    table_with_bots,
    throw_a_tile,
)
from tests.games.conftest import make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MOTION = "() => window.__okeyTest.log.filter((e) => e.kind === 'motion').map((e) => e.detail)"


def finish_with_y13(page) -> None:
    source = page.locator('#rack .tile[data-tile="Y13"]')
    target = page.locator("#finish-zone")
    a, b = source.bounding_box(), target.bounding_box()
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=8)
    page.mouse.up()
    expect(page.locator("#result-dialog")).to_be_visible()




def play_until_a_bot_draws(page, table) -> None:
    """Play on from a deal until a bot has drawn from the centre (the starter only throws), and
    until the page has seen that move."""
    for _ in range(4):
        hand = current_hand(table)
        drew = False
        if hand.turn_seat == 0:
            if hand.move > 0:  # not the starter: draw first
                page.locator("#pile").click()
                expect(page.locator("#rack .tile")).to_have_count(15)
            throw_a_tile(page)
        else:
            drew = hand.move > 0
            bot_draws_and_throws(table)
        if drew:
            move = current_hand(table).move
            page.wait_for_function(f"() => Number(document.getElementById('okey-table').dataset.move) >= {move}")
            return
    raise AssertionError("no bot drew")


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_a_deal_a_draw_and_the_winning_hand_move(new_page, asgi_live_server, viewport):
    person = make_user("Ayşe")
    table, _ = table_with_bots(person)
    rig_win_for_seat_zero(table)
    page = new_page(person, viewport=VIEWPORTS[viewport])
    open_table(page, table)
    # Opening the page deals nothing: the hand was already on the table.
    assert page.evaluate(MOTION) == []
    finish_with_y13(page)
    # The winning hand turns face up group by group (a CSS animation, not a wait).
    groups = page.locator("#result-dialog .result-group")
    assert groups.count() >= 3
    names = groups.evaluate_all("(gs) => gs.map((g) => getComputedStyle(g).animationName)")
    assert set(names) == {"okey-reveal"}
    delays = groups.evaluate_all("(gs) => gs.map((g) => parseFloat(getComputedStyle(g).animationDelay))")
    assert delays == sorted(delays) and delays[-1] > delays[0]
    page.locator("#result-close").click()
    # The next deal comes into the rack tile by tile.
    deal_next_hand(table)
    page.wait_for_function("() => window.__okeyTest.log.some((e) => e.kind === 'motion' && e.detail === 'deal')")
    dealt = page.locator("#rack .tile.dealt")
    assert dealt.count() >= 14
    assert dealt.first.evaluate("(t) => getComputedStyle(t).animationName") == "okey-deal"
    # Another player's draw: a tile back flies from the centre pile to their seat, then goes away.
    play_until_a_bot_draws(page, table)
    page.wait_for_function("() => window.__okeyTest.log.some((e) => e.kind === 'motion' && e.detail === 'draw')")
    expect(page.locator(".okey-table .tile.flying")).to_have_count(0, timeout=3000)  # it removes itself
    assert page.locator(".okey-table .tile.flying[title]").count() == 0
    # The move was shown at once (the frame's state is on the table while the ghost still flies).
    assert page.locator("#okey-table").get_attribute("data-move") == str(current_hand(table).move)


def test_no_motion_with_prefers_reduced_motion(new_page, asgi_live_server):
    person = make_user("Ayşe")
    table, _ = table_with_bots(person)
    rig_win_for_seat_zero(table)
    page = new_page(person, viewport=VIEWPORTS["portrait"])
    page.emulate_media(reduced_motion="reduce")
    open_table(page, table)
    finish_with_y13(page)
    names = page.locator("#result-dialog .result-group").evaluate_all("(gs) => gs.map((g) => getComputedStyle(g).animationName)")
    assert set(names) == {"none"}
    page.locator("#result-close").click()
    deal_next_hand(table)
    expect(page.locator("#rack .tile")).to_have_count(15 if current_hand(table).turn_seat == 0 else 14)
    play_until_a_bot_draws(page, table)
    assert page.evaluate(MOTION) == []
    assert page.locator("#rack .tile.dealt").count() == 0
    assert page.locator(".tile.flying").count() == 0
