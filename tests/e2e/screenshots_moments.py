"""Screenshots of issue 19's items 5 and 6 (imported by ``screenshots.py``, so ``make screenshots``
writes them): a won hand with its changes explained, the match end with the ratings, an away
player with "Buradayım", and eşli (partners mid-hand, a hand the other team finished, the team's
won match) — at the three sizes, in Turkish and English."""

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


@pytest.mark.parametrize("language", ["tr", "en"])
def test_partners_screenshots(new_page, asgi_live_server, language):
    """Eşli: the table mid-hand (teams' colours, the partner's badge, both team scores), a hand an
    opponent finished (the team's loss), and the match the person's team won."""
    from games import services
    from tests.e2e.screenshots import shot
    from tests.e2e.table_helpers import in_thread, play_bots_until_seat
    from tests.e2e.test_table_partners import rig_start

    person = make_user("Ayşe" if language == "tr" else "Alice")
    table, _ = table_with_bots(person, rules=RuleSet(partners=True), name="Eşli masa")
    page = _page(new_page, asgi_live_server, person, language)
    open_table(page, table)
    hand = play_bots_until_seat(table, 0)
    if hand.state["phase"] == "draw":
        page.locator("#pile").click()
        expect(page.locator("#rack .tile")).to_have_count(15)
    page.locator("#btn-sort-sets").click()
    page.locator("#rack .tile:not(.okey)").last.click()
    page.locator("#btn-discard").click()
    expect(page.locator("#rack .tile")).to_have_count(14)
    play_bots_until_seat(table, 0)
    expect(page.locator("#clock")).to_have_class("clock mine")
    expect(page.locator(".tag--partner")).to_have_count(1)
    for name, viewport in VIEWPORTS.items():
        page.set_viewport_size(viewport)
        shot(page, f"{language}-moment-partners-mid-hand-{name}")
    # An opponent (seat 1) finishes a hand that does not end the match: the team's −2.
    lost, _ = table_with_bots(person, rules=RuleSet(partners=True), name="Eşli kayıp")
    hand = rig_start(lost, seat=1)
    page.set_viewport_size(VIEWPORTS["desktop"])
    open_table(page, lost)
    rival = MatchPlayer.objects.select_related("user").get(match__table=lost, seat=1).user
    in_thread(services.play, user=rival, table_id=lost.id, action="finish", move=hand.move, args={"tile": "Y13"})
    expect(page.locator('#result-dialog tr[data-team="0"] td.delta b')).to_have_text("−2")
    for name, viewport in VIEWPORTS.items():
        page.set_viewport_size(viewport)
        shot(page, f"{language}-moment-partners-hand-lost-{name}")
    # The person finishes the match's one hand (countdown from 2): the team won.
    won, _ = table_with_bots(person, rules=RuleSet(partners=True, start_points=2), name="Eşli maç")
    rig_start(won, seat=0)
    page.set_viewport_size(VIEWPORTS["desktop"])
    open_table(page, won)
    page.locator('#rack .tile[data-tile="Y13"]').click()
    page.locator("#btn-finish").click()
    expect(page.locator("#result-dialog tr.winner[data-team]")).to_have_count(1)
    for name, viewport in VIEWPORTS.items():
        page.set_viewport_size(viewport)
        shot(page, f"{language}-moment-partners-match-won-{name}")
