"""The okey, a false joker and a selected tile never look alike (issue 19, item 3): the okey has a
gold face and a star badge readable on a phone, the false joker a clover face of its own with the
value it stands for written small, a selected tile is lifted (no amber of its own), and a result
panel draws an okey inside a run as the tile it stands for."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.table_helpers import VIEWPORTS, open_table, rig_okey_and_joker_for_seat_zero, table_with_bots
from tests.games.conftest import make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LOOKS = """(el) => {
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    const badge = el.querySelector('.okey-badge');
    const badgeBox = badge ? badge.getBoundingClientRect() : null;
    return {background: style.backgroundImage, shadow: style.boxShadow, top: box.top, height: box.height,
            badge: badgeBox ? Math.min(badgeBox.width, badgeBox.height) : 0,
            text: el.innerText.replace(/\\s+/g, ' ').trim(), label: el.getAttribute('aria-label')};
}"""
AMBER = ("rgb(255, 179, 0)", "rgb(255, 143, 0)")


@pytest.mark.parametrize("viewport", ["desktop", "portrait", "landscape"])
def test_the_okey_a_false_joker_and_a_selected_tile_each_look_their_own(new_page, asgi_live_server, viewport):
    person = make_user("Ayşe")
    table, _ = table_with_bots(person)
    rig_okey_and_joker_for_seat_zero(table)
    page = new_page(person, viewport=VIEWPORTS[viewport])
    open_table(page, table)
    rack = page.locator("#rack")
    okey = rack.locator('.tile[data-tile="S8"]')
    joker = rack.locator('.tile[data-tile="J"]')
    plain = rack.locator('.tile[data-tile="S9"]')
    okey_looks, joker_looks, plain_looks = (tile.evaluate(LOOKS) for tile in (okey, joker, plain))
    # The okey: its gold face and a star badge at least 9 px across, even on a phone.
    assert okey_looks["badge"] >= 9, okey_looks
    assert "okey" in okey_looks["label"]
    # The false joker: a clover, the value it stands for (black 8) small in its corner, and its name.
    assert "♣" in joker_looks["text"] and "8" in joker_looks["text"], joker_looks
    assert joker_looks["label"] == "sahte okey (siyah 8)"
    assert joker_looks["badge"] == 0
    # Three different faces.
    assert len({okey_looks["background"], joker_looks["background"], plain_looks["background"]}) == 3
    # Selecting lifts the tile; the amber stays the okey's alone.
    plain.click()
    expect(plain).to_have_class("tile black selected")
    lifted = plain.evaluate(LOOKS)
    assert lifted["top"] <= plain_looks["top"] - 0.15 * plain_looks["height"], (plain_looks, lifted)
    assert not any(amber in lifted["shadow"] for amber in AMBER), lifted["shadow"]
    assert any(amber in okey_looks["shadow"] for amber in AMBER)
    # The okey selected is lifted too, and keeps its gold.
    okey.click()
    selected_okey = okey.evaluate(LOOKS)
    assert selected_okey["top"] < okey_looks["top"] - 0.15 * okey_looks["height"]
    assert selected_okey["background"] == okey_looks["background"]


def test_a_result_panel_shows_what_the_okey_stands_for_in_a_run(new_page, asgi_live_server):
    from tests.e2e.screenshots import drag

    person = make_user("Ayşe")
    table, _ = table_with_bots(person)
    rig_okey_and_joker_for_seat_zero(table)
    page = new_page(person, viewport=VIEWPORTS["portrait"])
    open_table(page, table)
    drag(page, page.locator('#rack .tile[data-tile="Y13"]'), page.locator("#finish-zone"))
    dialog = page.locator("#result-dialog")
    expect(dialog).to_be_visible()
    run = dialog.locator(".result-group").filter(has=page.locator('.tile[data-tile="K1"]'))
    numbers = run.locator(".tile .n").all_inner_texts()
    assert numbers == ["1", "2", "3", "4"], "the okey reads as the 3 it stands for, not its own 8"
    standing = run.locator('.tile[data-tile="S8"]')
    expect(standing).to_have_attribute("aria-label", "okey, kırmızı 3 yerine")
    expect(standing).to_have_class("tile red okey stands-for")
    # The false joker is the black 8 it stands for, before black 9 and 10.
    joker = dialog.locator('.result-group .tile[data-tile="J"]')
    expect(joker).to_have_attribute("aria-label", "sahte okey (siyah 8)")
