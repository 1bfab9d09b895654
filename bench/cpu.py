"""CPU seconds per server process kind over a window, from /proc: ``python bench/cpu.py``.

    python bench/cpu.py --dir /tmp/okey-bench snapshot > a.json      # at the start of the window
    python bench/cpu.py --dir /tmp/okey-bench snapshot > b.json      # at its end
    python bench/cpu.py diff a.json b.json --moves 12345             # CPU-ms per move per kind

A snapshot reads utime + stime (and cutime + cstime, see below) from ``/proc/<pid>/stat`` of:

- every pid file ``bench/serve.sh`` wrote in ``--dir`` and the whole process tree under it (found by
  scanning ``/proc/*/stat`` for parent pids): ``web-*.pid`` (``daphne-*.pid`` of older trees) is "web", ``worker.pid`` "celery
  worker" (its prefork children included), ``beat.pid`` "beat", any other ``NAME.pid`` "NAME";
- every process named ``postgres*`` ("postgres") and ``redis-server`` ("redis"), by name: the
  servers are shared by everything on the host, other databases' sessions included (the snapshot
  keeps each PostgreSQL backend's database, from its process title, so ``diff`` can split them, and
  ``diff --db NAME`` leaves the live sessions of other databases out of the total);
- ``--pid KIND=PID`` (repeatable): any other process tree, e.g. the load clients (shown, but not in the
  total, which is the servers' CPU).

Processes that start between the snapshots count from 0; those that vanished are counted and named.
A process's CPU is taken as utime + stime + cutime + cstime: the last two are the CPU of its
children that have exited and been waited for, so the CPU of a PostgreSQL backend or a Celery pool
process that ended inside the window is still counted (in its parent, the postmaster or the worker)
instead of being lost. Per kind, the window's CPU is the kind's sum at the end minus its sum at the
start. Only a process that exits without being reaped by a counted parent is lost, and ``diff``
says how many vanished. Plain standard library; Linux only.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

CLK_TCK = os.sysconf("SC_CLK_TCK")
KIND_ORDER = ["web", "celery worker", "beat", "postgres", "redis"]


def read_stat(pid: int) -> dict | None:
    """The fields of /proc/<pid>/stat this tool uses, or None when the process is gone."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_bytes().decode(errors="replace")
    except OSError:
        return None
    # comm is in parentheses and may itself contain spaces or ')': split at the last ')'.
    head, _, rest = raw.rpartition(")")
    comm = head.partition("(")[2]
    fields = rest.split()
    # fields[0] is field 3 (state): field n of proc(5) is fields[n - 3].
    return {
        "pid": pid, "comm": comm, "ppid": int(fields[1]),
        "utime": int(fields[11]), "stime": int(fields[12]), "cutime": int(fields[13]), "cstime": int(fields[14]),
        "starttime": int(fields[19]),
    }


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return ""


def postgres_role(title: str) -> str:
    """'db=NAME' for a backend ("postgres: 15/main: user db host state"), else 'server'.

    'server' is the postmaster and its auxiliary processes, and, through the postmaster's cutime,
    every backend that exited (of any database)."""
    parts = title.split(": ", 2)
    if len(parts) == 3 and parts[0].endswith("postgres"):
        words = parts[2].split()
        # A client backend's title is "user database host(port) state"; auxiliary processes
        # ("checkpointer", "walwriter", "autovacuum launcher", ...) have no host part.
        if len(words) >= 3 and ("(" in words[2] or words[2] == "[local]"):
            return f"db={words[1]}"
    return "server"


def host_ticks() -> dict[str, int]:
    """The whole machine's CPU ticks (the first line of /proc/stat), to show what else ran."""
    names = ["user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal"]
    values = Path("/proc/stat").read_text().splitlines()[0].split()[1:1 + len(names)]
    return dict(zip(names, map(int, values), strict=False))


def all_stats() -> dict[int, dict]:
    stats = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = read_stat(int(entry))
            if stat is not None:
                stats[stat["pid"]] = stat
    return stats


def pid_kind(name: str) -> str:
    if name.startswith(("web", "daphne")):
        return "web"
    if name == "worker":
        return "celery worker"
    return name


def snapshot(bench_dir: Path | None, extra: list[tuple[str, int]]) -> dict:
    wall, mono = time.time(), time.monotonic()
    stats = all_stats()
    children: dict[int, list[int]] = {}
    for stat in stats.values():
        children.setdefault(stat["ppid"], []).append(stat["pid"])
    roots: list[tuple[str, int, str]] = []   # kind, pid, where from
    missing = []
    if bench_dir is not None:
        for pidfile in sorted(bench_dir.glob("*.pid")):
            try:
                pid = int(pidfile.read_text().split()[0])
            except (OSError, ValueError, IndexError):
                missing.append(pidfile.name)
                continue
            if pid not in stats:
                missing.append(f"{pidfile.name} ({pid} not running)")
                continue
            roots.append((pid_kind(pidfile.stem), pid, pidfile.name))
    for kind, pid in extra:
        if pid in stats:
            roots.append((kind, pid, f"--pid {kind}={pid}"))
        else:
            missing.append(f"--pid {kind}={pid} (not running)")

    kinds: dict[int, str] = {}
    for kind, root, _ in roots:
        todo = [root]
        while todo:
            pid = todo.pop()
            if pid in kinds:
                continue
            kinds[pid] = kind
            todo.extend(children.get(pid, []))
    for pid, stat in stats.items():
        if pid in kinds:
            continue
        if stat["comm"].startswith("postgres"):
            kinds[pid] = "postgres"
        elif stat["comm"] == "redis-server":
            kinds[pid] = "redis"

    procs = []
    for pid, kind in sorted(kinds.items()):
        stat = stats[pid]
        entry = {"kind": kind, **{k: stat[k] for k in ("pid", "ppid", "comm", "starttime", "utime", "stime",
                                                       "cutime", "cstime")}}
        if kind == "postgres":
            entry["role"] = postgres_role(cmdline(pid))
        procs.append(entry)
    return {
        "wall": wall, "monotonic": mono, "clk_tck": CLK_TCK, "cpus": os.cpu_count(),
        "loadavg": Path("/proc/loadavg").read_text().split()[:3], "host": host_ticks(),
        "dir": str(bench_dir) if bench_dir else None, "roots": [list(r) for r in roots], "missing": missing,
        "extra_kinds": sorted({kind for kind, _ in extra}), "procs": procs,
    }


def ticks(proc: dict) -> int:
    return proc["utime"] + proc["stime"] + proc["cutime"] + proc["cstime"]


def diff(a: dict, b: dict, moves: int | None, database: str | None = None) -> dict:
    tck = a["clk_tck"]
    key = lambda p: (p["pid"], p["starttime"])  # noqa: E731 - a pid may be reused by a new process
    before = {key(p): p for p in a["procs"]}
    after = {key(p): p for p in b["procs"]}
    kinds = [k for k in KIND_ORDER if any(p["kind"] == k for p in a["procs"] + b["procs"])]
    kinds += sorted({p["kind"] for p in a["procs"] + b["procs"]} - set(kinds))
    rows = {}
    for kind in kinds:
        in_a = [p for k, p in before.items() if p["kind"] == kind]
        in_b = [p for k, p in after.items() if p["kind"] == kind]
        new = [p for p in in_b if key(p) not in before]
        gone = [p for p in in_a if key(p) not in after]
        reaped = sum(p["cutime"] + p["cstime"] for p in in_b) - sum(p["cutime"] + p["cstime"] for p in in_a)
        seconds = (sum(map(ticks, in_b)) - sum(map(ticks, in_a))) / tck
        row = {"cpu_s": seconds, "procs_start": len(in_a), "procs_end": len(in_b), "new": len(new),
               "vanished": len(gone), "vanished_comms": sorted({p["comm"] for p in gone}),
               "reaped_children_s": reaped / tck}
        if kind == "postgres":
            roles = sorted({p.get("role", "server") for p in in_a + in_b})
            row["by_role"] = {
                role: (sum(ticks(p) for p in in_b if p.get("role", "server") == role)
                       - sum(ticks(p) for p in in_a if p.get("role", "server") == role)) / tck
                for role in roles
            }
        rows[kind] = row
    window = b["monotonic"] - a["monotonic"]
    # The --pid trees (load clients, say) are shown but left out of the total: it is the servers' CPU.
    extra = set(a.get("extra_kinds", [])) | set(b.get("extra_kinds", []))
    total = sum(row["cpu_s"] for kind, row in rows.items() if kind not in extra)
    other_databases = 0.0
    if database and "postgres" in rows:
        # Sessions of other databases (test suites on a shared host) are not the bench's work.
        other_databases = sum(seconds for role, seconds in rows["postgres"]["by_role"].items()
                              if role.startswith("db=") and role != f"db={database}")
        total -= other_databases
    result = {"window_s": window, "cpus": a.get("cpus"), "moves": moves, "kinds": rows, "total_cpu_s": total,
              "extra_kinds": sorted(extra), "database": database, "other_databases_cpu_s": other_databases,
              "loadavg_start": a.get("loadavg"), "loadavg_end": b.get("loadavg"),
              "missing": sorted(set(a.get("missing", [])) | set(b.get("missing", [])))}
    if a.get("host") and b.get("host"):
        host = {name: (b["host"][name] - a["host"].get(name, 0)) / tck for name in b["host"]}
        result["host_busy_s"] = sum(v for k, v in host.items() if k not in ("idle", "iowait", "steal"))
        result["host_steal_s"] = host.get("steal", 0.0)
    if moves:
        result["total_ms_per_move"] = total * 1000 / moves
        for row in rows.values():
            row["ms_per_move"] = row["cpu_s"] * 1000 / moves
    return result


def print_diff(result: dict) -> None:
    window, moves, cpus = result["window_s"], result["moves"], result["cpus"] or 1
    print(f"window {window:.1f} s, {cpus} CPUs ({window * cpus:.0f} CPU-s available); "
          f"load average {' '.join(result['loadavg_start'] or [])} -> {' '.join(result['loadavg_end'] or [])}")
    if moves:
        print(f"moves  {moves} ({moves / window:.1f}/s)")
    header = f"{'kind':<22}{'CPU s':>9}{'% of 1 core':>13}" + (f"{'ms/move':>10}" if moves else "")
    print(header + "   processes start/end, new, vanished")
    for kind, row in result["kinds"].items():
        line = f"{kind:<22}{row['cpu_s']:>9.2f}{row['cpu_s'] * 100 / window:>12.1f}%"
        if moves:
            line += f"{row['ms_per_move']:>10.2f}"
        line += f"   {row['procs_start']}/{row['procs_end']}, {row['new']}, {row['vanished']}"
        if row["vanished"]:
            line += f" ({', '.join(row['vanished_comms'])})"
        if row["reaped_children_s"]:
            line += f"; exited children {row['reaped_children_s']:.2f} s"
        print(line)
        for role, seconds in row.get("by_role", {}).items():
            sub = f"  {role:<20}{seconds:>9.2f}{seconds * 100 / window:>12.1f}%"
            if moves:
                sub += f"{seconds * 1000 / moves:>10.2f}"
            print(sub)
    total = result["total_cpu_s"]
    line = f"{'total':<22}{total:>9.2f}{total * 100 / window:>12.1f}%"
    if moves:
        line += f"{result['total_ms_per_move']:>10.2f}"
    left_out = list(result.get("extra_kinds") or [])
    if result.get("database"):
        left_out.append(f"postgres sessions of databases other than {result['database']}")
    print(line + f"   ({total * 100 / (window * cpus):.0f} % of all cores"
          + (f"; without {', '.join(left_out)})" if left_out else ")"))
    if "host_busy_s" in result:
        busy = result["host_busy_s"]
        print(f"whole host     {busy:>9.2f} s busy ({busy * 100 / (window * cpus):.0f} % of all cores), "
              f"steal {result['host_steal_s']:.2f} s; not counted above: {busy - total:.2f} s")
    vanished = sum(row["vanished"] for row in result["kinds"].values())
    print(f"vanished processes: {vanished} (their CPU after the first snapshot is counted only if a counted "
          "parent reaped them)")
    if result["missing"]:
        print(f"not found: {', '.join(result['missing'])}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", default=os.environ.get("BENCH_DIR", "/tmp/okey-bench"),
                        help="BENCH_DIR of bench/serve.sh (its *.pid files); default $BENCH_DIR or /tmp/okey-bench")
    parser.add_argument("--pid", action="append", default=[], metavar="KIND=PID",
                        help="also count this process tree as KIND (repeatable)")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("snapshot", help="print a JSON snapshot of the CPU times")
    d = sub.add_parser("diff", help="CPU per kind between two snapshots")
    d.add_argument("start")
    d.add_argument("end")
    d.add_argument("--moves", type=int, help="moves played in the window: prints CPU-ms per move")
    d.add_argument("--db", help="the bench's database: other databases' live PostgreSQL sessions are left out "
                   "of the total")
    d.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    args = parser.parse_args()
    if args.command == "snapshot":
        extra = []
        for item in args.pid:
            kind, _, pid = item.rpartition("=")
            if not kind or not pid.isdigit():
                parser.error(f"--pid wants KIND=PID, not {item!r}")
            extra.append((kind, int(pid)))
        bench_dir = Path(args.dir) if args.dir else None
        json.dump(snapshot(bench_dir, extra), sys.stdout)
        print()
        return 0
    a = json.loads(Path(args.start).read_text())
    b = json.loads(Path(args.end).read_text())
    result = diff(a, b, args.moves, args.db)
    if args.json:
        print(json.dumps(result))
    else:
        print_diff(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
