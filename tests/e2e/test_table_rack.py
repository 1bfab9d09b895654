"""The rack: sorting keeps gaps between groups, a drawn tile never lands in one, the keyboard moves
tiles, a failed finish says why in words and changes nothing, and a finish shows everyone the
result with every score change."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.table_helpers import (
    NOTATION,
    VIEWPORTS,
    bots_draw_and_throw_until_seat,
    current_hand,
    open_table,
    play_one_turn_for_the_clock,
    rig_win_for_seat_zero,
    table_with_bots,
)
from tests.games.conftest import make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SLOTS = "() => [...document.querySelectorAll('#rack .slot')].map((s) => s.querySelector('.tile')?.dataset.tile ?? null)"


def test_a_drawn_tile_lands_after_the_last_tile_never_in_a_gap_after_sorting(new_page, asgi_live_server):
    table, person = table_with_bots()
    rig_win_for_seat_zero(table)
    page = new_page(person, viewport=VIEWPORTS["portrait"])
    open_table(page, table)
    page.locator('#rack .tile[data-tile="Y13"]').click()
    page.locator("#btn-discard").click()
    expect(page.locator("#rack .tile")).to_have_count(14)
    bots_draw_and_throw_until_seat(table, 0)
    expect(page.locator("#pile")).to_be_enabled()
    page.locator("#btn-sort-sets").click()
    # Four groups on the rack, a gap after each.
    page.wait_for_function(f"() => ({SLOTS})().indexOf(null) < ({SLOTS})().lastIndexOf('S11')")
    before = page.evaluate(SLOTS)
    last = max(i for i, tile in enumerate(before) if tile)
    gaps = [i for i in range(last) if before[i] is None]
    assert len(gaps) >= 3, before
    page.locator("#pile").click()
    expect(page.locator("#rack .tile")).to_have_count(15)
    after = page.evaluate(SLOTS)
    assert after[:last + 1] == before[:last + 1], "tiles moved or a gap was filled"
    assert after[last + 1] is not None, "the drawn tile is not right after the last tile"
    # The same after a reload: the layout is kept per hand.
    page.reload()
    expect(page.locator("#rack .tile")).to_have_count(15)
    assert page.evaluate(SLOTS) == after


def test_the_keyboard_moves_and_selects_tiles(new_page, asgi_live_server):
    table, person = table_with_bots()
    rig_win_for_seat_zero(table)
    page = new_page(person, viewport=VIEWPORTS["desktop"])
    open_table(page, table)
    before = page.evaluate(SLOTS)
    first = page.locator('#rack .slot[data-slot="0"] .tile')
    tile = first.get_attribute("data-tile")
    first.focus()
    page.keyboard.press("ArrowDown")  # to the second row, same column
    assert page.evaluate(SLOTS)[15] == tile and page.evaluate(SLOTS)[0] == before[15]
    page.keyboard.press("ArrowRight")
    assert page.evaluate(SLOTS)[16] == tile
    page.keyboard.press("Enter")
    expect(page.locator('#rack .slot[data-slot="16"] .tile')).to_have_class("tile " + {
        "K": "red", "S": "black", "M": "blue", "Y": "green"}[tile[0]] + " selected")
    expect(page.locator("#btn-discard")).to_be_enabled()


def test_a_failed_finish_says_why_in_words_and_keeps_rack_and_selection(new_page, asgi_live_server):
    table, person = table_with_bots()
    rig_win_for_seat_zero(table)
    page = new_page(person, viewport=VIEWPORTS["landscape"])
    open_table(page, table)
    wrong = page.locator('#rack .tile[data-tile="K1"]')
    wrong.click()
    before = page.evaluate(SLOTS)
    # Put K1 on the centre: the other 14 (with Y13) do not finish.
    wrong.hover()
    box, goal = wrong.bounding_box(), page.locator("#finish-zone").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(goal["x"] + goal["width"] / 2, goal["y"] + goal["height"] / 2, steps=6)
    page.mouse.up()
    message = page.locator("#messages")
    expect(message).to_contain_text("kırmızı 1")
    expect(message).to_have_attribute("data-kind", "error")
    assert not NOTATION.findall(message.inner_text())
    assert page.evaluate(SLOTS) == before
    expect(page.locator('#rack .tile[data-tile="K1"]')).to_have_class("tile red selected")
    assert current_hand(table).move == 0
    # The next move clears the message.
    page.locator('#rack .tile[data-tile="Y13"]').click()
    page.locator("#btn-discard").click()
    expect(message).to_have_text("")


def test_everyone_sees_the_result_with_every_score_change(new_page, asgi_live_server):
    table, person = table_with_bots()
    hand = rig_win_for_seat_zero(table)
    page = new_page(person, viewport=VIEWPORTS["portrait"])
    watcher = new_page(make_user("Seyirci"), viewport=VIEWPORTS["desktop"])
    open_table(page, table)
    open_table(watcher, table)
    page.locator('#rack .tile[data-tile="Y13"]').click()
    expect(page.locator("#btn-finish")).to_be_enabled()
    page.locator("#btn-finish").click()
    for viewer in (page, watcher):
        dialog = viewer.locator("#result-dialog")
        expect(dialog).to_be_visible()
        # The finisher is told "Kazandınız!"; everyone else who finished it.
        expect(dialog.locator("#result-title")).to_have_text(
            "Kazandınız!" if viewer is page else f"{person.username} eli bitirdi")
        expect(dialog.locator(".finish-tile .tile")).to_have_attribute("data-tile", "Y13")
        expect(dialog.locator(".group .tile")).to_have_count(14)
        labels = dialog.locator(".result-group small").all_inner_texts()
        assert sorted(set(labels)) == ["per", "seri"]
        rows = dialog.locator(".result-table tr[data-seat]")
        expect(rows).to_have_count(4)
        changes = {row.get_attribute("data-seat"): (row.locator("td.delta b").inner_text(),
                                                    row.locator("td.delta .parts").inner_text(),
                                                    row.locator("td").last.inner_text()) for row in rows.all()}
        assert changes["0"] == ("0", "değişmedi", "20")
        for seat in ("1", "2", "3"):
            assert changes[seat] == ("−2", "bitiş\u00a0−2", "18")  # the number never wraps away from its name
        expect(dialog.locator(".countdown")).to_contain_text("Yeni el")
        expect(dialog.get_by_role("link", name="Eli baştan izle")).to_have_attribute("href", f"/hands/{hand.pk}/")
        expect(dialog.get_by_role("link", name="Adil dağıtım kanıtı")).to_have_attribute(
            "href", f"/hands/{hand.pk}/proof.json")
        assert not NOTATION.findall(dialog.inner_text())
    # Closed, the table still says the hand is over and opens the result again.
    page.locator("#result-close").click()
    expect(page.locator("#btn-show-result")).to_be_visible()
    page.locator("#btn-show-result").click()
    expect(page.locator("#result-dialog")).to_be_visible()


def test_the_replay_and_history_name_tiles_in_words(new_page, asgi_live_server):
    table, person = table_with_bots()
    for _ in range(300):  # the clock plays every turn (the person's too) until the hand ends
        if not play_one_turn_for_the_clock(table):
            break
    hand = current_hand(table)
    assert hand.status == hand.Status.OVER
    page = new_page(person, viewport=VIEWPORTS["portrait"])
    page.goto(f"/hands/{hand.pk}/")
    steps = hand.move
    for _ in range(steps):
        assert not NOTATION.findall(page.locator("#replay-event").inner_text())
        page.locator("#replay-next").click()
    assert not NOTATION.findall(page.evaluate("document.body.innerText"))
    page.goto(f"/players/{person.username}/hands/")
    expect(page.get_by_role("link", name="İzle")).to_have_count(1)
    assert not NOTATION.findall(page.evaluate("document.body.innerText"))


def test_throwing_the_okey_asks_once_and_keeps_the_tile(new_page, asgi_live_server):
    from datetime import timedelta

    from django.utils import timezone

    from tests.e2e.table_helpers import OTHERS, WINNING
    from tests.games.conftest import rig_hand

    table, person = table_with_bots()
    hand = current_hand(table)
    rig_hand(hand, racks=[WINNING, *OTHERS], indicator="Y12", starting_seat=0)  # the okey: Y13
    match = hand.match
    match.state = {**match.state, "next_starting_seat": 0}
    match.save(update_fields=["state"])
    hand.deadline = timezone.now() + timedelta(seconds=120)
    hand.save(update_fields=["deadline"])
    page = new_page(person, viewport=VIEWPORTS["portrait"])
    open_table(page, table)
    okey = page.locator('#rack .tile[data-tile="Y13"]')
    expect(okey).to_have_class(re.compile(r"\bokey\b"))
    okey.click()
    page.locator("#btn-discard").click()
    message = page.locator("#messages")
    expect(message).to_have_attribute("data-kind", "warning")
    expect(message).to_contain_text("Bu taş okey")
    expect(page.locator("#rack .tile")).to_have_count(15)
    assert current_hand(table).move == 0
    # Asked once: throwing it again throws it.
    page.locator("#btn-discard").click()
    expect(page.locator("#rack .tile")).to_have_count(14)
    assert current_hand(table).move == 1
