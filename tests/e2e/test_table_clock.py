"""The turn clock is hard to miss (issue 19, item 7): a ring drains around the seat of the player to
move, the seconds left are written big on that seat, your own last seconds are white on red and
beat, and a seat the server plays (a bot) says who is playing instead of "0 sn"."""

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

RING = """() => {
    const ring = document.querySelector('.pbox.on-turn .timer');
    const count = document.querySelector('.pbox.on-turn .turn-count');
    const clock = document.getElementById('clock');
    const seat = ring && ring.closest('.pbox');
    const box = ring && ring.getBoundingClientRect(), seatBox = seat && seat.getBoundingClientRect();
    return ring && {
        left: parseFloat(getComputedStyle(ring).getPropertyValue('--left')),
        rel: seat.dataset.rel, around: Math.abs(box.width - seatBox.width) < 1 && Math.abs(box.height - seatBox.height) < 1,
        count: count.hidden ? null : count.textContent, countSize: parseFloat(getComputedStyle(count).fontSize),
        countBackground: getComputedStyle(count).backgroundColor,
        clock: clock.textContent, clockSize: parseFloat(getComputedStyle(clock).fontSize),
        clockBackground: getComputedStyle(clock).backgroundColor,
    };
}"""
RED = "rgb(255, 82, 82)"


def seat_three_on_turn(table):
    for _ in range(6):
        if current_hand(table).turn_seat == 3:
            return
        bot_draws_and_throws(table)
    raise AssertionError("seat 3 never came on turn")


@pytest.mark.parametrize("viewport", ["desktop", "portrait", "landscape"])
@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_ring_drains_around_the_seat_to_move_and_the_last_seconds_are_unmistakable(
        new_page, asgi_live_server, viewport, motion):
    table, person = table_with_bots()
    Match.objects.filter(table=table).update(turn_seconds=9)
    page = new_page(person, viewport=VIEWPORTS[viewport])
    page.emulate_media(reduced_motion=motion)
    if current_hand(table).turn_seat == 0:
        open_table(page, table)
        throw_a_tile(page)
    seat_three_on_turn(table)
    open_table(page, table)
    # A bot's turn: who plays, no seconds counted, a still ring around the bot's seat.
    bot = page.evaluate(RING)
    assert bot["rel"] == "3" and bot["around"], bot
    assert bot["count"] is None and " sn" not in bot["clock"] and "oynuyor" in bot["clock"], bot
    # The person's turn: nine seconds, a ring around her own seat that drains, the count big.
    bot_draws_and_throws(table)
    expect(page.locator("#clock")).to_have_class("clock mine")
    first = page.evaluate(RING)
    assert first["rel"] == "0" and first["around"]
    assert first["count"] is not None and int(first["count"]) >= 6
    assert first["countSize"] >= 15 and first["clockSize"] >= 16, first
    assert first["countBackground"] != RED and first["clockBackground"] == "rgba(0, 0, 0, 0)"
    time.sleep(1.6)
    later = page.evaluate(RING)
    assert later["left"] < first["left"] - 5, (first, later)
    assert int(later["count"]) < int(first["count"])
    # The last five seconds: count and clock white on red, the ring red.
    expect(page.locator(".pbox.on-turn .turn-count")).to_have_class("turn-count mine urgent", timeout=6000)
    last = page.evaluate(RING)
    assert int(last["count"]) <= 5
    assert last["countBackground"] == RED and last["clockBackground"] == "rgb(211, 47, 47)"
    expect(page.locator(".pbox.on-turn .timer")).to_have_class("timer mine urgent")
    # The beat is motion: it stops for a reduced-motion reader (the colours stay).
    animation = page.locator(".pbox.on-turn .turn-count").evaluate("(el) => getComputedStyle(el).animationName")
    assert animation == ("none" if motion == "reduce" else "beat")
