"""Browser tests in headless Chromium against a live daphne: sign up, open a room, take a seat,
and another player sees it live; chat; removal; the phone layout; no console errors anywhere."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from playwright.sync_api import expect

from salons.models import Room, RoomRemoval
from tests.conftest import PASSWORD, make_player, make_room, make_salon
from tests.site.test_accounts import email_code

pytestmark = pytest.mark.e2e


def test_a_visitor_signs_up_verifies_the_code_and_lands_logged_in(new_page):
    make_salon("genel", name="Genel")
    page = new_page()
    page.goto("/")
    expect(page.get_by_role("heading", name="Genel")).to_be_visible()
    page.get_by_role("link", name="Ücretsiz üye ol").first.click()
    page.get_by_label("Rumuz").fill("YeniOyuncu")
    page.get_by_label("E-posta").fill("yeni@private.example")
    page.get_by_label("Şifre", exact=True).fill(PASSWORD)
    page.get_by_label("Şifre (tekrar)").fill(PASSWORD)
    page.get_by_label("Salon kurallarını okudum ve kabul ediyorum").check()
    page.get_by_role("button", name=re.compile("Kaydol|Üye ol", re.I)).click()
    expect(page.get_by_label(re.compile("Kod", re.I))).to_be_visible()
    code = email_code(mail.outbox[-1].body)
    page.get_by_label(re.compile("Kod", re.I)).fill(code)
    page.get_by_role("button", name=re.compile("Onayla", re.I)).click()
    expect(page.get_by_test_id("my-nickname")).to_have_text("YeniOyuncu")
    expect(page.locator("[data-my-chips]")).to_have_text("1000")


def test_open_a_room_take_a_seat_and_another_player_sees_it(new_page):
    salon = make_salon("genel", name="Genel")
    owner = make_player("Kaptan", email="kaptan@private.example")
    guest = make_player("Misafir", email="misafir@private.example")

    guest_page = new_page(guest)
    guest_page.goto(f"/salons/{salon.slug}/")
    expect(guest_page.get_by_text("Bu salonda uygun oda yok")).to_be_visible()

    page = new_page(owner)
    page.goto(f"/salons/{salon.slug}/")
    page.get_by_test_id("open-room").click()
    page.get_by_label("Oda adı").fill("Çay Ocağı")
    page.get_by_label("Masadaki oyuncu sayısı").select_option("2")
    page.get_by_label("Hamle süresi (saniye)").select_option("30")
    page.get_by_role("button", name="Oda aç").click()
    expect(page.get_by_role("heading", name="Çay Ocağı")).to_be_visible()
    room = Room.objects.get(name="Çay Ocağı")
    assert room.players == 2 and room.turn_seconds == 30

    # The salon page of the other player shows the new room without a reload.
    expect(guest_page.get_by_role("link", name="Çay Ocağı", exact=True)).to_be_visible()
    guest_page.get_by_role("link", name=re.compile("Odaya gir.*Çay Ocağı")).click()
    expect(guest_page.locator("[data-conn]")).to_have_class("conn conn--ok")
    expect(page.locator('[data-count="watchers"]')).to_have_text("2")

    guest_page.get_by_label("Mesaj").fill("Selamünaleyküm")
    guest_page.get_by_role("button", name="Gönder").click()
    expect(page.locator(".chat__msg").last).to_contain_text("Selamünaleyküm")
    expect(page.locator(".chat__msg").last.locator(".chat__author")).to_have_text("Misafir")

    # Taking a seat takes the player to the table; the others see the seat taken, live.
    page.get_by_role("button", name="Masa 1, 1. koltuğa otur").click()
    table_id = room.tables.get().pk
    expect(page).to_have_url(re.compile(rf"/tables/{table_id}/$"))
    table = guest_page.locator(".table-card").first
    expect(table.locator(".seat--p0 .seat__player")).to_have_text("Kaptan")

    guest_page.get_by_role("button", name="Masa 1, 2. koltuğa otur").click()
    expect(guest_page).to_have_url(re.compile(rf"/tables/{table_id}/$"))
    # Both seated: each table page names the other.
    expect(page.locator("#okey-table")).to_contain_text("Misafir")
    expect(guest_page.locator("#okey-table")).to_contain_text("Kaptan")

    # Back in the room, a seated player may stand up from there too.
    page.goto(f"/rooms/{room.pk}/")
    page.locator(".seat--me").get_by_role("button", name="Kalk").click()
    guest_page.goto(f"/rooms/{room.pk}/")
    expect(guest_page.locator(".seat--p0 .seat__sit")).to_be_visible()
    for other in (page, guest_page):
        content = other.content()
        assert "kaptan@private.example" not in content and "misafir@private.example" not in content


def test_owner_removes_a_player_who_is_sent_away(new_page):
    owner = make_player("Sahip")
    troll = make_player("Troll")
    room = make_room(owner=owner, name="Sakin Oda")
    troll_page = new_page(troll)
    troll_page.goto(f"/rooms/{room.pk}/")
    troll_page.get_by_role("button", name="Masa 1, 3. koltuğa otur").click()
    expect(troll_page).to_have_url(re.compile(r"/tables/\d+/$"))  # sitting takes them to the table
    room_view = new_page(troll)  # and the room page open in another tab
    room_view.goto(f"/rooms/{room.pk}/")
    expect(room_view.locator(".seat--me")).to_be_visible()

    page = new_page(owner)
    page.goto(f"/rooms/{room.pk}/")
    expect(page.locator(".seat--p2 .seat__player")).to_have_text("Troll")
    page.get_by_text("Odadan çıkar").click()
    page.get_by_label("Oyuncu").select_option(label="Troll")
    page.get_by_label("Sebep").fill("Sürekli hakaret ediyor")
    page.get_by_role("button", name="Çıkar", exact=True).click()
    expect(page.locator(".flash")).to_contain_text("Troll odadan çıkarıldı.")
    expect(page.locator(".seat--p2 .seat__sit")).to_be_visible()
    # Told who, why and until when, on a notice that stays until they go on (table and room page).
    for where in (room_view, troll_page):
        notice = where.locator("#closed-notice")
        expect(notice).to_be_visible()
        expect(notice).to_contain_text("Oda sahibi sizi bu odadan çıkardı. Sebep: Sürekli hakaret ediyor.")
        expect(notice).to_contain_text("saatine kadar giremezsiniz")
    troll_page.wait_for_timeout(2000)
    expect(notice).to_be_visible()
    notice.get_by_role("link", name="Tamam").click()
    expect(troll_page).to_have_url(re.compile(r"/$"))
    removal = RoomRemoval.objects.get()
    assert (removal.removed_by, removal.user, removal.reason) == (owner, troll, "Sürekli hakaret ediyor")
    new_page.allow.append("status of 403")  # the locked room page answers 403 Forbidden, on purpose
    troll_page.goto(f"/rooms/{room.pk}/")
    expect(troll_page.locator("[data-error-code]")).to_have_attribute("data-error-code", "removed")


def test_phone_layout_and_english(new_page):
    owner = make_player("Telefon")
    room = make_room(owner=owner, name="Cep Odası")
    page = new_page(owner, viewport={"width": 375, "height": 740}, language="en-US")
    page.goto("/")
    page.get_by_label("Language").select_option("en")
    expect(page.get_by_role("heading", name="Salons")).to_be_visible()
    page.goto(f"/rooms/{room.pk}/")
    expect(page.get_by_role("button", name="Sit at table 1, seat 1")).to_be_visible()
    expect(page.locator("[data-conn]")).to_have_text("Connected")
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, "the room page scrolls sideways on a phone"
    page.goto("/rules/")
    expect(page.get_by_role("heading", name="Okey rules")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0


@pytest.mark.parametrize(("signed_in", "language", "nickname"), [
    (True, "tr-TR", "Telefoncu"), (True, "en-US", "UzunBirRumuzOyuncu20"), (False, "tr-TR", None)])
def test_the_phone_header_keeps_the_language_on_the_brands_row(new_page, asgi_live_server, signed_in, language,
                                                               nickname):
    # Seated players carry one more button ("Masanıza dönün"): the language once wrapped onto a row
    # alone, and in English the player's bar broke onto two rows.
    from tests.e2e.table_helpers import table_with_bots

    person = make_player(nickname) if signed_in else None
    if signed_in:
        table_with_bots(person)  # playing: the longest label, "Masanıza dönün"
    page = new_page(person, viewport={"width": 390, "height": 844}, language=language)
    if language == "en-US":
        page.context.add_cookies([{"name": "django_language", "value": "en", "url": asgi_live_server.url}])
    page.goto("/tournaments/")
    expect(page.locator("html")).to_have_attribute("lang", "en" if language == "en-US" else "tr")
    if signed_in:
        expect(page.get_by_test_id("my-table")).to_have_text("Back to table" if language == "en-US" else "Masanıza dönün")
        # The player's bar is one row, however long the nickname.
        middles = page.eval_on_selector_all(
            ".site-user > :not(.lang-switch)", "els => els.map(e => { const r = e.getBoundingClientRect(); return r.top + r.height / 2; })")
        assert len(middles) >= 4 and max(middles) - min(middles) <= 4, middles
        assert page.get_by_test_id("my-nickname").get_attribute("title") == nickname
    brand = page.locator(".brand").bounding_box()
    selector = page.locator("#lang-select").bounding_box()
    middle = selector["y"] + selector["height"] / 2
    assert brand["y"] <= middle <= brand["y"] + brand["height"], (brand, selector)
    assert selector["x"] + selector["width"] <= 390
    header = page.locator(".site-header").bounding_box()
    assert header["height"] <= 150, header  # brand, the player's bar, the menu: three short rows
    assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0
