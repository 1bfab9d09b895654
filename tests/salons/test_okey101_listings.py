"""101 Okey rooms in the lists (salon page, its live fragment, the room page): each shows its game
type as a badge while classic rooms keep their look; the salon's filter picks a game; quick play,
which offers classic Okey's presets, never seats anyone at a 101 table."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.engine.okey101.rules import Rules101
from games.engine.rules import RuleSet
from salons import quickplay, selectors, services
from salons.selectors import RoomFilter
from tests.conftest import make_player, make_room, make_salon

pytestmark = pytest.mark.django_db

RULES101 = {"game": "okey101", **Rules101().to_dict()}


def rows_of(html: str) -> dict[str, str]:
    """Each room row of a salon's list by its room's name."""
    rows = {}
    for row in re.findall(r'<li class="card room-row".*?</ul>\s*</li>|<li class="card room-row".*?</li>', html, re.S):
        name = re.search(r'<h2 class="room-row__name">\s*<a href="[^"]+">([^<]+)</a>', row).group(1)
        rows[name] = row
    return rows


def test_the_summary_names_the_game():
    classic = selectors.room_summary_for(make_room(name="Klasik oda"))
    yuzbir = selectors.room_summary_for(make_room(name="Yüzbir oda", rules=RULES101))
    assert (classic["game"], classic["game_label"], classic["scoring_label"]) == ("okey", "Okey", "Geri sayım (klasik salon)")
    assert (yuzbir["game"], yuzbir["game_label"], yuzbir["scoring"], yuzbir["scoring_label"]) == (
        "okey101", "101 Okey", None, "")
    assert yuzbir["players"] == 4 and yuzbir["stake"] is None


@pytest.mark.parametrize("path", ["/salons/genel/", "/salons/genel/rooms/"])
def test_the_salon_list_shows_a_101_badge_and_classic_rooms_as_before(client, path):
    salon = make_salon("genel")
    make_room(salon=salon, name="Klasik oda")
    make_room(salon=salon, name="Yüzbir oda", rules={**RULES101, "hands": 11})
    html = client.get(path).content.decode()
    rows = rows_of(html)
    assert 'data-testid="game-badge">101 Okey</span>' in rows["Yüzbir oda"]
    assert "Maçtaki el sayısı: 11 el" in rows["Yüzbir oda"]
    assert "4 kişilik" in rows["Yüzbir oda"] and "None" not in rows["Yüzbir oda"]
    assert 'data-game="okey101"' in rows["Yüzbir oda"]
    assert "game-badge" not in rows["Klasik oda"] and "Geri sayım (klasik salon)" in rows["Klasik oda"]


def test_the_badge_in_english(client):
    salon = make_salon("genel")
    make_room(salon=salon, name="Yüzbir oda", rules=RULES101)
    client.cookies["django_language"] = "en"
    html = client.get("/salons/genel/").content.decode()
    assert 'data-testid="game-badge">101 Okey</span>' in html
    assert ">Game</label>" in html


def test_the_room_page_shows_the_game(client):
    room = make_room(name="Yüzbir oda", rules=RULES101)
    client.force_login(make_player())
    html = client.get(f"/rooms/{room.pk}/").content.decode()
    assert 'data-testid="game-badge">101 Okey</span>' in html
    assert "None" not in html.split('data-room-meta', 1)[1].split("</p>", 1)[0]
    classic = make_room(name="Klasik oda")
    assert "game-badge" not in client.get(f"/rooms/{classic.pk}/").content.decode()


def test_the_filter_picks_a_game(client):
    salon = make_salon("genel")
    make_room(salon=salon, name="Klasik oda")
    make_room(salon=salon, name="İkili oda", rules=RuleSet(players=2).to_dict())
    make_room(salon=salon, name="Yüzbir oda", rules=RULES101)

    def names(**query):
        return sorted(room["name"] for room in client.get("/salons/genel/", query).context["rooms"])

    assert names() == ["Klasik oda", "Yüzbir oda", "İkili oda"]
    assert names(game="okey101") == ["Yüzbir oda"]
    assert names(game="okey") == ["Klasik oda", "İkili oda"]
    assert names(players="4") == ["Klasik oda", "Yüzbir oda"]
    assert names(players="2") == ["İkili oda"]
    assert names(game="okey101", players="2") == []
    assert names(scoring="countdown") == ["Klasik oda", "İkili oda"]
    assert names(game="tavla") == ["Klasik oda", "Yüzbir oda", "İkili oda"]  # a bad choice filters nothing
    assert 'name="game"' in client.get("/salons/genel/").content.decode()
    assert selectors.salon_rooms(salon=salon, room_filter=RoomFilter(game="okey101"))[0]["table_list"][0]["game"] == "okey101"


def test_quick_play_never_seats_anyone_at_a_101_table():
    salon = make_salon("genel")
    yuzbir = make_room(salon=salon, name="Yüzbir oda", rules=RULES101)
    services.take_seat(user=make_player(), table=yuzbir.tables.get(), position=0)
    seated = quickplay.quick_play(user=make_player())
    assert seated.table.room_id != yuzbir.pk
    assert "game" not in seated.table.room.rules


def test_a_101_table_with_a_player_in_the_lobby_counts(client):
    salon = make_salon("genel")
    room = make_room(salon=salon, rules=RULES101)
    services.take_seat(user=make_player(), table=room.tables.get(), position=0)
    salons = {s["slug"]: s for s in Client().get("/").context["salons"]}
    assert salons["genel"]["people"] == 1 and salons["genel"]["free_seats"] == 3
