"""A salon rule: "your details are never known to anyone else". Other users see a nickname and
public stats only — never an e-mail, a real name or an IP — in any page, JSON answer or socket frame."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from okeysite.routing import websocket_urlpatterns
from salons import services
from tests.conftest import make_player, make_room

SECRETS = ["ayse.private@example.org", "Ayşegül", "Yılmazoğlu", "10.11.12.13"]


def private_player():
    player = make_player("Ayse", email=SECRETS[0], first_name=SECRETS[1], last_name=SECRETS[2])
    player.last_login_ip = SECRETS[3]  # not a field: make sure nothing echoes request metadata either
    return player


def assert_no_secrets(text: str, where: str) -> None:
    for secret in SECRETS:
        assert secret not in text, f"{secret!r} leaked in {where}"


@pytest.mark.django_db
def test_pages_and_json_never_show_another_users_details(client):
    ayse = private_player()
    room = make_room(owner=ayse, name="Ayşe'nin odası", is_private=True, password="gizli")
    table = room.tables.get()
    services.take_seat(user=ayse, table=table, position=0)
    services.post_chat_message(user=ayse, room=room, text="Merhaba")
    viewer = make_player("Bakan")
    services.enter_room(user=viewer, room=room, password="gizli")
    client.force_login(viewer)
    pages = [
        "/", "/rules/", f"/salons/{room.salon.slug}/", f"/salons/{room.salon.slug}/rooms/", f"/rooms/{room.pk}/",
        f"/rooms/{room.pk}/rules/", "/players/Ayse/", "/me/",
    ]
    for url in pages:
        response = client.get(url, REMOTE_ADDR=SECRETS[3])
        assert response.status_code == 200, url
        assert_no_secrets(response.content.decode(), url)
    posted = client.post(
        f"/rooms/{room.pk}/tables/{table.pk}/sit/0/", headers={"Accept": "application/json"}, REMOTE_ADDR=SECRETS[3]
    )
    assert_no_secrets(posted.content.decode(), "seat JSON")
    chat = client.post(f"/rooms/{room.pk}/chat/", {"text": "selam"}, headers={"Accept": "application/json"})
    assert_no_secrets(chat.content.decode(), "chat JSON")


@pytest.mark.django_db(transaction=True)
async def test_socket_frames_never_show_another_users_details():
    ayse, viewer, room, table = await sync_to_async(_room_with_ayse)()
    communicator = WebsocketCommunicator(
        URLRouter(websocket_urlpatterns), f"/ws/rooms/{room.pk}/", headers=[(b"x-forwarded-for", SECRETS[3].encode())]
    )
    communicator.scope["user"] = viewer
    connected, _ = await communicator.connect(timeout=10)
    assert connected
    frames = [await communicator.receive_from(timeout=3)]
    await sync_to_async(services.take_seat)(user=ayse, table=table, position=1)
    await sync_to_async(services.post_chat_message)(user=ayse, room=room, text="Selam")
    await sync_to_async(services.leave_seat)(user=ayse, table=table)
    # Read up to the last expected event (a timeout would cancel the consumer, so never rely on one).
    seat_changes = chats = 0
    while seat_changes < 2 or chats < 1:
        frame = await communicator.receive_from(timeout=3)
        frames.append(frame)
        kind = json.loads(frame)["type"]
        seat_changes += kind == "seat.changed"
        chats += kind == "chat.message"
    await communicator.disconnect()
    text = "\n".join(frames)
    assert '"nickname": "Ayse"' in text  # the frames did carry Ayşe's doings…
    assert_no_secrets(text, "room socket frames")  # …and nothing else about her


def _room_with_ayse():
    ayse = private_player()
    room = make_room(owner=ayse)
    return ayse, make_player("Bakan"), room, room.tables.get()
