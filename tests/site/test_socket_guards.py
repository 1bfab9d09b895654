"""The guards every socket passes (okeysite/sockets.py), attacked through the site's real ASGI stack
(origin check, session middleware, routing, consumers): socket caps per user and per address, a
message budget per user shared by all their sockets, forged origins, bad frames and bad paths."""

from __future__ import annotations

import asyncio
import json
import logging
import uuid

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from okeysite import sockets
from okeysite.asgi import application
from tests.conftest import make_player, make_room

pytestmark = [pytest.mark.django_db(transaction=True)]

HOST = "127.0.0.1:8000"
ORIGIN = "http://127.0.0.1:8000"


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


async def socket_to(path: str, user=None, *, origin: str | None = ORIGIN, host: str = HOST,
                    address: str = "203.0.113.7", language: str | None = None) -> WebsocketCommunicator:
    headers = [(b"host", host.encode())]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    if language:
        headers.append((b"accept-language", language.encode()))
    if user is not None:
        headers.append((b"cookie", (await sync_to_async(session_cookie)(user)).encode()))
    communicator = WebsocketCommunicator(application, path, headers=headers)
    communicator.scope["client"] = (address, 40000)
    return communicator


async def opened(communicator: WebsocketCommunicator) -> WebsocketCommunicator:
    ok, _ = await communicator.connect(timeout=5)
    assert ok
    return communicator


async def refusal(communicator: WebsocketCommunicator) -> tuple[dict, int, str]:
    """Accepted, then an error frame, then a close: (frame, close code, close reason)."""
    ok, _ = await communicator.connect(timeout=5)
    assert ok, "the socket must be accepted so the client sees the close code"
    frame = await communicator.receive_json_from(timeout=5)
    close = await communicator.receive_output(timeout=5)
    assert close["type"] == "websocket.close", close
    return frame, close["code"], close.get("reason", "")


async def frames_until_quiet(communicator: WebsocketCommunicator) -> list[dict]:
    frames = []
    while not await communicator.receive_nothing(timeout=0.2):
        frames.append(await communicator.receive_json_from())
    return frames


async def errors_until_quiet(communicator: WebsocketCommunicator) -> list[dict]:
    return [frame for frame in await frames_until_quiet(communicator) if frame["type"] == "error"]


async def next_error(communicator: WebsocketCommunicator) -> dict:
    while True:
        frame = await communicator.receive_json_from(timeout=5)
        if frame["type"] == "error":
            return frame


@sync_to_async
def a_room():
    owner = make_player()
    room = make_room(owner=owner)
    return owner, room, room.tables.get()


# -- 10.8: sockets per user and per address ----------------------------------------------------------


async def test_a_user_cannot_open_more_sockets_than_the_cap(settings):
    settings.SOCKETS_PER_USER = 3
    owner, room, table = await a_room()
    open_ones = []
    for _ in range(3):
        communicator = await opened(await socket_to(f"/ws/tables/{table.pk}/", owner))
        assert (await communicator.receive_json_from(timeout=5))["type"] == "state"
        open_ones.append(communicator)
    # Another socket of any kind, from another address even, is over the user's cap.
    frame, code, reason = await refusal(await socket_to(f"/ws/rooms/{room.pk}/", owner, address="198.51.100.9"))
    assert (frame["code"], code, reason) == ("too_many_sockets", 4429, "too_many_sockets")
    # Closing one frees its slot at once.
    await open_ones.pop().disconnect()
    again = await opened(await socket_to("/ws/lobby/", owner))
    for communicator in [*open_ones, again]:
        await communicator.disconnect()


async def test_anonymous_sockets_are_capped_per_address(settings):
    settings.SOCKETS_PER_ADDRESS = 3
    lobby = [await opened(await socket_to("/ws/lobby/")) for _ in range(3)]
    frame, code, _reason = await refusal(await socket_to("/ws/lobby/"))
    assert (frame["code"], code) == ("too_many_sockets", 4429)
    other_address = await opened(await socket_to("/ws/lobby/", address="198.51.100.20"))
    for communicator in [*lobby, other_address]:
        await communicator.disconnect()


async def test_slots_of_a_crashed_process_expire(settings, monkeypatch):
    """A process that died never released its sockets' slots: they are leases, and run out."""
    settings.SOCKETS_PER_ADDRESS = 2
    slots = [await sync_to_async(sockets.claim_slot)("address", "203.0.113.7", 2, f"dead-process-{n}")
             for n in range(2)]
    assert None not in slots
    assert all(0 < sockets.lease_seconds_left(slot, f"dead-process-{n}") <= settings.SOCKET_LEASE_SECONDS
               for n, slot in enumerate(slots))
    frame, code, _reason = await refusal(await socket_to("/ws/lobby/"))
    assert code == 4429
    real_clock = sockets.clock
    monkeypatch.setattr(sockets, "clock", lambda: real_clock() + settings.SOCKET_LEASE_SECONDS + 1)
    communicator = await opened(await socket_to("/ws/lobby/"))
    await communicator.disconnect()


def test_leases_are_counted_in_one_set_whatever_the_cap(settings):
    """One lease set per address, counted rather than scanned key by key: a huge cap (the bench's)
    and a small one count the same live leases."""
    owners = [f"socket-{n}" for n in range(50)]
    slots = [sockets.claim_slot("address", "198.51.100.9", 100_000, owner) for owner in owners]
    assert len(set(slots)) == 1 and None not in slots
    assert sockets.claim_slot("address", "198.51.100.9", 50, "one-more") is None  # 50 live leases held
    assert sockets.claim_slot("address", "198.51.100.9", 51, "one-more") is not None
    sockets.release_slots(slots[:1], owners[0])
    assert sockets.claim_slot("address", "198.51.100.9", 51, "and-another") is not None


def test_a_live_socket_renews_its_lease(settings, monkeypatch):
    owner = "live-socket"
    slot = sockets.claim_slot("user", "7", 1, owner)
    real_clock = sockets.clock
    monkeypatch.setattr(sockets, "clock", lambda: real_clock() + settings.SOCKET_LEASE_SECONDS + 1)
    assert sockets.lease_seconds_left(slot, owner) is None  # ran out while the socket lived on
    sockets.renew_all({owner: [slot]})
    assert sockets.lease_seconds_left(slot, owner) > 0
    assert sockets.claim_slot("user", "7", 1, "a-second-socket") is None
    sockets.release_slots([slot], "someone-else")  # a socket releases only its own slot
    assert sockets.lease_seconds_left(slot, owner) > 0
    sockets.release_slots([slot], owner)
    assert sockets.lease_seconds_left(slot, owner) is None
    assert sockets.claim_slot("user", "7", 1, "a-second-socket") is not None


async def test_the_process_renews_every_open_sockets_leases_in_one_round(settings, monkeypatch):
    """One renewer per process, not one per socket: it knows every open socket's leases."""
    communicator = await opened(await socket_to("/ws/lobby/", address="198.51.100.33"))
    held = {owner: slots for owner, slots in sockets._live_leases.items()
            if any("198.51.100.33" in key for key in slots)}
    assert len(held) == 1 and sockets._renewer is not None and sockets._renewer.is_alive()
    (owner, slots), = held.items()
    real_clock = sockets.clock
    monkeypatch.setattr(sockets, "clock", lambda: real_clock() + settings.SOCKET_LEASE_SECONDS + 1)
    assert sockets.lease_seconds_left(slots[0], owner) is None  # as if the process had stalled
    await sync_to_async(sockets.renew_all)(held)
    assert sockets.lease_seconds_left(slots[0], owner) > 0
    await communicator.disconnect()
    assert owner not in sockets._live_leases
    await sync_to_async(sockets.renew_all)(held)  # a round that read its list before the socket closed
    assert sockets.lease_seconds_left(slots[0], owner) is None  # does not bring the lease back


# -- 10.8: the message budget is per user, over all their sockets --------------------------------------


async def test_the_message_budget_is_shared_by_all_sockets_of_a_user(settings, monkeypatch):
    settings.SOCKET_MESSAGES_PER_WINDOW = 10
    settings.SOCKET_BUDGET_WINDOW_SECONDS = 10
    now = [1_000_000.0]
    monkeypatch.setattr(sockets, "clock", lambda: now[0])
    owner, room, table = await a_room()
    tabs = []
    for _ in range(3):
        communicator = await opened(await socket_to(f"/ws/tables/{table.pk}/", owner))
        await communicator.receive_json_from(timeout=5)
        tabs.append(communicator)
    for _round in range(4):  # 12 frames over three sockets: each socket alone is well under its burst
        for communicator in tabs:
            await communicator.send_json_to({"type": "dance"})
    replies = [frame["code"] for communicator in tabs for frame in await errors_until_quiet(communicator)]
    assert replies.count("bad_action") == 10
    assert "rate_limited" in replies
    # The next window brings a fresh budget.
    now[0] += 10
    await tabs[0].send_json_to({"type": "dance"})
    assert (await tabs[0].receive_json_from(timeout=5))["code"] == "bad_action"
    for communicator in tabs:
        await communicator.disconnect()


async def test_malformed_and_oversized_frames_spend_the_budget_too(settings, monkeypatch):
    settings.SOCKET_MESSAGES_PER_WINDOW = 5
    monkeypatch.setattr(sockets, "clock", lambda: 2_000_000.0)
    owner, room, table = await a_room()
    communicator = await opened(await socket_to(f"/ws/rooms/{room.pk}/", owner))
    await frames_until_quiet(communicator)
    for text in ["not json", "x" * 10_000, "[" * 5000, "{}", '{"type": 5}']:
        await communicator.send_to(text_data=text)
    replies = await errors_until_quiet(communicator)
    assert [frame["code"] for frame in replies] == ["bad_message"] * 5
    await communicator.send_json_to({"type": "ping"})
    replies = await frames_until_quiet(communicator)
    assert [frame.get("code") for frame in replies] == ["rate_limited"]  # and no pong
    # A flood past the budget is not answered frame by frame: one notice a window.
    for _ in range(20):
        await communicator.send_json_to({"type": "ping"})
    assert await frames_until_quiet(communicator) == []
    await communicator.disconnect()


def budget_on_redis(settings) -> None:
    """The default cache on Redis whatever the run's settings (a plain ``make test`` has none), so the
    budget takes the path production takes: counted from the socket's loop."""
    from tests.games.test_scale_out import redis_url

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": redis_url(), "KEY_PREFIX": f"budget-{uuid.uuid4().hex}"}}


async def test_a_burst_larger_than_the_budgets_redis_pool_waits_its_turn_and_every_frame_counts(settings, monkeypatch):
    """At 2,000 tables a server's sockets spent the budget faster than Redis answered, redis-py's
    pool ran out of connections and sockets died ("Too many connections"). Now a frame waits
    for a connection, and each one is counted once."""
    budget_on_redis(settings)
    settings.SOCKET_MESSAGES_PER_WINDOW = 250
    monkeypatch.setattr(sockets, "clock", lambda: 3_000_000.0)
    ident = f"user-burst-{uuid.uuid4().hex}"
    frames = 300  # all in flight at once: past the budget's pool and redis-py's default of 100
    spent = await asyncio.gather(*(sockets.spend_budget(ident) for _ in range(frames)))
    assert spent.count(True) == 250
    assert spent.count(False) == frames - 250


async def test_a_frame_goes_through_with_a_warning_when_redis_cannot_count_it(settings, monkeypatch, caplog):
    """Redis down: the frame is not lost and the socket not closed (its own bucket still bounds
    it); the log says so without a traceback."""
    import redis.asyncio

    budget_on_redis(settings)
    nobody_there = redis.asyncio.Redis.from_url("redis://127.0.0.1:1/0")
    monkeypatch.setattr(sockets, "_loop_client", lambda backend: nobody_there)
    with caplog.at_level(logging.WARNING, logger="okeysite.sockets"):
        assert await sockets.spend_budget("user-no-redis") is True
    [record] = [record for record in caplog.records if record.name == "okeysite.sockets"]
    assert record.levelno == logging.WARNING and "not counted" in record.getMessage() and record.exc_info is None


# -- 10.17: origins are checked by scheme, host and port -------------------------------------------------


@pytest.mark.parametrize(
    "origin",
    [
        "http://127.0.0.1:9999",          # same host, another port
        "https://127.0.0.1:8000",         # same host and port, another scheme
        "http://127.0.0.1",               # port 80 is another origin
        "http://evil.example",
        "http://127.0.0.1:8000.evil.example",
        "http://127.0.0.1:8000@evil.example",
        "null",                           # sandboxed frames, file:// pages
        "ws://127.0.0.1:8000",
        None,                             # no Origin at all
    ],
)
async def test_sockets_from_another_origin_are_refused(origin):
    owner, room, table = await a_room()
    for path in (f"/ws/tables/{table.pk}/", f"/ws/rooms/{room.pk}/", "/ws/lobby/"):
        communicator = await socket_to(path, owner, origin=origin)
        ok, code = await communicator.connect(timeout=5)
        assert not ok and code == 4403, (path, origin)


@pytest.mark.parametrize(
    ("origin", "host"),
    [
        ("http://127.0.0.1:8000", "127.0.0.1:8000"),   # same origin
        ("http://localhost:8000", "127.0.0.1:8000"),   # listed in CSRF_TRUSTED_ORIGINS
        ("http://localhost:8000", "localhost:8000"),
    ],
)
async def test_sockets_from_the_site_itself_are_accepted(origin, host):
    owner, room, table = await a_room()
    communicator = await opened(await socket_to(f"/ws/tables/{table.pk}/", owner, origin=origin, host=host))
    assert (await communicator.receive_json_from(timeout=5))["type"] == "state"
    await communicator.disconnect()


async def test_trusted_origins_follow_the_settings(settings):
    settings.ALLOWED_HOSTS = ["okey.example"]
    settings.CSRF_TRUSTED_ORIGINS = ["https://okey.example", "https://*.okey.example"]
    cases = {
        ("https://okey.example", "okey.example"): True,
        ("https://www.okey.example", "okey.example"): True,
        ("http://okey.example", "okey.example"): True,     # same origin over plain ws
        ("https://okey.example:8443", "okey.example"): False,
        ("http://www.okey.example", "okey.example"): False,
        ("https://evilokey.example", "okey.example"): False,
        ("http://okey.example", "evil.example"): False,    # Host not an allowed host
    }
    for (origin, host), allowed in cases.items():
        scope = {"type": "websocket", "headers": [(b"origin", origin.encode()), (b"host", host.encode())]}
        assert sockets.origin_allowed(scope) is allowed, (origin, host)


def test_behind_a_tls_proxy_the_same_origin_is_https(settings):
    settings.ALLOWED_HOSTS = ["okey.example"]
    settings.CSRF_TRUSTED_ORIGINS = []
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    def scope(origin, proto):
        return {"type": "websocket", "headers": [(b"origin", origin.encode()), (b"host", b"okey.example"),
                                                 (b"x-forwarded-proto", proto.encode())]}
    assert sockets.origin_allowed(scope("https://okey.example", "https"))
    assert not sockets.origin_allowed(scope("http://okey.example", "https"))
    assert not sockets.origin_allowed(scope("https://okey.example", "http"))


# -- 10.16: bad input gets a clean error, never a crash ---------------------------------------------------


async def test_deeply_nested_and_surrogate_frames_get_an_error_frame_and_the_socket_lives_on():
    owner, room, table = await a_room()
    for path in (f"/ws/tables/{table.pk}/", f"/ws/rooms/{room.pk}/"):
        communicator = await opened(await socket_to(path, owner))
        await frames_until_quiet(communicator)
        for text in ["[" * 1500 + "]" * 1500,
                     '{"type": "chat", "text": ' + "[" * 600 + "]" * 600 + "}",
                     '{"type": "chat", "text": {"a": {"b": {"c": {"d": 1}}}}}',
                     '{"type": "chat", "text": "\\ud800"}',
                     '{"type": "chat", "text": "a\\udfff b"}']:
            await communicator.send_to(text_data=text)
            frame = await next_error(communicator)
            assert frame["code"] == "bad_message", (path, text[:40])
        await communicator.send_json_to({"type": "chat", "text": "Selam 😀"})
        replies = await frames_until_quiet(communicator)
        assert not [f for f in replies if f["type"] == "error"], replies
        await communicator.disconnect()


@pytest.mark.parametrize(
    "path",
    [
        "/ws/nothing/",
        "/ws/",
        "/favicon.ico",
        "/ws/tables/abc/",
        "/ws/tables/999999999999999999999999999/",
        "/ws/tables/9223372036854775808/",
        "/ws/rooms/99999999999999999999/",
        "/ws/salons/99999999999999999999/",
    ],
)
async def test_unknown_socket_paths_are_closed_with_4404(path):
    user = await sync_to_async(make_player)()
    frame, code, reason = await refusal(await socket_to(path, user, language="en"))
    assert (frame["code"], code, reason) == ("not_found", 4404, "not_found")
    assert frame["message"] == "There is no such connection address."


def test_frames_are_decoded_in_one_place_with_bounds():
    assert sockets.decode_frame('{"type": "draw", "move": 3}', max_bytes=100) == {"type": "draw", "move": 3}
    for bad in [None, "x" * 101, "[1]", '{"type": null}', "NaN", '{"type": "a", "x": 1e999}',
                '{"type": "a", "x": [[[[1]]]]}', '"\ud800"']:
        with pytest.raises(sockets.FrameError):
            sockets.decode_frame(bad, max_bytes=100)
    assert json.loads(json.dumps({"type": "a", "x": [[1]]})) == sockets.decode_frame('{"type": "a", "x": [[1]]}', max_bytes=100)


def uvicorn_gone():
    from uvicorn.protocols.utils import ClientDisconnected

    return ClientDisconnected()


def daphne_gone():
    from autobahn.exception import Disconnected

    return Disconnected("Attempt to send on a closed protocol")


@pytest.mark.parametrize("gone", [uvicorn_gone, daphne_gone], ids=["uvicorn", "daphne"])
async def test_a_frame_for_a_client_that_just_left_is_dropped_not_a_crash(gone):
    """Both servers raise when a consumer sends after the browser closed (a group event arriving
    before the disconnect is read): the consumer died with a traceback. Now the frame is dropped."""
    sent = []

    async def app(scope, receive, send):
        await send({"type": "websocket.send", "text": "first"})
        await send({"type": "websocket.send", "text": "second"})
        await send({"type": "websocket.send", "text": "third"})

    async def server_send(message):
        if message["text"] != "first":
            raise gone()
        sent.append(message["text"])

    await sockets.DropSendsAfterClose(app)({"type": "websocket"}, None, server_send)
    assert sent == ["first"]
