"""Every form field's help and error text is tied to its field for screen readers: each id an
``aria-describedby`` names is on the page (the help paragraphs once had another id than the one
Django's widgets point to)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.conftest import make_player, make_room, make_salon
from tests.tournaments.conftest import make_staff

pytestmark = pytest.mark.django_db


def dangling_descriptions(html: str) -> list[str]:
    ids = set(re.findall(r'\bid="([^"]+)"', html))
    named = [name for value in re.findall(r'aria-describedby="([^"]*)"', html) for name in value.split()]
    return [name for name in named if name not in ids]


def test_every_described_field_points_at_text_on_the_page():
    salon = make_salon("genel", name="Genel")
    owner = make_player("Sahip")
    room = make_room(owner=owner, salon=salon)
    staff = make_staff(salon)
    pages = {
        owner: [f"/salons/{salon.slug}/rooms/new/", f"/rooms/{room.pk}/edit/", f"/rooms/{room.pk}/"],
        staff: [f"/tournaments/new/{salon.slug}/"],
        None: ["/accounts/signup/", "/accounts/login/", "/accounts/password/reset/"],
    }
    checked = 0
    for user, urls in pages.items():
        client = Client(HTTP_ACCEPT_LANGUAGE="tr")
        if user is not None:
            client.force_login(user)
        for url in urls:
            response = client.get(url)
            assert response.status_code == 200, url
            html = response.content.decode()
            checked += html.count("aria-describedby")
            assert dangling_descriptions(html) == [], url
    assert checked >= 10  # the pages do describe their fields


def test_a_refused_form_ties_its_errors_to_the_fields_too():
    salon = make_salon("genel", name="Genel")
    client = Client(HTTP_ACCEPT_LANGUAGE="tr")
    client.force_login(make_player("Sahip"))
    html = client.post(f"/salons/{salon.slug}/rooms/new/", {"name": "x"}).content.decode()
    assert 'role="alert"' in html
    assert dangling_descriptions(html) == []
