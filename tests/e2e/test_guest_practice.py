"""A visitor tries a practice hand without an account (issue 19, item 10), at the three sizes:
from the home page, a hand dealt at once, the bots answer each throw, and at the end the hands
open and an offer to sign up."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.table_helpers import VIEWPORTS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def fits(page) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")
    outside = page.evaluate("""() => { const t = document.getElementById('gtable').getBoundingClientRect();
      return [...document.querySelectorAll('#gtable .tile, #gtable button')].filter((e) => {
        const r = e.getBoundingClientRect(); return r.width && (r.left < t.left - 1 || r.right > t.right + 1); }).length; }""")
    assert outside == 0


def draw_and_throw(page) -> None:
    move = int(page.locator("#guest").get_attribute("data-move"))
    if page.locator("#g-pile").is_enabled():
        page.locator("#g-pile").click()
        expect(page.locator("#g-rack .tile")).to_have_count(15)
    page.locator("#g-rack .tile:not(.okey)").first.click()
    page.locator("#g-discard").click()
    page.wait_for_function(f"() => Number(document.getElementById('guest').dataset.move) > {move + 1}"
                           " || document.getElementById('guest').dataset.phase === 'over'")


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_a_visitor_tries_a_hand_from_the_home_page(new_page, asgi_live_server, viewport):
    page = new_page(None, viewport=VIEWPORTS[viewport])
    page.goto("/")
    page.get_by_test_id("guest-practice").click()
    page.wait_for_url("**/practice/try/")
    page.locator("#guest-start").click()
    expect(page.locator("#gtable")).to_be_visible()
    # The visitor's turn at once: 15 tiles for the starter, else 14 and the centre to draw from.
    expect(page.locator("#g-rack .tile")).to_have_count(14 if page.locator("#g-pile").is_enabled() else 15)
    expect(page.locator("#g-okey .tile.okey .okey-badge")).to_have_count(1)
    fits(page)
    draw_and_throw(page)
    # The bots played their turns: it is the visitor's turn again, with 14 tiles and a shorter pile.
    expect(page.locator("#g-rack .tile")).to_have_count(14)
    expect(page.locator("#g-feed li").first).to_be_visible()
    fits(page)


def test_the_hand_ends_with_open_racks_and_a_sign_up_offer(new_page, asgi_live_server):
    page = new_page(None, viewport=VIEWPORTS["portrait"])
    page.goto("/practice/try/")
    page.locator("#guest-start").click()
    expect(page.locator("#gtable")).to_be_visible()
    for _ in range(40):
        if page.locator("#guest").get_attribute("data-phase") == "over":
            break
        draw_and_throw(page)
    end = page.get_by_test_id("guest-end")
    expect(end).to_be_visible()
    expect(end.locator(".gend__rack")).to_have_count(4)
    expect(page.locator("#g-signup")).to_have_attribute("href", "/accounts/signup/")
    page.locator("#g-again").click()
    expect(page.locator("#guest")).not_to_have_attribute("data-phase", "over")
    expect(end).to_be_hidden()
