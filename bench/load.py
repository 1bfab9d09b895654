"""Load test: N tables of four scripted players over real WebSockets against a running site.

    python bench/load.py --url http://127.0.0.1:8000 --tables 50 --setup
    python bench/load.py --url http://127.0.0.1:8101,http://127.0.0.1:8102 --tables 500 --procs 2 --setup

Every player signs in through the site's allauth form (GET /accounts/login/ for the CSRF cookie,
POST login= & password=), opens the table socket with its session cookie and an allowed Origin,
and says ``ready``; the match starts when all four are. The seat to play waits ``--think``
seconds (uniform 0.5x..1.5x), draws from the pile, waits again and discards the last tile of its
rack. With probability ``--idle`` a seat lets its turn run out, so the server's time-out path
(Celery) plays for it. ``--ramp`` spreads the tables' ``ready`` over that many seconds, as players
arrive at a real salon (0: every match is dealt in the same second, a stress test of its own). A table is measured for ``--hands`` complete hands, then plays on unmeasured
until every table is done (so the load holds to the end); the run stops at ``--duration`` seconds
whatever happens.

Printed: tables, sockets, moves per second, the latency from a player sending an action to each of
the other three receiving the frame with that move number (p50/p95/p99/max), time-outs handled
(auto moves seen by clients and counted in the database), errors, lost moves (a move number a
client never saw), duplicated moves (one seen twice) and out-of-order frames, plus the client's
own event-loop lag (a slow client would inflate the latencies it reports).

With several URLs the four players of a table are spread over them, so a move made through one
server must reach players connected to another (fan-out through Redis).

For a driver (``bench/loadrun.py``): ``--marks`` prints one line per stage to stderr,
``LOADRUN {json}`` with the stage's ``time.monotonic()`` (system-wide on Linux, so comparable across
processes): ``go`` when every client process has signed in and opened all its sockets (the tables
start), ``closing`` from each client process when it stops playing. ``SIGUSR1`` to the parent ends
the run early, as the deadline would (the clients stop sending, close their sockets and report).
``--steady-after S`` also reports the latencies of the frames received from S seconds after ``go``
until the run stops (``steady_latency_ms``): the steady play after a ramp, without its start.

``--setup`` runs ``manage.py bench_setup`` (Django with ``okeysite.settings_bench``; needs the
same DATABASE_URL as the servers) to create/reset the tables and players, and at the end asks it
for the database's count of moves and time-outs and abandons the bench matches.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import multiprocessing
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]


# -- sign-in over HTTP ----------------------------------------------------------------------------------


def sign_in(base_url: str, login: str, password: str, timeout: float = 30.0) -> str:
    """Log in through the allauth form; returns the Cookie header for the WebSocket."""
    parts = urlsplit(base_url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port or 80, timeout=timeout)
    try:
        conn.request("GET", "/accounts/login/", headers={"Host": parts.netloc})
        response = conn.getresponse()
        body = response.read().decode()
        if response.status != 200:
            raise RuntimeError(f"GET login page: HTTP {response.status}")
        cookies = _cookies(response)
        match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body)
        if match is None or "csrftoken" not in cookies:
            raise RuntimeError("no CSRF token on the login page")
        form = f"csrfmiddlewaretoken={match.group(1)}&login={login}&password={password}"
        conn.request("POST", "/accounts/login/", body=form, headers={
            "Host": parts.netloc, "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": f"csrftoken={cookies['csrftoken']}", "Origin": base_url, "Referer": f"{base_url}/accounts/login/",
        })
        response = conn.getresponse()
        body = response.read().decode(errors="replace")
        cookies.update(_cookies(response))
        if response.status not in (302, 303) or "sessionid" not in cookies:
            text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body[body.find("<main"):][:3000]))
            raise RuntimeError(f"sign-in of {login} failed: HTTP {response.status}: {text[:200]}")
        return f"csrftoken={cookies['csrftoken']}; sessionid={cookies['sessionid']}"
    finally:
        conn.close()


def _cookies(response: http.client.HTTPResponse) -> dict[str, str]:
    found = {}
    for header in response.headers.get_all("Set-Cookie") or []:
        name, _, rest = header.partition("=")
        found[name.strip()] = rest.split(";", 1)[0]
    return found


# -- one table of four scripted players ---------------------------------------------------------------


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)   # ms, one per (move, other client)
    own_latencies: list[float] = field(default_factory=list)  # ms, the mover's own frame
    moves: int = 0              # distinct moves seen at tables (each counted once per table)
    auto_moves: int = 0         # moves nobody at the table sent: the server played them (time-outs)
    idles: int = 0              # turns the script deliberately let run out
    hands: int = 0
    errors: Counter = field(default_factory=Counter)
    lost: int = 0
    lost_examples: list[str] = field(default_factory=list)
    duplicated: int = 0
    out_of_order: int = 0
    tables_done: int = 0
    loop_lag: list[float] = field(default_factory=list)
    steady_latencies: list[float] = field(default_factory=list)  # ms, received in the steady window
    steady_from: float = float("inf")   # monotonic: --steady-after seconds after go
    steady_until: float = float("inf")  # monotonic: the run stopped


class Table:
    def __init__(self, table_id: int, hands: int, stats: Stats, think: float, idle: float, rng: random.Random,
                 delay: float = 0.0):
        self.id = table_id
        self.delay = delay
        self.hands_wanted = hands
        self.stats = stats
        self.think = think
        self.idle = idle
        self.rng = rng
        self.sent_at: dict[tuple[int, int], float] = {}   # (hand id, move number) -> monotonic send time
        self.seen_moves: set[tuple[int, int]] = set()      # distinct moves at this table
        self.hands_over: set[int] = set()
        self.done = asyncio.Event()

    def record_move(self, hand_id: int, number: int) -> None:
        key = (hand_id, number)
        if key not in self.seen_moves:
            self.seen_moves.add(key)
            self.stats.moves += 1
            if key not in self.sent_at:
                self.stats.auto_moves += 1

    def hand_finished(self, hand_id: int) -> None:
        if hand_id not in self.hands_over:
            self.hands_over.add(hand_id)
            self.stats.hands += 1
            if len(self.hands_over) >= self.hands_wanted:
                self.done.set()


class Player:
    def __init__(self, table: Table, url: str, cookie: str):
        self.table = table
        self.url = url
        self.cookie = cookie
        self.ws: Any = None
        self.seat: int | None = None
        self.hand_id: int | None = None
        self.last_move = -1
        self.seen: dict[int, set[int]] = {}       # hand id -> move numbers this client saw in events
        self.first_move: dict[int, int] = {}      # hand id -> the move this client joined at
        self.final_move: dict[int, int] = {}
        self.acted_at = -1                        # move number this client last acted on
        self.idle_move = -1
        self.match_id: int | None = None

    async def connect(self) -> None:
        from websockets.asyncio.client import connect

        parts = urlsplit(self.url)
        ws_url = f"ws://{parts.netloc}/ws/tables/{self.table.id}/"
        self.ws = await connect(ws_url, origin=f"http://{parts.netloc}", additional_headers={"Cookie": self.cookie},
                                ping_interval=None, max_size=2**20, open_timeout=60, close_timeout=2)
        frame = json.loads(await asyncio.wait_for(self.ws.recv(), 60))
        if frame.get("type") != "state":
            raise RuntimeError(f"first frame is {frame.get('type')}")

    async def run(self) -> None:
        stats = self.table.stats
        # --ramp: tables get ready one after another over the ramp, as players arrive at a real salon,
        # rather than 500 matches being dealt in the same second.
        await asyncio.sleep(self.table.delay)
        await self.ws.send(json.dumps({"type": "ready"}))
        try:
            async for raw in self.ws:
                now = time.monotonic()
                frame = json.loads(raw)
                kind = frame.get("type")
                if kind == "error":
                    stats.errors[frame.get("code", "?")] += 1
                    continue
                if kind != "state" or not frame.get("hand"):
                    continue
                self.on_state(frame, now)
        except Exception as error:  # a dropped socket is an error of the run, not a crash of the bench
            stats.errors[f"socket:{type(error).__name__}"] += 1

    def on_state(self, frame: dict[str, Any], now: float) -> None:
        stats = self.table.stats
        match = frame.get("match") or {}
        # Only this run's match: a refresh before it starts shows the table's previous (abandoned) one.
        if self.match_id is None:
            if match.get("status") != "running":
                return
            self.match_id = match.get("id")
        elif match.get("id") != self.match_id:
            return
        hand = frame["hand"]
        hand_id, move = hand["id"], frame["move"]
        if hand["seat"] is None:
            stats.errors["watcher frame shown to a player"] += 1
            return
        self.seat = hand["seat"]
        if self.table.done.is_set():
            # Measured hands are over: keep playing (the load stays as it was for the tables still
            # measuring, and no table drifts into the server's autoplay) without recording.
            self.hand_id, self.last_move = hand_id, move
            if hand["phase"] != "over":
                self.play(hand, hand_id, move, idle=False)
            return
        if hand_id != self.hand_id:
            if self.hand_id is not None and self.hand_id > hand_id:
                stats.out_of_order += 1
                return
            self.hand_id, self.last_move = hand_id, -1
            self.first_move.setdefault(hand_id, move)
        if move < self.last_move:
            stats.out_of_order += 1
            return
        seen = self.seen.setdefault(hand_id, set())
        for event in frame.get("events") or []:
            number = event.get("move", 0)
            if number in seen:
                stats.duplicated += 1
                continue
            seen.add(number)
            self.table.record_move(hand_id, number)
            sent = self.table.sent_at.get((hand_id, number))
            if sent is not None:
                mover = event.get("seat") == self.seat
                (stats.own_latencies if mover else stats.latencies).append((now - sent) * 1000)
                if not mover and stats.steady_from <= now <= stats.steady_until:
                    stats.steady_latencies.append((now - sent) * 1000)
        self.last_move = move
        if hand["phase"] == "over":
            self.final_move[hand_id] = move
            self.table.hand_finished(hand_id)
            return
        self.play(hand, hand_id, move, idle=True)

    def play(self, hand: dict[str, Any], hand_id: int, move: int, *, idle: bool) -> None:
        if hand["turn"] == self.seat and move != self.acted_at and move != self.idle_move:
            if idle and hand["phase"] == "draw" and self.table.rng.random() < self.table.idle:
                self.idle_move = move
                self.table.stats.idles += 1
                return
            self.acted_at = move
            if hand["phase"] == "draw":
                message = {"type": "draw", "move": move, "source": "pile"}
            else:
                message = {"type": "discard", "move": move, "tile": hand["rack"][-1]}
            asyncio.get_running_loop().create_task(self.act(hand_id, move, message))

    async def act(self, hand_id: int, move: int, message: dict[str, Any]) -> None:
        await asyncio.sleep(self.table.think * self.table.rng.uniform(0.5, 1.5))
        if self.hand_id != hand_id or self.last_move != move:
            return  # the hand moved on (a time-out) while thinking
        if self.table.done.is_set():
            return  # the run is over: its sockets are closing
        self.table.sent_at[(hand_id, move + 1)] = time.monotonic()
        try:
            await self.ws.send(json.dumps(message))
        except Exception as error:
            self.table.stats.errors[f"send:{type(error).__name__}"] += 1

    def check(self) -> None:
        """Every hand this client followed from its start: it saw each move number exactly once."""
        for hand_id, seen in self.seen.items():
            start = self.first_move.get(hand_id, 0)
            last = self.final_move.get(hand_id, max(seen, default=start))
            missing = set(range(start + 1, last + 1)) - seen
            self.table.stats.lost += len(missing)
            if missing and len(self.table.stats.lost_examples) < 5:
                self.table.stats.lost_examples.append(
                    f"table {self.table.id} hand {hand_id} seat {self.seat}: {sorted(missing)[:6]} of 1..{last}")


# -- one client process ------------------------------------------------------------------------------------


def mark(event: str, **data: Any) -> None:
    """One ``LOADRUN {json}`` line on stderr for a driver (``--marks``)."""
    print("LOADRUN " + json.dumps({"event": event, "mono": time.monotonic(), "wall": time.time(), **data}),
          file=sys.stderr, flush=True)


def client_process(plan: dict[str, Any], urls: list[str], args: dict[str, Any], ready: Any, go: Any,
                   results: Any, stop: Any = None) -> None:
    signal.signal(signal.SIGUSR1, signal.SIG_IGN)  # the parent's signal to stop; it tells us through `stop`
    try:
        result = asyncio.run(run_clients(plan, urls, args, ready, go, stop))
    except BaseException as error:  # report, never hang the parent
        result = {"fatal": repr(error)}
    results.put(result)


async def run_clients(plan: dict[str, Any], urls: list[str], args: dict[str, Any], ready: Any, go: Any,
                      stop: Any = None) -> dict:
    stats = Stats()
    rng = random.Random(args["seed"])
    tables = [Table(t["id"], args["hands"], stats, args["think"], args["idle"], rng, t.get("delay", 0.0))
              for t in plan["tables"]]
    loop = asyncio.get_running_loop()
    pool = ThreadPoolExecutor(max_workers=args["login_concurrency"])
    cookies: dict[tuple[int, int], str] = {}
    deadline = time.monotonic() + args["duration"]

    async def login(ti: int, seat: int, name: str) -> None:
        url = urls[(ti + seat) % len(urls)]
        for attempt in range(3):
            try:
                cookies[ti, seat] = await loop.run_in_executor(pool, sign_in, url, name, plan["password"])
                return
            except RuntimeError as error:
                # Counted and shown: a refused sign-in is a finding, retried so one does not sink the run.
                stats.errors[f"sign-in refused: {str(error).split(': ', 1)[-1][:80]}"] += 1
                if attempt == 2:
                    raise

    started = time.monotonic()
    await asyncio.gather(*(login(ti, seat, name) for ti, t in enumerate(plan["tables"])
                           for seat, name in enumerate(t["players"])))
    login_seconds = time.monotonic() - started
    pool.shutdown()

    players: list[Player] = []
    gate = asyncio.Semaphore(args["connect_concurrency"])

    async def open_socket(ti: int, seat: int) -> None:
        player = Player(tables[ti], urls[(ti + seat) % len(urls)], cookies[ti, seat])
        async with gate:
            await player.connect()
        players.append(player)

    started = time.monotonic()
    await asyncio.gather(*(open_socket(ti, seat) for ti in range(len(tables)) for seat in range(4)))
    connect_seconds = time.monotonic() - started

    # Every process has signed in and connected: start all tables together.
    ready.set()
    while not go.is_set():
        await asyncio.sleep(0.05)
    lag_task = loop.create_task(measure_lag(stats))
    started = time.monotonic()
    if args.get("steady_after") is not None:
        stats.steady_from = started + args["steady_after"]
    runs = [loop.create_task(player.run()) for player in players]
    remaining = deadline - time.monotonic()
    waits = [loop.create_task(table.done.wait()) for table in tables]
    all_done = asyncio.gather(*waits)

    async def stopped() -> None:  # the parent got SIGUSR1
        while stop is None or not stop.is_set():
            await asyncio.sleep(0.1)

    stop_task = loop.create_task(stopped())
    await asyncio.wait([all_done, stop_task], timeout=max(1.0, remaining), return_when=asyncio.FIRST_COMPLETED)
    stats.steady_until = time.monotonic()
    stopped_early = stop is not None and stop.is_set()
    if args.get("marks"):
        mark("closing", sockets=len(players), stopped=stopped_early,
             tables_done=sum(table.done.is_set() for table in tables))
    elapsed = time.monotonic() - started
    stop_task.cancel()
    all_done.cancel()
    await asyncio.gather(all_done, stop_task, return_exceptions=True)
    stats.tables_done = sum(table.done.is_set() for table in tables)
    for task in waits:
        task.cancel()
    await asyncio.gather(*waits, return_exceptions=True)
    lag_task.cancel()
    for table in tables:
        table.done.set()  # the run is over: moves still being "thought" are not sent to closing sockets
    await asyncio.gather(*(player.ws.close() for player in players), return_exceptions=True)
    for task in runs:
        task.cancel()
    await asyncio.gather(*runs, return_exceptions=True)
    for player in players:
        player.check()
    return {
        "sockets": len(players), "tables": len(tables), "elapsed": elapsed, "login_seconds": login_seconds,
        "connect_seconds": connect_seconds, "latencies": stats.latencies, "own_latencies": stats.own_latencies,
        "moves": stats.moves, "auto_moves": stats.auto_moves, "idles": stats.idles, "hands": stats.hands,
        "errors": dict(stats.errors), "lost": stats.lost, "duplicated": stats.duplicated,
        "out_of_order": stats.out_of_order, "tables_done": stats.tables_done, "loop_lag": stats.loop_lag,
        "lost_examples": stats.lost_examples, "steady_latencies": stats.steady_latencies,
        "steady_s": max(0.0, stats.steady_until - stats.steady_from), "stopped": stopped_early,
        "hand_ids": sorted(hand for table in tables for hand in table.hands_over),
    }


async def measure_lag(stats: Stats, every: float = 0.05) -> None:
    while True:
        start = time.monotonic()
        await asyncio.sleep(every)
        stats.loop_lag.append((time.monotonic() - start - every) * 1000)


# -- the parent -------------------------------------------------------------------------------------------


def manage(*command: str, settings: str, timeout: float = 900, root: Path = ROOT) -> dict[str, Any]:
    # The set-up commands only write fixtures to the bench database: like `make`, they run with the
    # development defaults (DEBUG=1, no SECRET_KEY needed) unless the caller's environment says otherwise.
    env = {"DEBUG": "1", **os.environ, "DJANGO_SETTINGS_MODULE": settings}
    out = subprocess.run([sys.executable, str(root / "manage.py"), *command], env=env, check=True,
                         capture_output=True, text=True, timeout=timeout, cwd=root)
    return json.loads(out.stdout.strip().splitlines()[-1])


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q / 100 * (len(values) - 1))))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="base URL(s), comma-separated")
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--hands", type=int, default=1, help="complete hands per table")
    parser.add_argument("--duration", type=float, default=600, help="cap on the playing time, seconds")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds before each draw and discard")
    parser.add_argument("--idle", type=float, default=0.01, help="chance a seat lets its turn time out")
    parser.add_argument("--turn-seconds", type=int, default=10, help="turn clock of the bench rooms (--setup)")
    parser.add_argument("--ramp", type=float, default=0.0,
                        help="seconds over which the tables get ready one after another (0: all at once)")
    parser.add_argument("--procs", type=int, default=1, help="client processes (tables are split between them)")
    parser.add_argument("--setup", action="store_true", help="create/reset tables through manage.py bench_setup")
    parser.add_argument("--plan", help="a bench_setup JSON plan instead of --setup")
    parser.add_argument("--settings", default="okeysite.settings_bench")
    parser.add_argument("--login-concurrency", type=int, default=16)
    parser.add_argument("--connect-concurrency", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    parser.add_argument("--marks", action="store_true",
                        help="print LOADRUN {json} stage lines (go, closing) to stderr for a driver")
    parser.add_argument("--steady-after", type=float, default=None, metavar="S",
                        help="also report latencies received from S seconds after the tables start to the end")
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="code tree whose manage.py runs bench_setup (default: the one holding this file)")
    args = parser.parse_args()
    urls = [url.rstrip("/") for url in args.url.split(",") if url.strip()]
    for url in urls:
        if urlsplit(url).hostname not in ("127.0.0.1", "localhost", "::1"):
            parser.error("only loopback servers may be targeted")

    if args.setup:
        plan = manage("bench_setup", "--tables", str(args.tables), "--turn-seconds", str(args.turn_seconds),
                      settings=args.settings, root=args.root)
    elif args.plan:
        plan = json.loads(Path(args.plan).read_text())
    else:
        parser.error("give --setup or --plan")
    plan["tables"] = plan["tables"][: args.tables]
    for index, table in enumerate(plan["tables"]):
        table["delay"] = args.ramp * index / len(plan["tables"])
    since = datetime.now(UTC).isoformat()

    context = multiprocessing.get_context("spawn")
    procs = max(1, min(args.procs, len(plan["tables"])))
    ready = [context.Event() for _ in range(procs)]
    go = context.Event()
    results = context.Queue()
    stop = context.Event()
    signal.signal(signal.SIGUSR1, lambda *_: stop.set())
    options = {"hands": args.hands, "think": args.think, "idle": args.idle, "duration": args.duration,
               "login_concurrency": args.login_concurrency, "connect_concurrency": args.connect_concurrency,
               "marks": args.marks, "steady_after": args.steady_after}
    workers = []
    for index in range(procs):
        part = {**plan, "tables": plan["tables"][index::procs]}
        worker = context.Process(target=client_process, args=(part, urls, {**options, "seed": args.seed + index},
                                                              ready[index], go, results, stop), daemon=True)
        worker.start()
        workers.append(worker)
    set_up_by = time.monotonic() + 900
    while not all(event.is_set() for event in ready) and time.monotonic() < set_up_by:
        if not all(worker.is_alive() for worker in workers) and results.qsize():
            break
        time.sleep(0.1)
    go.set()
    if args.marks:
        mark("go", all_ready=all(event.is_set() for event in ready), procs=procs, tables=len(plan["tables"]),
             sockets=4 * len(plan["tables"]), pid=os.getpid())
    outputs = []
    collect_by = time.monotonic() + args.duration + 960
    while len(outputs) < procs and time.monotonic() < collect_by:
        try:
            outputs.append(results.get(timeout=5))
        except Exception:
            if not any(worker.is_alive() for worker in workers):
                break
    for worker in workers:
        worker.join(timeout=10)
        if worker.is_alive():
            worker.kill()
    fatal = [out["fatal"] for out in outputs if "fatal" in out]
    outputs = [out for out in outputs if "fatal" not in out]

    database = {}
    if args.setup:
        try:
            # The hands the clients saw end, when there are any (else everything since the start).
            hand_ids = [hand for out in outputs for hand in out["hand_ids"]]
            ids_file = Path(os.environ.get("TMPDIR", "/tmp")) / f"okey-bench-hands-{os.getpid()}.json"
            ids_file.write_text(json.dumps(hand_ids))
            extra = ["--hands-file", str(ids_file)] if hand_ids else []
            database = manage("bench_setup", "--report", "--since", since, *extra, settings=args.settings,
                              root=args.root)
            ids_file.unlink()
            manage("bench_setup", "--teardown", settings=args.settings, root=args.root)
        except Exception as error:
            database = {"error": repr(error)}

    merged: dict[str, Any] = {"urls": urls, "tables": 0, "sockets": 0, "moves": 0, "auto_moves": 0, "idles": 0,
                              "hands": 0, "lost": 0, "duplicated": 0, "out_of_order": 0, "tables_done": 0}
    latencies: list[float] = []
    steady: list[float] = []
    own: list[float] = []
    lag: list[float] = []
    errors: Counter = Counter()
    lost_examples: list[str] = []
    for out in outputs:
        lost_examples += out["lost_examples"]
        for key in ("tables", "sockets", "moves", "auto_moves", "idles", "hands", "lost", "duplicated",
                    "out_of_order", "tables_done"):
            merged[key] += out[key]
        latencies += out["latencies"]
        steady += out["steady_latencies"]
        own += out["own_latencies"]
        lag += out["loop_lag"]
        errors.update(out["errors"])
    elapsed = max((out["elapsed"] for out in outputs), default=0.0)
    merged.update({
        "think": args.think, "idle": args.idle, "ramp": args.ramp, "procs": procs, "elapsed_s": round(elapsed, 1),
        "login_s": round(max((o["login_seconds"] for o in outputs), default=0), 1),
        "connect_s": round(max((o["connect_seconds"] for o in outputs), default=0), 1),
        "moves_per_s": round(merged["moves"] / elapsed, 1) if elapsed else 0.0,
        "latency_ms": {name: round(percentile(latencies, q), 1) for name, q in
                       (("p50", 50), ("p95", 95), ("p99", 99), ("max", 100))},
        "latency_samples": len(latencies),
        "mean_ms": round(statistics.fmean(latencies), 1) if latencies else None,
        "own_frame_ms": {"p50": round(percentile(own, 50), 1), "p99": round(percentile(own, 99), 1)},
        "client_loop_lag_ms": {"p99": round(percentile(lag, 99), 1), "max": round(percentile(lag, 100), 1)},
        "errors": dict(errors), "fatal": fatal, "database": database, "lost_examples": lost_examples[:5],
        "stopped_by_signal": any(out["stopped"] for out in outputs),
    })
    if args.steady_after is not None:
        merged.update({
            "steady_after_s": args.steady_after,
            "steady_s": round(min((o["steady_s"] for o in outputs), default=0.0), 1),
            "steady_latency_ms": {name: round(percentile(steady, q), 1) for name, q in
                                  (("p50", 50), ("p95", 95), ("p99", 99), ("max", 100))},
            "steady_latency_samples": len(steady),
        })
    if args.json:
        print(json.dumps(merged))
    else:
        lat = merged["latency_ms"]
        print(f"servers        {', '.join(urls)}")
        print(f"tables/sockets {merged['tables']} / {merged['sockets']}  (finished {merged['tables_done']}, "
              f"hands {merged['hands']}; sign-in {merged['login_s']} s, connect {merged['connect_s']} s)")
        print(f"pace           think {args.think} s per action, idle {args.idle}, ramp {args.ramp} s; "
              f"played {merged['elapsed_s']} s")
        print(f"moves/s        {merged['moves_per_s']}  ({merged['moves']} moves)")
        print(f"latency ms     p50 {lat['p50']}  p95 {lat['p95']}  p99 {lat['p99']}  max {lat['max']}  "
              f"({merged['latency_samples']} samples; mover's own frame p50 {merged['own_frame_ms']['p50']} "
              f"p99 {merged['own_frame_ms']['p99']})")
        print(f"timeouts       {merged['idles']} idle turns; auto moves seen {merged['auto_moves']}; "
              f"database {database}")
        print(f"errors         {dict(errors) or 0}{'  FATAL ' + '; '.join(fatal) if fatal else ''}")
        print(f"lost/dup/ooo   {merged['lost']} / {merged['duplicated']} / {merged['out_of_order']}"
              + (f"  e.g. {'; '.join(lost_examples[:3])}" if lost_examples else ""))
        if args.steady_after is not None:
            st = merged["steady_latency_ms"]
            print(f"steady ms      from {args.steady_after} s after the start, {merged['steady_s']} s: p50 {st['p50']}  "
                  f"p95 {st['p95']}  p99 {st['p99']}  max {st['max']}  ({merged['steady_latency_samples']} samples)")
        print(f"client lag ms  p99 {merged['client_loop_lag_ms']['p99']}  max {merged['client_loop_lag_ms']['max']}")
    bad = merged["lost"] or merged["duplicated"] or fatal
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
