"""Tournament sockets: ``/ws/tournaments/<id>/`` (a tournament page: standings changed, and the
player's own pushes) and ``/ws/tournaments/me/`` (the site notice on every page: "your table is
ready"). Server to client only; anything a client sends is ignored."""

from __future__ import annotations

from typing import Any

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils.translation import gettext_lazy

from accounts.services import user_sockets_group
from games import events as game_events
from okeysite import sockets
from tournaments.events import player_group, tournament_group


class TournamentConsumer(sockets.UserSocketEvents, AsyncJsonWebsocketConsumer):
    async def dispatch(self, message: dict[str, Any]) -> None:
        """Without Channels' ``close_old_connections`` hop per message: this socket never touches the
        database (as TableConsumer.dispatch)."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is not None:  # the user's group carries other apps' messages too: not ours to act on
            await handler(message)

    async def connect(self) -> None:
        game_events.remember_server_loop()
        user = self.scope.get("user")
        tournament_id = self.scope["url_route"]["kwargs"].get("tournament_id")
        self.groups_joined: list[str] = []
        signed_in = user is not None and user.is_authenticated
        if tournament_id is None and not signed_in:
            # Accepted first, so the page reads why (a socket closed before accepting is an HTTP 403).
            await self.accept()
            await sockets.refuse(self, sockets.CLOSE_LOGIN, "login_required", gettext_lazy("Bu işlem için giriş yapın."))
            return
        # Groups first: once the page sees the socket open, no push can be missed (what came before
        # it reads from the notice).
        if tournament_id is not None:
            await self._join(tournament_group(tournament_id))
        if signed_in:
            await self._join(player_group(user.pk))
            # Moderation's group of every socket of the user: a site ban closes this one too.
            await self._join(user_sockets_group(user.pk))
        await self.accept()

    async def _join(self, group: str) -> None:
        # Through the live-play gate: a round start sends hundreds of sockets through here at once.
        async with game_events.layer_gate():
            await self.channel_layer.group_add(group, self.channel_name)
        self.groups_joined.append(group)

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "groups_joined", []):
            async with game_events.layer_gate():
                await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        return None

    async def tournament_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "changed", "tournament": event["tournament"]})

    async def tournament_table(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "table", "tournament": event["tournament"], "table": event["table"],
                              "url": event["url"]})
