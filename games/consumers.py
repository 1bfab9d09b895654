"""The table socket, ``/ws/tables/<id>/``: thin on purpose.

It authenticates (session), parses and bounds every message, rate-limits, calls one service and
answers. Every frame it sends was built on the server for this user's seat (or the public view).
"""

from __future__ import annotations

import json
import time
from typing import Any

import orjson
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils.translation import gettext as _

from games import events, selectors, services
from salons.events import table_group

MAX_FRAME_BYTES = 2048


def in_db_thread(func):
    """Run ``func`` on a worker thread of the loop's pool rather than Channels' one shared database
    thread: sockets of different tables then wait on the database side by side (each thread keeps
    its own connection, persistent with ``CONN_MAX_AGE``). Services lock the rows they change, so
    racing calls stay correct; one socket's calls still run one at a time."""
    return database_sync_to_async(func, thread_sensitive=False)

# Token bucket per connection: a burst of 12 messages, refilled at 4 a second.
RATE_BURST = 12
RATE_PER_SECOND = 4.0
# A refresh published this long before the socket last read the state is skipped (see game_refresh).
REFRESH_CLOCK_MARGIN = 0.05


class TableConsumer(AsyncJsonWebsocketConsumer):
    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch without its ``close_old_connections`` before every message.

        That call hops to Channels' one shared sync thread for each frame a socket receives (four
        or five per move in every server process), queueing behind whatever that thread is doing.
        Every database call of this consumer runs through ``database_sync_to_async``, which closes
        old connections in its own thread before and after, so the hop bought nothing here.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    @classmethod
    async def encode_json(cls, content: Any) -> str:
        # Four or five frames of ~2 KB a move per server: orjson encodes them several times faster.
        return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS).decode()

    async def connect(self) -> None:
        events.remember_server_loop()
        self.user = self.scope.get("user")
        self.table_id = self.scope["url_route"]["kwargs"]["table_id"]
        self.groups_joined: list[str] = []
        self.seated = False
        # (hand id, move) of the last frame sent to this client: older frames are not sent.
        self.delivered: tuple[int, int] | None = None
        self.shown_pre_game = False
        self.state_read_at = 0.0  # time.time() when the last state sent was read
        self.tokens = float(RATE_BURST)
        self.refilled = time.monotonic()
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=4401)
            return
        access = await in_db_thread(table_access)(self.user, self.table_id)
        if access is not None:
            await self.close(code=access)
            return
        # Every group before the first read of the state, so nothing published meanwhile is missed;
        # a seated player then leaves the watchers' group (send_state).
        for group in (events.watch_group(self.table_id), events.user_group(self.table_id, self.user.id),
                      table_group(self.table_id), f"user-{self.user.id}"):
            await self.join(group)
        await self.accept()
        await self.send_state()

    async def join(self, group: str) -> None:
        if group not in self.groups_joined:
            async with events.layer_gate():
                await self.channel_layer.group_add(group, self.channel_name)
            self.groups_joined.append(group)

    async def leave(self, group: str) -> None:
        if group in self.groups_joined:
            self.groups_joined.remove(group)
            async with events.layer_gate():
                await self.channel_layer.group_discard(group, self.channel_name)

    async def sit_out(self, seated: bool) -> None:
        """A seated player gets their own frames (their user group) and never the watchers': out of
        that group, the server does not deliver and drop four public frames a move."""
        self.seated = seated
        watch = events.watch_group(self.table_id)
        await (self.leave(watch) if seated else self.join(watch))

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "groups_joined", []):
            async with events.layer_gate():
                await self.channel_layer.group_discard(group, self.channel_name)

    # -- from the client -------------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any) -> None:
        if text_data is None or len(text_data.encode()) > MAX_FRAME_BYTES:
            await self.send_error("bad_message", _("Mesaj çok büyük ya da metin değil."))
            return
        try:
            content = json.loads(text_data)
        except ValueError:
            await self.send_error("bad_message", _("Mesaj JSON değil."))
            return
        await self.receive_json(content)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict) or not isinstance(content.get("type"), str):
            await self.send_error("bad_message", _("Mesajın bir türü olmalı."))
            return
        if not self.take_token():
            await self.send_error("rate_limited", _("Çok hızlı; biraz yavaşlayın."))
            return
        kind = content["type"]
        try:
            if kind in services.PLAYER_ACTIONS:
                await in_db_thread(services.play)(
                    user=self.user, table_id=self.table_id, action=kind, move=content.get("move"),
                    args={key: value for key, value in content.items() if key not in ("type", "move")},
                )
            elif kind == "ready":
                # Pre-game actions stay on Channels' one shared thread: they wait on the table's row lock,
                # and on the pool a burst of them (every table starting at once) held all its threads
                # and moves queued behind them for seconds (BENCHMARKS.md, load).
                await database_sync_to_async(services.mark_ready)(user=self.user, table_id=self.table_id)
            elif kind == "start":
                await database_sync_to_async(services.start_match)(user=self.user, table_id=self.table_id)
            elif kind == "sit":
                await database_sync_to_async(take_table_seat)(self.user, self.table_id, content.get("position"))
            elif kind == "leave":
                await database_sync_to_async(leave_table_seat)(self.user, self.table_id)
            elif kind == "chat":
                await database_sync_to_async(post_table_chat)(self.user, self.table_id, content.get("text"))
            elif kind == "state":
                await self.send_state()
            elif kind == "arrange":
                order = await database_sync_to_async(selectors.arrangement_for)(
                    user=self.user, table_id=self.table_id, by=content.get("by")
                )
                await self.send_json({"type": "arrangement", "order": order})
            else:
                await self.send_error("bad_action", _("Bilinmeyen mesaj türü."))
        except services.GameError as error:
            await self.send_json({"type": "error", **error.to_dict()})
            if error.code in ("stale", "hand_over"):
                await self.send_state()
        except SalonRefused as error:
            await self.send_error(error.code, str(error))

    def take_token(self) -> bool:
        now = time.monotonic()
        self.tokens = min(RATE_BURST, self.tokens + (now - self.refilled) * RATE_PER_SECOND)
        self.refilled = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    async def send_error(self, code: str, message: str) -> None:
        await self.send_json({"type": "error", "code": code, "message": message})

    async def send_state(self) -> None:
        # A client that was shown the table before its hand began has seen none of the hand's events.
        after = self.delivered if self.delivered is not None else ((None, 0) if self.shown_pre_game else None)
        # In the watchers' group before reading, in case this socket no longer sits: what is published
        # between the read and a late join would be missed.
        await self.join(events.watch_group(self.table_id))
        self.state_read_at = time.time()
        frame, seated = await in_db_thread(state_frame_for)(self.user, self.table_id, after=after)
        self.shown_pre_game = self.shown_pre_game or not frame.get("hand")
        if frame.get("hand"):
            self.delivered = (frame["hand"]["id"], frame["move"])
        await self.send_json(frame)
        await self.sit_out(seated)

    # -- from the channel layer ----------------------------------------------------------------------

    async def game_frame(self, message: dict[str, Any]) -> None:
        if message.get("public"):
            if self.seated:
                return  # sent before this socket left the watchers' group
        elif not self.seated:
            await self.sit_out(True)
        frame = self.fresh(message["frame"])
        if frame is not None:
            await self.send_json(frame)

    def fresh(self, frame: dict[str, Any]) -> dict[str, Any] | None:
        """The frame to pass on, or None when the client already has this move or a later one.

        Two servers may publish consecutive moves of one table, and the later frame can arrive
        first. It carries the events of a few moves before its own (``events.EVENT_OVERLAP``), so the
        client gets each event it has not seen, once and in order, and never goes back to an older
        state when the overtaken frame turns up.
        """
        hand = frame.get("hand")
        if not hand:
            return frame
        current = (hand["id"], frame.get("move", 0))
        last = self.delivered
        if last is not None:
            if current <= last:
                return None
            if current[0] == last[0]:
                frame = {**frame, "events": [event for event in frame.get("events") or []
                                             if event.get("move", 0) > last[1]]}
        self.delivered = current
        return frame

    async def game_refresh(self, message: dict[str, Any]) -> None:
        # Already read after this refresh was published (a margin for clocks of other servers).
        published = message.get("at")
        if isinstance(published, int | float) and published < self.state_read_at - REFRESH_CLOCK_MARGIN:
            return
        await self.send_state()

    async def seat_changed(self, message: dict[str, Any]) -> None:
        await self.send_json({"type": "seats", **{k: v for k, v in message.items() if k != "type"}})
        await self.send_state()

    async def chat_message(self, message: dict[str, Any]) -> None:
        await self.send_json({"type": "chat", "message": message.get("message")})

    async def user_banned(self, message: dict[str, Any]) -> None:
        """Sent to group ``user-<id>`` when staff ban this user from the site: close at once."""
        await self.send_json({"type": "error", "code": "banned", "message": message.get("message", "")})
        await self.close(code=4403)

    async def user_kicked(self, message: dict[str, Any]) -> None:
        """Moderation or the room owner removed this user: close their socket."""
        if message.get("user_id") == self.user.id:
            await self.close(code=4403)


class SalonRefused(Exception):
    """A salon service said no (chat, seats): its code and translated message go to the client."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


def table_access(user, table_id: int, *, table=None) -> int | None:
    """None when the user may open this table's socket, else the close code (``table``: the table
    with its room, when the caller has it already)."""
    from salons.models import Table

    if table is None:
        table = Table.objects.select_related("room").filter(pk=table_id).first()
    if table is None:
        return 4404
    from salons import selectors as salon_selectors

    if salon_selectors.room_access_error(room=table.room, user=user) is not None:
        return 4403
    return None


def state_frame_for(user, table_id: int, *, after: tuple[int | None, int] | None = None) -> tuple[dict[str, Any], bool]:
    """The full state for this user; ``after`` = (hand id, move) the client already has (hand id
    None: it saw the table before any hand): the frame then carries the events since, as frames
    still on their way will be dropped as older."""
    from salons.models import Seat

    # Seated (the second value): this socket gets its own frames, so it ignores the watchers' ones.
    # A player sitting at the table counts before the match starts too: the first frames of a match
    # (private and public, sent at once) may reach the socket in either order.
    sits = Seat.objects.filter(table_id=table_id, user_id=user.id).exists()
    match = selectors.current_match(table_id)
    if match is None:
        return {"type": "state", "match": None, "hand": None, "players": [], "events": [],
                "table": pre_game_info(table_id, user)}, sits
    seat = selectors.seat_of(match, user)
    hand = selectors.latest_hand(match)
    since = (after[1] if after is not None and hand is not None and after[0] in (hand.id, None) else None)
    frame = selectors.table_frame(match=match, hand=hand, seat=seat, since=since)
    frame["table"] = pre_game_info(table_id, user)
    return frame, (seat is not None and match.status == match.Status.RUNNING) or sits


def pre_game_info(table_id: int, user) -> dict[str, Any]:
    """Seats and ready marks, public: nicknames only."""
    from games.models import ReadyMark
    from salons.models import Seat, Table

    table = Table.objects.select_related("room").get(pk=table_id)
    ready = set(ReadyMark.objects.filter(table_id=table_id).values_list("user_id", flat=True))
    seats = [
        {"position": seat.position, "nickname": seat.user.username if seat.user_id else None,
         "bot": bool(seat.user_id and seat.user.is_bot), "ready": seat.user_id in ready}
        for seat in Seat.objects.filter(table_id=table_id).select_related("user").order_by("position")
    ]
    return {"id": table.id, "status": table.status, "room": table.room_id, "is_owner": table.room.owner_id == user.id,
            "seats": seats}


def salon_service(call, **kwargs: Any) -> Any:
    """Run a salon service for this socket; its refusal becomes the client's error frame."""
    from salons import services as salon_services

    try:
        return call(**kwargs)
    except salon_services.ServiceError as error:
        raise SalonRefused(error.code, str(error)) from None


def post_table_chat(user, table_id: int, text: Any) -> None:
    from salons import services as salon_services
    from salons.models import Table

    if not isinstance(text, str):
        raise SalonRefused("bad_message", _("Mesaj metni eksik."))
    table = Table.objects.select_related("room").get(pk=table_id)
    message = salon_service(salon_services.post_chat_message, user=user, room=table.room, table=table, text=text)
    if not message.visible:  # held by the chat filter until a moderator approves it
        raise SalonRefused("chat_held", _("Mesajınız salon sorumlusunun onayını bekliyor; onaylanınca herkes görecek."))


def take_table_seat(user, table_id: int, position: Any) -> None:
    from salons import services as salon_services
    from salons.models import Table

    if not isinstance(position, int) or isinstance(position, bool):
        raise SalonRefused("bad_argument", _("Geçersiz sandalye."))
    salon_service(salon_services.take_seat, user=user, table=Table.objects.get(pk=table_id), position=position)


def leave_table_seat(user, table_id: int) -> None:
    from salons import services as salon_services
    from salons.models import Table

    salon_service(salon_services.leave_seat, user=user, table=Table.objects.get(pk=table_id))
