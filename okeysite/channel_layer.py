"""The Redis channel layer, with one message a move decoded once per server instead of once per socket.

channels_redis's pub/sub layer receives a group's message once per server and queues the same bytes
for each of that server's sockets in the group; each socket then decodes them itself. A table's
move is one message for all its sockets (``games.events.publish_hand``: every seat's frame and the
watchers'), so decoding it per socket would repeat the largest decode of a move four times or more.
Here the sockets of one server share the decoded message; their handlers only read it.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from channels_redis.pubsub import RedisPubSubChannelLayer

# Message types whose decoded form the sockets share (handlers that never change the message).
SHARED_TYPES = frozenset({"game.frames"})
# Recent messages remembered, by the identity of their bytes (kept alive here, so an identity is
# never reused while remembered). A move's sockets read it within moments of each other.
REMEMBERED = 256


class SharedDecodePubSubChannelLayer(RedisPubSubChannelLayer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._decoded: OrderedDict[int, tuple[bytes, dict]] = OrderedDict()

    def deserialize(self, message: bytes) -> dict:
        known = self._decoded.get(id(message))
        if known is not None and known[0] is message:
            return known[1]
        decoded = super().deserialize(message)
        if decoded.get("type") in SHARED_TYPES:
            self._decoded[id(message)] = (message, decoded)
            if len(self._decoded) > REMEMBERED:
                self._decoded.popitem(last=False)
        return decoded
