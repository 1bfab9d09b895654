"""Screenshots of issue 19's items 5 and 6 (imported by ``screenshots.py``, so ``make screenshots``
writes them): a won hand with its changes explained, the match end with the ratings, and an away
player with "Buradayım" — at the three sizes, in Turkish and English."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.engine.rules import RuleSet
from games.models import MatchPlayer
from tests.e2e.table_helpers import VIEWPORTS, open_table, table_with_bots
from tests.e2e.test_table_result import rig_show_and_win, show_and_finish
from tests.games.conftest import make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _page(new_page, asgi_live_server, person, language):
    locale = "tr-TR" if language == "tr" else "en-GB"
    page = new_page(person, viewport=VIEWPORTS["desktop"], language=locale)
    if language == "en":
        page.context.add_cookies([{"name": "django_language", "value": "en", "url": asgi_live_server.url}])
    return page


@pytest.mark.parametrize("language", ["tr", "en"])
def test_result_moment_screenshots(new_page, asgi_live_server, language):
    from tests.e2e.screenshots import shot

    person = make_user("Ayşe" if language == "tr" else "Alice")
    table, _ = table_with_bots(person, name="Sonuç masası")
    rig_show_and_win(table)
    page = _page(new_page, asgi_live_server, person, language)
    open_table(page, table)
    show_and_finish(page)
    expect(page.locator("#result-dialog")).to_be_visible()
    for name, viewport in VIEWPORTS.items():
        page.set_viewport_size(viewport)
        shot(page, f"{language}-moment-hand-won-{name}")
    final, _ = table_with_bots(person, rules=RuleSet(start_points=3), name="Son el")
    rig_show_and_win(final)
    page.set_viewport_size(VIEWPORTS["desktop"])
    open_table(page, final)
    show_and_finish(page)
    expect(page.locator('#result-dialog tr[data-seat="0"] .rating')).to_be_visible()
    for name, viewport in VIEWPORTS.items():
        page.set_viewport_size(viewport)
        shot(page, f"{language}-moment-match-end-{name}")


@pytest.mark.parametrize("language", ["tr", "en"])
def test_away_player_screenshots(new_page, asgi_live_server, language):
    from tests.e2e.screenshots import shot

    person = make_user("Ayşe" if language == "tr" else "Alice")
    table, _ = table_with_bots(person, name="Uzakta")
    MatchPlayer.objects.filter(match__table=table, user=person).update(away=True, timeouts_in_row=3)
    page = _page(new_page, asgi_live_server, person, language)
    open_table(page, table)
    expect(page.locator("#away-banner")).to_be_visible()
    for name, viewport in VIEWPORTS.items():
        page.set_viewport_size(viewport)
        shot(page, f"{language}-moment-away-{name}")
