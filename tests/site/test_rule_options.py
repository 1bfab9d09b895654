"""The room form and the admin refuse a rule set the engine refuses (a countdown-only option under
another preset), with a translated error next to the option at fault; nothing is saved."""

from __future__ import annotations

import pytest

from games.engine.rules import COUNTDOWN, COUNTDOWN_ONLY, RuleSet
from salons.models import Room
from salons.rules_catalog import RULE_OPTIONS
from tests.conftest import make_player, make_room, make_salon
from tests.site.test_salon_views import room_form_data

pytestmark = pytest.mark.django_db


def test_the_catalogue_marks_every_countdown_only_option_as_such():
    for name in COUNTDOWN_ONLY:
        assert RULE_OPTIONS[name].presets == frozenset({COUNTDOWN}), name


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("tr", "“Çift okey atma” yalnızca şu puanlamada oynanır: Geri sayım (klasik salon). Bu puanlamada kapatın."),
        ("en", "“Double okey” is played only with: Countdown (classic salon). Turn it off for this scoring."),
    ],
)
def test_the_room_form_refuses_double_okey_under_penalty_next_to_the_field(client, language, expected):
    salon = make_salon()
    client.force_login(make_player())
    client.cookies["django_language"] = language
    response = client.post(f"/salons/{salon.slug}/rooms/new/",
                           room_form_data(rule_scoring="penalty", rule_double_okey="on"))
    assert response.status_code == 200
    form = response.context["form"]
    assert form.errors["rule_double_okey"] == [expected]
    assert Room.objects.count() == 0


def test_the_room_form_refuses_color_finish_under_chips(client):
    salon = make_salon()
    client.force_login(make_player())
    response = client.post(f"/salons/{salon.slug}/rooms/new/",
                           room_form_data(rule_scoring="chips", rule_color_finish="on", rule_max_jokers_per_set="1"))
    assert response.status_code == 200
    assert "rule_color_finish" in response.context["form"].errors
    assert Room.objects.count() == 0


def test_the_room_form_still_opens_a_countdown_room_with_the_options(client):
    salon = make_salon()
    client.force_login(make_player())
    response = client.post(f"/salons/{salon.slug}/rooms/new/",
                           room_form_data(rule_double_okey="on", rule_color_finish="on"))
    assert response.status_code == 302
    assert Room.objects.get().rules == RuleSet(double_okey=True, color_finish=True).to_dict()


def test_the_admin_refuses_rules_json_outside_the_preset(client):
    admin = make_player("Yonetici", is_staff=True, is_superuser=True)
    room = make_room()
    client.force_login(admin)
    client.cookies["django_language"] = "en"
    page = client.get(f"/admin/salons/room/{room.pk}/change/")
    assert page.status_code == 200
    form = page.context["adminform"].form
    data = {name: form.initial.get(name) for name in form.fields}
    data = {key: ("" if value is None else value) for key, value in data.items()}
    data["owner"] = room.owner_id
    data["salon"] = room.salon_id
    data["rules"] = '{"scoring": "penalty", "double_okey": true}'
    data["is_private"] = ""
    for prefix in ("tables",):
        data.update({f"{prefix}-TOTAL_FORMS": "0", f"{prefix}-INITIAL_FORMS": "0"})
    response = client.post(f"/admin/salons/room/{room.pk}/change/", data)
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert errors["rules"] == ["“Double okey” is played only with: Countdown (classic salon). Turn it off for this scoring."]
    room.refresh_from_db()
    assert room.rules == RuleSet().to_dict()
