"""One load run with CPU and memory per move: ``python bench/loadrun.py --tables 500``.

    python bench/loadrun.py --tables 500 --window 120 --out /tmp/okey-loadrun/500.json
    python bench/loadrun.py --tree /tmp/oldtree --tables 500            # another code tree's servers
    python bench/loadrun.py --knee 250,500,750,1000 --window 120        # the first count whose p99 > 100 ms
    python bench/loadrun.py --tables 150 --window 120 --profile 60      # + py-spy of web-8101

For each table count, on the code tree ``--tree`` (default: the tree holding this file):

1. ``serve.sh stop`` for ``--bench-dir``; refuses to start if anything else listens on 8101/8102;
   drops and creates the database ``--db`` and empties Redis db ``--redis-db``; starts the tree's
   ``bench/serve.sh scaled`` (two web servers, Celery worker and beat) with ``BENCH_DIR``, ``BENCH_PG``,
   ``BENCH_REDIS`` and ``CHANNELS_PREFIX`` set to this run's; records each web server's idle RSS.
2. runs this directory's ``load.py --setup --marks`` (``--root`` the tree, so ``bench_setup`` runs
   on its models) with the issue's shape: ``--think 5 --turn-seconds 60 --ramp 60``.
3. steady window: it starts ``--settle`` seconds after the ramp is over, counted from ``load.py``'s
   ``go`` mark (every socket open, the tables start), and lasts ``--window`` seconds; then SIGUSR1
   tells ``load.py`` to stop (so ``--duration`` is only a cap, long enough for the sign-ins by
   default). ``cpu.py`` snapshots at both ends (the load clients as ``--pid load=PID``), the moves
   in the window counted in the database (``games_move``, ``number > 0``, ``created_at`` between the
   snapshots), the sockets on 8101/8102 counted with ``ss`` at both ends.
4. memory: VmRSS of each web server's process tree at the window's end, divided by the sockets it
   serves (and, from its idle RSS, the growth per socket).
5. prints a summary and writes it as JSON to ``--out``: latencies of the whole run (load.py's) and of
   the steady window (frames received in it), lost / duplicated / out of order, CPU-ms per move by
   process kind, memory per socket. ``--knee`` runs several counts in turn (each on a fresh database)
   and reports the first whose steady-window p99 crosses ``--p99-limit`` (100 ms).

``--profile SECONDS`` records web-8101 with ``py-spy record --nonblocking --gil --format raw
--function`` from the window's start (see BENCHMARKS.md, "Where the daphne per-move CPU went", for
why those flags: only the thread holding the GIL is sampled, so a sample is 1/rate s of Python CPU)
and lists the functions with the most inclusive samples in ms a move (samples / rate / the moves of
the profile's own span). py-spy's own CPU is not in any process kind. The servers are stopped at
the end, on error and on Ctrl-C too.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import cpu  # noqa: E402 - bench/cpu.py, next to this file

PORTS = (8101, 8102)
MARK = "LOADRUN "


class RunError(Exception):
    pass


def log(message: str) -> None:
    print(f"[loadrun {datetime.now().strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def loadavg() -> list[str]:
    return Path("/proc/loadavg").read_text().split()[:3]


def sockets_by_port() -> dict[int, int]:
    """ESTABLISHED server-side sockets of each web server port (``ss``)."""
    out = subprocess.run(["ss", "-Htn", "state", "established", "( sport = :8101 or sport = :8102 )"],
                         capture_output=True, text=True, check=True).stdout
    counts = Counter()
    for line in out.splitlines():
        # With a state filter the State column is left out: Recv-Q Send-Q Local:Port Peer:Port [Process]
        fields = [f for f in line.split() if ":" in f]
        if fields and fields[0].rsplit(":", 1)[-1].isdigit():
            counts[int(fields[0].rsplit(":", 1)[-1])] += 1
    return {port: counts.get(port, 0) for port in PORTS}


def listening(port: int) -> bool:
    out = subprocess.run(["ss", "-Htln", f"( sport = :{port} )"], capture_output=True, text=True).stdout
    return bool(out.strip())


def tree_pids(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = cpu.read_stat(int(entry))
            if stat:
                children.setdefault(stat["ppid"], []).append(stat["pid"])
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def rss_kb(root: int) -> int:
    """VmRSS of a process and all its descendants, kB."""
    total = 0
    for pid in tree_pids(root):
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total


def read_pid(bench_dir: Path, name: str) -> int | None:
    try:
        return int((bench_dir / f"{name}.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def psql(url: str, sql: str, database: str = "postgres") -> str:
    parts = urlsplit(url)
    cmd = ["psql", "-h", parts.hostname or "127.0.0.1", "-p", str(parts.port or 5432), "-U",
           parts.username or "postgres", "-d", database, "-v", "ON_ERROR_STOP=1", "-tAc", sql]
    env = {**os.environ}
    if parts.password:
        env["PGPASSWORD"] = parts.password
    return subprocess.run(cmd, capture_output=True, text=True, check=True, env=env).stdout.strip()


def root_cpu_s(snap: dict, root: int) -> float:
    """utime+stime+cutime+cstime of one root's tree in a cpu.py snapshot, seconds."""
    procs = {p["pid"]: p for p in snap["procs"]}
    children: dict[int, list[int]] = {}
    for p in snap["procs"]:
        children.setdefault(p["ppid"], []).append(p["pid"])
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        if pid in procs:
            total += cpu.ticks(procs[pid])
        todo.extend(children.get(pid, []))
    return total / snap["clk_tck"]


def other_cpu(snap: dict, everything: dict[int, dict]) -> dict[tuple[int, int], dict]:
    """CPU ticks of every process a cpu.py snapshot did not count, to see what else used the host."""
    counted = {p["pid"] for p in snap["procs"]}
    found = {}
    for pid, stat in everything.items():
        if pid not in counted:
            found[pid, stat["starttime"]] = {"ticks": cpu.ticks(stat), "comm": stat["comm"], "pid": pid}
    return found


def others_in_window(a: dict, b: dict, clk_tck: int, top: int = 6) -> list[dict]:
    """The uncounted processes that used the most CPU between two `other_cpu` readings (those alive at
    the end; one that started in the window counts from 0)."""
    rows = []
    for key, proc in b.items():
        seconds = (proc["ticks"] - a.get(key, {"ticks": 0})["ticks"]) / clk_tck
        if seconds > 0.05:
            cmd = cpu.cmdline(proc["pid"])[:120] or proc["comm"]
            rows.append({"pid": proc["pid"], "cpu_s": round(seconds, 2), "cmd": cmd})
    return sorted(rows, key=lambda r: -r["cpu_s"])[:top]


# -- py-spy ---------------------------------------------------------------------------------------------


def find_py_spy(tree: Path) -> str | None:
    for candidate in (tree / ".venv/bin/py-spy", HERE.parent / ".venv/bin/py-spy"):
        if candidate.exists():
            return str(candidate)
    return shutil.which("py-spy")


def summarise_profile(raw: Path, rate: int, moves: int, top: int = 25, project: set[str] = frozenset()) -> dict:
    """Inclusive and self samples per function of a py-spy ``--format raw`` file, in ms a move.

    ``project``: the code tree's top-level packages; "project" lists only their functions (the
    event loop, thread pool and framework frames that hold every sample otherwise fill the top)."""
    inclusive: Counter = Counter()
    own: Counter = Counter()
    samples = 0
    for line in raw.read_text(errors="replace").splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        samples += n
        frames = stack.split(";")
        for frame in set(frames):
            inclusive[frame] += n
        own[frames[-1]] += n
    ms = 1000 / rate

    def rows(counter: Counter, keep=lambda name: True) -> list[dict]:
        chosen = [(name, n) for name, n in counter.most_common() if keep(name)][:top]
        return [{"function": name, "samples": n, "ms_per_move": round(n * ms / moves, 3) if moves else None}
                for name, n in chosen]

    def in_project(frame: str) -> bool:  # "name (games/services.py:271)"
        where = frame.rpartition(" (")[2]
        return where.split("/", 1)[0] in project

    return {"samples": samples, "rate": rate, "moves": moves,
            "ms_per_move": round(samples * ms / moves, 3) if moves else None,
            "inclusive": rows(inclusive), "project_inclusive": rows(inclusive, in_project), "self": rows(own)}


# -- one run --------------------------------------------------------------------------------------------


class LoadProcess:
    """bench/load.py as a child: its LOADRUN marks (stderr) in a queue, its JSON (stdout) at the end."""

    def __init__(self, cmd: list[str], env: dict[str, str], cwd: Path, log_path: Path):
        self.log = log_path.open("w")
        self.proc = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, start_new_session=True)
        self.marks: queue.Queue = queue.Queue()
        self.pending: list[dict] = []   # marks read while waiting for another
        self.stdout: list[str] = []
        self.err_thread = threading.Thread(target=self._read_err, daemon=True)
        self.err_thread.start()
        self.out_thread = threading.Thread(target=self._read_out, daemon=True)
        self.out_thread.start()

    def _read_err(self) -> None:
        for line in self.proc.stderr:
            self.log.write(line)
            self.log.flush()
            if line.startswith(MARK):
                try:
                    self.marks.put(json.loads(line[len(MARK):]))
                except ValueError:
                    pass

    def _read_out(self) -> None:
        for line in self.proc.stdout:
            self.stdout.append(line)

    def wait_mark(self, event: str, until: float) -> dict | None:
        """The next mark named `event` before monotonic `until`; None if load.py ended or time ran out."""
        while time.monotonic() < until:
            try:
                mark = self.marks.get(timeout=0.5)
            except queue.Empty:
                if self.proc.poll() is not None and self.marks.empty():
                    return None
                continue
            if mark["event"] == event:
                return mark
            self.pending.append(mark)
        return None

    def closing_seen(self) -> dict | None:
        """A `closing` mark already received (the run ended before the window did)."""
        while True:
            try:
                mark = self.marks.get_nowait()
            except queue.Empty:
                break
            self.pending.append(mark)
        return next((m for m in self.pending if m["event"] == "closing"), None)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGUSR1)

    def result(self, timeout: float) -> dict:
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired as error:
            raise RunError(f"load.py did not finish {timeout:.0f} s after being stopped") from error
        self.out_thread.join(timeout=10)
        text = "".join(self.stdout).strip()
        try:
            return json.loads(text.splitlines()[-1])
        except (ValueError, IndexError) as error:
            raise RunError(f"load.py exited {self.proc.returncode} without JSON; see {self.log.name}") from error

    def kill(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)  # its own session: load.py and its client processes
                self.proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                try:
                    os.killpg(self.proc.pid, signal.SIGKILL)
                except OSError:
                    pass
        self.err_thread.join(timeout=10)
        self.log.close()


def serve(tree: Path, env: dict[str, str], what: str, log_path: Path | None = None) -> None:
    out = subprocess.run([str(tree / "bench/serve.sh"), what], env=env, cwd=tree, capture_output=True, text=True)
    if log_path:
        log_path.write_text(out.stdout + out.stderr)
    if out.returncode:
        raise RunError(f"serve.sh {what} failed ({out.returncode}): {(out.stderr or out.stdout)[-800:]}")


def one_run(args: argparse.Namespace, tables: int) -> dict:
    tree: Path = args.tree
    bench_dir = Path(args.bench_dir)
    bench_dir.mkdir(parents=True, exist_ok=True)
    pg_url = f"{args.pg.rstrip('/')}/{args.db}"
    redis_url = f"{args.redis.rstrip('/')}/{args.redis_db}"
    env = {**os.environ, "BENCH_DIR": str(bench_dir), "BENCH_PG": pg_url, "BENCH_REDIS": redis_url,
           "CHANNELS_PREFIX": args.prefix}
    procs = args.procs or (1 if tables < 250 else 2)
    settle_at = args.ramp + args.settle      # seconds after `go`
    duration = args.duration or (180 + 0.15 * tables + settle_at + args.window + 60)
    run: dict[str, Any] = {
        "tables": tables, "tree": str(tree), "started": datetime.now(UTC).isoformat(timespec="seconds"),
        "loadavg_before": loadavg(), "db": args.db, "redis": redis_url, "channels_prefix": args.prefix,
        "shape": {"think": args.think, "turn_seconds": args.turn_seconds, "ramp": args.ramp, "settle": args.settle,
                  "window": args.window, "procs": procs, "duration_cap": duration, "idle": args.idle},
    }
    try:
        rev = subprocess.run(["git", "-C", str(tree), "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(tree), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
        run["commit"] = rev + (" (+ uncommitted changes)" if dirty else "")
    except OSError:
        run["commit"] = None

    load = None
    spy = None
    try:
        serve(tree, env, "stop")
        busy = [port for port in PORTS if listening(port)]
        if busy:
            raise RunError(f"something else listens on {busy}: another bench's servers? Not starting.")
        log(f"{tables} tables: fresh database {args.db}, Redis db {args.redis_db}")
        psql(args.pg, f'DROP DATABASE IF EXISTS "{args.db}" WITH (FORCE)')
        psql(args.pg, f'CREATE DATABASE "{args.db}"')
        rparts = urlsplit(args.redis)
        subprocess.run(["redis-cli", "-h", rparts.hostname or "127.0.0.1", "-p", str(rparts.port or 6379),
                        "-n", str(args.redis_db), "FLUSHDB"], check=True, capture_output=True)
        log("serve.sh scaled (migrate, two web servers, worker, beat)")
        serve(tree, env, "scaled", bench_dir / "serve-scaled.log")
        # web-<port>.pid; trees before okeysite.web (run with --tree) wrote daphne-<port>.pid
        web_pids = {port: read_pid(bench_dir, f"web-{port}") or read_pid(bench_dir, f"daphne-{port}") for port in PORTS}
        if None in web_pids.values():
            raise RunError(f"no web server pid files in {bench_dir}")
        time.sleep(2)
        idle_rss = {port: rss_kb(pid) for port, pid in web_pids.items()}

        python = tree / ".venv/bin/python"
        cmd = [str(python if python.exists() else sys.executable), str(HERE / "load.py"),
               "--url", ",".join(f"http://127.0.0.1:{port}" for port in PORTS), "--tables", str(tables),
               "--procs", str(procs), "--think", str(args.think), "--idle", str(args.idle),
               "--turn-seconds", str(args.turn_seconds), "--ramp", str(args.ramp), "--duration", str(duration),
               "--setup", "--json", "--marks", "--steady-after", str(settle_at), "--root", str(tree)]
        load_env = {**env, "DATABASE_URL": pg_url, "REDIS_URL": redis_url}
        log(f"load.py: {tables} tables, {4 * tables} sockets, {procs} client process(es); sign-ins first")
        load = LoadProcess(cmd, load_env, tree, bench_dir / f"load-{tables}.log")
        t0 = time.monotonic()
        go = load.wait_mark("go", t0 + duration + 900)
        if go is None:
            raise RunError(f"load.py never started the tables (exit {load.proc.poll()}); see {load.log.name}")
        if not go.get("all_ready"):
            raise RunError("a load client process failed before the tables started; see " + load.log.name)
        run["signin_connect_s"] = round(go["mono"] - t0, 1)
        run["sockets_planned"] = go["sockets"]
        log(f"all {go['sockets']} sockets open after {run['signin_connect_s']} s; ramp {args.ramp} s + settle "
            f"{args.settle} s, then a {args.window} s window")

        while time.monotonic() < go["mono"] + settle_at:
            if load.closing_seen() or load.proc.poll() is not None:
                raise RunError("load.py stopped before the steady window began (--duration too short?)")
            time.sleep(0.2)
        extra = [("load", load.proc.pid)]
        sockets_start = sockets_by_port()
        snap_a = cpu.snapshot(bench_dir, extra)
        others_a = other_cpu(snap_a, cpu.all_stats())
        spy_info: dict[str, Any] | None = None
        if args.profile:
            spy_bin = find_py_spy(tree)
            if spy_bin is None:
                spy_info = {"skipped": "py-spy not installed"}
                log("py-spy not found: no profile")
            else:
                seconds = int(min(args.profile, args.window))
                raw = bench_dir / f"pyspy-8101-{tables}.txt"
                spy_cmd = [spy_bin, "record", "--nonblocking", "--gil", "--format", "raw", "--function",
                           "--rate", str(args.profile_rate), "--duration", str(seconds), "--pid",
                           str(web_pids[8101]), "--output", str(raw)]
                spy_wall = time.time()
                spy = subprocess.Popen(spy_cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                spy_info = {"cmd": " ".join(spy_cmd), "raw": str(raw), "wall_start": spy_wall, "seconds": seconds}
        log(f"window start: sockets {sockets_start}, load average {' '.join(snap_a['loadavg'])}")

        window_end = snap_a["monotonic"] + args.window
        min_sockets = sum(sockets_start.values())
        cut_short = None
        while time.monotonic() < window_end - 0.05:
            closing = load.closing_seen()
            if closing or load.proc.poll() is not None:
                cut_short = "load.py stopped before the window's end (--duration cap reached)"
                break
            time.sleep(min(5.0, max(0.05, window_end - time.monotonic() - 0.05)))
            if time.monotonic() < window_end - 1:
                min_sockets = min(min_sockets, sum(sockets_by_port().values()))
        sockets_end = sockets_by_port()
        rss_end = {port: rss_kb(pid) for port, pid in web_pids.items()}
        snap_b = cpu.snapshot(bench_dir, extra)
        others_b = other_cpu(snap_b, cpu.all_stats())
        log(f"window end: sockets {sockets_end}, load average {' '.join(snap_b['loadavg'])}; stopping load.py")
        load.stop()
        if cut_short:
            run["window_cut_short"] = cut_short
            log("WARNING: " + cut_short)

        moves, autos = (int(x) for x in psql(pg_url, (
            "SELECT count(*), count(*) FILTER (WHERE auto) FROM games_move WHERE number > 0 "
            f"AND created_at >= to_timestamp({snap_a['wall']!r}) AND created_at < to_timestamp({snap_b['wall']!r})"
        ), database=args.db).split("|"))
        if spy is not None:
            try:
                spy.wait(timeout=max(30, spy_info["seconds"] + 30 - (time.time() - spy_info["wall_start"])))
            except subprocess.TimeoutExpired:
                spy.kill()
            spy_err = spy.stderr.read()[-400:] if spy.stderr else ""
            spy_end = time.time()
            spy_moves = int(psql(pg_url, (
                "SELECT count(*) FROM games_move WHERE number > 0 "
                f"AND created_at >= to_timestamp({spy_info['wall_start']!r}) "
                f"AND created_at < to_timestamp({min(spy_end, spy_info['wall_start'] + spy_info['seconds'])!r})"
            ), database=args.db))
            raw = Path(spy_info["raw"])
            if raw.exists() and raw.stat().st_size:
                project = {d.name for d in tree.iterdir() if d.is_dir() and (d / "__init__.py").exists()}
                spy_info["summary"] = summarise_profile(raw, args.profile_rate, spy_moves, args.profile_top, project)
            else:
                spy_info["error"] = f"py-spy wrote nothing (exit {spy.returncode}): {spy_err}"
            spy = None

        result = load.result(timeout=300)
        diff = cpu.diff(snap_a, snap_b, moves, args.db)
        run.update(summarise(args, run, result, diff, snap_a, snap_b, moves, autos, web_pids, sockets_start,
                             sockets_end, min_sockets, idle_rss, rss_end))
        # What else used the host: the kernel's own time (loopback networking is softirq) and the
        # processes outside every kind (another session's tests or bench, this driver, ss, py-spy).
        run["host_cpu_s"] = {name: round((snap_b["host"][name] - snap_a["host"].get(name, 0)) / snap_a["clk_tck"], 2)
                             for name in snap_b["host"]}
        run["other_processes"] = others_in_window(others_a, others_b, snap_a["clk_tck"])
        if spy_info is not None:
            if "summary" in spy_info:
                span = spy_info["summary"]
                d8101 = run["cpu_ms_per_move"].get("web-8101")
                spy_info["summary"]["proc_web_8101_ms_per_move_window"] = d8101
                log(f"py-spy: {span['samples']} GIL samples over {span['moves']} moves "
                    f"= {span['ms_per_move']} ms a move (web-8101 /proc: {d8101})")
            run["profile"] = spy_info
        return run
    except KeyboardInterrupt:
        run["error"] = "interrupted"
        raise
    except (RunError, subprocess.CalledProcessError) as error:
        detail = getattr(error, "stderr", None)
        run["error"] = f"{error}" + (f": {detail.strip()[-400:]}" if isinstance(detail, str) and detail else "")
        log("ERROR: " + run["error"])
        return run
    finally:
        # Clean up whatever happens; a second Ctrl-C waits until the servers are stopped.
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        try:
            if spy is not None and spy.poll() is None:
                spy.kill()
            if load is not None:
                load.kill()
            try:
                serve(tree, env, "stop")
            except RunError as error:
                log(f"serve.sh stop: {error}")
            run["loadavg_after"] = loadavg()
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})


def summarise(args, run, result, diff, snap_a, snap_b, moves, autos, web_pids, sockets_start, sockets_end,
              min_sockets, idle_rss, rss_end) -> dict:
    kinds = diff["kinds"]

    def ms(seconds: float) -> float | None:
        return round(seconds * 1000 / moves, 3) if moves else None

    def cpu_s(kind: str) -> float:
        return kinds.get(kind, {}).get("cpu_s", 0.0)

    pg_roles = kinds.get("postgres", {}).get("by_role", {})
    pg_bench = pg_roles.get(f"db={args.db}", 0.0)
    pg_server = pg_roles.get("server", 0.0)
    servers = cpu_s("web") + cpu_s("celery worker") + cpu_s("beat") + pg_bench + cpu_s("redis")
    per_web = {port: root_cpu_s(snap_b, pid) - root_cpu_s(snap_a, pid) for port, pid in web_pids.items()}
    window = diff["window_s"]
    cpu_row = {
        "web": ms(cpu_s("web")), **{f"web-{port}": ms(s) for port, s in per_web.items()},
        "celery_worker": ms(cpu_s("celery worker")), "beat": ms(cpu_s("beat")),
        "postgres_bench_db": ms(pg_bench), "postgres_server_and_exited": ms(pg_server),
        "postgres_all": ms(cpu_s("postgres")), "redis": ms(cpu_s("redis")),
        "servers_total": ms(servers), "load_clients": ms(cpu_s("load")),
    }
    memory = {}
    for port in PORTS:
        n = sockets_end[port]
        memory[f"web-{port}"] = {
            "rss_mb": round(rss_end[port] / 1024, 1), "idle_rss_mb": round(idle_rss[port] / 1024, 1),
            "sockets": n, "kb_per_socket": round(rss_end[port] / n, 1) if n else None,
            "growth_kb_per_socket": round((rss_end[port] - idle_rss[port]) / n, 1) if n else None,
        }
    total_sockets = sum(sockets_end.values())
    total_rss = sum(rss_end.values())
    memory["all_web"] = {
        "rss_mb": round(total_rss / 1024, 1), "sockets": total_sockets,
        "kb_per_socket": round(total_rss / total_sockets, 1) if total_sockets else None,
        "growth_kb_per_socket": (round((total_rss - sum(idle_rss.values())) / total_sockets, 1)
                                 if total_sockets else None),
    }
    host_busy = diff.get("host_busy_s")
    return {
        "sockets": {"planned": run.get("sockets_planned"), "window_start": sockets_start, "window_end": sockets_end,
                    "window_min": min_sockets},
        "window": {"seconds": round(window, 1), "moves": moves, "moves_per_s": round(moves / window, 1),
                   "auto_moves": autos, "loadavg_start": snap_a["loadavg"], "loadavg_end": snap_b["loadavg"],
                   "host_busy_pct": round(host_busy * 100 / (window * (diff["cpus"] or 1)), 1)
                   if host_busy is not None else None},
        "latency_ms_whole_run": result.get("latency_ms"),
        "latency_ms_window": result.get("steady_latency_ms"),
        "latency_samples": {"whole_run": result.get("latency_samples"),
                            "window": result.get("steady_latency_samples")},
        "lost": result.get("lost"), "duplicated": result.get("duplicated"), "out_of_order": result.get("out_of_order"),
        "errors": result.get("errors"), "fatal": result.get("fatal"),
        "load": {k: result.get(k) for k in ("login_s", "connect_s", "elapsed_s", "moves", "moves_per_s", "idles",
                                             "auto_moves", "database", "client_loop_lag_ms", "own_frame_ms",
                                             "stopped_by_signal", "steady_s")},
        "cpu_ms_per_move": cpu_row,
        "cpu_s": {"window": round(window, 1), **{k: round(v["cpu_s"], 2) for k, v in kinds.items()},
                  "postgres_bench_db": round(pg_bench, 2), "servers_total": round(servers, 2),
                  "host_busy": round(host_busy, 2) if host_busy is not None else None},
        "cpu_missing": diff.get("missing"),
        "memory": memory,
    }


def fmt(value: Any, digits: int = 2) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:,.{digits}f}"
    return f"{value:,}" if isinstance(value, int) else str(value)


def print_run(run: dict) -> None:
    print(f"== {run['tables']} tables, code {run.get('commit')} ({run['tree']}), started {run['started']}")
    if "error" in run:
        print(f"   ERROR: {run['error']}")
        if "window" not in run:
            return
    s, w = run["shape"], run["window"]
    print(f"   shape     think {s['think']} s, turn clock {s['turn_seconds']} s, ramp {s['ramp']} s + settle "
          f"{s['settle']} s, window {w['seconds']} s; {s['procs']} client process(es); sign-in + connect "
          f"{run.get('signin_connect_s')} s")
    sk = run["sockets"]
    print(f"   sockets   {sk['planned']} planned; established at window start {sum(sk['window_start'].values())} "
          f"{sk['window_start']}, end {sum(sk['window_end'].values())}, min {sk['window_min']}")
    print(f"   load avg  before {' '.join(run['loadavg_before'])}; window {' '.join(w['loadavg_start'])} -> "
          f"{' '.join(w['loadavg_end'])}; after {' '.join(run.get('loadavg_after', []))}; host busy "
          f"{fmt(w['host_busy_pct'], 0)} % of all cores in the window")
    print(f"   moves     {w['moves']:,} in the window ({w['moves_per_s']}/s), {w['auto_moves']} by the clock; "
          f"load.py whole run {fmt(run['load']['moves_per_s'], 1)}/s")
    for name, key in (("whole run", "latency_ms_whole_run"), ("window", "latency_ms_window")):
        lat = run.get(key) or {}
        print(f"   latency   {name:<9} p50 {fmt(lat.get('p50'), 1)}  p95 {fmt(lat.get('p95'), 1)}  "
              f"p99 {fmt(lat.get('p99'), 1)}  max {fmt(lat.get('max'), 1)} ms "
              f"({fmt(run['latency_samples']['window' if name == 'window' else 'whole_run'])} samples)")
    print(f"   lost/dup/out of order  {run['lost']} / {run['duplicated']} / {run['out_of_order']}; errors "
          f"{run['errors'] or 0}{'; FATAL ' + '; '.join(run['fatal']) if run.get('fatal') else ''}")
    c = run["cpu_ms_per_move"]
    print("   CPU ms/move  web {} (8101 {}, 8102 {}) | celery worker {} | beat {} | postgres bench db {} "
          "(postmaster + exited sessions {}) | redis {} | servers total {} | load clients {}".format(
              *(fmt(c[k]) for k in ("web", "web-8101", "web-8102", "celery_worker", "beat",
                                    "postgres_bench_db", "postgres_server_and_exited", "redis", "servers_total",
                                    "load_clients"))))
    m = run["memory"]
    print("   memory    " + "; ".join(
        f"{name} {v['rss_mb']} MB / {v['sockets']} sockets = {fmt(v['kb_per_socket'], 1)} kB a socket "
        f"(growth from idle {fmt(v['growth_kb_per_socket'], 1)} kB)" for name, v in m.items()))
    if run.get("host_cpu_s"):
        h = run["host_cpu_s"]
        print("   host      " + ", ".join(f"{k} {v:.1f} s" for k, v in h.items() if k != "idle")
              + f" (idle {h.get('idle', 0):.1f} s); busy but not in any kind: "
              + (", ".join(f"{o['cpu_s']} s {o['cmd'][:60]}" for o in run.get("other_processes") or []) or "none"))
    if run.get("window_cut_short"):
        print(f"   WARNING   {run['window_cut_short']}")
    prof = run.get("profile")
    if prof:
        if "summary" not in prof:
            print(f"   profile   {prof.get('skipped') or prof.get('error')}")
        else:
            p = prof["summary"]
            print(f"   profile   web-8101, {prof['seconds']} s at {p['rate']} Hz, --gil: {p['samples']} samples, "
                  f"{p['moves']} moves -> {fmt(p['ms_per_move'], 3)} ms a move of Python CPU "
                  f"(/proc, window: {fmt(p.get('proc_web_8101_ms_per_move_window'), 3)})")
            for title, key in (("top inclusive, all", "inclusive"), ("top inclusive, project code", "project_inclusive"),
                               ("top self", "self")):
                print(f"     {title} (ms a move, samples):")
                for row in p[key]:
                    print(f"      {fmt(row['ms_per_move'], 3):>7} ms  {row['samples']:>6}  {row['function'][:150]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--tree", type=Path, default=HERE.parent, help="code tree to serve (its bench/serve.sh, "
                        ".venv and manage.py); default the one holding this file")
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--knee", help="comma-separated table counts, run in turn: the first whose window p99 "
                        "crosses --p99-limit is the knee")
    parser.add_argument("--knee-all", action="store_true", help="with --knee, run every count even past the knee")
    parser.add_argument("--p99-limit", type=float, default=100.0, help="ms (default 100)")
    parser.add_argument("--window", type=float, default=300.0, help="seconds of steady play measured (300)")
    parser.add_argument("--settle", type=float, default=5.0, help="seconds after the ramp before the window (5)")
    parser.add_argument("--think", type=float, default=5.0)
    parser.add_argument("--ramp", type=float, default=60.0)
    parser.add_argument("--turn-seconds", type=int, default=60)
    parser.add_argument("--idle", type=float, default=0.01)
    parser.add_argument("--procs", type=int, default=0, help="load client processes (default 1, 2 from 250 tables)")
    parser.add_argument("--duration", type=float, default=0.0,
                        help="load.py's cap in seconds, sign-ins included (default: enough for sign-ins, ramp and "
                        "window; the run is normally stopped at the window's end)")
    parser.add_argument("--db", default="okey_loadrun", help="PostgreSQL database, dropped and created (okey_loadrun)")
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432", help="PostgreSQL server URL")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379", help="Redis server URL")
    parser.add_argument("--redis-db", type=int, default=9, help="Redis db, emptied (9)")
    parser.add_argument("--prefix", default="okeyloadrun", help="CHANNELS_PREFIX for the servers")
    parser.add_argument("--bench-dir", default="/tmp/okey-loadrun", help="BENCH_DIR for serve.sh (pids, logs)")
    parser.add_argument("--wait-load", type=float, default=0.0,
                        help="before each run wait (up to 3 min) for the 1-minute load average to drop to this")
    parser.add_argument("--profile", type=float, default=0.0, metavar="SECONDS",
                        help="py-spy web-8101 for this long from the window's start")
    parser.add_argument("--profile-rate", type=int, default=200)
    parser.add_argument("--profile-top", type=int, default=25)
    parser.add_argument("--out", help="JSON file for the results (default BENCH_DIR/loadrun-<time>.json)")
    args = parser.parse_args()
    args.tree = args.tree.resolve()
    if not (args.tree / "bench/serve.sh").exists():
        parser.error(f"{args.tree} has no bench/serve.sh")
    counts = [int(x) for x in args.knee.split(",")] if args.knee else [args.tables]
    out = Path(args.out or Path(args.bench_dir) / f"loadrun-{datetime.now().strftime('%Y%m%d-%H%M%S')}.json")
    out.parent.mkdir(parents=True, exist_ok=True)

    def on_term(*_: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGINT, signal.default_int_handler)  # also when started in the background
    report: dict[str, Any] = {"argv": sys.argv, "runs": [], "p99_limit_ms": args.p99_limit}
    code = 0
    try:
        for tables in counts:
            if args.wait_load:
                until = time.monotonic() + 180
                while float(loadavg()[0]) > args.wait_load and time.monotonic() < until:
                    time.sleep(5)
            run = one_run(args, tables)
            report["runs"].append(run)
            out.write_text(json.dumps(report, indent=1))
            print_run(run)
            if "error" in run:
                code = 1
                break
            p99 = (run.get("latency_ms_window") or {}).get("p99")
            if args.knee and p99 is not None and p99 > args.p99_limit and "knee" not in report:
                report["knee"] = {"tables": tables, "p99_window_ms": p99}
                if not args.knee_all:
                    break
    except KeyboardInterrupt:
        log("interrupted; servers stopped")
        code = 130
    if args.knee:
        report.setdefault("knee", None)
        knee = report["knee"]
        limit = fmt(args.p99_limit, 0)
        if knee:
            print(f"== knee: {knee['tables']} tables, the first count with window p99 > {limit} ms "
                  f"({fmt(knee['p99_window_ms'], 1)} ms)")
        else:
            done = [run["tables"] for run in report["runs"] if "error" not in run]
            print(f"== knee: none; window p99 stayed under {limit} ms up to {max(done, default=0)} tables")
        for run in report["runs"]:
            lat = run.get("latency_ms_window") or {}
            print(f"   {run['tables']:>5} tables: p99 {fmt(lat.get('p99'), 1)} ms, servers "
                  f"{fmt((run.get('cpu_ms_per_move') or {}).get('servers_total'))} ms/move")
    out.write_text(json.dumps(report, indent=1))
    print(f"== written {out}")
    return code


if __name__ == "__main__":
    sys.exit(main())
