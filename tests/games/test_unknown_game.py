"""A room whose stored rules name a game this site does not play: starting it is a worded refusal
(`unknown_game`), never a crash, and nothing is started."""

from __future__ import annotations

import pytest

from games import services
from games.errors import GameError
from games.models import Match
from salons.models import Room

from .conftest import make_table

pytestmark = pytest.mark.django_db


def test_starting_a_match_of_an_unknown_game_is_refused_in_words():
    table, _users = make_table()
    Room.objects.filter(pk=table.room_id).update(rules={**table.room.rules, "game": "satranç"})
    with pytest.raises(GameError) as refused:
        services.start_match(user=table.room.owner, table_id=table.id)
    assert refused.value.code == "unknown_game"
    assert "oyun türü" in str(refused.value)
    assert not Match.objects.filter(table=table).exists()


def test_the_room_and_table_pages_of_an_unknown_game_still_open(client):
    table, users = make_table()
    Room.objects.filter(pk=table.room_id).update(rules={**table.room.rules, "game": "satranç"})
    client.force_login(users[0])
    for url in (f"/rooms/{table.room_id}/", f"/rooms/{table.room_id}/rules/", f"/tables/{table.id}/",
                f"/salons/{table.room.salon.slug}/", "/"):
        assert client.get(url).status_code in (200, 302), url
    page = client.get(f"/rooms/{table.room_id}/rules/").content.decode()
    assert "oyun türü bu sitede oynanmıyor" in page
