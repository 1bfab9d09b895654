"""The table fits one screen at a desktop, a portrait phone and a landscape phone: every part on
screen, nothing overlapping, tiles big enough to read and to hit, no tile notation in any text."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.table_helpers import (
    MIN_BUTTON,
    MIN_FELT_TILE,
    MIN_TILE,
    NOTATION,
    VIEWPORTS,
    bots_draw_and_throw_until_seat,
    current_hand,
    open_table,
    play_one_turn_for_the_clock,
    table_with_bots,
    throw_a_tile,
    visible_text,
)
from tests.games.conftest import make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

GEOMETRY = """() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return {x: r.left, y: r.top, w: r.width, h: r.height}; };
  const all = (selector) => [...document.querySelectorAll(selector)].filter((el) => el.offsetParent !== null);
  return {
    width: innerWidth, height: innerHeight,
    scrollWidth: document.documentElement.scrollWidth, scrollHeight: document.documentElement.scrollHeight,
    seats: all("#okey-table .pbox").map((el) => ({rel: el.dataset.rel, ...box(el)})),
    discards: all("#okey-table .discard").map((el) => ({rel: el.dataset.rel, tiles: el.querySelectorAll(".tile").length, ...box(el)})),
    centre: all("#pile, #indicator .tile, #okey .tile, #finish-zone").map((el) => ({id: el.id || el.parentElement.id, ...box(el)})),
    rack: box(document.getElementById("rack")),
    buttons: all("#controls .tbtn, .table-header .hbtn").map((el) => ({id: el.id, controls: !!el.closest("#controls"), ...box(el)})),
    tiles: all("#rack .tile, .discard .tile, #indicator .tile, #okey .tile").map((el) => ({where: el.parentElement.className || el.parentElement.id, ...box(el)})),
  };
}"""


def overlaps(a, b) -> bool:
    return a["x"] < b["x"] + b["w"] - 0.5 and b["x"] < a["x"] + a["w"] - 0.5 and \
        a["y"] < b["y"] + b["h"] - 0.5 and b["y"] < a["y"] + a["h"] - 0.5


def inside(part, width, height) -> bool:
    return part["x"] >= -0.5 and part["y"] >= -0.5 and part["x"] + part["w"] <= width + 0.5 and \
        part["y"] + part["h"] <= height + 0.5


@pytest.mark.parametrize("name", list(VIEWPORTS))
def test_the_whole_table_fits_one_screen_after_a_round(new_page, asgi_live_server, name):
    table, person = table_with_bots()
    page = new_page(person, viewport=VIEWPORTS[name])
    open_table(page, table)
    # A round: every bot draws and throws, and so does the person, through the page.
    bots_draw_and_throw_until_seat(table, 0)
    expect(page.locator("#clock")).to_have_class("clock mine")
    if page.locator("#pile").is_enabled():
        page.locator("#pile").click()
        expect(page.locator("#rack .tile")).to_have_count(15)
    throw_a_tile(page)
    bots_draw_and_throw_until_seat(table, 0)
    expect(page.locator("#clock")).to_have_class("clock mine")
    # Four discard piles, each with its top tile.
    expect(page.locator("#okey-table .discard .tile")).to_have_count(4)

    geometry = page.evaluate(GEOMETRY)
    width, height = geometry["width"], geometry["height"]
    assert geometry["scrollWidth"] <= width, "the page scrolls sideways"
    assert geometry["scrollHeight"] <= height, "the page scrolls"
    assert len(geometry["seats"]) == 4 and len(geometry["discards"]) == 4 and len(geometry["centre"]) == 4
    assert all(d["tiles"] == 1 for d in geometry["discards"])
    parts = ([("seat", s) for s in geometry["seats"]] + [("discard", d) for d in geometry["discards"]]
             + [("centre", c) for c in geometry["centre"]] + [("rack", geometry["rack"])])
    for kind, part in parts + [("button", b) for b in geometry["buttons"]]:
        assert inside(part, width, height), f"{kind} {part} is off screen at {name}"
    for index, (kind, part) in enumerate(parts):
        for other_kind, other in parts[index + 1:]:
            if kind == other_kind == "centre":
                continue
            assert not overlaps(part, other), f"{kind} {part} overlaps {other_kind} {other} at {name}"
    for tile in geometry["tiles"]:
        min_width, min_height = (MIN_TILE if tile["where"] == "slot" else MIN_FELT_TILE)[name]
        assert tile["w"] >= min_width - 0.01 and tile["h"] >= min_height - 0.01, f"tile {tile} too small at {name}"
    for button in geometry["buttons"]:
        if button["controls"]:
            assert button["h"] >= MIN_BUTTON - 0.01, f"button {button} too small to tap at {name}"
    text = visible_text(page)
    assert not NOTATION.findall(text), f"tile notation in the page's text: {NOTATION.findall(text)}"
    # The move feed tells who threw what, in words and small tiles.
    feed = page.locator("#feed")
    expect(feed.locator("li")).not_to_have_count(0)
    assert not NOTATION.findall(feed.inner_text())


def test_the_site_header_is_a_thin_bar_on_the_table_page(new_page, asgi_live_server):
    table, person = table_with_bots()
    page = new_page(person, viewport=VIEWPORTS["portrait"])
    open_table(page, table)
    assert page.locator(".site-header").count() == 0
    assert page.locator("#table-header").bounding_box()["height"] <= 36
    expect(page.locator(".site-footer")).to_be_hidden()


def test_a_watcher_arriving_mid_hand_reads_every_move_so_far_in_the_feed(new_page, asgi_live_server):
    table, _person = table_with_bots()
    for _ in range(5):
        play_one_turn_for_the_clock(table)
    hand = current_hand(table)
    discards = sum(1 for move in hand.moves.all() if move.action == "discard")
    assert discards >= 3
    watcher = new_page(make_user("Seyirci"), viewport=VIEWPORTS["desktop"])
    open_table(watcher, table)
    feed = watcher.locator("#feed li")
    expect(feed.filter(has_text="attı")).to_have_count(discards)
    # The next move adds its line once, and a reload shows each move once again.
    play_one_turn_for_the_clock(table)
    expect(feed.filter(has_text="attı")).to_have_count(discards + 1)
    watcher.reload()
    expect(watcher.locator("#conn-status")).to_have_attribute("data-state", "ok")
    expect(watcher.locator("#feed li").filter(has_text="attı")).to_have_count(discards + 1)


@pytest.mark.parametrize("name", list(VIEWPORTS))
def test_a_practice_table_keeps_its_header_and_guide_on_screen(new_page, asgi_live_server, name):
    """The practice header has more to hold (help, leave practice): on a phone every button of it,
    and the guided first hand with its buttons, stay on screen and the page never scrolls sideways."""
    from tests.conftest import make_salon

    make_salon("genel", name="Genel")
    person = make_user("Pratikçi")
    page = new_page(person, viewport=VIEWPORTS[name])
    page.goto("/")
    page.get_by_test_id("practice").click()
    page.wait_for_function("() => window.__okeyTest && window.__okeyTest.frames > 0")
    tutorial = page.get_by_test_id("tutorial")
    expect(tutorial).to_be_visible()
    geometry = page.evaluate(GEOMETRY)
    width, height = geometry["width"], geometry["height"]
    assert geometry["scrollWidth"] <= width, "the page scrolls sideways"
    header = page.evaluate("""() => [...document.querySelectorAll('.table-header button, .table-header a')]
        .filter((el) => el.offsetParent !== null)
        .map((el) => { const r = el.getBoundingClientRect(); return {text: el.textContent.trim(), x: r.left, y: r.top, w: r.width, h: r.height}; })""")
    for part in header:
        assert inside(part, width, height), f"header control {part} is off screen at {name}"
    texts = " ".join(part["text"] for part in header)
    assert "Pratikten çık" in texts and "Masadan kalk" not in texts, texts  # one way out of practice
    for part in (tutorial, tutorial.get_by_role("button", name="İleri"), tutorial.get_by_role("button", name="Geç")):
        box = part.bounding_box()
        assert inside({"x": box["x"], "y": box["y"], "w": box["width"], "h": box["height"]}, width, height), \
            f"the guided hand's {box} is off screen at {name}"
    tutorial.get_by_role("button", name="İleri").click()
    expect(tutorial).to_contain_text("Taş çekmek")


def test_the_feed_says_your_own_moves_to_you_and_the_others_by_name(new_page, asgi_live_server):
    table, person = table_with_bots()
    page = new_page(person, viewport=VIEWPORTS["desktop"])
    open_table(page, table)
    bots_draw_and_throw_until_seat(table, 0)
    expect(page.locator("#clock")).to_have_class("clock mine")
    if page.locator("#pile").is_enabled():
        page.locator("#pile").click()
        expect(page.locator("#feed li.mine").last).to_have_text("Ortadan çektiniz")
    page.locator("#rack .tile:not(.okey)").first.click()  # the okey asks before it goes
    page.locator("#btn-discard").click()
    mine = page.locator("#feed li.mine").last
    expect(mine).to_contain_text("Attınız:")
    expect(page.locator("#ticker")).to_contain_text("Attınız:")
    assert person.username not in mine.inner_text()
    bots_draw_and_throw_until_seat(table, 0)
    others = page.locator("#feed li:not(.mine)").filter(has_text="attı:")
    expect(others).not_to_have_count(0)
    assert others.first.inner_text().startswith("Bot"), others.first.inner_text()
