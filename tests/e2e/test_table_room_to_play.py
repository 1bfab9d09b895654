"""Issue 19, items 2, 8 and 9, at a desktop, a portrait phone and a landscape phone: the rack takes
the room the felt does not need (tiles and buttons big enough, nothing cut off, 101 Okey's 22 tiles
too), table chat shows as bubbles at the seats that fade and never cover the rack, and every seat
has a face (an avatar from the nickname), labelled numbers and a card with the player's record."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from playwright.sync_api import expect

from tests.e2e.table_helpers import (
    MIN_BUTTON,
    MIN_TILE,
    VIEWPORTS,
    in_thread,
    open_table,
    rig_win_for_seat_zero,
    table_with_bots,
)
from tests.games.conftest import make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

BOX = "(el) => { const r = el.getBoundingClientRect(); return {x: r.left, y: r.top, w: r.width, h: r.height}; }"

RACK = f"""() => {{
  const box = {BOX};
  const seen = (el) => el.offsetParent !== null;
  const tiles = [...document.querySelectorAll("#rack .tile")].map((el) => ({{
    tile: el.dataset.tile, ...box(el), font: parseFloat(getComputedStyle(el.querySelector(".n")).fontSize)}}));
  return {{
    width: innerWidth, height: innerHeight, scrollWidth: document.documentElement.scrollWidth,
    scrollHeight: document.documentElement.scrollHeight,
    rack: box(document.getElementById("rack")), felt: box(document.getElementById("felt")), tiles,
    buttons: [...document.querySelectorAll("#controls .tbtn")].filter(seen).map((el) => ({{id: el.id, ...box(el)}})),
  }};
}}"""


def inside(part, outer) -> bool:
    return part["x"] >= outer["x"] - 0.5 and part["y"] >= outer["y"] - 0.5 and \
        part["x"] + part["w"] <= outer["x"] + outer["w"] + 0.5 and part["y"] + part["h"] <= outer["y"] + outer["h"] + 0.5


def overlaps(a, b) -> bool:
    return a["x"] < b["x"] + b["w"] - 0.5 and b["x"] < a["x"] + a["w"] - 0.5 and \
        a["y"] < b["y"] + b["h"] - 0.5 and b["y"] < a["y"] + a["h"] - 0.5


def check_rack(geometry, name, count):
    screen = {"x": 0, "y": 0, "w": geometry["width"], "h": geometry["height"]}
    assert geometry["scrollWidth"] <= geometry["width"], f"the page scrolls sideways at {name}"
    assert geometry["scrollHeight"] <= geometry["height"], f"the page scrolls at {name}"
    assert inside(geometry["rack"], screen), f"the rack {geometry['rack']} is cut off at {name}"
    assert not overlaps(geometry["rack"], geometry["felt"]), f"the rack overlaps the felt at {name}"
    tiles = geometry["tiles"]
    assert len(tiles) == count
    min_width, min_height = MIN_TILE[name]
    for tile in tiles:
        assert tile["w"] >= min_width - 0.01 and tile["h"] >= min_height - 0.01, f"tile {tile} too small at {name}"
        assert inside(tile, geometry["rack"]) and inside(tile, screen), f"tile {tile} cut off at {name}"
        # The number reads at arm's length: well over half the tile's width.
        assert tile["font"] >= 0.55 * tile["w"] and tile["font"] >= 19, f"tile {tile} has a small number at {name}"
    for index, tile in enumerate(tiles):
        for other in tiles[index + 1:]:
            assert not overlaps(tile, other), f"{tile} overlaps {other} at {name}"
    assert geometry["buttons"], "no buttons under the rack"
    for button in geometry["buttons"]:
        assert button["h"] >= MIN_BUTTON - 0.01, f"button {button} is too small to tap at {name}"
        assert inside(button, screen), f"button {button} is cut off at {name}"
        assert not overlaps(button, geometry["rack"]), f"button {button} covers the rack at {name}"


@pytest.mark.parametrize("name", list(VIEWPORTS))
def test_the_rack_takes_the_room_with_big_tiles_and_buttons_also_for_22_tiles(new_page, asgi_live_server, name):
    table, person = table_with_bots()
    rig_win_for_seat_zero(table)
    page = new_page(person, viewport=VIEWPORTS[name])
    open_table(page, table)
    expect(page.locator("#rack .tile")).to_have_count(15)
    check_rack(page.evaluate(RACK), name, 15)
    # Sorted, the groups stay whole on their rows (portrait: three rows of ten).
    page.locator("#btn-sort-sets").click()
    page.wait_for_function("() => document.querySelector('#rack .slot').nextElementSibling.querySelector('.tile') !== null"
                           " && [...document.querySelectorAll('#rack .slot')].some((s) => !s.querySelector('.tile'))")
    check_rack(page.evaluate(RACK), name, 15)
    # 101 Okey deals 22 tiles: the same rack holds them all, each as big, nothing cut off.
    page.evaluate("""() => {
      const frame = structuredClone(window.__okeyTest.lastFrame);
      const more = ["K5", "K6", "K7", "M1", "M2", "M3", "S4"];
      frame.hand.rack = [...frame.hand.rack, ...more];
      frame.events = [];
      window.__okeyTest.applyFrame(frame);
    }""")
    expect(page.locator("#rack .tile")).to_have_count(22)
    check_rack(page.evaluate(RACK), name, 22)


def post_line(user, table, text):
    from salons import services as salon_services

    in_thread(salon_services.post_chat_message, user=user, room=table.room, table=table, text=text)


BUBBLES = f"""() => {{
  const box = {BOX};
  return {{
    bubbles: [...document.querySelectorAll("#bubbles .bubble")].map((el) => ({{rel: el.dataset.rel, text: el.textContent,
      opacity: getComputedStyle(el).opacity, ...box(el)}})),
    rack: box(document.getElementById("rack")), felt: box(document.getElementById("felt")),
    controls: [...document.querySelectorAll("#controls .tbtn")].filter((el) => el.offsetParent !== null).map(box),
    seat: box(document.querySelector('.pbox[data-rel="1"]')),
    centre: [...document.querySelectorAll("#pile, #indicator .tile, #okey .tile")].map(box),
    drawerOpen: document.getElementById("side").classList.contains("open"),
  }};
}}"""


@pytest.mark.parametrize("name", list(VIEWPORTS))
def test_table_chat_shows_as_bubbles_at_the_seats_that_fade_and_never_cover_the_rack(new_page, asgi_live_server, name):
    friend = make_user("Deniz")
    table, person = table_with_bots(make_user("Ayşe"), people=(friend,))
    page = new_page(person, viewport=VIEWPORTS[name])
    page.clock.install()  # the bubble's fade is driven below, not waited for
    open_table(page, table)
    expect(page.locator('.pbox[data-rel="1"] .name')).to_have_text("Deniz")
    long_line = "Merhaba, iyi oyunlar herkese! Bu el çok uzun sürdü, çayımı tazeleyip hemen geliyorum, bekleyin."
    post_line(friend, table, long_line)
    bubble = page.locator('#bubbles .bubble[data-rel="1"]')
    expect(bubble).to_be_visible()
    expect(bubble).to_contain_text("Merhaba")
    geometry = page.evaluate(BUBBLES)
    assert not geometry["drawerOpen"], "a chat line opened the drawer over the table"
    for line in geometry["bubbles"]:
        assert inside(line, geometry["felt"]), f"the bubble {line} leaves the felt at {name}"
        assert not overlaps(line, geometry["rack"]), f"the bubble {line} covers the rack at {name}"
        for button in geometry["controls"]:
            assert not overlaps(line, button), f"the bubble {line} covers a button {button} at {name}"
        # Beside or above the seat it came from, never on top of it, and off the centre's tiles.
        assert not overlaps(line, geometry["seat"]), f"the bubble {line} hides its seat at {name}"
        for tile in geometry["centre"]:
            assert not overlaps(line, tile), f"the bubble {line} hides the centre's {tile} at {name}"
    # The drawer keeps the line (on a phone, closed, it counts the line as unread).
    expect(page.locator("#chat-log")).to_contain_text(long_line)
    if name != "desktop":
        expect(page.locator("#chat-unread")).to_have_text("1")
    # Your own line shows at your seat; a second line of a seat replaces its first.
    post_line(person, table, "Bol şans")
    expect(page.locator('#bubbles .bubble[data-rel="0"]')).to_have_text("Bol şans")
    post_line(friend, table, "Teşekkürler")
    expect(bubble).to_have_count(1)
    expect(bubble).to_have_text("Teşekkürler")
    geometry = page.evaluate(BUBBLES)
    for line in geometry["bubbles"]:
        assert not overlaps(line, geometry["rack"]), f"the bubble {line} covers the rack at {name}"
        for tile in geometry["centre"]:
            assert not overlaps(line, tile), f"the bubble {line} hides the centre's {tile} at {name}"
    # A few seconds later they are gone.
    page.clock.run_for(10_000)
    expect(page.locator("#bubbles .bubble")).to_have_count(0)
    # A muted player's lines make no bubble.
    page.locator('.pbox[data-rel="1"] .name').click()
    page.locator("#card-mute").click()
    page.locator("#card-close").click()
    post_line(friend, table, "Sessiz")
    expect(page.locator("#chat-log li", has_text="Sessiz")).to_have_count(1)
    expect(page.locator("#bubbles .bubble")).to_have_count(0)


def test_bubbles_keep_still_for_a_reader_who_asks_for_less_motion(new_page, asgi_live_server):
    friend = make_user("Deniz")
    table, person = table_with_bots(make_user("Ayşe"), people=(friend,))
    page = new_page(person, viewport=VIEWPORTS["portrait"])
    page.emulate_media(reduced_motion="reduce")
    open_table(page, table)
    post_line(friend, table, "İyi oyunlar")
    bubble = page.locator('#bubbles .bubble[data-rel="1"]')
    expect(bubble).to_be_visible()
    assert bubble.evaluate("(el) => getComputedStyle(el).animationName") == "none"


@pytest.mark.parametrize("name", list(VIEWPORTS))
def test_every_seat_has_a_face_labelled_numbers_and_a_card_with_the_record(new_page, asgi_live_server, name):
    from django.contrib.auth import get_user_model

    from games.models import PlayerRating

    friend = make_user("Deniz Yıldız")
    get_user_model().objects.filter(pk=friend.pk).update(
        games_played=12, games_won=5, date_joined=datetime(2025, 3, 14, 12, tzinfo=UTC))
    PlayerRating.objects.create(user=friend, salon=None, ordinal=2.5, matches=12)
    table, person = table_with_bots(make_user("Ayşe"), people=(friend,))
    page = new_page(person, viewport=VIEWPORTS[name])
    open_table(page, table)
    seats = page.locator("#okey-table .pbox:visible")
    expect(seats).to_have_count(4)
    faces = page.evaluate("""() => [...document.querySelectorAll('#okey-table .pbox')].map((box) => {
      const face = box.querySelector('.avatar');
      const r = face ? face.getBoundingClientRect() : null;
      return {rel: box.dataset.rel, name: box.querySelector('.name')?.textContent, initials: face?.textContent,
              colour: face ? getComputedStyle(face).backgroundColor : null, w: r?.width, h: r?.height,
              hidden: face?.getAttribute('aria-hidden')};
    })""")
    by_rel = {face["rel"]: face for face in faces}
    assert by_rel["0"]["initials"] == "AY" and by_rel["1"]["initials"] == "DY", faces
    for face in faces:
        assert face["initials"] and face["w"] >= 24 and face["h"] >= 24, f"seat {face} has no avatar at {name}"
        assert face["hidden"] == "true"  # the name beside it says who
    assert len({face["colour"] for face in faces}) >= 3, f"avatars share one colour: {faces}"
    # The tile count and the score are named, not two bare numbers.
    expect(page.get_by_role("img", name=re.compile(r"^Istakada 1[45] taş$"))).to_have_count(4)
    expect(page.get_by_role("img", name="Puan: 20")).to_have_count(4)
    for box in page.locator("#okey-table .pbox .nums").all():
        expect(box.locator(".count .icon")).to_be_visible()
        expect(box.locator(".score .icon")).to_be_visible()
    # The same avatar (colour and initials) in the player's card, with their record.
    colour = by_rel["1"]["colour"]
    page.locator('.pbox[data-rel="1"] .name').click()
    card = page.locator("#card-dialog")
    expect(card).to_be_visible()
    expect(card.locator("#card-avatar")).to_have_text("DY")
    assert card.locator("#card-avatar").evaluate("(el) => getComputedStyle(el).backgroundColor") == colour
    expect(card.locator("#card-games")).to_have_text("12")
    expect(card.locator("#card-wins")).to_have_text("5 · %42")
    expect(card.locator("#card-rating")).to_have_text("1100")
    expect(card.locator("#card-since")).to_have_text("Mart 2025")
    box = card.bounding_box()
    viewport = VIEWPORTS[name]
    assert box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= viewport["width"] \
        and box["y"] + box["height"] <= viewport["height"], f"the card {box} is cut off at {name}"
    for button in card.locator(".tdialog__buttons .tbtn:visible").all():
        assert button.bounding_box()["height"] >= MIN_BUTTON - 0.01
    # Clicking a face opens the card too.
    page.locator("#card-close").click()
    page.locator('.pbox[data-rel="2"] .avatar').click()
    expect(card).to_be_visible()
    expect(card.locator("#card-bot")).to_be_visible()


def test_the_card_speaks_english_too(new_page, asgi_live_server):
    from django.contrib.auth import get_user_model

    friend = make_user("Dana")
    get_user_model().objects.filter(pk=friend.pk).update(
        games_played=4, games_won=1, date_joined=datetime(2024, 11, 2, 9, tzinfo=UTC))
    table, person = table_with_bots(make_user("Alice"), people=(friend,))
    page = new_page(person, viewport=VIEWPORTS["portrait"], language="en-GB")
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": asgi_live_server.url}])
    open_table(page, table)
    expect(page.get_by_role("img", name="Score: 20")).to_have_count(4)
    page.locator('.pbox[data-rel="1"] .name').click()
    card = page.locator("#card-dialog")
    expect(card.locator("#card-wins")).to_have_text("1 · 25%")
    expect(card.locator("#card-since")).to_have_text("November 2024")
    expect(card.locator("#card-rating")).to_have_text("–")


SLOTS = "() => [...document.querySelectorAll('#rack .slot')].map((s) => s.querySelector('.tile')?.dataset.tile ?? null)"


def runs(slots, width):
    """The groups of a rack (tiles between gaps), each with the rows it lies on."""
    groups, start = [], None
    for index, tile in enumerate([*slots, None]):
        if tile is not None and start is None:
            start = index
        if tile is None and start is not None:
            groups.append((slots[start:index], {start // width, (index - 1) // width}))
            start = None
    return groups


def test_a_turned_phone_lays_the_groups_out_again_each_whole_on_a_row(new_page, asgi_live_server):
    table, person = table_with_bots()
    rig_win_for_seat_zero(table)
    page = new_page(person, viewport=VIEWPORTS["portrait"])
    open_table(page, table)
    page.locator("#btn-sort-sets").click()
    page.wait_for_function(f"() => ({SLOTS})().indexOf(null) < ({SLOTS})().lastIndexOf('S11')")
    portrait = page.evaluate(SLOTS)
    assert all(len(rows) == 1 for _, rows in runs(portrait, 10)), portrait
    for viewport, width in ((VIEWPORTS["landscape"], 15), (VIEWPORTS["portrait"], 10)):
        page.set_viewport_size(viewport)
        page.wait_for_function(f"() => document.querySelector('#rack').getBoundingClientRect().width > 0 && "
                               f"getComputedStyle(document.getElementById('okey-table')).getPropertyValue('--cols').trim() === '{width}'")
        expect(page.locator("#rack .tile")).to_have_count(15)
        slots = page.evaluate(SLOTS)
        groups = runs(slots, width)
        assert [tile for group, _ in groups for tile in group] == [t for t in portrait if t], "tiles changed order"
        assert all(len(rows) == 1 for _, rows in groups), f"a group breaks across rows at {width} a row: {slots}"
    # The layout is kept, with its width, over a reload.
    page.reload()
    expect(page.locator("#rack .tile")).to_have_count(15)
    assert page.evaluate(SLOTS) == slots
