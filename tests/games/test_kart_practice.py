"""Kart Okey practice tables (RULES.md "Kart Okey"): started through the service and the home
page's form like 101's, four seats (the player and three bots), three rounds, the bots at the level
chosen; a game the practice does not play is refused in words."""

from __future__ import annotations

import pytest
from django.test import Client

from games import practice, selectors, services
from games.engine.kart.rules import RulesKart
from games.models import Hand, Match, PracticeTable
from salons.models import Seat

from .conftest import make_user

pytestmark = pytest.mark.django_db


def signed_in(user, language: str | None = None) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language) if language else Client()
    if language:
        client.cookies["django_language"] = language
    client.force_login(user)
    return client


def test_a_kart_practice_table_seats_three_bots_and_starts_a_three_round_table():
    player = make_user("Kartçı")
    table = practice.start_practice(user=player, level="hard", game="kart")
    assert table.room.rules["game"] == "kart"
    assert RulesKart.from_dict({k: v for k, v in table.room.rules.items() if k != "game"}) == \
        RulesKart(players=4, rounds=3)
    seats = list(Seat.objects.filter(table=table).order_by("position").select_related("user"))
    assert len(seats) == 4 and seats[0].user == player
    assert all(seat.user.is_bot for seat in seats[1:])
    assert PracticeTable.objects.get(table=table).level == "hard"
    assert services.bot_level_for(table.id) == "hard"
    match = Match.objects.get(table=table, status=Match.Status.RUNNING)
    assert match.rules["game"] == "kart" and match.rules["rounds"] == 3 and match.rules["decks"] == 2
    hand = match.hands.get()
    assert hand.status == Hand.Status.PLAYING
    frame = selectors.table_frame(match=match, hand=hand, seat=0)
    assert frame["hand"]["game"] == "kart" and len(frame["hand"]["hand"]) == 10
    # Resuming: the open table again, not a second one.
    assert practice.start_practice(user=player, game="kart") == table
    assert PracticeTable.objects.filter(user=player).count() == 1


def test_the_home_page_offers_kart_okey_and_its_post_opens_the_kart_table():
    player = make_user("Ev")
    client = signed_in(player)
    home = client.get("/").content.decode()
    assert '<option value="kart">Kart Okey</option>' in home
    response = client.post("/practice/", {"game": "kart", "level": "easy"})
    assert response.status_code == 302
    practice_table = PracticeTable.objects.get(user=player, closed_at=None)
    assert response["Location"] == practice_table.table.get_absolute_url()
    assert practice_table.level == "easy" and practice_table.table.room.rules["game"] == "kart"
    page = client.get(response["Location"])
    assert page.status_code == 200


def test_a_game_the_practice_does_not_play_is_refused_with_a_worded_error():
    player = make_user("Yanlış")
    with pytest.raises(services.GameError) as refused:
        practice.start_practice(user=player, game="poker")
    assert refused.value.code == "bad_game"
    assert "Kart Okey" in str(refused.value) and "olmalı" in str(refused.value)
    response = signed_in(player).post("/practice/", {"game": "poker"}, follow=True)
    assert "Pratik için oyun Okey, 101 Okey ya da Kart Okey olmalı." in response.content.decode()
    assert not PracticeTable.objects.filter(user=player).exists()


def test_the_refusal_is_in_english_on_an_english_page():
    """Needs the compiled catalogue (locale/en, the lead compiles /tmp/kart_practice_en.json in)."""
    player = make_user("English")
    response = signed_in(player, "en").post("/practice/", {"game": "poker"}, follow=True)
    text = response.content.decode()
    assert "Practice is Okey, 101 Okey or Rummy." in text
    home = signed_in(player, "en").get("/").content.decode()
    assert '<option value="kart">Rummy</option>' in home
