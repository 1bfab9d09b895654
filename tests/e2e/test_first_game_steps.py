"""Steps to a first game (issue 19, item 10): sitting down anywhere takes the player to the table,
and there a table that can start with bots says so with one primary button that starts it in one
tap. At the three sizes."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.conftest import make_player, make_room, make_salon
from tests.e2e.table_helpers import VIEWPORTS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_sit_from_the_salon_page_and_start_with_bots_in_one_tap(new_page, asgi_live_server, viewport):
    salon = make_salon("genel", name="Genel")
    owner = make_player("Kaptan")
    room = make_room(owner=owner, salon=salon, name="Çay Ocağı")
    table = room.tables.first()
    page = new_page(owner, viewport=VIEWPORTS[viewport])
    page.goto(f"/salons/{salon.slug}/")
    page.get_by_test_id("sit").first.click()
    # Sitting lands on the table, not back on a list with a "Masaya git" to find.
    expect(page).to_have_url(re.compile(rf"/tables/{table.pk}/$"))
    start = page.locator("#btn-start")
    expect(start).to_be_visible()
    expect(start).to_have_text("Botlarla başlat")
    expect(start).to_have_class(re.compile(r"\btbtn--primary\b"))
    # One clear primary button: "Hazırım" is there, but secondary.
    expect(page.locator("#controls .tbtn--primary:visible")).to_have_count(1)
    expect(page.locator("#btn-ready")).not_to_have_class(re.compile(r"\btbtn--primary\b"))
    box = start.bounding_box()
    size = page.viewport_size
    assert box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= size["width"] and box["y"] + box["height"] <= size["height"]
    start.click()
    # One tap: the match starts, bots in the three empty seats, the player's rack dealt.
    expect(page.locator("#rack .tile").first).to_be_visible()
    assert page.locator("#rack .tile").count() in (14, 15)
    expect(page.locator(".pbox .tag--bot")).to_have_count(3)


def test_a_player_who_is_not_the_owner_sees_ready_as_the_primary_button(new_page, asgi_live_server):
    salon = make_salon("genel", name="Genel")
    room = make_room(owner=make_player("Kaptan"), salon=salon, name="Çay Ocağı")
    table = room.tables.first()
    guest = make_player("Misafir")
    page = new_page(guest, viewport=VIEWPORTS["portrait"])
    page.goto(f"/rooms/{room.pk}/")
    page.get_by_role("button", name="Masa 1, 1. koltuğa otur").click()
    expect(page).to_have_url(re.compile(rf"/tables/{table.pk}/$"))
    expect(page.locator("#btn-start")).to_be_hidden()
    expect(page.locator("#btn-ready")).to_have_class(re.compile(r"\btbtn--primary\b"))
