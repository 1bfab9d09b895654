"""Pushes of the tournaments, sent after commit.

``tournament-<id>``: every open page of that tournament (standings changed: they re-read them).
``tournament-user-<uid>``: every open page of one player (the site notice script on every page
joins it): "your table is ready" takes them there.
"""

from __future__ import annotations

import time

from channels.layers import InMemoryChannelLayer, get_channel_layer

# The live-play publisher: it hands sends from worker threads to the server's loop and keeps one
# loop per Celery process, which tournament pushes need just the same.
from games import events as game_events


def _send_many(messages: list[tuple[str, dict]], *, key) -> None:
    loop = game_events._server_loop
    if isinstance(get_channel_layer(), InMemoryChannelLayer) and (loop is None or not loop.is_running()):
        # In-memory layer: only sockets served by this process's loop could listen, and none is.
        return
    game_events._send_many(messages, key=key)


def tournament_group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def player_group(user_id: int) -> str:
    return f"tournament-user-{user_id}"


def tournament_changed(tournament_id: int) -> None:
    _send_many([(tournament_group(tournament_id), {"type": "tournament.changed", "tournament": tournament_id,
                                                   "at": time.time()})], key=("tournament", tournament_id))


def tables_ready(tournament_id: int, seated: dict[int, int]) -> None:
    """``seated``: {user id: table id}. Each player's pages navigate to their table."""
    messages = [(player_group(user_id), {"type": "tournament.table", "tournament": tournament_id,
                                         "table": table_id, "url": f"/tables/{table_id}/"})
                for user_id, table_id in seated.items()]
    messages.append((tournament_group(tournament_id), {"type": "tournament.changed", "tournament": tournament_id,
                                                       "at": time.time()}))
    _send_many(messages, key=("tournament", tournament_id))
