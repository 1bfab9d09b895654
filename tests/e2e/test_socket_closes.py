"""In the browser: a socket the server refuses for good (a 44xx close) is not reopened, and the
page says why in words, in the person's language."""

from __future__ import annotations

import re

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

    def opened(socket):  # each socket with the frames it got: a failure says what the page saw
        seen = {"url": socket.url, "frames": []}
        socket.on("framereceived", lambda payload: seen["frames"].append(payload))
        sockets_opened.append(seen)

    page.on("websocket", opened)
    page.clock.install()  # the page's timers run on a clock the test drives
    page.goto(f"/tables/{table.pk}/")
    expect(page.locator("#okey-table")).to_have_attribute("data-closed", "4429")
    expect(page.locator("#conn-status")).to_contain_text(words)
    expect(page.locator("#conn-status")).to_have_attribute("data-state", "down")
    page.clock.run_for(60_000)  # a minute of the page's time: far past every reconnect delay
    assert len(sockets_opened) == 1, sockets_opened


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


@pytest.mark.parametrize("path", ["table", "room"])
def test_an_announced_final_close_holds_when_the_close_comes_without_its_code(new_page, path):
    # The server says why in an error frame, then closes with 4429. If the connection drops before
    # that close frame arrives, the page still sees the error frame: it keeps to it, and stops.
    owner = make_player()
    room = make_room(owner=owner)
    page = new_page(owner, language="en-GB")
    opened = []

    def refuse(socket):
        opened.append(socket.url)
        socket.send('{"type": "error", "code": "too_many_sockets", "close": 4429, '
                    '"message": "You have too many open connections; close other tabs."}')
        socket.close(code=1001)  # not a final code: what a dropped close looks like to the page

    page.route_web_socket(re.compile(r".*/ws/(tables|rooms)/\d+/$"), refuse)
    page.clock.install()
    if path == "table":
        page.goto(f"/tables/{room.tables.get().pk}/")
        expect(page.locator("#okey-table")).to_have_attribute("data-closed", "4429")
        expect(page.locator("#conn-status")).to_contain_text("You have too many open connections")
    else:
        page.goto(f"/rooms/{room.pk}/")
        expect(page.locator(".conn")).to_have_attribute("data-closed", "4429")
        expect(page.locator(".conn")).to_contain_text("You have too many open connections")
    page.clock.run_for(60_000)  # far past every reconnect delay
    assert len(opened) == 1, opened
