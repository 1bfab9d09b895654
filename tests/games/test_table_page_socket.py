"""The table socket's messages for the page itself: a player card, the chat's history, the watcher
count and who is online, and leaving a running match (everyone's state says so at once)."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from games import services

from .conftest import make_table, make_user
from .test_consumer import connected

pytestmark = [pytest.mark.django_db(transaction=True)]


async def answer(socket, kind: str) -> dict:
    for _ in range(20):
        frame = await socket.receive_json_from(timeout=5)
        if frame["type"] == kind:
            return frame
    raise AssertionError(f"no {kind} frame")


async def test_cards_history_watchers_and_leaving_over_the_socket():
    from salons import services as salon_services

    table, users = await sync_to_async(make_table)()
    match = await sync_to_async(services.start_match)(user=table.room.owner, table_id=table.id)
    await sync_to_async(salon_services.post_chat_message)(user=users[1], room=table.room, table=table, text="Bol şans")
    player = await connected(users[0], table.id)
    watcher = await connected(await sync_to_async(make_user)("Seyirci"), table.id)

    await player.send_json_to({"type": "player_card", "nickname": users[1].username})
    card = (await answer(player, "player_card"))["card"]
    assert card["nickname"] == users[1].username and card["bot"] is False and "email" not in card
    await player.send_json_to({"type": "player_card", "nickname": "kimse-yok"})
    assert (await answer(player, "error"))["code"] == "no_player"

    await watcher.send_json_to({"type": "chat_history"})
    lines = (await answer(watcher, "chat_history"))["messages"]
    assert [line["text"] for line in lines] == ["Bol şans"]

    await watcher.send_json_to({"type": "watchers"})
    assert (await answer(watcher, "watchers")) == {"type": "watchers", "count": 1, "online": None}
    await player.send_json_to({"type": "watchers"})
    assert (await answer(player, "watchers"))["online"] == [users[0].username]

    await player.send_json_to({"type": "leave_match"})
    for socket in (player, watcher):
        for _ in range(20):
            frame = await answer(socket, "state")
            if any(p["left"] for p in frame["players"]):
                break
        else:
            raise AssertionError("no state frame marks the player who left")
        assert [p["left"] for p in frame["players"]] == [True, False, False, False]
    await player.send_json_to({"type": "leave_match"})
    assert (await answer(player, "error"))["code"] == "already_left"
    await player.send_json_to({"type": "return_to_match"})
    frame = await answer(player, "state")
    assert frame["match"]["id"] == match.id
    for socket in (player, watcher):
        await socket.disconnect()
