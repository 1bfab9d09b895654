"""People at the table: a player's card (report people, never bots; mute someone's chat for
yourself), the table chat's history on reload, quick phrases, the phone drawer's unread count, and
the rematch at match end."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.engine.rules import RuleSet
from games.models import Match
from tests.e2e.table_helpers import VIEWPORTS, open_table, rig_win_for_seat_zero, table_with_bots
from tests.games.conftest import make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_player_cards_chat_history_quick_phrases_and_the_unread_count(new_page, asgi_live_server):
    table, person = table_with_bots()
    friend = make_user("Deniz")
    page = new_page(person, viewport=VIEWPORTS["portrait"])
    other = new_page(friend, viewport=VIEWPORTS["desktop"])
    open_table(page, table)
    open_table(other, table)
    # A bot's card: figures and a bot badge, no report button.
    page.locator('.pbox[data-rel="1"] .name').click()
    card = page.locator("#card-dialog")
    expect(card).to_be_visible()
    expect(card.locator("#card-bot")).to_be_visible()
    expect(card.locator("#card-games")).to_have_text("0")
    expect(card.locator("#card-report")).to_be_hidden()
    page.locator("#card-close").click()
    # A watcher's quick phrase reaches the player, whose drawer counts it as unread.
    other.get_by_role("button", name="İyi oyunlar").click()
    expect(page.locator("#chat-unread")).to_have_text("1")
    page.locator("#btn-drawer").click()
    expect(page.locator("#chat-log")).to_contain_text("Deniz: İyi oyunlar")
    expect(page.locator("#chat-unread")).to_be_hidden()
    # Kept on reload.
    page.reload()
    page.locator("#btn-drawer").click()
    expect(page.locator("#chat-log li")).to_have_count(1)
    expect(page.locator("#chat-log")).to_contain_text("İyi oyunlar")


def test_a_person_can_be_reported_and_muted_from_their_card(new_page, asgi_live_server):
    friend = make_user("Deniz")
    table, person = table_with_bots(make_user("Ayşe"), people=(friend,))
    page = new_page(person, viewport=VIEWPORTS["desktop"])
    other = new_page(friend, viewport=VIEWPORTS["desktop"])
    open_table(page, table)
    open_table(other, table)
    other.get_by_role("button", name="Bol şans").click()
    expect(page.locator("#chat-log")).to_contain_text("Deniz: Bol şans")
    page.locator('.pbox[data-rel="1"] .name').click()
    card = page.locator("#card-dialog")
    expect(card.locator("#card-name")).to_have_text("Deniz")
    expect(card.locator("#card-bot")).to_be_hidden()
    expect(card.locator("#card-report")).to_be_visible()
    card.locator("#card-mute").click()
    expect(page.locator("#chat-log li", has_text="Bol şans")).to_be_hidden()
    page.locator("#card-close").click()
    page.reload()
    expect(page.locator("#chat-log li")).to_have_count(1)
    expect(page.locator("#chat-log li")).to_be_hidden()
    page.locator('.pbox[data-rel="1"] .name').click()
    expect(card.locator("#card-mute")).to_have_text("Susturmayı kaldır")
    card.locator("#card-report").click()
    expect(page.locator("#report-dialog")).to_be_visible()
    expect(page.locator("#report-dialog [data-report-name]")).to_have_text("Deniz")


def test_match_end_offers_a_rematch_with_the_same_seats(new_page, asgi_live_server):
    table, person = table_with_bots(rules=RuleSet(start_points=2))
    rig_win_for_seat_zero(table)
    page = new_page(person, viewport=VIEWPORTS["landscape"])
    open_table(page, table)
    page.locator('#rack .tile[data-tile="Y13"]').click()
    page.locator("#btn-finish").click()
    dialog = page.locator("#result-dialog")
    expect(dialog.locator("#result-title")).to_have_text("Maçı kazandınız!")
    expect(dialog.locator(".what-next")).to_contain_text("tekrar oynayabilir")
    expect(page.locator("#btn-ready")).to_be_hidden()
    expect(page.locator("#btn-start")).to_be_hidden()
    page.locator("#btn-rematch").click()
    expect(dialog).to_be_hidden()
    expect(page.locator("#rack .tile")).not_to_have_count(0)
    matches = list(Match.objects.filter(table=table).order_by("started_at"))
    assert len(matches) == 2 and matches[1].status == Match.Status.RUNNING
    assert list(matches[1].players.order_by("seat").values_list("user_id", flat=True)) == \
        list(matches[0].players.order_by("seat").values_list("user_id", flat=True))
