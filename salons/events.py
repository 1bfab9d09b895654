"""Channel-layer groups and the events sent to them — always after the transaction commits.

Groups: ``lobby`` (salon counts), ``salon-<id>`` (its room list changed), ``room-<id>`` (room page:
seats, chat, presence, owner actions) and ``table-<id>`` (the live table page of the games app).
Every payload is built by ``salons.selectors``/``accounts.selectors``, so a user appears in a frame
only as ``{"id", "nickname"}``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext_lazy

logger = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


PASSWORD_ATTACK_NOTICE = gettext_lazy(
    "«%(room)s» odanıza kısa sürede çok fazla yanlış şifre denendi; şifreyle giriş bir süre kapalı, "
    "davet bağlantısı çalışıyor. Şifreyi değiştirmenizi öneririz."
)


def password_attack_frame(language: str, event: dict[str, Any]) -> dict[str, Any]:
    """What every socket of a room's owner sends when the room's password limit is reached
    (``room.password_attack`` to the owner's ``user-<id>`` group: lobby, salon, room, table and
    tournament sockets alike), in the socket's language."""
    with translation.override(language):
        message = str(PASSWORD_ATTACK_NOTICE) % {"room": event.get("room_name", "")}
    return {"type": "room.password_attack", "room": event.get("room"), "message": message}


def salon_group(salon_id: int) -> str:
    return f"salon-{salon_id}"


def room_group(room_id: int) -> str:
    return f"room-{room_id}"


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def send_now(group: str, message: dict[str, Any]) -> None:
    """Send one event; a broken channel layer is logged, never turned into a failed request."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # pragma: no cover - depends on the layer being down
        logger.exception("could not publish %s to %s", message.get("type"), group)


def publish(group: str, event_type: str, **payload: Any) -> None:
    """Queue an event for after commit (sent at once when no transaction is open)."""
    message = {"type": event_type, **payload}
    transaction.on_commit(lambda: send_now(group, message))


def after_commit(build: Callable[[], None]) -> None:
    """Run ``build`` after commit: for events whose payload must be read from committed data."""

    def run() -> None:
        try:
            build()
        except Exception:  # pragma: no cover
            logger.exception("could not build an event")

    transaction.on_commit(run)
