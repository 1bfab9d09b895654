"""WebSockets of the lobby, salon pages and room pages. Thin: authenticate, validate, call a service.

Client → server on ``/ws/rooms/<id>/`` (JSON objects):
    {"type": "ping"}                                 keep-alive; refreshes presence (every 30 s)
    {"type": "sit", "table": <id>, "position": <n>}  take a seat
    {"type": "leave", "table": <id>}                 stand up
    {"type": "chat", "text": "..."}                  room chat
Server → client: "state" (first frame), "seat.changed", "table.added", "table.status",
"chat.message", "presence.changed", "room.updated", "room.closed", "removed" (also when the
password or invite link changed), "room.password_attack" (owner only), "error"
({"code", "message"} in the user's language), "pong". Refusals at connect: an ``error`` frame, then
a close with 4401 (log in), 4403 (no access), 4404 (no such room); see docs/protocol.md. Origin, caps
and the message budget: ``okeysite/sockets.py``, before these consumers.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.selectors import public_user
from accounts.services import user_sockets_group
from okeysite import sockets
from okeysite.sockets import language_of  # noqa: F401  (kept importable from here)

from . import events, selectors, services
from .models import Room, Table
from .services import ServiceError

MAX_FRAME = 4096
CLOSE_FORBIDDEN = sockets.CLOSE_FORBIDDEN
CLOSE_LOGIN = sockets.CLOSE_LOGIN
CLOSE_NOT_FOUND = sockets.CLOSE_NOT_FOUND
CLOSE_GONE = sockets.CLOSE_GONE


class BaseConsumer(sockets.UserSocketEvents, AsyncJsonWebsocketConsumer):
    """Shared plumbing: language, JSON decoding that answers bad input instead of crashing."""

    groups_joined: list[str]

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        self.language = language_of(self.scope)
        self.groups_joined = []
        # Moderation reaches every socket of a user through ``user-<id>`` (a site ban closes them):
        # joined before the socket opens, so a ban in between is not missed.
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            await self.join(user_sockets_group(user.pk))
        await super().websocket_connect(message)

    def in_language(self, func):
        """``func`` on a database thread, with this socket's language active (its words are theirs)."""
        return database_sync_to_async(sockets.in_language(self.language, func))

    async def join(self, group: str) -> None:
        await self.channel_layer.group_add(group, self.channel_name)
        self.groups_joined.append(group)

    async def disconnect(self, code: int) -> None:
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)

    def translated(self, text: Any) -> str:
        with translation.override(self.language):
            return str(text)

    async def send_error(self, code: str, message: Any) -> None:
        await self.send_json({"type": "error", "code": code, "message": self.translated(message)})

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # Every frame has already spent the user's message budget (okeysite/sockets.py), bad ones too.
        try:
            content = sockets.decode_frame(text_data, max_bytes=MAX_FRAME)
        except sockets.FrameError as error:
            await self.send_error(error.code, error.message)
            return
        await self.receive_json(content)

    async def receive_json(self, content: dict[str, Any], **kwargs: Any) -> None:
        if content["type"] == "ping":
            await self.send_json({"type": "pong"})
            return
        await self.send_error("unknown_type", gettext_lazy("Bilinmeyen mesaj türü."))


class LobbyConsumer(BaseConsumer):
    """``/ws/lobby/``: live people and room counts per salon."""

    async def connect(self) -> None:
        await self.accept()
        await self.join(events.LOBBY_GROUP)
        counts = await database_sync_to_async(selectors.lobby_counts)()
        await self.send_json({"type": "lobby.counts", "salons": counts})

    async def lobby_counts(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "lobby.counts", "salons": event["salons"]})


class SalonConsumer(BaseConsumer):
    """``/ws/salons/<id>/``: "the room list changed" (the page fetches the filtered list again)."""

    async def connect(self) -> None:
        salon_id = int(self.scope["url_route"]["kwargs"]["salon_id"])
        await self.accept()
        await self.join(events.salon_group(salon_id))
        await self.join(events.LOBBY_GROUP)

    async def salon_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "salon.changed", "salon": event["salon"]})

    async def lobby_counts(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "lobby.counts", "salons": event["salons"]})


class RoomConsumer(BaseConsumer):
    """``/ws/rooms/<id>/``: seats, chat and presence of one room."""

    async def connect(self) -> None:
        self.user = self.scope.get("user")
        self.room_id = int(self.scope["url_route"]["kwargs"]["room_id"])
        self.present = False
        await self.accept()
        if self.user is None or not self.user.is_authenticated:
            await self.send_json({"type": "error", "code": "login_required", "close": CLOSE_LOGIN,
                                  "message": self.translated(gettext_lazy("Bu işlem için giriş yapın."))})
            await self.close(code=CLOSE_LOGIN, reason="login_required")
            return
        error = await self._enter()
        if error is not None:
            close = {"no_room": CLOSE_NOT_FOUND, "login_required": CLOSE_LOGIN}.get(error["code"], CLOSE_FORBIDDEN)
            await self.send_json({"type": "error", **error, "close": close})
            await self.close(code=close, reason=error["code"])
            return
        await self.join(events.room_group(self.room_id))
        state = await self._state()
        if state is None:  # the room closed between entering and reading it
            await self.send_json({"type": "error", "code": "no_room", "close": CLOSE_NOT_FOUND,
                                  "message": self.translated(gettext_lazy("Böyle bir oda yok."))})
            await self.close(code=CLOSE_NOT_FOUND, reason="no_room")
            return
        await self.send_json({"type": "state", **state})

    @database_sync_to_async
    def _enter(self) -> dict[str, Any] | None:
        with translation.override(self.language):
            room = Room.objects.filter(pk=self.room_id).first()
            if room is None:
                return {"code": "no_room", "message": _("Böyle bir oda yok.")}
            error = selectors.room_access_error(room=room, user=self.user)
            if error is not None:
                return error.to_dict()
            services.join_presence(user=self.user, room=room, channel_name=self.channel_name)
            self.present = True
            return None

    @database_sync_to_async
    def _state(self) -> dict[str, Any] | None:
        with translation.override(self.language):
            room = Room.objects.filter(pk=self.room_id).first()
            if room is None:
                return None
            state = selectors.room_state(room=room)
            state["chat"] = [selectors.chat_payload(m) for m in selectors.recent_chat(room=room)]
            state["me"] = public_user(self.user)
            return state

    async def disconnect(self, code: int) -> None:
        await super().disconnect(code)
        if getattr(self, "present", False):
            self.present = False
            await database_sync_to_async(services.leave_presence)(channel_name=self.channel_name)

    async def receive_json(self, content: dict[str, Any], **kwargs: Any) -> None:
        kind = content["type"]
        if kind == "ping":
            await database_sync_to_async(services.touch_presence)(channel_name=self.channel_name)
            await self.send_json({"type": "pong"})
        elif kind == "sit":
            await self._run(self._sit, content)
        elif kind == "leave":
            await self._run(self._leave, content)
        elif kind == "chat":
            await self._run(self._chat, content)
        else:
            await self.send_error("unknown_type", gettext_lazy("Bilinmeyen mesaj türü."))

    async def _run(self, action: Any, content: dict[str, Any]) -> None:
        error = await database_sync_to_async(self._call)(action, content)
        if error is not None:
            await self.send_json({"type": "error", **error})

    def _call(self, action: Any, content: dict[str, Any]) -> dict[str, Any] | None:
        with translation.override(self.language):
            try:
                action(content)
            except ServiceError as error:
                return error.to_dict()
            return None

    def _table(self, content: dict[str, Any]) -> Table:
        table_id = content.get("table")
        if isinstance(table_id, bool) or not isinstance(table_id, int):
            raise ServiceError("bad_table", _("Böyle bir masa yok."))
        table = Table.objects.filter(pk=table_id, room_id=self.room_id).first()
        if table is None:
            raise ServiceError("bad_table", _("Böyle bir masa yok."))
        return table

    def _sit(self, content: dict[str, Any]) -> None:
        position = content.get("position")
        if isinstance(position, bool) or not isinstance(position, int):
            raise ServiceError("bad_seat", _("Böyle bir koltuk yok."))
        services.take_seat(user=self.user, table=self._table(content), position=position)

    def _leave(self, content: dict[str, Any]) -> None:
        services.leave_seat(user=self.user, table=self._table(content))

    def _chat(self, content: dict[str, Any]) -> None:
        room = Room.objects.filter(pk=self.room_id).first()
        if room is None:  # closed while this socket was open
            raise ServiceError("no_room", _("Böyle bir oda yok."))
        message = services.post_chat_message(user=self.user, room=room, text=content.get("text"))
        if not message.visible:  # held by the chat filter: tell the sender why nobody sees it yet
            raise ServiceError("chat_held", _("Mesajınız salon sorumlusunun onayını bekliyor; onaylanınca herkes görecek."))

    # --- group events -------------------------------------------------------------------------

    async def forward(self, event: dict[str, Any]) -> None:
        await self.send_json(event)

    seat_changed = forward
    table_added = forward
    table_status = forward
    presence_changed = forward
    room_updated = forward

    async def chat_message(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "chat.message", **event["message"]})

    async def room_closed(self, event: dict[str, Any]) -> None:
        await self.send_json(
            {
                "type": "room.closed",
                "message": self.translated(gettext_lazy("Oda sahibi odayı kapattı.")),
                "salon_url": event.get("salon_url", "/"),
            }
        )
        self.present = False  # the service already removed every presence row
        await self.close(code=CLOSE_GONE, reason="room_closed")

    async def access_revoked(self, event: dict[str, Any]) -> None:
        """The password, privacy or invite link changed: those who came in by the old one leave."""
        if self.user.pk not in event.get("users", ()):
            return
        text = gettext_lazy("Odanın şifresi ya da davet bağlantısı değişti; yeniden girmeniz gerekiyor.")
        await self.send_json({"type": "removed", "message": self.translated(text)})
        await self.close(code=CLOSE_FORBIDDEN)

    async def user_removed(self, event: dict[str, Any]) -> None:
        if event.get("user") != self.user.pk:
            return
        # Who removed them, why and until when: the words the room would refuse them with now.
        text = await self.in_language(selectors.access_notice)(room_id=self.room_id, user=self.user)
        if text is None:
            text = self.translated(
                gettext_lazy("Salon sorumlusu sizi buradan uzaklaştırdı.")
                if event.get("by_staff")
                else gettext_lazy("Oda sahibi sizi bu odadan çıkardı.")
            )
        await self.send_json({"type": "removed", "message": text})
        await self.close(code=CLOSE_FORBIDDEN, reason="removed")
