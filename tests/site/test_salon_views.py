"""Salon pages: lobby, salon list with filter, room forms, room page, seat/chat/removal endpoints,
rules pages generated from the engine, and bad input answered with clear, translated errors."""

from __future__ import annotations

from dataclasses import fields

import pytest
from django.utils import translation

from games.engine.rules import PRESETS, RuleSet
from salons import room_access, services
from salons.models import Room, Seat
from salons.rules_catalog import RULE_OPTIONS, describe_rules, undescribed_fields
from tests.conftest import make_player, make_room, make_salon

pytestmark = pytest.mark.django_db


def room_form_data(**overrides):
    data = {
        "name": "Akşam Keyfi",
        "turn_seconds": "20",
        "table_count": "2",
        "rule_scoring": "countdown",
        "rule_players": "4",
        "rule_max_jokers_per_set": "",
        "rule_start_points": "20",
        "rule_hands_per_match": "1",
        "rule_prize_pool": "0",
        "rule_stake": "10",
        "rule_chip_hands": "10",
        "rule_okey_completes_pair": "on",
    }
    data.update(overrides)
    return data


def test_lobby_lists_salons_with_people_counts(client):
    salon = make_salon("genel", name="Genel")
    make_salon("ustalar", name="Ustalar")
    room = make_room(salon=salon)
    services.take_seat(user=make_player(), table=room.tables.get(), position=0)
    response = client.get("/")
    assert response.status_code == 200
    salons = {s["slug"]: s for s in response.context["salons"]}
    assert salons["genel"]["people"] == 1 and salons["genel"]["rooms"] == 1
    assert salons["ustalar"]["people"] == 0
    assert "/ws/lobby/" in response.content.decode()


def test_salon_page_filters_rooms(client):
    salon = make_salon()
    make_room(name="Dörtlü oda", salon=salon)
    make_room(name="İkili oda", salon=salon, rules=RuleSet(players=2).to_dict())
    make_room(name="Çipli oda", salon=salon, rules=RuleSet.preset("chips", stake=20).to_dict())
    full = make_room(name="Dolu oda", salon=salon, rules=RuleSet(players=2).to_dict())
    for position in range(2):
        services.take_seat(user=make_player(), table=full.tables.get(), position=position)

    def names(query=""):
        response = client.get(f"/salons/{salon.slug}/{query}")
        assert response.status_code == 200
        return {room["name"] for room in response.context["rooms"]}

    assert names() == {"Dörtlü oda", "İkili oda", "Çipli oda", "Dolu oda"}
    assert names("?players=2") == {"İkili oda", "Dolu oda"}
    assert names("?players=2&free=on") == {"İkili oda"}
    assert names("?scoring=chips") == {"Çipli oda"}
    assert names("?q=dört") == {"Dörtlü oda"}
    assert names("?players=7&scoring=nonsense") == {"Dörtlü oda", "İkili oda", "Çipli oda", "Dolu oda"}
    fragment = client.get(f"/salons/{salon.slug}/rooms/?players=2").content.decode()
    assert "İkili oda" in fragment and "Dörtlü oda" not in fragment and "<html" not in fragment
    assert client.get("/salons/yok/").status_code == 404


def test_open_a_room_through_the_form(client):
    salon = make_salon()
    owner = make_player("Sahip")
    client.force_login(owner)
    assert client.get(f"/salons/{salon.slug}/rooms/new/").status_code == 200
    response = client.post(
        f"/salons/{salon.slug}/rooms/new/", room_form_data(rule_players="2", is_private="on", password="parola")
    )
    room = Room.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/rooms/{room.pk}/"
    assert room.owner == owner and room.players == 2 and room.is_private and room.check_password("parola")
    assert room.tables.count() == 2 and Seat.objects.filter(table__room=room).count() == 4
    assert room.rules == RuleSet(players=2).to_dict()


def test_open_room_requires_login(client):
    salon = make_salon()
    response = client.get(f"/salons/{salon.slug}/rooms/new/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


@pytest.mark.parametrize(
    ("language", "overrides", "expected"),
    [
        ("tr", {"turn_seconds": "5"}, "10"),
        ("tr", {"rule_players": "3"}, "Geçerli bir seçenek"),
        ("tr", {"rule_scoring": "chips", "rule_stake": "999999"}, "Bu salonda bahis 10 ile 1000 çip arasında olmalı."),
        ("en", {"rule_scoring": "chips", "rule_stake": "999999"}, "In this salon the stake must be between 10 and 1000 chips."),
        ("en", {"name": "x"}, "at least 3 characters"),
    ],
)
def test_bad_room_forms_get_translated_errors_and_save_nothing(client, language, overrides, expected):
    salon = make_salon()
    client.force_login(make_player())
    client.cookies["django_language"] = language
    response = client.post(f"/salons/{salon.slug}/rooms/new/", room_form_data(**overrides))
    assert response.status_code == 200
    assert expected in response.content.decode()
    assert Room.objects.count() == 0


def test_room_page_shows_tables_seats_chat_and_owner_tools(client):
    owner = make_player("Sahip")
    room = make_room(owner=owner, table_count=2)
    services.post_chat_message(user=owner, room=room, text="İyi oyunlar")
    client.force_login(owner)
    page = client.get(f"/rooms/{room.pk}/").content.decode()
    assert page.count('class="table-card"') == 2
    assert "Otur" in page and "İyi oyunlar" in page and f"/ws/rooms/{room.pk}/" in page
    assert "Odayı düzenle" in page and "Odadan çıkar" in page
    for table in room.tables.all():
        assert f'href="/tables/{table.pk}/"' in page
    visitor = make_player("Ziyaretci")
    client.force_login(visitor)
    page = client.get(f"/rooms/{room.pk}/").content.decode()
    assert "Odayı düzenle" not in page and "Odadan çıkar" not in page


def test_room_page_needs_login_and_access(client):
    room = make_room(is_private=True, password="gizli")
    assert client.get(f"/rooms/{room.pk}/").status_code == 302
    guest = make_player()
    client.force_login(guest)
    locked = client.get(f"/rooms/{room.pk}/")
    assert locked.status_code == 403 and 'name="password"' in locked.content.decode()
    wrong = client.post(f"/rooms/{room.pk}/enter/", {"password": "yanlış"}, follow=True)
    assert "Şifre yanlış." in wrong.content.decode()
    client.post(f"/rooms/{room.pk}/enter/", {"password": "gizli"})
    assert client.get(f"/rooms/{room.pk}/").status_code == 200
    assert client.get("/rooms/999999/").status_code == 404


def test_invite_link(client):
    room = make_room(is_private=True)
    client.force_login(make_player())
    assert client.get(f"/rooms/invite/{room.invite_token}/")["Location"] == f"/rooms/{room.pk}/"
    assert client.get(f"/rooms/{room.pk}/").status_code == 200
    assert client.get("/rooms/invite/nonsense/")["Location"] == "/"


@pytest.mark.parametrize(("language", "help_text", "error"), [
    ("tr", "En az 4 karakter.", "en az 4 karaktere sahip"),
    ("en", "At least 4 characters.", "at least 4 characters (it has 3)"),
])
def test_the_room_form_states_and_enforces_the_password_minimum(client, language, help_text, error):
    salon = make_salon()
    client.force_login(make_player())
    client.cookies["django_language"] = language
    form = client.get(f"/salons/{salon.slug}/rooms/new/").content.decode()
    assert help_text in form
    response = client.post(f"/salons/{salon.slug}/rooms/new/", room_form_data(is_private="on", password="abc"))
    assert response.status_code == 200 and error in response.content.decode()
    assert Room.objects.count() == 0


def test_owner_gets_a_new_invite_link_button_and_the_old_link_stops_working(client):
    owner = make_player("Sahip")
    room = make_room(owner=owner, is_private=True, password="gizli")
    old_token = room.invite_token
    guest = make_player()
    client.force_login(guest)
    client.get(f"/rooms/invite/{old_token}/")
    assert client.post(f"/rooms/{room.pk}/invite/new/").status_code == 302  # refused: not the owner
    room.refresh_from_db()
    assert room.invite_token == old_token
    client.force_login(owner)
    page = client.get(f"/rooms/{room.pk}/").content.decode()
    assert f"/rooms/{room.pk}/invite/new/" in page and "Yeni davet bağlantısı" in page
    answer = client.post(f"/rooms/{room.pk}/invite/new/", HTTP_ACCEPT="application/json").json()
    room.refresh_from_db()
    assert room.invite_token != old_token and answer["invite_url"].endswith(f"/rooms/invite/{room.invite_token}/")
    assert room.invite_token in client.get(f"/rooms/{room.pk}/").content.decode()
    client.force_login(guest)
    assert client.get(f"/rooms/{room.pk}/").status_code == 403  # came by the old link: out again
    assert client.get(f"/rooms/invite/{old_token}/")["Location"] == "/"


def test_the_owner_sees_that_the_password_was_attacked(client, monkeypatch):
    monkeypatch.setattr(room_access, "ROOM_PASSWORD_ATTEMPTS", 2)
    owner = make_player("Sahip")
    room = make_room(owner=owner, is_private=True, password="gizli")
    for _ in range(3):
        client.force_login(make_player())
        client.post(f"/rooms/{room.pk}/enter/", {"password": "yanlış"})
    locked = client.post(f"/rooms/{room.pk}/enter/", {"password": "gizli"}, follow=True).content.decode()
    assert "çok fazla yanlış şifre denendi" in locked
    client.force_login(owner)
    assert "data-password-attack" in client.get(f"/rooms/{room.pk}/").content.decode()
    edit = room_form_data(is_private="on", password="yeni-gizli")
    del edit["table_count"]
    client.post(f"/rooms/{room.pk}/edit/", edit)
    assert "data-password-attack" not in client.get(f"/rooms/{room.pk}/").content.decode()


def test_seat_endpoints_answer_json_with_codes(client):
    room = make_room()
    table = room.tables.get()
    client.force_login(make_player("Ali"))
    url = f"/rooms/{room.pk}/tables/{table.pk}/"
    ok = client.post(url + "sit/1/", headers={"Accept": "application/json"})
    assert ok.json() == {"ok": True, "url": f"/tables/{table.pk}/"}
    other = make_player("Veli")
    client.force_login(other)
    taken = client.post(url + "sit/1/", headers={"Accept": "application/json"})
    assert taken.status_code == 400 and taken.json()["error"]["code"] == "seat_taken"
    bad = client.post(url + "sit/9/", headers={"Accept": "application/json"})
    assert bad.json()["error"]["code"] == "bad_seat"
    assert client.get(url + "sit/0/").status_code == 405
    other_room = make_room(name="Diğer oda")
    assert client.post(f"/rooms/{other_room.pk}/tables/{table.pk}/sit/0/").status_code == 404
    redirected = client.post(url + "leave/", follow=True)
    assert "Bu masada oturmuyorsunuz." in redirected.content.decode()


def test_sitting_without_the_rooms_socket_takes_the_player_to_the_table(client):
    # The form posts when JavaScript is off or the room's socket has not opened yet: the player
    # still ends up where the game starts, as when the socket seats them.
    room = make_room()
    table = room.tables.get()
    client.force_login(make_player("Ali"))
    seated = client.post(f"/rooms/{room.pk}/tables/{table.pk}/sit/2/")
    assert seated.status_code == 302 and seated["Location"] == f"/tables/{table.pk}/"
    client.force_login(make_player("Veli"))
    refused = client.post(f"/rooms/{room.pk}/tables/{table.pk}/sit/2/")  # Ali's seat: back to the room
    assert refused.status_code == 302 and refused["Location"] == f"/rooms/{room.pk}/"


def test_owner_tools_through_views(client):
    owner, troll = make_player("Sahip"), make_player("Troll")
    room = make_room(owner=owner)
    client.force_login(owner)
    assert client.post(f"/rooms/{room.pk}/tables/add/").status_code == 302
    assert room.tables.count() == 2
    no_reason = client.post(f"/rooms/{room.pk}/remove/", {"user": troll.pk, "reason": "", "minutes": 30}, follow=True)
    assert room.removals.count() == 0 and no_reason.status_code == 200
    client.post(f"/rooms/{room.pk}/remove/", {"user": troll.pk, "reason": "Hakaret etti", "minutes": 30})
    removal = room.removals.get()
    assert (removal.user, removal.removed_by, removal.reason) == (troll, owner, "Hakaret etti")
    edit = client.post(f"/rooms/{room.pk}/edit/", room_form_data(name="Yeni isim", rule_players="2"))
    assert edit.status_code == 302
    room.refresh_from_db()
    assert room.name == "Yeni isim" and room.players == 2
    client.force_login(troll)
    assert client.get(f"/rooms/{room.pk}/").status_code == 403
    assert client.get(f"/rooms/{room.pk}/edit/").status_code == 302
    assert client.post(f"/rooms/{room.pk}/close/").status_code == 302
    room.refresh_from_db()
    assert room.status == "open"
    client.force_login(owner)
    client.post(f"/rooms/{room.pk}/close/")
    room.refresh_from_db()
    assert room.status == "closed"
    assert client.get(f"/rooms/{room.pk}/").status_code == 410


def test_chat_endpoint(client):
    room = make_room()
    client.force_login(make_player())
    ok = client.post(f"/rooms/{room.pk}/chat/", {"text": "merhaba"}, headers={"Accept": "application/json"})
    assert ok.json()["message"]["text"] == "merhaba"
    empty = client.post(f"/rooms/{room.pk}/chat/", {"text": "   "}, headers={"Accept": "application/json"})
    assert empty.status_code == 400 and empty.json()["error"]["code"] == "empty_message"


# --- rules ------------------------------------------------------------------------------------


def test_every_rule_set_field_is_described():
    assert undescribed_fields() == []
    assert set(RULE_OPTIONS) <= {f.name for f in fields(RuleSet)}, "descriptions for fields the engine no longer has"


@pytest.mark.parametrize("language", ["tr", "en"])
def test_rules_page_is_generated_from_the_engine(client, language):
    client.cookies["django_language"] = language
    page = client.get("/rules/").content.decode()
    with translation.override(language):
        for name, option in RULE_OPTIONS.items():
            assert str(option.label) in page, name
        for preset in PRESETS:
            for line in describe_rules(RuleSet.preset(preset)):
                assert line.value in page
    assert 'data-rule="double_okey"' in page
    if language == "en":
        assert "Countdown" in page and "Okey rules" in page


def test_room_rules_page_shows_that_room(client):
    room = make_room(rules=RuleSet.preset("penalty", hands_per_match=3).to_dict())
    page = client.get(f"/rooms/{room.pk}/rules/").content.decode()
    assert "Ceza puanı" in page and "3 el" in page
    assert "Başlangıç puanı" not in page  # countdown-only option hidden for a penalty room


def test_language_switch_translates_pages(client):
    salon = make_salon()
    client.force_login(make_player())
    assert "Oda aç" in client.get(f"/salons/{salon.slug}/").content.decode()
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    page = client.get(f"/salons/{salon.slug}/").content.decode()
    assert "Open a room" in page and "Oda aç" not in page
