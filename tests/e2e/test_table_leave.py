"""Leaving a running match: confirmed first, the turn clock plays the seat (marked so), the player may sit
elsewhere at once, and coming back before the match ends gives the seat back."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.models import MatchPlayer
from salons.models import Room, Seat, Table
from tests.e2e.table_helpers import VIEWPORTS, make_user, open_table, table_with_bots

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_leaving_a_running_match_and_sitting_elsewhere_then_coming_back(new_page, asgi_live_server):
    # A friend stays at the table: when the last person leaves, the match ends (no match for nobody).
    table, person = table_with_bots(people=(make_user("Arkadas"),))
    other_room = Room.objects.create(salon=table.room.salon, name="Yan oda", owner=person)
    elsewhere = Table.objects.create(room=other_room, number=1)
    for position in range(4):
        Seat.objects.create(table=elsewhere, position=position)
    page = new_page(person, viewport=VIEWPORTS["portrait"])
    open_table(page, table)
    page.locator("#btn-leave").click()
    dialog = page.locator("#leave-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("yerinize sıra saati yalnızca taş çekip atar")
    page.locator("#leave-cancel").click()
    expect(dialog).to_be_hidden()
    assert Seat.objects.filter(table=table, user=person).exists()
    page.locator("#btn-leave").click()
    page.locator("#leave-confirm").click()
    expect(page.locator("#left-banner")).to_be_visible()
    expect(page.locator('.pbox[data-rel="0"] .tag--left')).to_be_visible()
    expect(page.locator("#btn-discard")).to_be_hidden()
    assert not Seat.objects.filter(table=table, user=person).exists()
    assert MatchPlayer.objects.get(match__table=table, user=person).away
    # Another player's page marks the seat too (a watcher here).
    # Sitting at another table works at once.
    page.goto(f"/tables/{elsewhere.id}/")
    expect(page.locator("#conn-status")).to_have_attribute("data-state", "ok")
    page.locator('.player[data-position="0"] button.sit').click()
    expect(page.locator('.player[data-position="0"] .name')).to_have_text(person.username)
    assert Seat.objects.get(table=elsewhere, position=0).user == person
    # Coming back to the running match gives the seat back (and stands up from the other table).
    open_table(page, table)
    page.locator("#btn-return").click()
    expect(page.locator("#left-banner")).to_be_hidden()
    expect(page.locator('.pbox[data-rel="0"] .tag--left')).to_have_count(0)
    assert Seat.objects.get(table=table, position=0).user == person
    assert not Seat.objects.filter(table=elsewhere, user=person).exists()


def test_the_last_person_leaving_ends_a_match_of_bots(new_page, asgi_live_server):
    """Issue 18: bots never play on for nobody; the page says the match is over."""
    from games.models import Match

    table, person = table_with_bots()
    page = new_page(person, viewport=VIEWPORTS["portrait"])
    open_table(page, table)
    page.locator("#btn-leave").click()
    page.locator("#leave-confirm").click()
    for _ in range(50):
        if Match.objects.get(table=table).status == Match.Status.ABANDONED:
            break
        page.wait_for_timeout(100)
    assert Match.objects.get(table=table).status == Match.Status.ABANDONED
    assert Table.objects.get(pk=table.pk).status == Table.Status.WAITING
