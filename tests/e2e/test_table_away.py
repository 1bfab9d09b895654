"""An away player's way back (issue 19, item 6): after three turns ran out the clock plays their
turns after one second; the table shows them "Buradayım", which brings them back without a move.
At every size the banner is on screen, not covered, and its button answers."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games import practice
from games.models import MatchPlayer
from tests.e2e.table_helpers import VIEWPORTS, open_table, table_with_bots

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def uncovered(page, selector: str) -> bool:
    """The element is inside the viewport and the topmost thing at its centre (nothing lies on it)."""
    return page.evaluate("""(sel) => {
        const el = document.querySelector(sel); const r = el.getBoundingClientRect();
        if (r.width === 0 || r.left < 0 || r.top < 0 || r.right > innerWidth || r.bottom > innerHeight) return false;
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return !!hit && (hit === el || el.contains(hit));
    }""", selector)


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_an_away_player_sees_buradayim_and_comes_back(size, new_page):
    table, person = table_with_bots()
    MatchPlayer.objects.filter(match__table=table, user=person).update(away=True, timeouts_in_row=3)
    page = new_page(person, viewport=VIEWPORTS[size])
    open_table(page, table)
    banner = page.locator("#away-banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("1 saniye")
    button = page.locator("#btn-back")
    expect(button).to_have_text("Buradayım")
    assert uncovered(page, "#btn-back"), "the way back is on screen and nothing covers it"
    button.click()
    expect(banner).to_be_hidden()
    player = MatchPlayer.objects.get(match__table=table, user=person)
    assert (player.away, player.timeouts_in_row) == (False, 0)
    expect(page.locator('.pbox[data-rel="0"] .tag--away')).to_have_count(0)


def test_in_english_it_says_i_am_back(new_page):
    table, person = table_with_bots()
    MatchPlayer.objects.filter(match__table=table, user=person).update(away=True, timeouts_in_row=3)
    page = new_page(person, viewport=VIEWPORTS["portrait"], language="en-US")
    open_table(page, table)
    expect(page.locator("#btn-back")).to_have_text("I'm back")
    expect(page.locator("#away-banner")).to_contain_text("1 second")


def test_a_practice_table_waits_for_its_away_person(new_page):
    from games.models import Hand
    from salons.models import Salon
    from tests.e2e.table_helpers import in_thread
    from tests.games.conftest import make_user

    Salon.objects.get_or_create(slug="genel", defaults={"name": "Genel"})
    person = make_user("Pratikçi")
    table = in_thread(practice.start_practice, user=person)
    MatchPlayer.objects.filter(match__table=table, user=person).update(away=True, timeouts_in_row=3)
    Hand.objects.filter(match__table=table).update(deadline=None)
    page = new_page(person, viewport=VIEWPORTS["landscape"])
    open_table(page, table)
    expect(page.locator("#away-banner")).to_contain_text("masa sizi bekliyor")
    page.locator("#btn-back").click()
    expect(page.locator("#away-banner")).to_be_hidden()
    assert Hand.objects.get(match__table=table).deadline is not None, "the practice table plays on"
