"""Private rooms over the room socket (issue 10, item 11): a new password or invite link closes
the sockets of those it shuts out, and only the owner hears that the password was attacked."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from salons import room_access, services
from tests.conftest import make_player, make_room
from tests.site.test_room_socket import connect, next_of

pytestmark = pytest.mark.django_db(transaction=True)


@sync_to_async
def private_room_with_guests():
    owner, by_password, by_link = make_player(), make_player(), make_player()
    room = make_room(owner=owner, is_private=True, password="gizli")
    services.enter_room(user=by_password, room=room, password="gizli")
    services.enter_room(user=by_link, room=room, token=room.invite_token)
    return owner, by_password, by_link, room


async def test_a_new_password_closes_the_guests_sockets_and_keeps_the_owners():
    owner, by_password, by_link, room = await private_room_with_guests()
    sockets = {}
    for user in (owner, by_password, by_link):
        sockets[user.pk] = await connect(user, f"/ws/rooms/{room.pk}/", language="en")
        await next_of(sockets[user.pk], "state")
    await sync_to_async(services.update_room)(
        user=owner, room=room, name=room.name, rules=room.rules, turn_seconds=room.turn_seconds,
        is_private=True, password="yeni-gizli")
    for guest in (by_password, by_link):
        removed = await next_of(sockets[guest.pk], "removed")
        assert removed["message"] == "The room's password or invite link changed; you need to enter again."
        assert (await sockets[guest.pk].receive_output())["code"] == 4403
    await sockets[owner.pk].send_json_to({"type": "ping"})
    assert (await next_of(sockets[owner.pk], "pong"))["type"] == "pong"
    await sockets[owner.pk].disconnect()


async def test_a_new_invite_link_closes_only_the_sockets_of_those_who_came_by_it():
    owner, by_password, by_link, room = await private_room_with_guests()
    stays = await connect(by_password, f"/ws/rooms/{room.pk}/")
    leaves = await connect(by_link, f"/ws/rooms/{room.pk}/")
    await next_of(stays, "state")
    await next_of(leaves, "state")
    await sync_to_async(services.new_invite_link)(user=owner, room=room)
    assert (await next_of(leaves, "removed"))["message"]
    await stays.send_json_to({"type": "ping"})
    assert (await next_of(stays, "pong"))["type"] == "pong"
    await stays.disconnect()


async def test_only_the_owner_hears_of_a_password_attack(monkeypatch):
    monkeypatch.setattr(room_access, "ROOM_PASSWORD_ATTEMPTS", 1)
    owner, by_password, _by_link, room = await private_room_with_guests()
    owner_socket = await connect(owner, f"/ws/rooms/{room.pk}/")
    guest_socket = await connect(by_password, f"/ws/rooms/{room.pk}/")
    await next_of(owner_socket, "state")
    await next_of(guest_socket, "state")

    @sync_to_async
    def guess_twice():
        for _ in range(2):
            try:
                services.enter_room(user=make_player(), room=room, password="yanlış")
            except services.ServiceError:
                pass

    await guess_twice()
    notice = await next_of(owner_socket, "room.password_attack")
    assert "çok fazla yanlış şifre" in notice["message"]
    await guest_socket.send_json_to({"type": "ping"})
    while (frame := await guest_socket.receive_json_from(timeout=3))["type"] != "pong":
        assert frame["type"] != "room.password_attack"
    await owner_socket.disconnect()
    await guest_socket.disconnect()
