"""An eşli 101 match between four people over real sockets (RULES.md "101 Okey", "Eşli"): two
web servers (okeysite.web) sharing Redis and the PostgreSQL test database, partners on different servers; each
player draws with a ``draw`` frame, then sends the rest of the turn whole, opening when the rack
allows it. Every hand's scores are then worked out again from the hand's own final state by the
rules (the sheet, the partner's 0, the penalties, the team sums) and compared with what the table
wrote and what every socket was told."""

from __future__ import annotations

import asyncio
import json
import os
import uuid

import pytest
from asgiref.sync import sync_to_async

from games import services
from games.engine.okey101.hand import Hand101
from games.engine.okey101.melds import tile_value
from games.engine.okey101.rules import Rules101
from games.engine.okey101.scoring import hand_sheet, team_totals
from games.engine.tiles import parse_tile
from games.models import Hand, Match, MatchPlayer

from .test_okey101_match import make_101_table
from .test_scale_out import (
    FRAME_TIMEOUT,
    Servers,
    redis_url,
    require_redis,
    servers_database_url,
    session_cookie,
)

pytestmark = [pytest.mark.django_db(transaction=True)]

HANDS = 3


class Player:
    """One person's socket: a reader task keeps the newest state frame and every error."""

    def __init__(self, ws, seat: int):
        self.ws, self.seat = ws, seat
        self.state: dict | None = None
        self.errors: list[dict] = []
        self.penalties_seen: set[tuple[int, int]] = set()
        self.changed = asyncio.Event()
        self.reader = asyncio.create_task(self.read())

    async def read(self) -> None:
        async for text in self.ws:
            frame = json.loads(text)
            if frame["type"] == "state":
                if self.state is None or (frame.get("hand") or {}).get("id") != (self.state.get("hand") or {}).get("id") \
                        or (frame.get("move") or 0) >= (self.state.get("move") or 0):
                    self.state = frame
                for penalty in (frame.get("hand") or {}).get("penalties") or []:
                    self.penalties_seen.add((penalty["seat"], penalty["move"]))
            elif frame["type"] == "error":
                self.errors.append(frame)
            self.changed.set()

    async def send(self, message: dict) -> None:
        await asyncio.sleep(0.05)  # a person's pace, well inside the socket's message budget
        await self.ws.send(json.dumps(message))


def choose_discard(view: dict) -> str:
    """A plain player's discard: the highest-counting tile that is not the okey (a penalty may
    still follow when it is işlek: the table then writes it, and the check below recomputes it)."""
    okey = parse_tile(view["okey"])
    rack = [parse_tile(tile) for tile in view["rack"]]
    plain = [tile for tile in rack if tile != okey] or rack
    from games.engine.tiles import format_tile

    return format_tile(max(plain, key=lambda tile: tile_value(tile, okey)))


def opening_turn(view: dict) -> dict | None:
    """Open with the best runs and groups the search finds, when they reach what is needed and leave
    a tile to discard (else None): as a page sends it, each meld one string of tiles."""
    from games.engine.okey101.search import best_opening_with_discard
    from games.engine.tiles import format_tile

    if view["opened"][view["seat"]] is not None:
        return None
    okey = parse_tile(view["okey"])
    rack = [parse_tile(tile) for tile in view["rack"]]
    opening = best_opening_with_discard(rack, okey, needed=view["opening_needed"]["melds"])
    if opening is None:
        return None
    rest = opening.rest(rack)
    discard = max(rest, key=lambda tile: (tile != okey, tile_value(tile, okey)))
    return {"actions": [{"type": "open", "melds": [" ".join(meld) for meld in opening.melds]}],
            "discard": format_tile(discard)}


async def wait_for(players: list[Player], condition, what: str) -> None:
    async with asyncio.timeout(FRAME_TIMEOUT):
        while not condition():
            for player in players:
                assert not player.errors, (what, player.errors)
            waits = [asyncio.create_task(player.changed.wait()) for player in players]
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            for task in waits:
                task.cancel()
            for player in players:
                player.changed.clear()


def setup_match():
    table, users = make_101_table(hands=HANDS, partners=True)
    match = services.start_match(user=table.room.owner, table_id=table.id)
    return table, users, match


def check_scores(match_id: int) -> tuple[list[int], list[list[int]]]:
    """Every hand's scores worked out again from its final state; the match totals their sum."""
    match = Match.objects.get(pk=match_id)
    rules = Rules101(hands=HANDS, partners=True)
    totals = [0, 0, 0, 0]
    per_hand = []
    for hand in match.hands.order_by("number"):
        state = Hand101.from_dict(hand.state)
        result = state.result
        assert result is not None
        if result.reason == "cancelled":
            continue
        sheet = hand_sheet(state.racks, state.opened, state.okey, rules, finisher=result.finisher,
                           okey_finish=result.okey_finish, elden=result.elden, penalties=state.penalties)
        assert [row["score"] for row in sheet] == list(result.scores)
        assert [dict(row) for row in result.sheet] == sheet
        if result.finisher is not None:
            partner = (result.finisher + 2) % 4
            own_penalties = sum(p["points"] for p in state.penalties if p["seat"] == partner)
            assert result.scores[partner] == own_penalties, "the partner of the finisher writes 0 (+ own penalties)"
            assert result.scores[result.finisher] == -101 * sheet[result.finisher]["multiplier"] + sum(
                p["points"] for p in state.penalties if p["seat"] == result.finisher)
        for penalty in state.penalties:
            assert penalty["points"] == 101 and penalty["reason"] in ("okey_discard", "islek")
        totals = [a + b for a, b in zip(totals, result.scores, strict=True)]
        per_hand.append(list(result.scores))
    assert match.state["scores"] == totals
    assert dict(MatchPlayer.objects.filter(match=match).values_list("seat", "score")) == dict(enumerate(totals))
    return totals, per_hand


async def test_a_four_person_eşli_101_match_over_two_servers_scores_by_the_rules():
    url = redis_url()
    require_redis(url)
    table, users, match = await sync_to_async(setup_match)()
    cookies = [await sync_to_async(session_cookie)(user) for user in users]
    prefix = f"okey-test-{uuid.uuid4().hex[:12]}"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "okeysite.settings",
           "DATABASE_URL": await sync_to_async(servers_database_url)(), "REDIS_URL": url,
           "CHANNELS_PREFIX": prefix, "CACHE_PREFIX": prefix, "CELERY_BROKER_URL": "memory://",
           "PYTHONUNBUFFERED": "1"}
    servers = Servers(env)
    players: list[Player] = []
    from websockets.asyncio.client import connect

    try:
        ports = await asyncio.to_thread(servers.start, 2)
        for seat, cookie in enumerate(cookies):
            port = ports[seat % 2]  # partners (0+2, 1+3) on the same server, opponents on the other
            ws = await connect(f"ws://127.0.0.1:{port}/ws/tables/{table.id}/", origin=f"http://127.0.0.1:{port}",
                               additional_headers={"Cookie": cookie}, open_timeout=FRAME_TIMEOUT,
                               ping_interval=None, close_timeout=2)
            players.append(Player(ws, seat))
        await wait_for(players, lambda: all(p.state for p in players), "first frames")
        assert all(p.state["hand"]["seat"] == p.seat for p in players)
        assert players[0].state["match"]["standing"]["teams"] == [[0, 2], [1, 3]]
        openings = draws = 0
        for _ in range(HANDS * 400):
            frame = players[0].state
            if frame["match"].get("over"):
                break
            hand = frame["hand"]
            if hand["result"] is not None:
                hand_id = hand["id"]
                # The next hand is dealt by the pause's task (no worker runs here): dealt by hand, and
                # each page asks for a fresh state, as a page does after the pause.
                await sync_to_async(services.start_next_hand)(match_id=match.id)
                for player in players:
                    await player.send({"type": "state"})
                await wait_for(players, lambda: all(p.state["hand"]["id"] != hand_id for p in players)  # noqa: B023 - awaited in this iteration
                               or players[0].state["match"].get("over"), "the next hand")
                continue
            mover = players[hand["turn"]]
            move = frame["move"]
            await wait_for(players, lambda: mover.state["move"] >= move, "the mover's frame")  # noqa: B023 - awaited in this iteration
            view = mover.state["hand"]
            if "draw" in view["actions"]:
                await mover.send({"type": "draw", "move": mover.state["move"], "source": "pile"})
                draws += 1
                await wait_for(players, lambda: all(p.state["move"] > move for p in players), "the draw")  # noqa: B023 - awaited in this iteration
                view = mover.state["hand"]
                assert view["drawn"] and view["drawn_tile"] == view["rack"][-1]
                assert all(p.state["hand"]["drawn_tile"] is None for p in players if p is not mover)
                move = mover.state["move"]
            turn = opening_turn(view)
            if turn is not None:
                openings += 1
            else:
                turn = {"actions": [], "discard": choose_discard(view)}
            await mover.send({"type": "turn", "move": move, **turn})
            await wait_for(players, lambda: all(p.state["move"] > move or p.state["hand"]["id"] != hand["id"]  # noqa: B023 - awaited in this iteration
                                                for p in players), "the turn")
        final = players[0].state
        assert final["match"]["over"], "the match did not end"
        assert draws > 0 and openings > 0, (draws, openings)
        totals, per_hand = await sync_to_async(check_scores)(match.id)
        assert len(per_hand) >= HANDS
        # Every socket, on either server, was told the same totals and the same team standing.
        await wait_for(players, lambda: all(p.state["match"].get("over") for p in players), "the end")
        for player in players:
            assert player.state["match"]["scores"] == totals
            assert player.state["match"]["standing_scores"] == team_totals(totals, Rules101(partners=True))
        # Both partners of the team with the lower sum won (nobody was absent).
        team_scores = [totals[0] + totals[2], totals[1] + totals[3]]
        winners = set(final["match"]["winners"])
        if team_scores[0] != team_scores[1]:
            best = 0 if team_scores[0] < team_scores[1] else 1
            assert winners == {best, best + 2}
        # Every penalty the table wrote was told to every socket as it happened.
        written = await sync_to_async(lambda: {(p["seat"], p["move"]) for h in Hand.objects.filter(match_id=match.id)
                                               for p in h.state["penalties"]})()
        assert all(written_penalty in player.penalties_seen for player in players for written_penalty in written
                   if written_penalty)
    except BaseException:
        print(servers.output())
        raise
    finally:
        for player in players:
            player.reader.cancel()
            try:
                await asyncio.wait_for(player.ws.close(), 5)
            except Exception:  # noqa: BLE001 - closing is best effort; the servers stop anyway
                pass
        await asyncio.to_thread(servers.stop)
