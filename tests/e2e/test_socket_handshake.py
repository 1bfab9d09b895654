"""The socket guards against a real daphne and a real WebSocket client (the `websockets` library):
what a browser on another origin or a logged-out page actually sees on the wire."""

from __future__ import annotations

import asyncio
import json

import pytest
from django.test import Client
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tests.conftest import make_player, make_room


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return f"sessionid={client.cookies['sessionid'].value}"


async def handshake_status(url: str, origin: str, cookie: str) -> int:
    try:
        async with connect(url, origin=origin, additional_headers={"Cookie": cookie}, open_timeout=10) as socket:
            await asyncio.wait_for(socket.recv(), 10)  # the state frame: the consumer is done reading
            return 101
    except InvalidStatus as refused:
        return refused.response.status_code


async def refusal(url: str, origin: str, cookie: str = "") -> tuple[dict, int]:
    """(the error frame, the close code) of a socket the server accepts only to refuse."""
    headers = {"Cookie": cookie} if cookie else {}
    async with connect(url, origin=origin, additional_headers=headers, open_timeout=10) as socket:
        frame = json.loads(await asyncio.wait_for(socket.recv(), 10))
        with pytest.raises(ConnectionClosed) as closed:
            await asyncio.wait_for(socket.recv(), 10)
    return frame, closed.value.rcvd.code


def forged_origins(port: int) -> tuple[str, ...]:
    """Pages that would send the user's cookies from another port, scheme or site of the same machine."""
    return (f"http://127.0.0.1:{port + 1}", "http://127.0.0.1:9999", f"https://127.0.0.1:{port}", "http://evil.example")


def test_forged_origins_are_refused_at_the_handshake_and_the_site_itself_is_not(asgi_live_server):
    owner = make_player()
    room = make_room(owner=owner)
    table = room.tables.get()
    cookie = session_cookie(owner)
    port = asgi_live_server.port
    url = f"ws://127.0.0.1:{port}/ws/tables/{table.pk}/"
    for origin in forged_origins(port):
        assert asyncio.run(handshake_status(url, origin, cookie)) == 403, origin
    assert asyncio.run(handshake_status(url, f"http://127.0.0.1:{port}", cookie)) == 101


def test_a_client_sees_the_close_code_and_why(asgi_live_server):
    owner = make_player()
    room = make_room(owner=owner)
    table = room.tables.get()
    origin = f"http://127.0.0.1:{asgi_live_server.port}"
    base = f"ws://127.0.0.1:{asgi_live_server.port}"
    frame, code = asyncio.run(refusal(f"{base}/ws/tables/{table.pk}/", origin))
    assert (frame["code"], frame["close"], code) == ("login_required", 4401, 4401)
    frame, code = asyncio.run(refusal(f"{base}/ws/tables/99999999999999999999999/", origin, session_cookie(owner)))
    assert (frame["code"], code) == ("not_found", 4404)
    frame, code = asyncio.run(refusal(f"{base}/ws/nowhere/", origin))
    assert (frame["code"], code) == ("not_found", 4404)
