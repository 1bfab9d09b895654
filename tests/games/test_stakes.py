"""Chip stakes cannot change under seated players, and every player must hold the stake when the
match starts (issue 10, item 9)."""

from __future__ import annotations

import pytest

from games import services
from games.engine.rules import RuleSet
from games.models import Match
from salons import services as salon_services
from salons.models import Seat, Table
from tests.conftest import make_player, make_room

from .conftest import make_table

pytestmark = pytest.mark.django_db

CHIPS_100 = RuleSet.preset("chips", stake=100)


def seated_ids(table) -> list[int | None]:
    return list(Seat.objects.filter(table=table).order_by("position").values_list("user_id", flat=True))


def test_the_owner_cannot_raise_the_stake_once_someone_sits():
    owner = make_player()
    room = make_room(owner=owner, rules=CHIPS_100.to_dict())
    player = make_player()
    salon_services.take_seat(user=player, table=room.tables.get(), position=0)
    edit = {"name": room.name, "turn_seconds": room.turn_seconds, "is_private": False}
    for change in ({"rules": RuleSet.preset("chips", stake=1000).to_dict()},
                   {"rules": CHIPS_100.to_dict(), "turn_seconds": room.turn_seconds + 5}):
        with pytest.raises(salon_services.ServiceError) as error:
            salon_services.update_room(user=owner, room=room, **{**edit, **change})
        assert error.value.code == "seats_taken" and error.value.message
    room.refresh_from_db()
    assert room.stake == 100 and room.turn_seconds == edit["turn_seconds"]
    # What is not a rule may change (the name); once the table is empty the stake may too.
    salon_services.update_room(user=owner, room=room, **{**edit, "name": "Yeni ad", "rules": CHIPS_100.to_dict()})
    salon_services.leave_seat(user=player, table=room.tables.get())
    salon_services.update_room(user=owner, room=room, **{**edit, "rules": RuleSet.preset("chips", stake=1000).to_dict()})
    room.refresh_from_db()
    assert room.stake == 1000


def short_of_chips(user, chips: int = 40) -> None:
    type(user).objects.filter(pk=user.pk).update(chips=chips)


def test_the_owner_cannot_start_while_a_player_lacks_the_stake():
    table, users = make_table(rules=CHIPS_100)
    short_of_chips(users[2])
    with pytest.raises(services.GameError) as error:
        services.start_match(user=table.room.owner, table_id=table.id)
    assert error.value.code == "not_enough_chips"
    assert users[2].username in str(error.value) and error.value.details["players"] == [users[2].username]
    assert not Match.objects.filter(table=table).exists()
    table.refresh_from_db()
    assert table.status == Table.Status.WAITING
    assert seated_ids(table) == [users[0].pk, users[1].pk, None, users[3].pk]  # stood up, the rest stay


def test_the_last_ready_mark_does_not_start_a_match_with_a_player_short_of_chips():
    table, users = make_table(rules=CHIPS_100)
    for user in users[:3]:
        assert services.mark_ready(user=user, table_id=table.id) is None
    short_of_chips(users[0])
    with pytest.raises(services.GameError) as error:
        services.mark_ready(user=users[3], table_id=table.id)
    assert error.value.code == "not_enough_chips" and users[0].username in str(error.value)
    assert not Match.objects.filter(table=table).exists()
    assert seated_ids(table)[0] is None


def test_bots_do_not_fill_a_table_whose_player_lacks_the_stake():
    table, users = make_table(rules=CHIPS_100, players=[])
    player = make_player()
    Seat.objects.filter(table=table, position=0).update(user=player)
    short_of_chips(player)
    assert services.fill_with_bots(table_id=table.id) is None
    assert not Match.objects.filter(table=table).exists()
    assert seated_ids(table) == [None] * 4  # no bots left behind either


def test_a_match_starts_when_everyone_holds_the_stake():
    table, users = make_table(rules=CHIPS_100)
    short_of_chips(users[1], chips=400)  # exactly what a hand can cost (4 × the stake) is enough
    match = services.start_match(user=table.room.owner, table_id=table.id)
    assert match.players.count() == 4


@pytest.mark.django_db(transaction=True)
async def test_the_owner_starting_over_the_table_socket_is_told_who_lacks_chips():
    from asgiref.sync import sync_to_async

    from .test_consumer import connected

    table, users = await sync_to_async(make_table)(rules=CHIPS_100)
    await sync_to_async(short_of_chips)(users[3])
    owner = await sync_to_async(lambda: table.room.owner)()
    socket = await connected(owner, table.id)
    await socket.send_json_to({"type": "start"})
    while (frame := await socket.receive_json_from(timeout=10))["type"] != "error":
        pass
    assert frame["code"] == "not_enough_chips" and frame["players"] == [users[3].username]
    assert users[3].username in frame["message"]
    assert not await sync_to_async(Match.objects.filter(table=table).exists)()
    await socket.disconnect()
