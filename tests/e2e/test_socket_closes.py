"""In the browser: a socket the server refuses for good (a 44xx close) is not reopened, and the
page says why in words, in the person's language."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.conftest import make_player, make_room

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize(("language", "words"), [("tr-TR", "Çok fazla açık bağlantınız var"),
                                                 ("en-GB", "You have too many open connections")])
def test_the_table_page_stops_and_says_why_when_it_has_too_many_sockets(new_page, settings, language, words):
    settings.SOCKETS_PER_USER = 1
    owner = make_player()
    room = make_room(owner=owner)
    table = room.tables.get()
    lobby = new_page(owner, language=language)
    lobby.goto(f"/rooms/{room.pk}/")  # the room page's socket takes the user's only slot
    expect(lobby.locator(".conn")).to_have_class("conn conn--ok")
    page = new_page(owner, language=language)
    sockets_opened = []
    page.on("websocket", lambda socket: sockets_opened.append(socket.url))
    page.clock.install()  # the page's timers run on a clock the test drives
    page.goto(f"/tables/{table.pk}/")
    expect(page.locator("#okey-table")).to_have_attribute("data-closed", "4429")
    expect(page.locator("#conn-status")).to_contain_text(words)
    expect(page.locator("#conn-status")).to_have_attribute("data-state", "down")
    page.clock.run_for(60_000)  # a minute of the page's time: far past every reconnect delay
    assert len(sockets_opened) == 1


def test_the_room_page_stops_and_says_why_when_it_has_too_many_sockets(new_page, settings):
    settings.SOCKETS_PER_USER = 1
    owner = make_player()
    room = make_room(owner=owner)
    table_page = new_page(owner, language="en-GB")
    table_page.goto(f"/tables/{room.tables.get().pk}/")
    expect(table_page.locator("#conn-status")).to_have_attribute("data-state", "ok")
    page = new_page(owner, language="en-GB")
    page.goto(f"/rooms/{room.pk}/")
    expect(page.locator(".conn")).to_contain_text("You have too many open connections")
    expect(page.locator(".conn")).to_have_attribute("data-closed", "4429")
