"""Two web processes (the production server, ``okeysite.web``) on two ports sharing one Redis: a move made through one reaches a player
connected to the other (DESIGN.md, "Scaling out": no sticky routing, fan-out through Redis).

Runs in a plain ``make test`` too (SQLite, no REDIS_URL): the servers get the test database (a
file, so other processes see what this test commits) and a Redis database of their own on
127.0.0.1:6379, with a key prefix unique to the run. Redis is always there on our machines; when it
is not, the test fails and says so rather than skipping.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import quote, urlsplit

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection
from django.test import Client

from games import services
from games.engine.tiles import format_tile

from .conftest import make_table

pytestmark = [pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
REDIS_HOST, REDIS_PORT, REDIS_DB = "127.0.0.1", 6379, 13
START_TIMEOUT = 40.0
FRAME_TIMEOUT = 20.0


def redis_url() -> str:
    """The environment's Redis server when it names one (CI), else the local one; our own db number."""
    parts = urlsplit(os.environ.get("REDIS_URL") or f"redis://{REDIS_HOST}:{REDIS_PORT}/0")
    return f"{parts.scheme}://{parts.netloc}/{REDIS_DB}"


def require_redis(url: str) -> None:
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3).ping()
    except Exception as error:  # noqa: BLE001 - any failure means the same thing here
        pytest.fail(f"Redis is needed at {url} for the two-server test and did not answer ({error!r}). "
                    "Start it (e.g. `redis-server --daemonize yes`) and run the tests again.", pytrace=False)


def servers_database_url() -> str:
    """A DATABASE_URL naming the database this test writes to (the test database, not the site's)."""
    db = connection.settings_dict
    if db["ENGINE"] == "django.db.backends.sqlite3":
        name = str(db["NAME"])
        if name == ":memory:" or "mode=memory" in name:
            pytest.fail("the two-server test needs a file test database (see DATABASES TEST NAME)", pytrace=False)
        return f"sqlite:///{Path(name).resolve()}"
    if db["ENGINE"] == "django.db.backends.postgresql":
        auth = quote(db["USER"] or "", safe="")
        if db.get("PASSWORD"):
            auth += ":" + quote(db["PASSWORD"], safe="")
        host = db["HOST"] or "127.0.0.1"
        port = f":{db['PORT']}" if db.get("PORT") else ""
        return f"postgres://{auth}@{host}{port}/{db['NAME']}"
    pytest.fail(f"no DATABASE_URL for engine {db['ENGINE']}", pytrace=False)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Servers:
    """Web server subprocesses, started as the Procfile starts them (``okeysite.web``); always
    stopped, by the test's own process handles."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = env
        self.procs: list[tuple[int, subprocess.Popen, object]] = []

    def start(self, count: int) -> list[int]:
        for _ in range(count):
            port = free_port()
            log = tempfile.TemporaryFile()
            proc = subprocess.Popen(
                [sys.executable, "-m", "okeysite.web", "--host", "127.0.0.1", "--port", str(port)],
                cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
            )
            self.procs.append((port, proc, log))
        deadline = time.monotonic() + START_TIMEOUT
        for port, proc, _log in self.procs:
            while not self.answers(port):
                if proc.poll() is not None:
                    raise AssertionError(f"the server on port {port} exited ({proc.returncode}):\n{self.output()}")
                if time.monotonic() > deadline:
                    raise AssertionError(f"the server on port {port} did not listen within {START_TIMEOUT} s:\n"
                                         f"{self.output()}")
                time.sleep(0.1)
        return [port for port, _proc, _log in self.procs]

    @staticmethod
    def answers(port: int) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return True
        except OSError:
            return False

    def output(self) -> str:
        texts = []
        for port, _proc, log in self.procs:
            log.seek(0)
            texts.append(f"--- server :{port}\n{log.read().decode(errors='replace')[-4000:]}")
        return "\n".join(texts)

    def stop(self) -> None:
        for _port, proc, _log in self.procs:
            if proc.poll() is None:
                proc.terminate()
        for _port, proc, log in self.procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)
            log.close()


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


async def open_socket(port: int, table_id: int, cookie: str):
    from websockets.asyncio.client import connect

    ws = await connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}/", origin=f"http://127.0.0.1:{port}",
                       additional_headers={"Cookie": cookie}, open_timeout=FRAME_TIMEOUT, ping_interval=None,
                       close_timeout=2)
    first = json.loads(await asyncio.wait_for(ws.recv(), FRAME_TIMEOUT))
    assert first["type"] == "state", first
    return ws, first


async def frame_at(ws, move: int) -> dict:
    """The first state frame at ``move`` or later, within FRAME_TIMEOUT overall."""
    async with asyncio.timeout(FRAME_TIMEOUT):
        while True:
            frame = json.loads(await ws.recv())
            assert frame["type"] != "error", frame
            if frame["type"] == "state" and (frame.get("move") or 0) >= move:
                return frame


def start_table():
    table, users = make_table()
    match = services.start_match(user=table.room.owner, table_id=table.id)
    hand = match.hands.get()
    return table, users, hand


async def test_a_move_made_through_one_server_reaches_a_player_on_the_other():
    url = redis_url()
    require_redis(url)
    table, users, hand = await sync_to_async(start_table)()
    mover, other = users[hand.turn_seat], users[(hand.turn_seat + 1) % 4]
    cookies = [await sync_to_async(session_cookie)(user) for user in (mover, other)]
    prefix = f"okey-test-{uuid.uuid4().hex[:12]}"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "okeysite.settings",
        "DATABASE_URL": await sync_to_async(servers_database_url)(),
        "REDIS_URL": url,
        "CHANNELS_PREFIX": prefix,
        "CACHE_PREFIX": prefix,
        # Turn clocks scheduled by the servers stay in their memory: no worker here, none left in Redis.
        "CELERY_BROKER_URL": "memory://",
        "PYTHONUNBUFFERED": "1",
    }
    servers = Servers(env)
    sockets = []
    try:
        port_a, port_b = await asyncio.to_thread(servers.start, 2)
        mover_ws, mover_state = await open_socket(port_a, table.id, cookies[0])
        sockets.append(mover_ws)
        other_ws, other_state = await open_socket(port_b, table.id, cookies[1])
        sockets.append(other_ws)
        assert mover_state["hand"]["turn"] == mover_state["hand"]["seat"] == hand.turn_seat
        assert other_state["move"] == 0

        # The starting seat holds 15 tiles and discards first, through server A.
        tile = mover_state["hand"]["rack"][-1]
        await mover_ws.send(json.dumps({"type": "discard", "move": 0, "tile": tile}))

        seen = await frame_at(other_ws, 1)
        assert seen["move"] == 1
        assert seen["hand"]["seat"] == (hand.turn_seat + 1) % 4
        assert [(e["type"], e["seat"], e["tile"]) for e in seen["events"]] == [("discard", hand.turn_seat, tile)]
        assert seen["hand"]["discard_tops"][hand.turn_seat] == tile
        # And the rack it sees is its own: the other player's tiles never cross servers to it.
        hand_after = await sync_to_async(lambda: type(hand).objects.get(pk=hand.pk))()
        own = [format_tile(t) for t in hand_after.state["racks"][(hand.turn_seat + 1) % 4]]
        assert seen["hand"]["rack"] == own
        # The mover's own server sent it the same move.
        assert (await frame_at(mover_ws, 1))["move"] == 1
    except BaseException:
        print(servers.output())
        raise
    finally:
        for ws in sockets:
            try:
                await asyncio.wait_for(ws.close(), 5)
            except Exception:  # noqa: BLE001 - closing is best effort; the servers stop anyway
                pass
        await asyncio.to_thread(servers.stop)


async def test_a_frame_overtaken_by_a_later_one_is_not_shown_and_no_event_is_lost():
    """What the socket does when two servers' frames of one table cross: the later frame goes out
    with every event the client has not seen, the earlier one is dropped."""
    from channels.layers import get_channel_layer

    from games.events import frame_body
    from salons.events import table_group

    from .test_consumer import connected

    table, users, hand = await sync_to_async(start_table)()
    socket = await connected(users[0], table.id)
    try:
        first = {"move": 1, "type": "discard", "seat": 0, "tile": "K1"}
        second = {"move": 2, "type": "draw", "seat": 1, "source": "pile"}

        def frame(move: int, events: list[dict]) -> dict:
            return {"type": "state", "hand": {"id": hand.id}, "move": move, "events": events}

        layer = get_channel_layer()
        group = table_group(table.id)

        def frames(move: int, events: list[dict]) -> dict:
            body = frame_body(frame(move, events))
            return {"type": "game.frames", "hand": hand.id, "move": move, "events": events,
                    "frames": {str(users[0].id): body}, "public": body}

        # Move 2's frame repeats move 1's event (events.EVENT_OVERLAP) and arrives first.
        await layer.group_send(group, frames(2, [first, second]))
        await layer.group_send(group, frames(1, [first]))
        await layer.group_send(group, frames(3, [first, second, {"move": 3}]))
        got = [await socket.receive_json_from(timeout=5) for _ in range(2)]
        assert [(f["move"], [e["move"] for e in f["events"]]) for f in got] == [(2, [1, 2]), (3, [3])]
        assert await socket.receive_nothing(timeout=0.3)
    finally:
        await socket.disconnect()
