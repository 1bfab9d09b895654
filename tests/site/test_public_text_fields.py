"""Every text a user writes for others to read is screened the same way (issue 18, item 7).

An attacker with salon staff rights named tournaments with an advertisement, an insult and a
right-to-left override, and /tournaments/ showed them as typed: tournaments were missing from the
apps whose stored text loses invisible characters, and ``create_tournament`` never asked the
public-text check. The class of bug is "a new field that others read, and nobody screens it", so
this file lists every text field of every model of the project: each is either screened — and
attacked here through every path that writes it — or says why nobody else reads it. A new field
fails ``test_every_text_field_of_the_project_is_listed`` until it is put in one list or the other.
"""

from __future__ import annotations

from datetime import time, timedelta
from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.admin.sites import site as admin_site
from django.db import models
from django.urls import reverse
from django.utils import timezone

from accounts.errors import ServiceError
from games.engine.rules import RuleSet
from moderation.chat import ChatBlocked
from salons import services as salon_services
from salons.forms import RemoveUserForm, RoomForm
from salons.models import ChatMessage, Room, RoomRemoval, Salon
from tests.conftest import make_player, make_room, make_salon
from tournaments import services as tournament_services
from tournaments.forms import TournamentForm
from tournaments.models import Schedule, Tournament

pytestmark = pytest.mark.django_db

RLO, PDF = "\u202e", "\u202c"
AD = "bedavaokey.com"
INSULT = "siktir git"
ATTACKS = [AD, INSULT, f"{INSULT} {AD}", "AKP gecesi"]


# -- the two lists --------------------------------------------------------------------------------------

# Written by a user and shown to other people: screened by the public-text check (or, for chat, by
# the chat filter itself, which masks, holds or blocks a line instead of refusing it).
SCREENED = {
    "accounts.User.username": "nickname checks at sign-up (moderation.services.check_nickname)",
    "salons.Salon.name": "site admins, in the admin's form",
    "salons.Salon.slug": "site admins, in the admin's form (it is in every salon address)",
    "salons.Salon.description": "site admins, in the admin's form",
    "salons.Salon.description_en": "site admins, in the admin's form (the English pages show it)",
    "salons.Room.name": "open_room / update_room and the room form",
    "salons.RoomRemoval.reason": "remove_from_room and its form (the room owner is a player like any other)",
    "salons.ChatMessage.text": "the chat filter (post_chat_message)",
    "tournaments.Tournament.name": "create_tournament / create_recurring and the staff form",
    "tournaments.Tournament.cancel_reason": "cancel (shown on the tournament page to everyone)",
    "tournaments.Schedule.name": "create_schedule (every tournament of the schedule is named after it)",
}

# Never shown to other players, or not written by a person.
NOT_PUBLIC = {
    "accounts.User.password": "a password hash",
    "accounts.User.first_name": "private (others see public_user: id and nickname)",
    "accounts.User.last_name": "private",
    "accounts.User.email": "private",
    "accounts.User.nickname_key": "derived from the nickname",
    "accounts.ChipTransaction.note": "written by the site's code for the account and staff",
    "accounts.ChipHold.reference": "made by the site (\"match 12 hand 3\")",
    "salons.Room.password": "a password hash",
    "salons.Room.invite_token": "a secret made by the site",
    "salons.RoomPresence.channel_name": "made by Channels",
    "games.Hand.commitment": "made by the site",
    "games.Hand.salt": "made by the site",
    "games.Move.action": "an engine action name",
    "moderation.WatchedWord.word": "staff's word list, read by staff",
    "moderation.WatchedWord.note": "staff only",
    "moderation.AllowedWord.word": "staff's allow-list, read by staff",
    "moderation.AllowedWord.note": "staff only",
    "moderation.FilteredLine.original": "the filter's copy of a chat line, for staff review",
    "moderation.FilteredLine.shown": "the filter's copy of a chat line, for staff review",
    "moderation.Report.note": "between the reporter and staff",
    "moderation.Report.resolution": "staff only",
    "moderation.Sanction.reason": "staff to the sanctioned player: it must be able to quote the offence",
    "moderation.Sanction.lift_reason": "staff only",
    "moderation.ModerationLog.reason": "staff only",
    "moderation.UserSession.session_key": "made by Django",
    "tournaments.Schedule.weekdays": "digits 1-7, checked by the service",
    "tournaments.Entry.removed_reason": "staff to the disqualified player (like a sanction), shown to staff",
    "tournaments.TournamentLog.action": "an action name",
    "tournaments.TournamentLog.reason": "staff's log",
}


def project_app_labels() -> set[str]:
    """The project's own apps: those whose code lives in the repository, not in the environment."""
    root = Path(settings.BASE_DIR).resolve()
    return {config.label for config in apps.get_app_configs()
            if Path(config.path).resolve().is_relative_to(root) and ".venv" not in Path(config.path).parts}


def project_text_fields() -> set[str]:
    found = set()
    for model in apps.get_models():
        if model._meta.proxy or model._meta.app_label not in project_app_labels():
            continue
        for field in model._meta.concrete_fields:
            if isinstance(field, (models.CharField, models.TextField)) and not field.choices:
                found.add(f"{model._meta.label}.{field.name}")
    return found


def test_every_text_field_of_the_project_is_listed():
    assert not set(SCREENED) & set(NOT_PUBLIC)
    fields = project_text_fields()
    assert "tournaments.Tournament.name" in fields  # tournaments are a project app like the others
    unlisted = fields - set(SCREENED) - set(NOT_PUBLIC)
    assert not unlisted, f"say whether others read these fields, and screen them if they do: {sorted(unlisted)}"
    gone = (set(SCREENED) | set(NOT_PUBLIC)) - fields
    assert not gone, f"these fields no longer exist: {sorted(gone)}"


def test_every_screened_field_is_attacked_below():
    assert set(WRITERS) == set(SCREENED)


# -- the attacks, one writer at a time --------------------------------------------------------------------

def staff_of(salon):
    from salons.models import SalonStaff

    user = make_player()
    SalonStaff.objects.create(salon=salon, user=user)
    return user


def tournament_fields(name):
    return {"name": name, "rules": RuleSet.preset("penalty").to_dict(), "min_players": 2, "max_players": 64,
            "registration_minutes": 60}


def refused_by_service(call, code=None):
    with pytest.raises(ServiceError) as error:
        call()
    assert "herkese açık ve uygun değil" in error.value.message, error.value.message
    if code:
        assert error.value.code == code


def signup_refused(text, client):
    response = client.post("/accounts/signup/", {
        "username": text.replace(" ", "_").replace(".", "_")[:20], "email": "yeni@private.example",
        "password1": "Okey-Parola-2024!", "password2": "Okey-Parola-2024!", "accept_rules": "on"})
    assert response.status_code == 200 and "username" in response.context["form"].errors


def salon_admin_refused(field):
    def attack(text, client):
        form_class = admin_site._registry[Salon].get_form(request=None)
        data = {"name": "Yeni salon", "slug": "yeni-salon", "description": "Herkese açık", "position": 1,
                "is_active": "on", "min_stake": 10, "max_stake": 1000, "max_rooms": 20}
        data[field] = text.replace(" ", "-").replace(".", "-") if field == "slug" else text
        form = form_class(data=data)
        assert not form.is_valid() and field in form.errors, form.errors
        assert "herkese açık ve uygun değil" in str(form.errors[field])
    return attack


def room_name_refused(text, client):
    refused_by_service(lambda: make_room(name=text), code="bad_name")
    room = make_room(name="Keyif Odası")
    refused_by_service(lambda: salon_services.update_room(
        user=room.owner, room=room, name=text, rules=room.rules, turn_seconds=room.turn_seconds,
        is_private=False), code="bad_name")
    form = RoomForm(data={"name": text, "turn_seconds": 20, "table_count": 1, "bot_fill_seconds": 0})
    assert not form.is_valid() and "name" in form.errors


def removal_reason_refused(text, client):
    room = make_room(name="Keyif Odası")
    target = make_player()
    refused_by_service(lambda: salon_services.remove_from_room(owner=room.owner, room=room, user=target,
                                                               reason=text, minutes=10))
    assert not RoomRemoval.objects.exists()
    form = RemoveUserForm(data={"user": target.pk, "reason": text, "minutes": 10})
    assert not form.is_valid() and "reason" in form.errors


def chat_screened(text, client):
    room = make_room(name="Keyif Odası")
    try:
        message = salon_services.post_chat_message(user=room.owner, room=room, text=text)
    except ChatBlocked:
        return
    message = ChatMessage.objects.get(pk=message.pk)
    assert not message.visible or message.text != text  # held for a moderator, or masked


def tournament_name_refused(text, client):
    salon = make_salon()
    staff = staff_of(salon)
    starts = timezone.now() + timedelta(hours=1)
    refused_by_service(lambda: tournament_services.create_tournament(
        actor=staff, salon=salon, starts_at=starts, **tournament_fields(text)), code="bad_name")
    refused_by_service(lambda: tournament_services.create_recurring(
        actor=staff, salon=salon, starts_at=starts, weekdays="15", **tournament_fields(text)), code="bad_name")
    assert not Tournament.objects.exists() and not Schedule.objects.exists()
    form = TournamentForm(data={"name": text, "format": "knockout", "scoring": "penalty", "hands_per_match": 1,
                                "players": 4, "turn_seconds": 20, "starts_at": starts.strftime("%Y-%m-%dT%H:%M"),
                                "registration_minutes": 60, "min_players": 2, "max_players": 64, "buy_in": 0,
                                "added_chips": 0, "duration_minutes": 30, "go_on": 1})
    assert not form.is_valid() and "name" in form.errors


def cancel_reason_refused(text, client):
    salon = make_salon()
    staff = staff_of(salon)
    tournament = tournament_services.create_tournament(
        actor=staff, salon=salon, starts_at=timezone.now() + timedelta(hours=1), **tournament_fields("Gece"))
    refused_by_service(lambda: tournament_services.cancel(actor=staff, tournament_id=tournament.pk, reason=text))
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.SCHEDULED and not tournament.cancel_reason


def schedule_name_refused(text, client):
    salon = make_salon()
    refused_by_service(lambda: tournament_services.create_schedule(
        actor=staff_of(salon), salon=salon, time_of_day=time(21), **tournament_fields(text)), code="bad_name")
    assert not Schedule.objects.exists()


WRITERS = {
    "accounts.User.username": signup_refused,
    "salons.Salon.name": salon_admin_refused("name"),
    "salons.Salon.slug": salon_admin_refused("slug"),
    "salons.Salon.description": salon_admin_refused("description"),
    "salons.Salon.description_en": salon_admin_refused("description_en"),
    "salons.Room.name": room_name_refused,
    "salons.RoomRemoval.reason": removal_reason_refused,
    "salons.ChatMessage.text": chat_screened,
    "tournaments.Tournament.name": tournament_name_refused,
    "tournaments.Tournament.cancel_reason": cancel_reason_refused,
    "tournaments.Schedule.name": schedule_name_refused,
}


@pytest.mark.parametrize("text", ATTACKS)
@pytest.mark.parametrize("field", sorted(SCREENED))
def test_every_public_text_refuses_ads_insults_and_politics(field, text, client):
    WRITERS[field](text, client)


# -- the attack as it happened ----------------------------------------------------------------------------

def test_the_tournament_list_never_shows_an_ad_an_insult_or_a_reversed_name(client):
    """Salon staff post the form three times; only the clean name reaches /tournaments/, and the
    right-to-left override is gone from it (it would show "ritkis" backwards, as "siktir")."""
    salon = make_salon()
    staff = staff_of(salon)
    client.force_login(staff)
    starts = (timezone.localtime() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    url = reverse("tournaments:create", args=[salon.slug])
    base = {"format": "knockout", "scoring": "penalty", "hands_per_match": 1, "players": 4, "turn_seconds": 20,
            "starts_at": starts, "registration_minutes": 60, "min_players": 2, "max_players": 64, "buy_in": 0,
            "added_chips": 0, "duration_minutes": 30, "go_on": 1}
    for name in ("Bedava çip: bedavaokey.com", "siktir git turnuvası"):
        response = client.post(url, {**base, "name": name})
        assert response.status_code == 200
        assert "herkese açık ve uygun değil" in response.content.decode()
        english = client.post(url, {**base, "name": name}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert "is public and not suitable" in english
    response = client.post(url, {**base, "name": f"{RLO}ritkis{PDF} gecesi"})
    assert response.status_code == 302
    assert list(Tournament.objects.values_list("name", flat=True)) == ["ritkis gecesi"]
    page = client.get(reverse("tournaments:list")).content.decode()
    assert "ritkis gecesi" in page and RLO not in page and "bedavaokey" not in page and "siktir" not in page


def test_stored_text_of_every_project_app_loses_invisible_characters():
    from accounts import usertext

    assert {"accounts", "salons", "moderation", "games", "tournaments"} <= project_app_labels()
    for label in project_app_labels():
        assert usertext.is_project_app(label), label


def test_a_schedule_name_with_a_right_to_left_override_is_stored_without_it():
    salon = make_salon()
    schedule = tournament_services.create_schedule(actor=staff_of(salon), salon=salon, time_of_day=time(21),
                                                   **tournament_fields(f"{RLO}ritkis{PDF} akşamı"))
    schedule.refresh_from_db()
    assert schedule.name == "ritkis akşamı"


def test_clean_names_and_reasons_still_pass():
    salon = make_salon()
    staff = staff_of(salon)
    tournament = tournament_services.create_tournament(
        actor=staff, salon=salon, starts_at=timezone.now() + timedelta(hours=1),
        **tournament_fields("Cuma Akşamı Okey Kupası"))
    assert tournament.name == "Cuma Akşamı Okey Kupası"
    tournament_services.cancel(actor=staff, tournament_id=tournament.pk, reason="Yeterli oyuncu yok")
    room = make_room(name="Keyif Odası")
    removal = salon_services.remove_from_room(owner=room.owner, room=room, user=make_player(),
                                              reason="Sürekli masayı bekletti", minutes=10)
    assert removal.reason == "Sürekli masayı bekletti"
    assert Room.objects.filter(name="Keyif Odası").exists()
