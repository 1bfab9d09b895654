"""What a newcomer still tripped on (issue 19, item 15): Turkish salon descriptions on English
pages, "Practise against bots" under "Practice", the hidden practice salon's internal name in a
breadcrumb, and a rules page pointing to a table about the shown indicator that was not there."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.test import Client

from games import practice
from salons.models import Salon
from tests.conftest import make_player

pytestmark = pytest.mark.django_db


def page(path: str, *, language: str, user=None) -> str:
    client = Client()
    client.cookies["django_language"] = language
    if user is not None:
        client.force_login(user)
    response = client.get(path)
    assert response.status_code == 200, path
    return response.content.decode()


def test_salon_descriptions_speak_the_page_language():
    call_command("seed_demo", verbosity=0)
    turkish, english = page("/", language="tr"), page("/", language="en")
    assert "Yeni başlayanlar için" in turkish and "For beginners" not in turkish
    assert "For beginners" in english and "Yeni başlayanlar için" not in english
    assert "For experienced players" in page("/salons/ustalar/", language="en")
    assert "Deneyimli oyuncular için" in page("/salons/ustalar/", language="tr")


def test_a_salon_without_an_english_description_shows_the_turkish_one():
    Salon.objects.create(name="Gece", slug="gece", description="Gece kuşları için")
    assert "Gece kuşları için" in page("/salons/gece/", language="en")


def test_seeding_again_gives_salons_seeded_before_their_english_description():
    call_command("seed_demo", verbosity=0)
    Salon.objects.filter(slug="genel").update(description_en="")
    Salon.objects.filter(slug="ustalar").update(description="Bizim ustalar", description_en="")
    call_command("seed_demo", verbosity=0)
    assert Salon.objects.get(slug="genel").description_en == "A salon open to everyone"
    assert Salon.objects.get(slug="ustalar").description_en == "", "a description an admin changed is theirs"


def test_the_practice_card_says_play_against_bots_in_english():
    html = page("/", language="en", user=make_player("Pratikçi"))
    assert "Play against bots" in html and "Practise" not in html


def test_a_practice_room_never_shows_the_hidden_salon_name():

    player = make_player("Pratikte")
    table = practice.start_practice(user=player)
    for language, crumb in (("tr", "Pratik"), ("en", "Practice")):
        for path in (f"/rooms/{table.room_id}/", f"/rooms/{table.room_id}/rules/"):
            html = page(path, language=language, user=player)
            assert "_pratik" not in html and "gizli" not in html, path
            nav = re.search(r'<nav class="breadcrumb".*?</nav>', html, re.S).group(0)
            assert f'<a href="/">{crumb}</a>' in nav


def test_the_rules_page_has_the_indicator_row_it_points_to():
    html = page("/rules/", language="tr")
    assert "gösterge yapmak ek puan getirir (aşağıdaki tablolar)" in html
    for preset, value in (("countdown", "1"), ("penalty", "10"), ("chips", "0")):
        card = re.search(rf'id="preset-{preset}".*?</table>', html, re.S).group(0)
        assert re.search(rf'<th scope="row">Gösterge yapmak</th><td>{value}</td>', card), preset
    english = page("/rules/", language="en")
    assert "Showing the indicator" in english
