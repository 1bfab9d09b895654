"""'Hemen oyna' for a newcomer: she lands in a game within seconds, at her own seat with her own
rack, never at the result panel of a match that has ended (issue 19, item 1)."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from games import services
from games.models import Hand, Match, MatchPlayer
from salons.models import Table
from tests.e2e.table_helpers import VIEWPORTS, in_thread, table_with_bots
from tests.games.conftest import make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_newcomer_takes_over_the_seat_a_bot_plays_and_is_playing_within_seconds(new_page, asgi_live_server):
    leaver = make_user("Gidenİnci")
    stayer = make_user("KalanKaan")
    table, _ = table_with_bots(leaver, people=(stayer,))
    in_thread(services.leave_running_match, user=leaver, table_id=table.id)
    # Another table's match has ended with a freed seat: never offered.
    ended, _person = table_with_bots(name="Biten masa")
    Match.objects.filter(table=ended).update(status=Match.Status.FINISHED)
    Hand.objects.filter(match__table=ended).update(status=Hand.Status.OVER)
    Table.objects.filter(pk=ended.pk).update(status=Table.Status.WAITING)
    ended.seats.filter(position=3).update(user=None)
    newcomer = make_user("YeniNur")
    page = new_page(newcomer, viewport=VIEWPORTS["portrait"])
    page.goto("/")
    clicked = time.monotonic()
    page.get_by_test_id("quick-play").click()
    page.wait_for_url(f"**/tables/{table.id}/")
    # Her own seat and rack are drawn, the one who left is gone, no result panel, no waiting.
    expect(page.locator('.pbox[data-rel="0"] .name')).to_have_text("YeniNur")
    page.wait_for_function("() => document.querySelectorAll('#rack .tile').length >= 14", timeout=5000)
    assert time.monotonic() - clicked < 5, "in the game within seconds"
    expect(page.get_by_text("Gidenİnci")).to_have_count(0)
    expect(page.locator("#result-dialog")).to_be_hidden()
    expect(page.locator("#left-banner")).to_be_hidden()
    assert MatchPlayer.objects.get(match__table=table, user=newcomer).away is False
