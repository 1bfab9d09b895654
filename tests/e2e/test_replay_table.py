"""The replay drawn as a table: four open racks, every discard pile, the okey marked, step, play
and jump, at the three sizes; tiles drawn by the table's own script (static/js/tiles.js)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.models import Hand
from tests.e2e.table_helpers import VIEWPORTS, current_hand, play_one_turn_for_the_clock, table_with_bots
from tests.games.conftest import make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def finished_hand(person) -> Hand:
    table, _ = table_with_bots(person, name="Tekrar masası")
    for _ in range(400):
        if not play_one_turn_for_the_clock(table):
            break
    hand = current_hand(table)
    assert hand.status == Hand.Status.OVER
    return hand


def no_overflow(page) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")
    # Nothing inside a seat spills over its box.
    spills = page.evaluate("""() => [...document.querySelectorAll('.rseat:not([hidden]) .tile')].filter((t) => {
      const seat = t.closest('.rseat').getBoundingClientRect(); const r = t.getBoundingClientRect();
      return r.left < seat.left - 1 || r.right > seat.right + 1; }).length""")
    assert spills == 0


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_the_replay_is_a_table_with_four_open_racks(new_page, asgi_live_server, viewport):
    person = make_user("Ayşe")
    hand = finished_hand(person)
    page = new_page(person, viewport=VIEWPORTS[viewport])
    page.goto(f"/hands/{hand.pk}/")
    seats = page.locator(".rseat:not([hidden])")
    expect(seats).to_have_count(4)
    # The deal: every rack open (14 tiles, 15 for the starter), sorted by colour and number.
    counts = [seats.nth(i).locator(".rrack .tile").count() for i in range(4)]
    assert sorted(counts) == [14, 14, 14, 15]
    first = page.evaluate("() => [...document.querySelector('.rseat[data-rel=\"0\"] .rrack').querySelectorAll('.tile')].map((t) => t.dataset.tile)")
    okey = page.locator("#replay-okey .tile").get_attribute("data-tile")
    order = "KSMY"
    plain = [t for t in first if t not in (okey, "J")]
    keys = [(order.index(t[0]), int(t[1:])) for t in plain]
    assert keys == sorted(keys)
    # The okey is marked wherever it lies: gold face and star.
    expect(page.locator("#replay-okey .tile.okey .okey-badge")).to_have_count(1)
    for tile in page.locator(f'.rrack .tile[data-tile="{okey}"]').all():
        expect(tile).to_have_class(__import__("re").compile(r"\bokey\b"))
    expect(page.locator(".rseat .tile").first).to_have_attribute("aria-label", __import__("re").compile(r"\S+ \d+|okey"))
    no_overflow(page)

    # Step: a move ahead.
    page.locator("#replay-next").click()
    expect(page.locator("#replay")).to_have_attribute("data-step", "1")
    # Jump: the slider goes anywhere.
    middle = page.evaluate("() => Math.floor(window.__okeyReplay.steps / 2)")
    page.evaluate(f"""() => {{ const s = document.getElementById('replay-seek'); s.value = '{middle}';
      s.dispatchEvent(new Event('input', {{bubbles: true}})); }}""")
    expect(page.locator("#replay")).to_have_attribute("data-step", str(middle))
    assert page.locator(".rdiscards .tile").count() > 0
    no_overflow(page)
    # Play: it moves on by itself, and stops when asked.
    page.locator("#replay-play").click()
    expect(page.locator("#replay-play")).to_have_attribute("aria-pressed", "true")
    page.wait_for_function(f"() => Number(document.getElementById('replay').dataset.step) > {middle}")
    page.locator("#replay-play").click()
    expect(page.locator("#replay-play")).to_have_attribute("aria-pressed", "false")
    # The end: the hand's result, racks grouped.
    page.locator("#replay-last").click()
    expect(page.locator("#replay")).to_have_attribute("data-phase", "over")
    assert page.locator(".rseat .rgroup").count() > 4
    if hand.state.get("result", {}).get("finisher") is not None:
        expect(page.locator(".rseat.winner")).to_have_count(1)
    no_overflow(page)


def test_replay_and_table_share_one_tile_drawing(new_page, asgi_live_server):
    person = make_user("Ayşe")
    hand = finished_hand(person)
    page = new_page(person, viewport=VIEWPORTS["desktop"])
    page.goto(f"/hands/{hand.pk}/")
    # replay.js is a module that imports the table's own tiles.js (static/js/tiles.js).
    assert page.evaluate("() => [...document.scripts].filter((s) => s.type === 'module').map((s) => s.src.split('/').pop())") \
        == ["replay.js"]
    page.wait_for_function("() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/js/tiles.js'))")
    # The same drawing as the table's: the same classes and words for the okey and a false joker.
    drawn = page.evaluate("""async () => { const { okeyTiles } = await import('/static/js/tiles.js');
      const t = okeyTiles(JSON.parse(document.getElementById('okey-strings').textContent));
      const o = t.tile('K5', 'K5'); const j = t.tile('J', 'K5');
      return [o.className, o.getAttribute('aria-label'), j.className, j.querySelector('.as-value').textContent]; }""")
    assert drawn == ["tile red okey", "kırmızı 5 (okey)", "tile joker as-red", "5"]
