""""Hemen oyna" and the lobby's live counts: the fullest fitting table, a stake the player can
afford, a new room when nothing fits; people counted without bots, tables and free seats."""

from __future__ import annotations

import pytest
from django.test import Client

from games.engine.rules import RuleSet
from salons import selectors, services
from salons.models import Room, Seat
from salons.quickplay import QUICK_ROOM_BOT_FILL_SECONDS, quick_play
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
    rich = make_room(salon=salon, name="Zengin", rules=RuleSet.preset("chips", stake=200).to_dict())
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


# -- a game within seconds, never a dead table (issue 19, item 1) ------------------------------------


def started_match(room: Room):
    """Four people at the room's first table, their match running."""
    from games import services as game_services

    people = seat_people(room, 4)
    table = room.tables.get(number=1)
    match = game_services.start_match(user=room.owner, table_id=table.pk)
    return table, people, match


def test_a_table_whose_match_ended_with_a_freed_seat_is_not_offered():
    from games import services as game_services
    from games.models import Hand, Match
    from salons.models import Table

    salon = make_salon()
    table, people, match = started_match(make_room(salon=salon, name="Biten maç"))
    game_services.leave_running_match(user=people[3], table_id=table.pk)
    # The match ends with three of its players still seated, at their result panel.
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    Hand.objects.filter(match=match).update(status=Hand.Status.OVER)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.WAITING)
    newcomer = make_player("Yeniİlk")
    found = quick_play(user=newcomer)
    assert found.table.pk != table.pk, "the freed seat of an ended match is someone else's result panel"
    assert found.opened_room
    assert not Seat.objects.filter(table=table, user=newcomer).exists()


def test_a_player_already_sitting_at_an_ended_table_is_moved_to_a_live_one():
    from games.models import Hand, Match
    from salons.models import Table

    salon = make_salon()
    table, people, match = started_match(make_room(salon=salon, name="Biten maç"))
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    Hand.objects.filter(match=match).update(status=Hand.Status.OVER)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.WAITING)
    found = quick_play(user=people[0])
    assert found.table.pk != table.pk
    assert list(Seat.objects.filter(user=people[0]).values_list("table_id", flat=True)) == [found.table.pk]


def test_the_seat_a_bot_plays_for_a_person_who_left_is_taken_over_at_once():
    from games import selectors as game_selectors
    from games import services as game_services
    from games.models import MatchPlayer

    salon = make_salon()
    make_room(salon=salon, name="Boş bekleyen")  # an empty waiting table: the running match comes first
    table, people, match = started_match(make_room(salon=salon, name="Süren maç"))
    leaver = people[2]
    game_services.leave_running_match(user=leaver, table_id=table.pk)
    newcomer = make_player("Devralan")
    found = quick_play(user=newcomer)
    assert found.table.pk == table.pk and found.seat.position == 2 and not found.opened_room
    player = MatchPlayer.objects.get(match=match, seat=2)
    assert player.user_id == newcomer.pk and not player.away, "she plays the seat herself, no bot"
    # Her page draws her own seat and rack at once: she is in the game.
    hand = game_selectors.latest_hand(match)
    frame = game_selectors.table_frame(match=match, hand=hand, seat=2)
    assert frame["hand"]["seat"] == 2 and len(frame["hand"]["rack"]) in (14, 15)
    assert [p["nickname"] for p in frame["players"] if p["seat"] == 2] == ["Devralan"]
    assert not any(p.get("left") for p in frame["players"])
    # The player who left cannot come back to a seat that is hers now.
    with pytest.raises(game_services.GameError):
        game_services.return_to_match(user=leaver, table_id=table.pk)


def test_a_running_chip_match_is_not_offered_to_a_player_short_of_its_stake():
    from games import services as game_services

    salon = make_salon(min_stake=10, max_stake=1000)
    room = make_room(salon=salon, name="Pahalı", rules=RuleSet.preset("chips", stake=200).to_dict())
    table, people, match = started_match(room)
    game_services.leave_running_match(user=people[1], table_id=table.pk)
    found = quick_play(user=make_player("Fakir", chips=100), scoring="chips")
    assert found.table.pk != table.pk


def test_a_room_quick_play_opens_starts_with_bots_within_seconds():
    from datetime import timedelta

    from django.utils import timezone

    from games import tasks
    from games.models import MatchPlayer

    make_salon()
    player = make_player("Yalnız")
    found = quick_play(user=player)
    assert found.opened_room
    assert tasks.fill_waiting_tables(timezone.now()) == 0, "people get their chance to sit first"
    later = timezone.now() + timedelta(seconds=QUICK_ROOM_BOT_FILL_SECONDS + 1)
    assert tasks.fill_waiting_tables(later) == 1
    assert MatchPlayer.objects.filter(user=player, match__status="running").exists()


def test_taking_over_a_chip_seat_needs_and_holds_what_a_hand_can_cost():
    from accounts.models import ChipHold
    from games import services as game_services
    from games.engine.scoring import most_a_hand_costs

    salon = make_salon(min_stake=10, max_stake=1000)
    rules = RuleSet.preset("chips", stake=20)
    table, people, match = started_match(make_room(salon=salon, name="Çipli", rules=rules.to_dict()))
    game_services.leave_running_match(user=people[1], table_id=table.pk)
    cover = most_a_hand_costs(rules)
    assert cover > rules.stake
    short = make_player("Yetmez", chips=cover - 1)
    with pytest.raises(game_services.GameError) as refused:
        game_services.take_over_seat(user=short, table_id=table.pk, position=1)
    assert refused.value.code == "not_enough_chips"
    newcomer = make_player("Yeter", chips=1000)
    found = quick_play(user=newcomer, scoring="chips")
    assert found.table.pk == table.pk
    newcomer.refresh_from_db()
    assert newcomer.chips == 1000 - cover, "the hand's worst case is set aside, as for everyone seated"
    assert ChipHold.objects.filter(user=newcomer, amount=cover).count() == 1
