"""The table socket, ``/ws/tables/<id>/``: thin on purpose.

It authenticates (session), parses and bounds every message, calls one service and answers in the
user's language. Origin, socket caps and the message budget are enforced before it for every socket
(``okeysite/sockets.py``). Every frame it sends was built on the server for this user's seat (or the
public view).
"""

from __future__ import annotations

import time
from typing import Any

import orjson
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.services import user_sockets_group
from games import events, selectors, services
from okeysite import sockets
from salons.events import table_group

MAX_FRAME_BYTES = 2048


def in_db_thread(func):
    """Run ``func`` on a worker thread of the loop's pool rather than Channels' one shared database
    thread: sockets of different tables then wait on the database side by side (each thread keeps
    its own connection, persistent with ``CONN_MAX_AGE``). Services lock the rows they change, so
    racing calls stay correct; one socket's calls still run one at a time."""
    return database_sync_to_async(func, thread_sensitive=False)

# A refresh published this long before the socket last read the state is skipped (see game_refresh).
REFRESH_CLOCK_MARGIN = 0.05


class TableConsumer(sockets.UserSocketEvents, AsyncJsonWebsocketConsumer):
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
        self.language = sockets.language_of(self.scope)
        self.user = self.scope.get("user")
        self.table_id = self.scope["url_route"]["kwargs"]["table_id"]
        self.groups_joined: list[str] = []
        self.seated = False
        # (hand id, move) of the last frame sent to this client: older frames are not sent.
        self.delivered: tuple[int, int] | None = None
        self.shown_pre_game = False
        self.state_read_at = 0.0  # time.time() when the last state sent was read
        # Accepted at once: daphne drops a socket it has not accepted within 5 s, and a tournament
        # round opens hundreds in the same second, whose first reads then take turns (opening_gate).
        await self.accept()
        if self.user is None or not self.user.is_authenticated:
            await sockets.refuse(self, sockets.CLOSE_LOGIN, "login_required", gettext_lazy("Bu masa için giriş yapın."))
            return
        async with events.opening_gate():
            refusal, table = await in_db_thread(self.in_language(table_for_socket))(self.user, self.table_id)
        if refusal is not None:
            await sockets.refuse(self, *refusal)
            return
        # Every group before the first read of the state, so nothing published meanwhile is missed.
        # The table's group carries its moves (one message for all seats, game_frames), its chat and
        # seats; the user's group, what is said to all their sockets (a ban, a kick).
        for group in (table_group(self.table_id), user_sockets_group(self.user.id)):
            await self.join(group)
        async with events.opening_gate():
            await self.send_state(table=table)

    async def join(self, group: str) -> None:
        if group not in self.groups_joined:
            async with events.layer_gate():
                await self.channel_layer.group_add(group, self.channel_name)
            self.groups_joined.append(group)

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "groups_joined", []):
            async with events.layer_gate():
                await self.channel_layer.group_discard(group, self.channel_name)

    # -- from the client -------------------------------------------------------------------------

    def in_language(self, func):
        """``func`` run in this user's language: the errors it raises are worded for them."""
        return sockets.in_language(self.language, func)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any) -> None:
        # Every frame has already spent the user's message budget (okeysite/sockets.py), bad ones too.
        try:
            content = sockets.decode_frame(text_data, max_bytes=MAX_FRAME_BYTES)
        except sockets.FrameError as error:
            await self.send_error(error.code, error.message)
            return
        await self.receive_json(content)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        kind = content["type"]
        lang = self.in_language
        try:
            if kind in services.PLAYER_ACTIONS:
                await in_db_thread(lang(services.play))(
                    user=self.user, table_id=self.table_id, action=kind, move=content.get("move"),
                    args={key: value for key, value in content.items() if key not in ("type", "move")},
                )
            elif kind == "ready":
                # Pre-game actions stay on Channels' one shared thread: they wait on the table's row lock,
                # and on the pool a burst of them (every table starting at once) held all its threads
                # and moves queued behind them for seconds (BENCHMARKS.md, load).
                await database_sync_to_async(lang(services.mark_ready))(user=self.user, table_id=self.table_id)
            elif kind == "start":
                await database_sync_to_async(lang(services.start_match))(
                    user=self.user, table_id=self.table_id, with_bots=content.get("bots") is True)
            elif kind == "sit":
                await database_sync_to_async(lang(take_table_seat))(self.user, self.table_id, content.get("position"))
            elif kind == "leave":
                await database_sync_to_async(lang(leave_table_seat))(self.user, self.table_id)
            elif kind == "chat":
                await database_sync_to_async(lang(post_table_chat))(self.user, self.table_id, content.get("text"))
            elif kind == "state":
                await self.send_state()
            elif kind == "arrange":
                order = await database_sync_to_async(selectors.arrangement_for)(
                    user=self.user, table_id=self.table_id, by=content.get("by")
                )
                await self.send_json({"type": "arrangement", "order": order})
            elif kind in TABLE_PAGE_MESSAGES:
                await self.table_page_message(kind, content)
            else:
                await self.send_error("bad_action", gettext_lazy("Bilinmeyen mesaj türü."))
        except services.GameError as error:
            await self.send_json({"type": "error", **error.to_dict()})
            if error.code in ("stale", "hand_over"):
                await self.send_state()
        except SalonRefused as error:
            await self.send_error(error.code, str(error))

    async def table_page_message(self, kind: str, content: dict[str, Any]) -> None:
        """Leaving and coming back during a match, a rematch, player cards and the chat's history."""
        if kind == "leave_match":
            await database_sync_to_async(self.in_language(services.leave_running_match))(user=self.user, table_id=self.table_id)
        elif kind == "return_to_match":
            await database_sync_to_async(self.in_language(services.return_to_match))(user=self.user, table_id=self.table_id)
        elif kind == "i_am_back":
            await database_sync_to_async(self.in_language(services.i_am_back))(user=self.user, table_id=self.table_id)
        elif kind == "rematch":
            await database_sync_to_async(self.in_language(services.accept_rematch))(user=self.user, table_id=self.table_id)
        elif kind == "player_card":
            card = await in_db_thread(selectors.player_card)(nickname=content.get("nickname"))
            if card is None:
                await self.send_error("no_player", gettext_lazy("Böyle bir oyuncu yok."))
            else:
                await self.send_json({"type": "player_card", "card": card})
        elif kind == "watchers":
            count = await in_db_thread(services.note_table_watcher)(
                table_id=self.table_id, channel_name=self.channel_name, watching=not self.seated)
            online = None
            if self.seated:
                online = await in_db_thread(services.note_table_player_online)(
                    table_id=self.table_id, nickname=self.user.username)
            await self.send_json({"type": "watchers", "count": count, "online": online})
        elif kind == "chat_history":
            lines = await in_db_thread(selectors.table_chat_history)(user=self.user, table_id=self.table_id)
            await self.send_json({"type": "chat_history", "messages": lines})

    async def send_error(self, code: str, message: Any, *, close: int | None = None) -> None:
        await self.send(text_data=sockets.error_frame(self.scope, code, message, close=close))

    async def send_state(self, *, table=None) -> None:
        # A client that was shown the table before its hand began has seen none of the hand's events.
        after = self.delivered if self.delivered is not None else ((None, 0) if self.shown_pre_game else None)
        self.state_read_at = time.time()
        frame, seated = await in_db_thread(self.in_language(state_frame_for))(self.user, self.table_id, after=after,
                                                                            table=table)
        self.shown_pre_game = self.shown_pre_game or not frame.get("hand")
        if frame.get("hand"):
            self.delivered = (frame["hand"]["id"], frame["move"])
        await self.send_json(frame)
        self.seated = seated

    # -- from the channel layer ----------------------------------------------------------------------

    async def game_frames(self, message: dict[str, Any]) -> None:
        """A move of the table (``events.publish_hand``): this user's own frame when they play in
        the match, else the public one, with the events its client has not seen. The message is
        shared by every socket of the table on this server (decoded once), so it is never changed."""
        unseen = self.unseen(message["hand"], message["move"], message["events"])
        if unseen is None:
            return
        body = message["frames"].get(str(self.user.id))
        await self.send(text_data=events.frame_text(body if body is not None else message["public"], unseen))

    def unseen(self, hand_id: int, move: int, hand_events: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
        """The events of a frame of (``hand_id``, ``move``) to pass on, or None when the client
        already has this move or a later one.

        Two servers may publish consecutive moves of one table, and the later frame can arrive
        first. It carries the events of a few moves before its own (``events.EVENT_OVERLAP``), so the
        client gets each event it has not seen, once and in order, and never goes back to an older
        state when the overtaken frame turns up.
        """
        current = (hand_id, move)
        last = self.delivered
        if last is not None:
            if current <= last:
                return None
            if current[0] == last[0]:
                hand_events = [event for event in hand_events if event.get("move", 0) > last[1]]
        self.delivered = current
        return hand_events

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

    async def user_kicked(self, message: dict[str, Any]) -> None:
        """Moderation or the room owner removed this user (or their private access ended): say who,
        why and until when, as the table would refuse them now, and close their socket."""
        if message.get("user_id") != self.user.id:
            return
        refusal = await in_db_thread(self.in_language(table_refusal))(self.user, self.table_id)
        if refusal is None:
            refusal = (sockets.CLOSE_FORBIDDEN, "removed", gettext_lazy("Bu odadan çıkarıldınız."))
        close, code, text = refusal
        await self.send_error(code, text, close=close)
        await self.close(code=close, reason=code)


# Messages of the table page beyond the game's own actions (TableConsumer.table_page_message).
TABLE_PAGE_MESSAGES = ("leave_match", "return_to_match", "i_am_back", "rematch", "player_card", "chat_history", "watchers")


class SalonRefused(Exception):
    """A salon service said no (chat, seats): its code and translated message go to the client."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


def table_access(user, table_id: int, *, table=None) -> int | None:
    """None when the user may open this table's socket, else the close code (``table``: the table
    with its room, when the caller has it already)."""
    refusal = table_refusal(user, table_id, table=table)
    return None if refusal is None else refusal[0]


def table_for_socket(user, table_id: int):
    """(refusal or None, the table with its room or None): the access check and the table, read once."""
    table = selectors.table_with_room(table_id)
    return refusal_at(user, table), table


def table_refusal(user, table_id: int, *, table=None) -> tuple[int, str, Any] | None:
    """None when the user may open this table's socket, else (close code, error code, message)."""
    return refusal_at(user, table if table is not None else selectors.table_with_room(table_id))


def refusal_at(user, table) -> tuple[int, str, Any] | None:
    """``table_refusal`` for a table already read (None: there is no such table)."""
    from salons import selectors as salon_selectors

    if table is None:
        return sockets.CLOSE_NOT_FOUND, "no_table", _("Böyle bir masa yok.")
    error = salon_selectors.room_access_error(room=table.room, user=user)
    if error is not None:
        code = sockets.CLOSE_LOGIN if error.code == "login_required" else sockets.CLOSE_FORBIDDEN
        return code, error.code, str(error)
    return None


def state_frame_for(user, table_id: int, *, after: tuple[int | None, int] | None = None,
                    table=None) -> tuple[dict[str, Any], bool]:
    """The full state for this user; ``after`` = (hand id, move) the client already has (hand id
    None: it saw the table before any hand): the frame then carries the events since, as frames
    still on their way will be dropped as older. ``table``: the table with its room, when the
    caller has just read it (a socket opening: every query saved counts when a round opens 256)."""
    rows = seat_rows(table_id)
    info = pre_game_info(table if table is not None else existing_table(table_id), user, rows=rows)
    # Seated (the second value): a player of the running match or sitting at the table (the
    # watcher count and "online" of the table page's "watchers" message).
    sits = any(row["user_id"] == user.id for row in rows)
    match = selectors.current_match(table_id)
    if match is None:
        return {"type": "state", "match": None, "hand": None, "players": [], "events": [], "table": info}, sits
    players, seat_users = selectors.players_and_seats(match)
    seat = next((number for number, user_id in seat_users.items() if user_id == user.id), None)
    hand = selectors.latest_hand(match)
    since = (after[1] if after is not None and hand is not None and after[0] in (hand.id, None) else None)
    frame = selectors.table_frame(match=match, hand=hand, seat=seat, since=since, players=players, with_feed=True)
    frame["table"] = info
    return frame, (seat is not None and match.status == match.Status.RUNNING) or sits


def seat_rows(table_id: int) -> list[dict[str, Any]]:
    """Who sits where: position, user id, nickname and bot flag (no other field of the user)."""
    from salons import seating

    return seating.seat_rows(table_id)


def pre_game_info(table, user, *, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Seats (``seat_rows``) and ready marks, public: nicknames only."""
    from games.models import ReadyMark

    ready = set(ReadyMark.objects.filter(table_id=table.id).values_list("user_id", flat=True))
    seats = [
        {"position": row["position"], "nickname": row["user__username"] if row["user_id"] else None,
         "bot": bool(row["user_id"] and row["user__is_bot"]), "ready": row["user_id"] in ready}
        for row in rows
    ]
    return {"id": table.id, "status": table.status, "room": table.room_id, "is_owner": table.room.owner_id == user.id,
            "seats": seats, "bots_in": bots_in(table, rows)}


def bots_in(table, rows: list[dict[str, Any]]) -> float | None:
    """Seconds until bots take the empty seats of a waiting table whose room fills them
    (``tasks.fill_waiting_tables``: that long after the first person sat), or None."""
    wait = table.room.bot_fill_seconds
    people = [row["taken_at"] for row in rows if row["user_id"] and not row["user__is_bot"] and row["taken_at"]]
    if not wait or table.status != table.Status.WAITING or not people or all(row["user_id"] for row in rows):
        return None
    return max(0.0, (min(people) - timezone.now()).total_seconds() + wait)


def existing_table(table_id: int):
    """The socket's table, or a refusal if its room was closed while the socket was open."""
    table = selectors.table_with_room(table_id)
    if table is None:
        raise SalonRefused("no_table", _("Böyle bir masa yok."))
    return table


def salon_service(call, **kwargs: Any) -> Any:
    """Run a salon service for this socket; its refusal becomes the client's error frame."""
    from salons import services as salon_services

    try:
        return call(**kwargs)
    except salon_services.ServiceError as error:
        raise SalonRefused(error.code, str(error)) from None


def post_table_chat(user, table_id: int, text: Any) -> None:
    from salons import services as salon_services

    if not isinstance(text, str):
        raise SalonRefused("bad_message", _("Mesaj metni eksik."))
    table = existing_table(table_id)
    message = salon_service(salon_services.post_chat_message, user=user, room=table.room, table=table, text=text)
    if not message.visible:  # held by the chat filter until a moderator approves it
        raise SalonRefused("chat_held", _("Mesajınız salon sorumlusunun onayını bekliyor; onaylanınca herkes görecek."))


def take_table_seat(user, table_id: int, position: Any) -> None:
    from salons import services as salon_services

    if not isinstance(position, int) or isinstance(position, bool):
        raise SalonRefused("bad_argument", _("Geçersiz sandalye."))
    salon_service(salon_services.take_seat, user=user, table=existing_table(table_id), position=position)


def leave_table_seat(user, table_id: int) -> None:
    from salons import services as salon_services

    salon_service(salon_services.leave_seat, user=user, table=existing_table(table_id))
