"""Opening and editing a 101 Okey room (RULES.md "101 Okey"): the game is the room form's first
choice, 101's options come from its own catalogue, the engine (``Rules101`` through the game type)
refuses what it will not play, in words, next to the option at fault, and a room keeps its game."""

from __future__ import annotations

from dataclasses import fields

import pytest

from accounts.errors import ServiceError
from games.engine.okey101.rules import Rules101
from games.engine.rules import RuleSet
from salons import services
from salons.forms import RoomForm
from salons.models import Room, Seat
from salons.rules101_catalog import RULE101_OPTIONS, undescribed_fields
from tests.conftest import make_player, make_room, make_salon
from tests.site.test_salon_views import room_form_data

pytestmark = pytest.mark.django_db

RULES101 = {"game": "okey101", **Rules101().to_dict()}


def form101_data(**overrides):
    """What the page sends for 101 with its script: the chosen game's fieldset only."""
    data = {
        "game": "okey101",
        "name": "Yüzbir Keyfi",
        "turn_seconds": "30",
        "table_count": "2",
        "rule101_hands": "7",
        "rule101_unopened_penalty": "202",
        "rule101_okey_discard_penalty": "on",
        "rule101_islek_penalty": "on",
        "rule101_pairs_layoff_limit": "2",
    }
    data.update(overrides)
    return {key: value for key, value in data.items() if value is not None}


def test_every_101_option_is_described_and_in_the_form():
    assert undescribed_fields() == []
    form = RoomForm()
    assert [name for name in form.fields if name.startswith("rule101_")] == [
        "rule101_" + field.name for field in fields(Rules101)]
    assert "rule101_players" not in form.fields and "rule101_stake" not in form.fields
    assert set(RULE101_OPTIONS) == {field.name for field in fields(Rules101)}


def test_the_game_is_chosen_first_and_classic_is_the_default():
    form = RoomForm()
    assert list(form.fields)[0] == "game"
    assert [value for value, _label in form.fields["game"].choices] == ["okey", "okey101", "kart"]
    assert form.fields["game"].initial == "okey"


def test_the_form_gives_the_engines_shape_for_101():
    form = RoomForm(form101_data(rule101_hands="11", rule101_pairs_layoff_limit="none", rule101_islek_penalty=None,
                                 rule101_unopened_penalty="303", rule101_partners="on"))
    assert form.is_valid(), form.errors
    assert form.rules_data() == {"game": "okey101", "hands": 11, "unopened_penalty": 303, "okey_discard_penalty": True,
                                 "islek_penalty": False, "pairs_layoff_limit": None, "rising_opening": False,
                                 "partners": True}


def test_a_choice_left_out_is_101s_default():
    form = RoomForm({"game": "okey101", "name": "Kısa", "turn_seconds": "20", "table_count": "1"})
    assert form.is_valid(), form.errors
    data = form.rules_data()
    assert data["hands"] == 7 and data["unopened_penalty"] == 202 and data["pairs_layoff_limit"] == 2


def test_the_classic_form_still_gives_classic_rules_without_a_game():
    form = RoomForm(room_form_data(game="okey"))
    assert form.is_valid(), form.errors
    assert "game" not in form.rules_data()
    assert RuleSet.from_dict(form.rules_data()) == RuleSet()
    # An older page (no game field at all) is classic Okey.
    legacy = RoomForm(room_form_data())
    assert legacy.is_valid() and RuleSet.from_dict(legacy.rules_data()) == RuleSet()


def test_opening_a_101_room_through_the_page(client):
    salon = make_salon()
    owner = make_player()
    client.force_login(owner)
    response = client.post(f"/salons/{salon.slug}/rooms/new/", form101_data(rule101_hands="5"))
    assert response.status_code == 302, response.context["form"].errors if response.context else response
    room = Room.objects.get()
    assert room.rules == {**RULES101, "hands": 5}
    assert room.players == 4 and room.rule_set == Rules101(hands=5)
    assert room.tables.count() == 2
    assert set(Seat.objects.filter(table__room=room).values_list("position", flat=True)) == {0, 1, 2, 3}


def test_a_page_without_its_script_sends_both_games_fields_and_101_still_opens(client):
    """Without JavaScript both fieldsets are sent: classic's (at their defaults) do not count for 101,
    even a required one left empty."""
    salon = make_salon()
    client.force_login(make_player())
    data = {**room_form_data(rule_start_points=""), **form101_data()}
    response = client.post(f"/salons/{salon.slug}/rooms/new/", data)
    assert response.status_code == 302
    assert Room.objects.get().rules == RULES101


@pytest.mark.parametrize(("language", "field", "value", "expected"), [
    ("tr", "rule101_hands", "4", "101 maçı 3, 5, 7, 9, 11 el sürer."),
    ("en", "rule101_hands", "4", "A 101 match lasts 3, 5, 7, 9, 11 hands."),
    ("tr", "rule101_unopened_penalty", "150", "Hiç açmayanın cezası 101, 202, 303 olur."),
    ("tr", "rule101_pairs_layoff_limit", "3", "Çiftle açanın işleme sınırı turda 2 taş ya da sınırsızdır."),
])
def test_a_bad_101_value_is_refused_in_words_next_to_the_field(client, language, field, value, expected):
    salon = make_salon()
    client.force_login(make_player())
    client.cookies["django_language"] = language
    response = client.post(f"/salons/{salon.slug}/rooms/new/", form101_data(**{field: value}))
    assert response.status_code == 200
    assert response.context["form"].errors[field] == [expected]
    assert expected in response.content.decode()
    assert Room.objects.count() == 0


@pytest.mark.parametrize(("field", "value", "expected"), [
    ("rule_players", "2", "101 Okey her zaman 4 kişiyle oynanır."),
    ("rule_scoring", "chips", "101 Okey çipli oynanmaz: maç puanla oynanır, toplamı en düşük olan kazanır."),
])
def test_two_seats_or_chips_asked_for_101_are_refused_in_words(client, field, value, expected):
    salon = make_salon()
    client.force_login(make_player())
    response = client.post(f"/salons/{salon.slug}/rooms/new/", {**room_form_data(), **form101_data(), field: value})
    assert response.status_code == 200
    assert response.context["form"].errors[field] == [expected]
    assert Room.objects.count() == 0


def test_the_form_offers_101_no_table_size_and_no_chips(client):
    salon = make_salon()
    client.force_login(make_player())
    page = client.get(f"/salons/{salon.slug}/rooms/new/").content.decode()
    start = page.index('data-game="okey101"')
    fieldset = page[start:page.index("</fieldset>", start)]
    assert 'name="rule101_hands"' in fieldset and 'name="rule101_partners"' in fieldset
    assert "rule_players" not in fieldset and "stake" not in fieldset and "çip" not in fieldset.split("</p>", 1)[1]
    assert page.index('name="game"') < page.index('name="rule_scoring"')


@pytest.mark.parametrize(("rules", "code", "words"), [
    ({"game": "okey101", "hands": 4}, "bad_rules", "101 maçı 3, 5, 7, 9, 11 el sürer."),
    ({"game": "okey101", "players": 2}, "bad_rules", "101 Okey her zaman 4 kişiyle oynanır."),
    ({"game": "okey101", "scoring": "chips", "stake": 50}, "bad_rules", "101 Okey çipli oynanmaz"),
    ({"game": "okey101", "islek_penalty": "yes"}, "bad_rules", "“İşlek taş atma cezası” açık ya da kapalı olur."),
    ({"game": "okey101", "jokers": 3}, "bad_rules", "101 Okey'de “jokers” diye bir seçenek yok."),
    ({"game": "tavla"}, "unknown_game", "Böyle bir oyun türü yok."),
])
def test_the_service_refuses_what_the_engine_will_not_play_in_words(rules, code, words):
    with pytest.raises(ServiceError) as refused:
        make_room(rules=rules)
    assert refused.value.code == code
    assert words in refused.value.message
    assert Room.objects.count() == 0


def test_the_service_stores_the_game_types_rules_and_no_stake_limit_for_101():
    salon = make_salon(min_stake=100, max_stake=200)
    room = make_room(salon=salon, rules={"game": "okey101", "hands": 3})
    assert room.rules == {**RULES101, "hands": 3}
    assert make_room(salon=salon, rules=Rules101(partners=True), name="Eşli yüzbir").rules == {**RULES101, "partners": True}
    with pytest.raises(ServiceError) as refused:
        make_room(salon=salon, rules=RuleSet.preset("chips", stake=10).to_dict(), name="Çipli oda")
    assert refused.value.code == "bad_stake"


def test_editing_a_101_room_keeps_its_game(client):
    owner = make_player()
    room = make_room(owner=owner, rules={"game": "okey101", "hands": 9, "pairs_layoff_limit": None})
    client.force_login(owner)
    page = client.get(f"/rooms/{room.pk}/edit/")
    form = page.context["form"]
    assert form["game"].value() == "okey101"
    assert form["rule101_hands"].value() == "9" and form["rule101_pairs_layoff_limit"].value() == "none"
    assert '<option value="okey101" selected>' in page.content.decode()
    response = client.post(f"/rooms/{room.pk}/edit/", form101_data(name="Yeni ad", rule101_hands="9",
                                                                  rule101_pairs_layoff_limit="none"))
    assert response.status_code == 302
    room.refresh_from_db()
    assert room.name == "Yeni ad"
    assert room.rules == {**RULES101, "hands": 9, "pairs_layoff_limit": None}


def test_editing_a_classic_room_keeps_classic(client):
    owner = make_player()
    room = make_room(owner=owner, rules=RuleSet(players=2).to_dict())
    client.force_login(owner)
    form = client.get(f"/rooms/{room.pk}/edit/").context["form"]
    assert form["game"].value() == "okey"
    response = client.post(f"/rooms/{room.pk}/edit/", room_form_data(game="okey", rule_players="2"))
    assert response.status_code == 302
    room.refresh_from_db()
    assert room.rules == RuleSet(players=2).to_dict()


def test_a_two_seat_classic_room_turned_101_gets_four_seats_a_table(client):
    owner = make_player()
    room = make_room(owner=owner, rules=RuleSet(players=2).to_dict(), table_count=2)
    client.force_login(owner)
    response = client.post(f"/rooms/{room.pk}/edit/", form101_data())
    assert response.status_code == 302
    room.refresh_from_db()
    assert room.rules == RULES101 and room.players == 4
    for table in room.tables.all():
        assert table.seats.count() == 4
    # And back to classic Okey, 2 seats again.
    services.update_room(user=owner, room=room, name=room.name, rules=RuleSet(players=2).to_dict(),
                         turn_seconds=room.turn_seconds, is_private=False)
    assert all(table.seats.count() == 2 for table in room.tables.all())


def test_an_unchanged_101_room_edits_with_players_seated(client):
    owner = make_player()
    room = make_room(owner=owner, rules=RULES101)
    services.take_seat(user=make_player(), table=room.tables.get(), position=0)
    updated = services.update_room(user=owner, room=room, name="Ad değişti", rules=dict(RULES101),
                                   turn_seconds=room.turn_seconds, is_private=False)
    assert updated.name == "Ad değişti"
    with pytest.raises(ServiceError) as refused:
        services.update_room(user=owner, room=room, name="Ad değişti", rules={**RULES101, "hands": 3},
                             turn_seconds=room.turn_seconds, is_private=False)
    assert refused.value.code == "seats_taken"


@pytest.mark.parametrize("data", [
    {"game": "tavla"}, {"game": ["okey101"]}, {"game": "okey101", "rule101_hands": "x" * 500},
    {"game": "okey101", "rule101_pairs_layoff_limit": "None"}, {"game": "okey101", "rule101_okey_discard_penalty": "??"},
])
def test_nonsense_is_refused_without_a_500(client, data):
    salon = make_salon()
    client.force_login(make_player())
    response = client.post(f"/salons/{salon.slug}/rooms/new/", {**form101_data(), **data})
    assert response.status_code in (200, 302)
    assert Room.objects.filter(rules__game="tavla").count() == 0


def test_a_game_not_offered_is_refused_in_words(client):
    salon = make_salon()
    client.force_login(make_player())
    response = client.post(f"/salons/{salon.slug}/rooms/new/", {**form101_data(), "game": "tavla"})
    assert response.status_code == 200
    assert response.context["form"].errors["game"] == ["Oyun Okey, 101 Okey ya da Kart Okey olmalı."]
    assert Room.objects.count() == 0


def test_classic_rules_naming_their_game_are_stored_as_every_classic_rule_set():
    assert make_room(rules={"game": "okey", **RuleSet(players=2).to_dict()}).rules == RuleSet(players=2).to_dict()
