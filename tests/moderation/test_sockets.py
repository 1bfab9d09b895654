"""A site ban closes every socket of the player at once, and the sessions behind them are gone so
they cannot reconnect; salon bans and staff removals close the sockets in that salon or room."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from moderation import services
from okeysite.asgi import application
from salons import services as salon_services
from tests.moderation.conftest import build_world

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fresh_cache")]

HEADERS = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]


def cookie_for(user) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


async def open_socket(path: str, cookie: bytes, language: str = "tr") -> WebsocketCommunicator:
    headers = [*HEADERS, (b"cookie", cookie), (b"accept-language", language.encode())]
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    return communicator


async def frame_of(communicator: WebsocketCommunicator, kind: str, timeout: float = 1.0) -> dict:
    """The next frame of this type; the timeout is the promise: "closed within a second"."""
    while True:
        frame = await communicator.receive_output(timeout=timeout)
        if frame["type"] == "websocket.close":
            raise AssertionError(f"closed before a {kind!r} frame")
        if frame["type"] == "websocket.send":
            import json

            data = json.loads(frame["text"])
            if data.get("type") == kind or data.get("code") == kind:
                return data


async def troll_in_room_and_at_table(language: str = "tr"):
    """The world, and the troll's room and table sockets, each past its first state."""
    world = await sync_to_async(build_world)()
    cookie = await sync_to_async(cookie_for)(world.troll)
    room_socket = await open_socket(f"/ws/rooms/{world.room.pk}/", cookie, language)
    await frame_of(room_socket, "state", timeout=5)
    table_socket = await open_socket(f"/ws/tables/{world.table.pk}/", cookie, language)
    await frame_of(table_socket, "state", timeout=5)
    return world, cookie, room_socket, table_socket


async def closed_with(communicator: WebsocketCommunicator, timeout: float = 1.0) -> int:
    while True:
        frame = await communicator.receive_output(timeout=timeout)
        if frame["type"] == "websocket.close":
            return frame.get("code", 1000)


async def test_a_site_ban_closes_the_room_and_table_sockets_within_a_second():
    world, cookie, room_socket, table_socket = await troll_in_room_and_at_table()

    await sync_to_async(services.apply_sanction)(
        actor=world.admin, user=world.troll, kind="site_ban", reason="Reklam yaptı", salon=world.salon
    )

    banned = await frame_of(room_socket, "banned")
    assert banned["message"]
    assert await closed_with(room_socket) == 4403
    assert (await frame_of(table_socket, "banned"))["code"] == "banned"
    assert await closed_with(table_socket) == 4403

    # The session is gone: a new socket with the old cookie is anonymous and refused.
    again = WebsocketCommunicator(application, f"/ws/tables/{world.table.pk}/", headers=[*HEADERS, (b"cookie", cookie)])
    connected, _ = await again.connect(timeout=5)
    assert connected and await closed_with(again) == 4401  # accepted, told, closed: no reconnecting
    for communicator in (again, room_socket, table_socket):
        await communicator.disconnect()  # let each consumer finish, so no database connection lingers


async def test_a_salon_ban_closes_the_sockets_in_that_salon():
    world = await sync_to_async(build_world)()
    cookie = await sync_to_async(cookie_for)(world.troll)
    room_socket = await open_socket(f"/ws/rooms/{world.room.pk}/", cookie)
    await frame_of(room_socket, "state", timeout=5)
    await sync_to_async(salon_services.take_seat)(user=world.troll, table=world.table, position=2)
    table_socket = await open_socket(f"/ws/tables/{world.table.pk}/", cookie)
    await frame_of(table_socket, "state", timeout=5)
    other_socket = await open_socket(f"/ws/rooms/{world.other_room.pk}/", cookie)
    await frame_of(other_socket, "state", timeout=5)

    await sync_to_async(services.apply_sanction)(
        actor=world.moderator, user=world.troll, kind="salon_ban", reason="Tartışma", duration=timedelta(days=1),
        salon=world.salon,
    )

    removed = await frame_of(room_socket, "removed")
    assert removed["message"].startswith("Bu salona girmeniz yasaklandı. Sebep: Tartışma. Bitiş: ")
    assert await closed_with(room_socket) == 4403
    assert await closed_with(table_socket) == 4403
    # The other salon's room socket stays open.
    await other_socket.send_json_to({"type": "ping"})
    assert (await frame_of(other_socket, "pong"))["type"] == "pong"
    for communicator in (other_socket, room_socket, table_socket):
        await communicator.disconnect()


async def test_a_salon_ban_also_closes_a_watchers_table_socket():
    world = await sync_to_async(build_world)()
    cookie = await sync_to_async(cookie_for)(world.troll)
    # Only watching: no seat and no room socket.
    table_socket = await open_socket(f"/ws/tables/{world.table.pk}/", cookie)
    await frame_of(table_socket, "state", timeout=5)

    await sync_to_async(services.apply_sanction)(
        actor=world.moderator, user=world.troll, kind="salon_ban", reason="Tartışma", duration=timedelta(days=1),
        salon=world.salon,
    )

    assert await closed_with(table_socket) == 4403
    await table_socket.disconnect()


async def test_a_held_line_tells_its_sender_on_the_room_socket():
    world = await sync_to_async(build_world)()
    cookie = await sync_to_async(cookie_for)(world.troll)
    room_socket = await open_socket(f"/ws/rooms/{world.room.pk}/", cookie)
    await frame_of(room_socket, "state", timeout=5)
    await room_socket.send_json_to({"type": "chat", "text": "siyaset konuşalım, seçim yakın"})
    notice = await frame_of(room_socket, "chat_held")
    assert "onay" in notice["message"]
    await room_socket.send_json_to({"type": "chat", "text": "okey nokta com"})
    blocked = await frame_of(room_socket, "chat_blocked")
    assert "reklam" in blocked["message"]
    await room_socket.disconnect()


async def test_every_socket_of_a_site_banned_player_says_why_and_until_when_in_their_language():
    """Lobby, room, table and tournament pages: the player is told the reason and the end of the
    ban where they are, not only at their next login."""
    world = await sync_to_async(build_world)()
    cookie = await sync_to_async(cookie_for)(world.troll)
    sockets = {
        "lobby": await open_socket("/ws/lobby/", cookie, "en"),
        "room": await open_socket(f"/ws/rooms/{world.room.pk}/", cookie, "en"),
        "table": await open_socket(f"/ws/tables/{world.table.pk}/", cookie, "tr"),
    }
    await frame_of(sockets["room"], "state", timeout=5)
    await frame_of(sockets["table"], "state", timeout=5)

    await sync_to_async(services.apply_sanction)(
        actor=world.admin, user=world.troll, kind="site_ban", reason="Reklam yaptı", duration=timedelta(days=3),
    )

    for name in ("lobby", "room"):
        told = await frame_of(sockets[name], "banned")
        assert told["message"].startswith("Your account has been banned. Reason: Reklam yaptı. Ends: "), told
        assert await closed_with(sockets[name]) == 4403
    told = await frame_of(sockets["table"], "banned")
    assert told["message"].startswith("Hesabınız kapatıldı. Sebep: Reklam yaptı. Bitiş: "), told
    assert told["close"] == 4403 and await closed_with(sockets["table"]) == 4403
    for communicator in sockets.values():
        await communicator.disconnect()


async def test_a_salon_ban_tells_the_room_and_table_sockets_why_and_until_when():
    world, _cookie, room_socket, table_socket = await troll_in_room_and_at_table("en")

    await sync_to_async(services.apply_sanction)(
        actor=world.moderator, user=world.troll, kind="salon_ban", reason="Tartışma", duration=timedelta(days=1),
        salon=world.salon,
    )

    removed = await frame_of(room_socket, "removed")
    assert removed["message"].startswith("You are banned from this salon. Reason: Tartışma. Ends: "), removed
    told = await frame_of(table_socket, "salon_banned")
    assert told["message"] == removed["message"] and told["close"] == 4403
    for communicator in (room_socket, table_socket):
        assert await closed_with(communicator) == 4403
        await communicator.disconnect()


async def test_an_owners_removal_tells_the_table_socket_who_why_and_until_when():
    world = await sync_to_async(build_world)()
    cookie = await sync_to_async(cookie_for)(world.troll)
    table_socket = await open_socket(f"/ws/tables/{world.table.pk}/", cookie, "en")
    await frame_of(table_socket, "state", timeout=5)

    await sync_to_async(salon_services.remove_from_room)(
        owner=world.room.owner, room=world.room, user=world.troll, reason="Küfür etti", minutes=15)

    told = await frame_of(table_socket, "removed")
    assert told["message"].startswith("The room's owner removed you from this room. Reason: Küfür etti. "
                                      "You cannot come back before "), told
    assert await closed_with(table_socket) == 4403
    await table_socket.disconnect()
