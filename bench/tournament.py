"""Tournament bench: N registered players with scripted clients over real WebSockets.

    bench/serve.sh scaled        # or: bench/serve.sh embedded  (then --url http://127.0.0.1:8100)
    python bench/tournament.py --url http://127.0.0.1:8101,http://127.0.0.1:8102 --players 256

``manage.py bench_tournament`` (settings ``okeysite.settings_bench``, the servers' DATABASE_URL)
creates a knockout starting ``--start-in`` seconds ahead and registers the players. Every player
signs in through the allauth form and opens ``/ws/tournaments/me/`` — what the site's notice script
opens on every page. Nothing else tells a client where to go: at the start time the server's beat
starts the tournament and seats round 1, each client gets its "table" push, opens that table's
socket and plays it (draw from the pile, discard the last tile, ``--think`` seconds per action).

Printed: the time from the round's start (the tournament's start in the database) to every
player's table being live (their socket has the dealt hand), p50 and max; the move latency during
the round (a player sends an action → each other player at the table receives the frame with that
move), p50/p95/p99/max; errors, lost and duplicated moves. Goal (issue 14): all tables live within
5 s, p99 under 100 ms on the 2-core machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from load import manage, percentile, sign_in  # noqa: E402  (the load bench's set-up and allauth sign-in)


class Run:
    def __init__(self, think: float, seed: int):
        self.think = think
        self.rng = random.Random(seed)
        self.live_at: dict[str, float] = {}        # player -> wall time their table socket had the hand
        self.pushed_at: dict[str, float] = {}      # player -> wall time of the "table" push
        self.sent_at: dict[tuple[int, int, int], float] = {}  # (table, hand, move) -> monotonic send time
        self.latencies: list[float] = []
        self.errors: Counter = Counter()
        self.seen: dict[tuple[str, int], set[int]] = {}
        self.duplicated = 0
        self.moves = 0


class Client:
    def __init__(self, run: Run, name: str, url: str, cookie: str):
        self.run, self.name, self.url, self.cookie = run, name, url, cookie
        self.table_id: int | None = None
        self.seat: int | None = None
        self.hand_id: int | None = None
        self.move = -1
        self.acted = -1

    async def open(self, path: str):
        from websockets.asyncio.client import connect

        netloc = urlsplit(self.url).netloc
        return await connect(f"ws://{netloc}{path}", origin=f"http://{netloc}",
                             additional_headers={"Cookie": self.cookie}, ping_interval=None, max_size=2**20,
                             open_timeout=60, close_timeout=2)

    async def wait_for_table(self, me) -> None:
        async for raw in me:
            frame = json.loads(raw)
            if frame.get("type") == "table":
                self.run.pushed_at[self.name] = time.time()
                self.table_id = frame["table"]
                return

    async def play(self, until: float) -> None:
        delay = 1.0
        for attempt in range(5):
            try:
                ws = await self.open(f"/ws/tables/{self.table_id}/")
                break
            except Exception as error:  # counted; retried with back-off, as the site's socket script does
                self.run.errors[f"open:{type(error).__name__}"] += 1
                if attempt == 4:
                    return
                await asyncio.sleep(delay * self.run.rng.uniform(0.5, 1.5))
                delay *= 2
        try:
            while time.monotonic() < until:
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, until - time.monotonic()))
                except TimeoutError:
                    break
                self.on_frame(json.loads(raw), ws)
        except Exception as error:
            self.run.errors[f"socket:{type(error).__name__}"] += 1
        finally:
            await ws.close()

    def on_frame(self, frame: dict[str, Any], ws) -> None:
        now = time.monotonic()
        if frame.get("type") == "error":
            self.run.errors[frame.get("code", "?")] += 1
            return
        if frame.get("type") != "state" or not frame.get("hand"):
            return
        hand = frame["hand"]
        if hand["seat"] is None:
            return
        self.run.live_at.setdefault(self.name, time.time())
        self.seat, self.hand_id, self.move = hand["seat"], hand["id"], frame["move"]
        seen = self.run.seen.setdefault((self.name, hand["id"]), set())
        for event in frame.get("events") or []:
            number = event.get("move", 0)
            if number in seen:
                self.run.duplicated += 1
                continue
            seen.add(number)
            sent = self.run.sent_at.get((self.table_id, hand["id"], number))
            if sent is not None and event.get("seat") != self.seat:
                self.run.latencies.append((now - sent) * 1000)
        if hand["phase"] != "over" and hand["turn"] == self.seat and self.move != self.acted:
            self.acted = self.move
            if hand["phase"] == "draw":
                message = {"type": "draw", "move": self.move, "source": "pile"}
            else:
                message = {"type": "discard", "move": self.move, "tile": hand["rack"][-1]}
            asyncio.get_running_loop().create_task(self.act(ws, hand["id"], self.move, message))

    async def act(self, ws, hand_id: int, move: int, message: dict[str, Any]) -> None:
        await asyncio.sleep(self.run.think * self.run.rng.uniform(0.5, 1.5))
        if self.hand_id != hand_id or self.move != move:
            return
        self.run.sent_at[(self.table_id, hand_id, move + 1)] = time.monotonic()
        self.run.moves += 1
        try:
            await ws.send(json.dumps(message))
        except Exception as error:
            self.run.errors[f"send:{type(error).__name__}"] += 1


async def main_async(args, plan: dict[str, Any], urls: list[str]) -> dict[str, Any]:
    run = Run(args.think, args.seed)
    loop = asyncio.get_running_loop()
    pool = ThreadPoolExecutor(max_workers=16)
    names = plan["players"]
    started = time.monotonic()
    cookies = await asyncio.gather(*(loop.run_in_executor(pool, sign_in, urls[i % len(urls)], name, plan["password"])
                                     for i, name in enumerate(names)))
    login_s = time.monotonic() - started
    clients = [Client(run, name, urls[i % len(urls)], cookie) for i, (name, cookie) in
               enumerate(zip(names, cookies, strict=True))]
    gate = asyncio.Semaphore(50)

    async def open_me(client: Client):
        async with gate:
            return await client.open("/ws/tournaments/me/")

    sockets = await asyncio.gather(*(open_me(c) for c in clients))
    wait = plan["starts_at"] - time.time()
    print(f"signed in {len(clients)} in {login_s:.1f} s; the tournament starts in {wait:.0f} s", flush=True)
    until = time.monotonic() + max(0.0, wait) + args.duration

    async def one(client: Client, me) -> None:
        try:
            await asyncio.wait_for(client.wait_for_table(me), timeout=max(5.0, wait + 60))
        except TimeoutError:
            run.errors["no table push"] += 1
            return
        finally:
            await me.close()
        await client.play(until)

    await asyncio.gather(*(one(c, s) for c, s in zip(clients, sockets, strict=True)))
    return {"run": run, "login_s": login_s}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8100")
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--start-in", type=float, default=60.0, help="seconds from set-up to the start")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of round 1 measured")
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--turn-seconds", type=int, default=20)
    parser.add_argument("--settings", default="okeysite.settings_bench")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    urls = [u.rstrip("/") for u in args.url.split(",") if u.strip()]
    if any(urlsplit(u).hostname not in ("127.0.0.1", "localhost", "::1") for u in urls):
        parser.error("only loopback servers may be targeted")
    plan = manage("bench_tournament", "--players", str(args.players), "--start-in", str(args.start_in),
                  "--turn-seconds", str(args.turn_seconds), settings=args.settings)
    try:
        result = asyncio.run(main_async(args, plan, urls))
        database = manage("bench_tournament", "--report", str(plan["tournament"]), settings=args.settings)
    finally:
        manage("bench_tournament", "--teardown", str(plan["tournament"]), settings=args.settings)
    run: Run = result["run"]
    start = database["started_at"]
    live = sorted(t - start for t in run.live_at.values()) if start else []
    pushed = sorted(t - start for t in run.pushed_at.values()) if start else []
    lat = {q: round(percentile(run.latencies, q), 1) for q in (50, 95, 99, 100)}
    print(f"servers         {', '.join(urls)}")
    print(f"players/tables  {len(plan['players'])} / {database['tables']} (round 1); sign-in {result['login_s']:.1f} s")
    if start:
        print(f"seating         tables written {database['first_table_at'] - start:.2f}–"
              f"{database['last_table_at'] - start:.2f} s after the start")
        print(f"push received   p50 {percentile(pushed, 50):.2f} s  max {percentile(pushed, 100):.2f} s")
        print(f"table live      p50 {percentile(live, 50):.2f} s  max {percentile(live, 100):.2f} s  "
              f"({len(live)} of {len(plan['players'])} players)")
    print(f"move latency ms p50 {lat[50]}  p95 {lat[95]}  p99 {lat[99]}  max {lat[100]}  "
          f"({len(run.latencies)} samples, {run.moves} moves sent; database {database['moves']} moves, "
          f"{database['auto_moves']} auto)")
    print(f"errors          {dict(run.errors) or 0}; duplicated {run.duplicated}")
    return 0 if len(live) == len(plan["players"]) and not run.duplicated else 1


if __name__ == "__main__":
    sys.exit(main())
