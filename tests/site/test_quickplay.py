""""Hemen oyna" and the lobby's live counts: the fullest fitting table, a stake the player can
afford, a new room when nothing fits; people counted without bots, tables and free seats."""

from __future__ import annotations

import pytest
from django.test import Client

from games.engine.rules import RuleSet
from salons import selectors, services
from salons.models import Room, Seat
from salons.quickplay import quick_play
from tests.conftest import make_player, make_room, make_salon

pytestmark = pytest.mark.django_db


def seat_people(room: Room, count: int, *, table_number: int = 1) -> list:
    table = room.tables.get(number=table_number)
    people = [make_player() for _ in range(count)]
    for position, person in enumerate(people):
        services.take_seat(user=person, table=table, position=position)
    return people


def test_it_seats_the_player_at_the_fullest_table_that_fits():
    salon = make_salon()
    emptier = make_room(salon=salon, name="Boş oda")
    fuller = make_room(salon=salon, name="Dolu oda")
    seat_people(emptier, 1)
    seat_people(fuller, 3)
    player = make_player("Acele")
    found = quick_play(user=player)
    assert found.table.room_id == fuller.pk and not found.opened_room
    assert Seat.objects.get(user=player).table_id == found.table.pk


def test_it_honours_the_preset_and_a_stake_the_player_can_afford():
    salon = make_salon(min_stake=10, max_stake=1000)
    countdown = make_room(salon=salon, name="Geri sayım")
    rich = make_room(salon=salon, name="Zengin", rules=RuleSet.preset("chips", stake=900).to_dict())
    cheap = make_room(salon=salon, name="Ucuz", rules=RuleSet.preset("chips", stake=20).to_dict())
    seat_people(countdown, 3)
    seat_people(rich, 2)
    player = make_player("Çipçi", chips=100)
    found = quick_play(user=player, scoring="chips")
    assert found.table.room_id == cheap.pk


def test_with_nothing_that_fits_it_opens_a_room_in_a_suitable_salon():
    make_salon()
    player = make_player("İlk")
    found = quick_play(user=player, scoring="penalty")
    assert found.opened_room
    assert found.table.room.rules["scoring"] == "penalty"
    assert Seat.objects.get(user=player).table_id == found.table.pk


def test_a_second_click_keeps_the_seat_it_gave():
    make_salon()
    player = make_player("İkinci")
    first = quick_play(user=player)
    again = quick_play(user=player)
    assert again.table.pk == first.table.pk and Seat.objects.filter(user=player).count() == 1


def test_the_button_redirects_to_the_table_and_says_where():
    make_salon()
    player = make_player("Düğmeci")
    client = Client()
    client.force_login(player)
    response = client.post("/play/", {"scoring": ""}, follow=True)
    seat = Seat.objects.get(user=player)
    assert response.redirect_chain[-1][0] == f"/tables/{seat.table_id}/"
    assert "Hızlı masa" in response.content.decode()


def test_a_bad_choice_is_a_clear_error():
    make_salon()
    client = Client()
    client.force_login(make_player())
    response = client.post("/play/", {"scoring": "poker"}, follow=True)
    assert "Böyle bir oyun türü yok" in response.content.decode()


def test_lobby_counts_people_without_bots_and_shows_tables_and_free_seats():
    from games import bot_players

    salon = make_salon()
    room = make_room(salon=salon, table_count=2)
    seat_people(room, 1)
    table = room.tables.get(number=1)
    for position, bot in enumerate(bot_players.bot_users(2), start=1):
        Seat.objects.filter(table=table, position=position).update(user=bot)
    (counts,) = selectors.lobby_counts()
    assert counts["people"] == 1, "two bots sit there too, but they are not people"
    assert counts["tables"] == 2
    assert counts["free_seats"] == 1 + 4
    assert counts["rooms"] == 1
