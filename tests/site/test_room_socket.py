"""The room socket: a state frame on connect, seats and chat through services, live events to
everyone in the room, refusals as translated error frames, and removals that close the socket."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from okeysite.routing import websocket_urlpatterns
from salons import services
from tests.conftest import make_player, make_room

pytestmark = pytest.mark.django_db(transaction=True)

application = URLRouter(websocket_urlpatterns)


async def connect(user, path: str, language: str = "tr") -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(application, path, headers=[(b"accept-language", language.encode())])
    communicator.scope["user"] = user if user is not None else AnonymousUser()
    communicator.scope["cookies"] = {"django_language": language}
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def next_of(communicator: WebsocketCommunicator, kind: str, timeout: float = 3) -> dict:
    """The next frame of a given type (skipping presence and other chatter)."""
    while True:
        frame = await communicator.receive_json_from(timeout=timeout)
        if frame["type"] == kind:
            return frame


@sync_to_async
def setup_room(**options):
    owner = make_player("Sahip", email="sahip@private.example")
    guest = make_player("Misafir", email="misafir@private.example")
    room = make_room(owner=owner, **options)
    return owner, guest, room, room.tables.get()


async def test_state_then_live_seats_and_chat_for_everyone():
    owner, guest, room, table = await setup_room()
    a = await connect(owner, f"/ws/rooms/{room.pk}/")
    state = await next_of(a, "state")
    assert state["me"] == {"id": owner.pk, "nickname": "Sahip"}
    assert [s["user"] for s in state["tables"][0]["seats"]] == [None] * 4
    b = await connect(guest, f"/ws/rooms/{room.pk}/")
    await next_of(b, "state")
    presence = await next_of(a, "presence.changed")
    assert presence["people"] == 2 and presence["watchers"] == 2

    await b.send_json_to({"type": "sit", "table": table.pk, "position": 2})
    seen_by_owner = await next_of(a, "seat.changed")
    assert seen_by_owner["table"]["seats"][2]["user"] == {"id": guest.pk, "nickname": "Misafir"}
    await a.send_json_to({"type": "chat", "text": "  Hoş geldin  "})
    chat = await next_of(b, "chat.message")
    assert chat["text"] == "Hoş geldin" and chat["author"]["nickname"] == "Sahip"

    await b.send_json_to({"type": "leave", "table": table.pk})
    freed = await next_of(a, "seat.changed")
    assert freed["table"]["seats"][2]["user"] is None
    await a.disconnect()
    await b.disconnect()


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("not json", "bad_message"),
        ("[1, 2]", "bad_message"),
        ('{"type": 5}', "bad_message"),
        ('{"type": "dance"}', "unknown_type"),
        ('{"type": "sit", "table": "x", "position": 0}', "bad_table"),
        ('{"type": "sit", "table": 999999, "position": 0}', "bad_table"),
        ('{"type": "sit", "table": TABLE, "position": 7}', "bad_seat"),
        ('{"type": "sit", "table": TABLE, "position": true}', "bad_seat"),
        ('{"type": "leave", "table": TABLE}', "not_seated"),
        ('{"type": "chat", "text": ""}', "empty_message"),
        ('{"type": "chat"}', "empty_message"),
        ('{"type": "chat", "text": "' + "x" * 400 + '"}', "message_too_long"),
        ("x" * 5000, "bad_message"),
    ],
)
async def test_bad_frames_get_error_frames_and_the_socket_stays_open(frame, code):
    owner, _guest, room, table = await setup_room()
    socket = await connect(owner, f"/ws/rooms/{room.pk}/")
    await next_of(socket, "state")
    await socket.send_to(text_data=frame.replace("TABLE", str(table.pk)))
    error = await next_of(socket, "error")
    assert error["code"] == code and error["message"]
    await socket.send_json_to({"type": "ping"})
    assert (await next_of(socket, "pong"))["type"] == "pong"
    await socket.disconnect()


async def test_errors_come_in_the_users_language():
    owner, guest, room, table = await setup_room()
    await sync_to_async(services.take_seat)(user=owner, table=table, position=0)
    socket = await connect(guest, f"/ws/rooms/{room.pk}/", language="en")
    await next_of(socket, "state")
    await socket.send_json_to({"type": "sit", "table": table.pk, "position": 0})
    error = await next_of(socket, "error")
    assert error == {"type": "error", "code": "seat_taken", "message": "This seat is taken."}
    await socket.disconnect()


async def test_anonymous_and_locked_out_users_are_refused():
    owner, guest, room, _table = await setup_room(is_private=True, password="gizli")
    # Accepted, told why (with the coming close code), closed with the documented code: the page
    # stops reconnecting and shows the message.
    anonymous = await connect(None, f"/ws/rooms/{room.pk}/")
    frame = await anonymous.receive_json_from()
    assert (frame["code"], frame["close"]) == ("login_required", 4401)
    assert (await anonymous.receive_output())["code"] == 4401
    locked = await connect(guest, f"/ws/rooms/{room.pk}/", language="en")
    frame = await locked.receive_json_from()
    assert (frame["code"], frame["close"]) == ("private_room", 4403)
    assert "private" in frame["message"]
    assert (await locked.receive_output())["code"] == 4403
    missing = await connect(guest, "/ws/rooms/999999/")
    frame = await missing.receive_json_from()
    assert (frame["code"], frame["close"]) == ("no_room", 4404)
    assert (await missing.receive_output())["code"] == 4404


async def test_a_removed_user_is_told_and_disconnected():
    owner, guest, room, table = await setup_room()
    socket = await connect(guest, f"/ws/rooms/{room.pk}/")
    await next_of(socket, "state")
    await socket.send_json_to({"type": "sit", "table": table.pk, "position": 1})
    await next_of(socket, "seat.changed")
    await sync_to_async(services.remove_from_room)(owner=owner, room=room, user=guest, reason="Küfür etti")
    removed = await next_of(socket, "removed")
    # Who, why and until when: the words the room refuses them with from now on.
    assert removed["message"].startswith("Oda sahibi sizi bu odadan çıkardı. Sebep: Küfür etti. "), removed
    assert removed["message"].endswith("saatine kadar giremezsiniz.")
    assert (await socket.receive_output())["code"] == 4403


async def test_closing_the_room_sends_everyone_back_to_the_salon():
    owner, guest, room, _table = await setup_room()
    socket = await connect(guest, f"/ws/rooms/{room.pk}/")
    await next_of(socket, "state")
    await sync_to_async(services.close_room)(user=owner, room=room)
    closed = await next_of(socket, "room.closed")
    assert closed["salon_url"] == f"/salons/{room.salon.slug}/"


async def test_lobby_and_salon_sockets_follow_counts():
    owner, guest, room, table = await setup_room()
    lobby = await connect(None, "/ws/lobby/")
    first = await next_of(lobby, "lobby.counts")
    seats = room.players
    assert {"id": room.salon_id, "rooms": 1, "people": 0, "tables": 1, "free_seats": seats} in first["salons"]
    salon = await connect(None, f"/ws/salons/{room.salon_id}/")
    await sync_to_async(services.take_seat)(user=guest, table=table, position=0)
    assert (await next_of(salon, "salon.changed"))["salon"] == room.salon_id
    counts = await next_of(lobby, "lobby.counts")
    assert {"id": room.salon_id, "rooms": 1, "people": 1, "tables": 1, "free_seats": seats - 1} in counts["salons"]
    for socket in (lobby, salon):
        await socket.disconnect()


def test_frames_are_json_serialisable_for_redis():
    # channels_redis packs with msgpack: payloads must be plain data (no datetimes, no lazy strings).
    from salons import selectors

    owner = make_player()
    room = make_room(owner=owner)
    json.dumps(selectors.room_state(room=room))


async def test_a_room_that_closes_while_the_socket_opens_gets_not_found_not_a_crash(monkeypatch):
    """The room is deleted between the access check and the state read (a practice room ending,
    an owner closing it): the socket hears "no such room" and closes for good."""
    from salons import consumers

    owner, _guest, room, _table = await setup_room()
    original = services.join_presence

    def join_then_room_closes(**kwargs):
        original(**kwargs)
        kwargs["room"].delete()

    monkeypatch.setattr(consumers.services, "join_presence", join_then_room_closes)
    communicator = WebsocketCommunicator(application, f"/ws/rooms/{room.pk}/")
    communicator.scope["user"] = owner
    communicator.scope["cookies"] = {"django_language": "en"}
    connected, _ = await communicator.connect()
    assert connected
    frame = await communicator.receive_json_from(timeout=5)
    assert frame["type"] == "error" and frame["code"] == "no_room"
    assert frame["close"] == consumers.CLOSE_NOT_FOUND
    closed = await communicator.receive_output(timeout=5)
    assert closed["type"] == "websocket.close" and closed["code"] == consumers.CLOSE_NOT_FOUND
