"""Your turn is hard to miss: a sound, the tab's title, one vibration; a tick in your own last
seconds, and red only then. Sound and vibration can be turned off, and the page remembers."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from games.models import Match
from tests.e2e.table_helpers import (
    VIEWPORTS,
    bot_draws_and_throws,
    current_hand,
    open_table,
    table_with_bots,
    throw_a_tile,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Count what the page asks of the device: vibrations and Web Audio oscillators started.
INSTRUMENT = """
  window.__device = { vibrations: [], tones: 0 };
  navigator.vibrate = (pattern) => { window.__device.vibrations.push(pattern); return true; };
  const createOscillator = AudioContext.prototype.createOscillator;
  AudioContext.prototype.createOscillator = function () {
    const osc = createOscillator.call(this);
    const start = osc.start.bind(osc);
    osc.start = (...args) => { window.__device.tones += 1; return start(...args); };
    return osc;
  };
"""


def log_kinds(page) -> list[str]:
    return page.evaluate("window.__okeyTest.log.map((entry) => entry.kind + ':' + entry.detail)")


def wait_until_turn_moves_on(table, *, from_seat: int) -> None:
    """The server has taken the person's throw (the page's click is asynchronous)."""
    for _ in range(200):
        if current_hand(table).turn_seat != from_seat:
            return
        time.sleep(0.05)
    raise AssertionError(f"seat {from_seat} kept the turn")


def not_my_turn_yet(table):
    """Bots play until the seat before the person's is on turn."""
    for _ in range(6):
        hand = current_hand(table)
        if hand.turn_seat == 3:
            return hand
        bot_draws_and_throws(table)
    raise AssertionError("seat 3 never came on turn")


def test_your_turn_sounds_changes_the_title_and_vibrates_once(new_page, asgi_live_server):
    table, person = table_with_bots()
    Match.objects.filter(table=table).update(turn_seconds=5)  # the person's own clock: 5 s a turn
    page = new_page(person, viewport=VIEWPORTS["portrait"])
    page.add_init_script(INSTRUMENT)
    if current_hand(table).turn_seat == 0:
        open_table(page, table)
        throw_a_tile(page)
    not_my_turn_yet(table)
    open_table(page, table)
    page.locator("#felt").click(position={"x": 4, "y": 4})  # a first tap: browsers allow vibration only after one
    assert not page.title().startswith("● Sıra sizde")
    # While a bot's clock runs out nothing is red for the person.
    expect(page.locator("#clock")).not_to_have_class("clock urgent")
    bot_draws_and_throws(table)
    page.wait_for_function("() => document.title.startsWith('● Sıra sizde')")
    page.wait_for_function("() => window.__okeyTest.log.some((e) => e.kind === 'sound' && e.detail === 'turn')")
    assert page.evaluate("window.__device.vibrations") == [180]
    assert page.evaluate("window.__device.tones") >= 2
    # Five seconds a turn here: the person's own last seconds tick and turn red.
    page.wait_for_function("() => window.__okeyTest.log.some((e) => e.kind === 'sound' && e.detail === 'tick')")
    expect(page.locator("#clock")).to_have_class("clock mine urgent")
    expect(page.locator(".pbox.on-turn .timer.mine")).to_have_class("timer mine urgent")
    # Drawing is the same turn: no second alert.
    page.locator("#pile").click()
    expect(page.locator("#rack .tile")).to_have_count(15)
    assert [kind for kind in log_kinds(page) if kind == "sound:turn"] == ["sound:turn"]
    assert page.evaluate("window.__device.vibrations") == [180]
    page.locator("#rack .tile:not(.okey)").first.click()  # the okey asks before it goes
    page.locator("#btn-discard").click()
    page.wait_for_function("() => !document.title.startsWith('● Sıra sizde')")


def test_sound_and_vibration_can_be_turned_off_and_stay_off(new_page, asgi_live_server):
    table, person = table_with_bots()
    page = new_page(person, viewport=VIEWPORTS["desktop"])
    page.add_init_script(INSTRUMENT)
    open_table(page, table)
    page.locator("#btn-sound").click()
    page.locator("#btn-vibrate").click()
    page.locator("#btn-colorblind").click()
    page.reload()
    expect(page.locator("#conn-status")).to_have_attribute("data-state", "ok")
    expect(page.locator("#btn-sound")).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#btn-vibrate")).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#btn-colorblind")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("body")).to_have_class("table-page cb")
    page.locator("#felt").click(position={"x": 4, "y": 4})
    hand = current_hand(table)
    if hand.turn_seat == 0:
        page.locator("#rack .tile:not(.okey)").first.click()  # the okey asks before it goes
        page.locator("#btn-discard").click()
        wait_until_turn_moves_on(table, from_seat=0)
    not_my_turn_yet(table)
    bot_draws_and_throws(table)
    page.wait_for_function("() => document.title.startsWith('● Sıra sizde')")
    assert not any(kind.startswith("sound:") for kind in log_kinds(page))
    assert page.evaluate("window.__device.vibrations") == []
    assert page.evaluate("window.__device.tones") == 0


def test_every_move_is_heard_and_the_moves_before_the_page_opened_are_not(new_page, asgi_live_server):
    table, person = table_with_bots()
    page = new_page(person, viewport=VIEWPORTS["desktop"])
    if current_hand(table).turn_seat == 0:
        open_table(page, table)
        throw_a_tile(page)
    bot_draws_and_throws(table)  # moves made before the page below opens
    page.goto("about:blank")
    open_table(page, table)
    page.wait_for_timeout(300)
    heard = [kind for kind in log_kinds(page) if kind.startswith("sound:")]
    assert not [kind for kind in heard if kind in ("sound:draw", "sound:discard")], heard
    if current_hand(table).turn_seat == 0:
        page.locator("#pile").click()
        page.wait_for_function("() => window.__okeyTest.log.some((e) => e.kind === 'sound' && e.detail === 'draw')")
        page.locator("#rack .tile:not(.okey)").first.click()
        page.locator("#btn-discard").click()
    else:
        bot_draws_and_throws(table)
        page.wait_for_function("() => window.__okeyTest.log.some((e) => e.kind === 'sound' && e.detail === 'draw')")
    # A throw sounds like a tile set down, a pick-up like a lighter tap.
    page.wait_for_function("() => window.__okeyTest.log.some((e) => e.kind === 'sound' && e.detail === 'discard')")
