"""User-written text outside the chat (issue 10, items 13 and 14).

Room names are public: they pass the chat filter or are refused with the reason. Every stored
user text (chat, room names, reports, removal reasons) loses bidirectional controls and invisible
characters, so what the filter read is what everyone's browser shows.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.errors import ServiceError
from moderation.models import Report
from salons import services
from salons.models import ChatMessage, Room, RoomRemoval
from tests.conftest import make_player, make_room, make_salon

pytestmark = pytest.mark.django_db

RLO, PDF = "\u202e", "\u202c"

BAD_ROOM_NAMES = [
    "siktir git bedavaokey.com",  # the review's room
    "ꜱɪᴋᴛɪʀ odası",  # small capitals
    "salak_odasi",  # "_" joins words
    "bedavaokey.com",  # advertising
    "AKP odası",  # politics
    "ananı",  # an elliptic insult
]


@pytest.mark.parametrize("name", BAD_ROOM_NAMES)
def test_a_room_cannot_be_opened_with_a_name_the_filter_refuses(name):
    with pytest.raises(ServiceError) as error:
        make_room(name=name)
    assert error.value.code == "bad_name"
    assert "herkese açık ve uygun değil" in error.value.message
    assert not Room.objects.filter(name=name).exists()


@pytest.mark.parametrize("name", ["Keyif Odası", "Çaylaklar 1", "iyi seçim", "Ankara'dan selam", "Okey 101"])
def test_clean_room_names_are_accepted(name):
    assert make_room(name=name).name == name


def test_a_room_cannot_be_renamed_to_an_insult():
    room = make_room(name="Keyif Odası")
    with pytest.raises(ServiceError) as error:
        services.update_room(user=room.owner, room=room, name="siktir git bedavaokey.com", rules=room.rules,
                             turn_seconds=room.turn_seconds, is_private=False)
    assert error.value.code == "bad_name"
    room.refresh_from_db()
    assert room.name == "Keyif Odası"


def test_the_room_form_shows_a_translated_field_error(client):
    salon = make_salon()
    client.force_login(make_player("Sahip"))
    url = reverse("salons:room_create", args=[salon.slug])
    data = {"name": "siktir git bedavaokey.com", "turn_seconds": 20, "table_count": 1, "bot_fill_seconds": 0}
    response = client.post(url, data)
    assert response.status_code == 200
    assert "name" in response.context["form"].errors
    assert "herkese açık ve uygun değil" in response.content.decode()
    assert not Room.objects.exists()
    english = client.post(url, data, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "is public and not suitable" in english


def test_a_removal_reason_is_public_text_too(client):
    room = make_room(name="Keyif Odası")
    target = make_player("Hedef")
    client.force_login(room.owner)
    response = client.post(reverse("salons:room_remove", args=[room.pk]),
                           {"user": target.pk, "reason": "salak herif", "minutes": 10})
    assert response.status_code == 302
    assert not RoomRemoval.objects.exists()


def test_invisible_characters_are_stripped_from_room_names():
    room = make_room(name=f"{RLO}ritkis{PDF} odası")
    assert room.name == "ritkis odası"


def test_a_chat_line_is_stored_without_a_right_to_left_override():
    room = make_room(name="Keyif Odası")
    message = services.post_chat_message(user=room.owner, room=room, text=f"selam {RLO}ritkis")
    stored = ChatMessage.objects.get(pk=message.pk).text
    assert RLO not in stored and stored == "selam ritkis"


def test_a_chat_line_of_invisible_characters_only_is_empty():
    room = make_room(name="Keyif Odası")
    with pytest.raises(ServiceError) as error:
        services.post_chat_message(user=room.owner, room=room, text=f"{RLO}\u200b{PDF}")
    assert error.value.code == "empty_message"


def test_every_stored_user_text_loses_invisible_characters():
    """Whatever path writes it: a report note saved through the model is stripped too."""
    room = make_room(name="Keyif Odası")
    report = Report.objects.create(
        reporter=room.owner, reported=make_player("Troll"), salon=room.salon, room=room, source="room",
        reason=Report.Reason.values[0], note=f"bana {RLO}ritkis dedi\u200b",
    )
    report.refresh_from_db()
    assert report.note == "bana ritkis dedi"
