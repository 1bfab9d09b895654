"""In the browser: a player reports another from the table; a site admin opens the queue in the
admin and bans the player from the site (site bans are for site admins only); the banned player's table page loses its connection at once and
their next login is refused with the reason."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from moderation.models import Report, Sanction
from salons import services as salon_services
from tests.conftest import PASSWORD, make_player, make_room, make_salon
from tests.e2e.conftest import wait_until

pytestmark = pytest.mark.e2e


def test_report_from_the_table_ban_in_the_admin_and_the_player_is_out(new_page):
    salon = make_salon("genel", name="Genel")
    room = make_room(owner=make_player("OdaSahibi"), salon=salon, name="Akşam Odası")
    table = room.tables.get()
    reporter = make_player("Nazik", email="nazik@private.example")
    troll = make_player("Trol", email="trol@private.example")
    moderator = make_player("Gozcu", email="gozcu@private.example", is_staff=True, is_superuser=True)
    salon_services.take_seat(user=reporter, table=table, position=0)
    salon_services.take_seat(user=troll, table=table, position=1)
    salon_services.post_chat_message(user=troll, room=room, table=table, text="sen ne salaksın")

    troll_page = new_page(troll)
    troll_page.goto(f"/tables/{table.pk}/")
    expect(troll_page.locator("#conn-status")).to_have_attribute("data-state", "ok")

    # The reporter reports from the table: reason, note, and only "received" comes back.
    page = new_page(reporter)
    page.goto(f"/tables/{table.pk}/")
    expect(page.locator("#conn-status")).to_have_attribute("data-state", "ok")
    # From the player's card: their name on the seat opens it.
    page.locator(".pbox .name", has_text="Trol").click()
    page.locator("#card-report").click()
    dialog = page.locator("#report-dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_label("Sebep").select_option("insult")
    dialog.get_by_label("Not").fill("Masada sürekli hakaret ediyor")
    dialog.get_by_role("button", name="Gönder").click()
    expect(page.locator("#messages")).to_contain_text("Şikayetiniz alındı")
    wait_until(lambda: Report.objects.filter(reported=troll).exists(), message="the report to be stored")

    # The site admin opens the queue, sees the evidence and bans the player.
    # Django's admin pages link no favicon, so Chromium asks for /favicon.ico (404): allow only that.
    new_page.allow.append(r"status of 404 \(Not Found\)")
    missing: list[str] = []
    admin = new_page(moderator)
    admin.on("response", lambda response: missing.append(response.url) if response.status == 404 else None)
    admin.goto("/admin/moderation/report/")
    admin.get_by_role("link", name="Trol").first.click()
    expect(admin.get_by_test_id("report-evidence")).to_contain_text("sen ne salaksın")
    admin.get_by_label("Sebep (oyuncu görür)").fill("Masada sürekli hakaret")
    admin.get_by_role("button", name="Siteden yasakla").click()
    expect(admin.locator(".messagelist")).to_contain_text("İşlem uygulandı")
    assert Sanction.objects.get(user=troll).kind == "site_ban"
    assert all(url.endswith("/favicon.ico") for url in missing), missing

    # The banned player's page loses its connection (closed for good, not reconnecting)...
    expect(troll_page.locator("#okey-table")).to_have_attribute("data-closed", "4403")
    expect(troll_page.locator("#conn-status")).to_have_attribute("data-state", "down")
    expect(troll_page.locator("#messages")).to_contain_text("Masada sürekli hakaret")
    notice = troll_page.locator("#closed-notice")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("Hesabınız kapatıldı. Sebep: Masada sürekli hakaret.")
    # ...the old session is gone...
    troll_page.goto("/")
    expect(troll_page.get_by_role("link", name="Giriş", exact=True)).to_be_visible()

    # ...and signing in again is refused, saying why.
    new_page.allow.append(r"status of 403 \(Forbidden\)")  # the refusal page is a 403, on purpose
    refused: list[str] = []
    login = new_page()
    login.on("response", lambda response: refused.append(response.url) if response.status == 403 else None)
    login.goto("/accounts/login/")
    login.locator("input[name=login]").fill("Trol")
    login.locator("input[name=password]").fill(PASSWORD)
    login.locator("form button[type=submit]").last.click()
    expect(login.get_by_test_id("login-refused")).to_contain_text("Masada sürekli hakaret")
    expect(login.get_by_test_id("my-nickname")).to_have_count(0)
    assert refused and all("/accounts/login/" in url for url in refused), refused
    # The reporter, meanwhile, never learns the decision: their page says only "received".
    expect(page.locator("#messages")).not_to_contain_text(re.compile("yasak", re.I))


def test_a_player_on_the_lobby_is_told_why_and_until_when_in_english(new_page):
    from datetime import timedelta

    from moderation import services as moderation_services
    from tests.e2e.table_helpers import in_thread

    make_salon("genel", name="Genel")
    admin = make_player("Patron", is_staff=True, is_superuser=True)
    troll = make_player("Trol")
    page = new_page(troll, language="en-US")
    page.goto("/")
    page.wait_for_function("() => window.Okey && window.Okey.openSockets() > 0")  # the lobby socket is open
    in_thread(moderation_services.apply_sanction, actor=admin, user=troll, kind="site_ban", reason="Reklam yaptı",
              duration=timedelta(days=2))
    notice = page.locator("#closed-notice")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("Your account has been banned. Reason: Reklam yaptı. Ends: ")
    notice.get_by_role("link", name="OK").click()
    expect(page.get_by_role("banner").get_by_role("link", name="Log in", exact=True)).to_be_visible()
