"""Four players in four browsers sit, get ready and play a hand of Okey to its end through the UI."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Hand, Match
from salons.models import Room, Salon, Seat, Table
from tests.e2e.conftest import wait_until
from tests.e2e.table_helpers import VIEWPORTS, throw_a_tile
from tests.games.conftest import make_user, rig_hand

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WINNING = "K1 K2 K3 K4 M5 M6 M7 S9 S10 S11 Y2 K2 M2 S2 Y13"
OTHERS = [
    "M9 M10 M11 K5 K6 K7 S3 S4 S5 Y6 Y7 Y8 Y9 Y10",
    "M1 M3 M4 K8 K9 K10 S6 S7 S8 Y3 Y4 Y5 Y11 Y12",
    "M12 M13 K11 K12 K13 S12 S13 Y1 M8 K9 S6 Y3 Y4 M3",
]


def a_room_with_one_empty_table():
    salon, _ = Salon.objects.get_or_create(slug="genel", defaults={"name": "Genel"})
    owner = make_user("OdaSahibi")
    room = Room.objects.create(salon=salon, name="Akşam masası", owner=owner, turn_seconds=60)
    table = Table.objects.create(room=room, number=1)
    for position in range(4):
        Seat.objects.create(table=table, position=position)
    return table


def drag(page, source, target) -> None:
    """A real pointer drag: press on the tile, move in steps, release over the target."""
    source.hover()  # waits until the tile stands still (a drawn tile slides in from the pile)
    box = source.bounding_box()
    goal = target.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(goal["x"] + goal["width"] / 2, goal["y"] + goal["height"] / 2, steps=8)
    page.mouse.up()


def test_four_players_play_a_hand_to_its_end_in_four_browsers(new_page, asgi_live_server):
    table = a_room_with_one_empty_table()
    names = ["Ayşe", "Mehmet", "Zeynep", "Ali"]
    users = [make_user(name) for name in names]
    pages = []
    for position, user in enumerate(users):
        page = new_page(user)
        page.goto(f"/tables/{table.id}/")
        expect(page.locator("#conn-status")).to_have_attribute("data-state", "ok")
        page.locator(f'.player[data-position="{position}"] button.sit').click()
        expect(page.locator(f'.player[data-position="{position}"] .name')).to_have_text(user.username)
        pages.append(page)
    # Everyone sees the other three seated, live.
    for page in pages:
        for user in users:
            expect(page.locator(".player .name", has_text=user.username)).to_be_visible()
    for page in pages:
        page.locator("#btn-ready").click()
    wait_until(lambda: Match.objects.filter(table=table).exists(), message="the match to start")

    # Exact racks for a short hand: the starter already holds a finished set of 14.
    hand = Hand.objects.get(match__table=table)
    starter = hand.turn_seat
    others = list(OTHERS)
    rig_hand(hand, racks=[WINNING if seat == starter else others.pop() for seat in range(4)], indicator="S7")
    for page in pages:  # coming back to the page shows the exact state
        page.reload()
        expect(page.locator("#conn-status")).to_have_attribute("data-state", "ok")
        expect(page.locator("#rack .tile")).to_have_count(15 if page is pages[starter] else 14)

    # The starter drags Y13 to the next player's side.
    first = pages[starter]
    drag(first, first.locator('#rack .tile[data-tile="Y13"]'), first.locator("#give-discard"))
    expect(first.locator("#rack .tile")).to_have_count(14)

    # The next player takes that discard; the two after draw from the pile; each discards by button.
    for offset in (1, 2, 3):
        page = pages[(starter + offset) % 4]
        expect(page.locator("#clock")).to_contain_text("Sıra sizde")
        if offset == 1:
            expect(page.locator("#take-discard .tile")).to_have_attribute("data-tile", "Y13")
            page.locator("#take-discard").click()
        else:
            page.locator("#pile").click()
        expect(page.locator("#rack .tile")).to_have_count(15)
        throw_a_tile(page, last=True)

    # The starter draws and drags the drawn tile onto the centre: the hand is over for everyone.
    expect(first.locator("#clock")).to_contain_text("Sıra sizde")
    before = first.locator("#rack .tile").evaluate_all("els => els.map(e => e.dataset.tile)")
    first.locator("#pile").click()
    expect(first.locator("#rack .tile")).to_have_count(15)
    after = first.locator("#rack .tile").evaluate_all("els => els.map(e => e.dataset.tile)")
    drawn = list(after)
    for tile in before:
        drawn.remove(tile)
    drag(first, first.locator(f'#rack .tile[data-tile="{drawn[0]}"]').last, first.locator("#finish-zone"))
    for seat, page in enumerate(pages):
        dialog = page.locator("#result-dialog")
        expect(dialog).to_be_visible()
        # The finisher's own panel says so in the second person; everyone else reads who did it.
        expect(dialog).to_contain_text("Kazandınız!" if seat == starter else f"{names[starter]} eli bitirdi")
        expect(dialog.locator(".group .tile")).to_have_count(14)
    hand.refresh_from_db()
    assert hand.status == Hand.Status.OVER
    assert Match.objects.get(table=table).players.get(seat=starter).score == 20


def the_owner_sits_alone(*, bot_fill_seconds: int = 0):
    """A waiting table with its room's owner alone at seat 0 (sat just now)."""
    table = a_room_with_one_empty_table()
    Room.objects.filter(pk=table.room_id).update(bot_fill_seconds=bot_fill_seconds)
    owner = table.room.owner
    Seat.objects.filter(table=table, position=0).update(user=owner, taken_at=timezone.now())
    return table, owner


def test_the_owner_alone_starts_with_bots_from_the_table(new_page, asgi_live_server):
    table, owner = the_owner_sits_alone()
    page = new_page(owner, viewport=VIEWPORTS["portrait"])
    page.goto(f"/tables/{table.id}/")
    start = page.locator("#btn-start")
    expect(start).to_have_text("Botlarla başlat")
    start.click()
    expect(page.locator("#rack .tile")).not_to_have_count(0)
    match = Match.objects.get(table=table)
    assert match.status == Match.Status.RUNNING
    assert [seat.user.is_bot for seat in Seat.objects.filter(table=table).order_by("position").select_related("user")] \
        == [False, True, True, True]
    expect(start).to_be_hidden()


def test_the_waiting_table_says_what_it_waits_for(new_page, asgi_live_server):
    table, owner = the_owner_sits_alone()
    page = new_page(owner, viewport=VIEWPORTS["desktop"])
    page.goto(f"/tables/{table.id}/")
    expect(page.locator("#clock")).to_have_text("Oyuncular bekleniyor · 1/4 oturdu")
    for position, name in ((1, "Bir"), (2, "İki"), (3, "Üç")):
        Seat.objects.filter(table=table, position=position).update(user=make_user(name))
    page.reload()
    expect(page.locator("#clock")).to_have_text("Herkes “Hazırım” deyince başlar · 0/4 hazır")
    page.locator("#btn-ready").click()
    expect(page.locator("#clock")).to_have_text("Herkes “Hazırım” deyince başlar · 1/4 hazır")


def test_a_room_that_fills_with_bots_counts_down_to_them_on_the_table(new_page, asgi_live_server):
    table, owner = the_owner_sits_alone(bot_fill_seconds=60)
    page = new_page(owner, viewport=VIEWPORTS["portrait"])
    page.goto(f"/tables/{table.id}/")
    clock = page.locator("#clock")
    expect(clock).to_have_text(re.compile(r"^Oyuncular bekleniyor · 1/4 oturdu · \d+ sn sonra boş yerlere botlar oturur$"))
    first = int(re.search(r"· (\d+) sn", clock.inner_text()).group(1))
    assert 40 <= first <= 60  # the page may take a while to open on a busy machine
    page.wait_for_timeout(3100)  # three seconds, so a timer late on a busy machine still shows two gone
    assert int(re.search(r"· (\d+) sn", clock.inner_text()).group(1)) <= first - 2
