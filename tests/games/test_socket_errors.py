"""Error frames of the table socket over the real ASGI stack: in the user's language (language
cookie, else Accept-Language), with the engine's stable codes, and refusals that close with the
documented code after saying why."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from games import services
from games.engine import hand as engine_hand
from games.models import Hand
from okeysite.asgi import application
from tests.site.test_socket_guards import next_error

from .conftest import make_table, make_user

pytestmark = [pytest.mark.django_db(transaction=True)]


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


async def table_socket(user, table_id, *, accept_language: str = "", language_cookie: str = "") -> WebsocketCommunicator:
    cookies = [await sync_to_async(session_cookie)(user)] if user is not None else []
    if language_cookie:
        cookies.append(f"django_language={language_cookie}")
    headers = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]
    if cookies:
        headers.append((b"cookie", "; ".join(cookies).encode()))
    if accept_language:
        headers.append((b"accept-language", accept_language.encode()))
    return WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)


async def connected(*args, **kwargs) -> WebsocketCommunicator:
    communicator = await table_socket(*args, **kwargs)
    ok, _ = await communicator.connect(timeout=5)
    assert ok
    assert (await communicator.receive_json_from(timeout=5))["type"] == "state"
    return communicator


@sync_to_async
def started_table():
    table, users = make_table()
    for user in users:
        services.mark_ready(user=user, table_id=table.id)
    hand = Hand.objects.get(match__table=table)
    return table, users, hand, engine_hand.HandState.from_dict(hand.state)


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({"accept_language": "en-GB,en;q=0.9"}, "Unknown message type."),
        ({"accept_language": "tr-TR"}, "Bilinmeyen mesaj türü."),
        ({"accept_language": "tr", "language_cookie": "en"}, "Unknown message type."),  # the cookie wins
        ({"accept_language": "en", "language_cookie": "tr"}, "Bilinmeyen mesaj türü."),
        ({}, "Bilinmeyen mesaj türü."),
    ],
)
async def test_socket_errors_are_in_the_users_language(kwargs, expected):
    table, users = await sync_to_async(make_table)()
    communicator = await connected(users[0], table.id, **kwargs)
    await communicator.send_json_to({"type": "dance"})
    assert (await next_error(communicator))["message"] == expected
    await communicator.disconnect()


async def test_engine_and_service_errors_are_in_the_users_language():
    table, users, hand, state = await started_table()
    waiting = users[(state.turn + 1) % 4]
    communicator = await connected(waiting, table.id, accept_language="en")
    await communicator.send_json_to({"type": "draw", "source": "pile", "move": hand.move})
    error = await next_error(communicator)
    assert (error["code"], error["message"]) == ("not_your_turn", "It is not your turn.")
    await communicator.send_json_to({"type": "draw", "source": "pile"})
    error = await next_error(communicator)
    assert error["code"] == "bad_move_number" and error["message"] != "Hamle numarası eksik ya da geçersiz."
    await communicator.disconnect()


async def test_an_invalid_finish_sends_the_stable_reason_and_its_words():
    table, users, hand, state = await started_table()
    player = users[state.turn]
    tile = engine_hand.format_tile(state.racks[state.turn][0])
    for language, words in (("en", "neither split into runs and groups"), ("tr", "ne seri ve perlere ayrılıyor")):
        communicator = await connected(player, table.id, accept_language=language)
        await communicator.send_json_to({"type": "finish", "tile": tile, "move": hand.move})
        error = await next_error(communicator)
        assert error["code"] == "invalid_finish"
        assert error["reason"] == "no_valid_split" and error["tile"] == tile
        assert words in error["reason_message"] and tile in error["reason_message"]
        await communicator.disconnect()


async def test_a_user_removed_from_the_room_is_told_and_closed_with_4403():
    from salons import services as salon_services

    table, users = await sync_to_async(make_table)()
    stranger = await sync_to_async(make_user)()
    owner = await sync_to_async(lambda: table.room.owner)()
    await sync_to_async(salon_services.remove_from_room)(owner=owner, room=table.room, user=stranger, reason="Kurallara uymadı", minutes=10)
    communicator = await table_socket(stranger, table.id, accept_language="en")
    ok, _ = await communicator.connect(timeout=5)
    assert ok
    error = await communicator.receive_json_from(timeout=5)
    close = await communicator.receive_output(timeout=5)
    assert (error["code"], error["close"]) == ("removed", 4403)
    assert "removed" in error["message"]
    assert (close["type"], close["code"]) == ("websocket.close", 4403)


async def test_a_watcher_removed_while_connected_is_told_why_before_the_close():
    table, users = await sync_to_async(make_table)()
    watcher = await sync_to_async(make_user)()
    communicator = await connected(watcher, table.id, accept_language="en")
    from channels.layers import get_channel_layer

    await get_channel_layer().group_send(f"table-{table.id}", {"type": "user.kicked", "user_id": watcher.id})
    error = await next_error(communicator)
    assert (error["code"], error["close"], error["message"]) == ("removed", 4403, "You were removed from this room.")
    close = await communicator.receive_output(timeout=5)
    assert close["code"] == 4403


@pytest.mark.parametrize(
    "frame",
    [{"type": "chat", "text": "selam"}, {"type": "sit", "position": 1}, {"type": "leave"}, {"type": "state"}],
)
async def test_a_table_whose_room_was_closed_answers_no_table_not_a_crash(frame):
    """The owner closed the room while a player's table socket stayed open (before a match)."""
    table, users = await sync_to_async(make_table)()
    communicator = await connected(users[0], table.id, accept_language="en")
    await sync_to_async(table.room.delete)()
    await communicator.send_json_to(frame)
    error = await next_error(communicator)
    assert error["code"] == "no_table" and error["message"] == "There is no such table."
    await communicator.disconnect()
