"""The table socket, over the real ASGI stack: session cookie, origin check, per-seat frames."""

from __future__ import annotations

import asyncio
import json
import random

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from games import services
from games.engine import hand as engine_hand
from games.engine.tiles import format_tile
from games.models import Hand, MatchPlayer
from okeysite.asgi import application

from .conftest import make_table, make_user

pytestmark = [pytest.mark.django_db(transaction=True)]

ORIGIN = "http://127.0.0.1:8000"


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


async def open_socket(user, table_id: int, *, origin: str = ORIGIN) -> WebsocketCommunicator:
    headers = [(b"origin", origin.encode()), (b"host", b"127.0.0.1:8000")]
    if user is not None:
        cookie = await sync_to_async(session_cookie)(user)
        headers.append((b"cookie", cookie.encode()))
    return WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)


async def connected(user, table_id: int) -> WebsocketCommunicator:
    communicator = await open_socket(user, table_id)
    ok, _ = await communicator.connect()
    assert ok
    frame = await communicator.receive_json_from(timeout=20)
    assert frame["type"] == "state"
    return communicator


def hand_state(frame: dict) -> bool:
    return frame["type"] == "state" and bool(frame.get("hand"))


async def drain(communicator: WebsocketCommunicator, until=None, timeout: float = 20.0) -> list[dict]:
    """Every frame the socket has been sent: first until one satisfies ``until`` (so a slow server
    is waited for, up to ``timeout``), then until the socket has been quiet for a moment."""
    frames: list[dict] = []
    if until is not None:
        deadline = asyncio.get_running_loop().time() + timeout
        while not any(until(frame) for frame in frames):
            left = deadline - asyncio.get_running_loop().time()
            assert left > 0, f"no expected frame within {timeout} s; got {frames}"
            frames.append(await communicator.receive_json_from(timeout=left))
    while not await communicator.receive_nothing(timeout=0.3):
        frames.append(await communicator.receive_json_from())
    return frames


async def refused_with(communicator: WebsocketCommunicator) -> tuple[dict, int, str]:
    """A socket the server accepted only to say no: (its error frame, close code, close reason)."""
    ok, _ = await communicator.connect()
    assert ok, "accepted first, so the client sees the close code (not an HTTP 403)"
    error = await communicator.receive_json_from(timeout=20)
    close = await communicator.receive_output(timeout=5)
    assert close["type"] == "websocket.close"
    return error, close["code"], close.get("reason", "")


async def test_anonymous_visitors_and_foreign_origins_are_refused():
    table, users = await sync_to_async(make_table)()
    error, code, reason = await refused_with(await open_socket(None, table.id))
    assert (error["type"], error["code"], code, reason) == ("error", "login_required", 4401, "login_required")
    communicator = await open_socket(users[0], table.id, origin="http://evil.example")
    ok, _ = await communicator.connect()
    assert not ok
    await communicator.disconnect()


async def test_a_missing_table_closes_the_socket():
    user = await sync_to_async(make_user)()
    error, code, reason = await refused_with(await open_socket(user, 999999))
    assert (error["code"], code, reason) == ("no_table", 4404, "no_table")
    assert error["message"] == "Böyle bir masa yok."


async def test_players_get_only_their_own_rack_and_watchers_none():
    table, users = await sync_to_async(make_table)()
    watcher = await sync_to_async(make_user)()
    sockets = [await connected(user, table.id) for user in users]
    watch = await connected(watcher, table.id)
    for socket in sockets:
        await socket.send_json_to({"type": "ready"})
    frames = {index: await drain(socket, until=hand_state) for index, socket in enumerate(sockets)}
    watch_frames = await drain(watch, until=hand_state)
    hand = await sync_to_async(lambda: Hand.objects.get(match__table=table))()
    state = engine_hand.HandState.from_dict(hand.state)
    for seat in range(4):
        last = [f for f in frames[seat] if f["type"] == "state" and f.get("hand")][-1]
        assert last["hand"]["seat"] == seat
        assert sorted(last["hand"]["rack"]) == sorted(format_tile(t) for t in state.racks[seat])
    public = [f for f in watch_frames if f["type"] == "state" and f.get("hand")][-1]
    assert public["hand"]["rack"] is None and public["hand"]["seat"] is None
    for socket in [*sockets, watch]:
        await socket.disconnect()


async def test_a_move_is_one_message_to_the_table_and_each_socket_passes_on_only_its_own_frame(monkeypatch):
    from channels.layers import get_channel_layer

    from games.consumers import TableConsumer

    sent: list[tuple[str, str]] = []  # (group, type) of every message published to the layer
    layer = get_channel_layer()
    original_group_send = layer.group_send

    async def recording_group_send(group, message):
        sent.append((group, message["type"]))
        await original_group_send(group, message)

    monkeypatch.setattr(layer, "group_send", recording_group_send)
    passed_on: list[tuple[int, int | None]] = []  # (user id, seat of the frame) each socket sent
    original_send = TableConsumer.send

    async def recording_send(self, text_data=None, bytes_data=None, close=False):
        content = json.loads(text_data) if text_data else {}
        if content.get("type") == "state" and content.get("hand") and content.get("move"):
            passed_on.append((self.user.id, content["hand"]["seat"]))
        await original_send(self, text_data, bytes_data, close)

    monkeypatch.setattr(TableConsumer, "send", recording_send)
    table, users = await sync_to_async(make_table)()
    watcher = await sync_to_async(make_user)()
    sockets = [await connected(user, table.id) for user in users]
    watch = await connected(watcher, table.id)
    # A player who stands up before the match becomes a watcher; sitting again, a player.
    await sockets[0].send_json_to({"type": "leave"})
    await drain(sockets[0])
    await sockets[0].send_json_to({"type": "sit", "position": 0})
    for socket in sockets:
        await socket.send_json_to({"type": "ready"})
    for socket in [*sockets, watch]:
        frames = await drain(socket, until=hand_state)
        assert any(hand_state(f) for f in frames)
    hand = await sync_to_async(lambda: Hand.objects.get(match__table=table))()
    state = engine_hand.HandState.from_dict(hand.state)
    seat_of = dict(await sync_to_async(lambda: list(MatchPlayer.objects.filter(match_id=hand.match_id)
                                                    .values_list("user_id", "seat")))())
    sent.clear()
    passed_on.clear()
    await sockets[state.turn].send_json_to(
        {"type": "discard", "move": 0, "tile": format_tile(state.racks[state.turn][0])})
    for socket in [*sockets, watch]:
        frame = await socket.receive_json_from(timeout=20)
        assert frame["move"] == 1
    # One move, one message: to the table's group, not one per seat.
    assert sent == [(f"table-{table.id}", "game.frames")]
    # Each player's socket passed on the frame of its own seat, the watcher's the public one.
    assert sorted(passed_on, key=str) == sorted([(user.id, seat_of[user.id]) for user in users] + [(watcher.id, None)],
                                                key=str)
    for socket in [*sockets, watch]:
        await socket.disconnect()


async def test_a_move_reaches_every_screen_and_a_stale_one_gets_the_fresh_state():
    table, users = await sync_to_async(make_table)()
    match = await sync_to_async(services.start_match)(user=table.room.owner, table_id=table.id)
    hand = await sync_to_async(lambda: match.hands.get())()
    state = engine_hand.HandState.from_dict(hand.state)
    sockets = [await connected(user, table.id) for user in users]
    starter = sockets[state.turn]
    tile = format_tile(state.racks[state.turn][0])
    await starter.send_json_to({"type": "discard", "move": 0, "tile": tile})
    for socket in sockets:
        frame = await socket.receive_json_from(timeout=20)
        assert frame["type"] == "state" and frame["move"] == 1
        assert frame["hand"]["discard_tops"][state.turn] == tile
        assert [event["type"] for event in frame["events"]] == ["discard"]
    await starter.send_json_to({"type": "discard", "move": 0, "tile": tile})
    error = await starter.receive_json_from(timeout=20)
    assert error["type"] == "error" and error["code"] == "stale"
    fresh = await starter.receive_json_from(timeout=20)
    assert fresh["type"] == "state" and fresh["move"] == 1
    for socket in sockets:
        await socket.disconnect()


FUZZ = [
    "not json",
    "[]",
    "42",
    json.dumps({"type": 7}),
    json.dumps({"type": "discard"}),
    json.dumps({"type": "discard", "move": 0}),
    json.dumps({"type": "discard", "move": 0, "tile": ["K1"]}),
    json.dumps({"type": "discard", "move": "0", "tile": "K1"}),
    json.dumps({"type": "discard", "move": True, "tile": "K1"}),
    json.dumps({"type": "draw", "move": 0, "source": "deck"}),
    json.dumps({"type": "finish", "move": 0, "tile": "J"}),
    json.dumps({"type": "lay_first_okey", "move": 0}),
    json.dumps({"type": "take_indicator", "move": 0}),
    json.dumps({"type": "arrange", "by": "colour"}),
    json.dumps({"type": "__init__"}),
    json.dumps({"type": "discard", "move": 0, "tile": "K1" * 2000}),
    json.dumps({"type": "discard", "move": 10**30, "tile": "K1"}),
]


async def test_malformed_and_hostile_messages_get_an_error_and_change_nothing():
    table, users = await sync_to_async(make_table)()
    match = await sync_to_async(services.start_match)(user=table.room.owner, table_id=table.id)
    hand = await sync_to_async(lambda: match.hands.get())()
    before = hand.state
    state = engine_hand.HandState.from_dict(before)
    # A player who is not on turn, sending the turn player's moves, and the turn player sending junk.
    other = users[(state.turn + 1) % 4]
    rng = random.Random(7)
    for user in (users[state.turn], other):
        socket = await connected(user, table.id)
        for text in FUZZ + ["".join(chr(rng.randrange(32, 0x2FFF)) for _ in range(40))]:
            await socket.send_to(text_data=text)
            reply = await socket.receive_json_from(timeout=20)
            assert reply["type"] == "error", text
            assert reply["code"] and reply["message"]
            await drain(socket)
        await socket.disconnect()
    await sync_to_async(hand.refresh_from_db)()
    assert hand.state == before and hand.move == 0


async def test_a_flood_of_messages_is_rate_limited():
    table, users = await sync_to_async(make_table)()
    socket = await connected(users[0], table.id)
    codes = []
    for _ in range(30):
        await socket.send_json_to({"type": "state"})
    for frame in await drain(socket, until=lambda f: f.get("code") == "rate_limited"):
        if frame["type"] == "error":
            codes.append(frame["code"])
    assert "rate_limited" in codes
    await socket.disconnect()


async def test_a_watcher_arriving_mid_hand_gets_the_moves_so_far_for_the_feed():
    """lichess shows every move of a game you open; so does the table's move feed. The moves are
    the public events: a draw from the pile never names the tile."""
    table, users = await sync_to_async(make_table)()

    @sync_to_async
    def deal_and_play_two_turns():
        for user in users:
            services.mark_ready(user=user, table_id=table.id)
        for _ in range(2):
            hand = Hand.objects.get(match__table=table)
            state = engine_hand.HandState.from_dict(hand.state)
            player = users[state.turn]
            if state.phase == "draw":
                services.play(user=player, table_id=table.id, action="draw", move=hand.move, args={"source": "pile"})
                hand.refresh_from_db()
                state = engine_hand.HandState.from_dict(hand.state)
            services.play(user=player, table_id=table.id, action="discard", move=hand.move,
                          args={"tile": format_tile(state.racks[state.turn][0])})
        return Hand.objects.get(match__table=table)

    hand = await deal_and_play_two_turns()
    watcher = await sync_to_async(make_user)()
    watch = await open_socket(watcher, table.id)
    assert (await watch.connect())[0]
    state = await watch.receive_json_from(timeout=20)
    assert state["type"] == "state" and state["hand"]["id"] == hand.pk
    feed = state["feed"]
    assert [event["move"] for event in feed] == list(range(1, hand.move + 1))
    assert [event["type"] for event in feed][:1] == ["discard"] and "discard" in [e["type"] for e in feed[1:]]
    assert all("tile" not in event for event in feed if event["type"] == "draw" and event["source"] == "pile")
    assert state["events"] == []
    await watch.disconnect()
