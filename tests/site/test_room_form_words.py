"""The room form offers the turn times as a choice, states its limits, and previews the rules in
plain words; the rules page text reads as Turkish for players."""

from __future__ import annotations

import pytest
from django.test import Client

from games.engine.rules import RuleSet
from salons.forms import TURN_SECONDS_CHOICES, RoomForm
from salons.rules_catalog import plain_rules
from tests.conftest import make_player, make_salon

pytestmark = pytest.mark.django_db


def test_turn_times_are_a_choice_and_five_seconds_is_refused_in_words():
    assert [value for value, _label in RoomForm().fields["turn_seconds"].choices] == list(TURN_SECONDS_CHOICES)
    form = RoomForm({"name": "Deneme", "turn_seconds": "5", "table_count": "1"})
    assert not form.is_valid()
    assert form.errors["turn_seconds"] == ["Hamle süresi 10, 15, 20, 30, 45 ya da 60 saniye olmalı."]


def test_the_form_states_its_limits():
    salon = make_salon(min_stake=10, max_stake=500)
    client = Client()
    client.force_login(make_player())
    page = client.get(f"/salons/{salon.slug}/rooms/new/").content.decode()
    assert "3 ile 40 karakter arası." in page
    assert "10 ile 60 saniye arası." in page
    assert "1 ile 8 masa arası." in page
    assert "Bu salonda 10 ile 500 çip arası." in page
    assert "1 ile 1000 arası." in page  # the countdown's starting points


def test_the_preview_writes_the_rules_in_plain_words():
    countdown = plain_rules(RuleSet(start_points=30), turn_seconds=15)
    assert "Herkes 30 puanla başlar. Biri eli bitirince diğerlerinin puanı 2 düşer; çiftle bitirirse 8, okey atarak bitirirse 4." in countdown
    assert any("15 saniyesi" in line for line in countdown)
    chips = plain_rules(RuleSet.preset("chips", stake=50))
    assert any("50 çip öder" in line for line in chips)
    assert "Her seri ya da perin içinde en çok bir okey olabilir." in chips
    response = Client().get("/rules/preview/", {"rule_scoring": "penalty", "rule_hands_per_match": "3",
                                                "turn_seconds": "45", "name": "Önizleme", "table_count": "1"})
    text = response.content.decode()
    assert response.status_code == 200 and "Maç 3 el sürer." in text and "45 saniyesi" in text


def test_a_broken_preview_request_still_answers():
    response = Client().get("/rules/preview/", {"rule_scoring": "poker", "turn_seconds": "x"})
    assert response.status_code == 200 and "Herkes 20 puanla başlar" in response.content.decode()
