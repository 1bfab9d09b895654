#!/usr/bin/env bash
# Start (or stop) the servers bench/load.py is measured against; see BENCHMARKS.md, "Load".
#
#   bench/serve.sh embedded        # one dev server: SQLite, in-memory layer, in-process Celery (port 8100)
#   bench/serve.sh scaled          # PostgreSQL + Redis: web servers on 8101 and 8102, a Celery worker and beat
#   bench/serve.sh stop            # stop what this script started (by the pids it wrote)
#
# Both use okeysite.settings_bench (MD5 password hashes, no per-IP login limit: every bench client
# signs in from 127.0.0.1). Environment: BENCH_DIR (pids, logs, the SQLite file; /tmp/okey-bench),
# BENCH_PG (postgres://postgres@127.0.0.1:5432/okey_bench), BENCH_REDIS (redis://127.0.0.1:6379/5).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
DIR=${BENCH_DIR:-/tmp/okey-bench}
mkdir -p "$DIR"
export DJANGO_SETTINGS_MODULE=okeysite.settings_bench

start() {  # name, command...
  local name=$1; shift
  setsid nohup "$@" >"$DIR/$name.log" 2>&1 &
  echo $! >"$DIR/$name.pid"
}

wait_http() {  # url: poll until it answers (at most 60 s)
  for _ in $(seq 1 120); do
    if curl -fs -o /dev/null "$1"; then return 0; fi
    sleep 0.5
  done
  echo "no answer from $1" >&2; return 1
}

case "${1:-}" in
  embedded)
    export DATABASE_URL=${BENCH_SQLITE:-sqlite:///$DIR/embedded.sqlite3}
    unset REDIS_URL
    $BIN/python manage.py migrate --noinput >/dev/null
    start embedded $BIN/python manage.py runserver --noreload 127.0.0.1:8100
    wait_http http://127.0.0.1:8100/accounts/login/
    echo "embedded: http://127.0.0.1:8100  (DATABASE_URL=$DATABASE_URL)"
    ;;
  scaled)
    export DATABASE_URL=${BENCH_PG:-postgres://postgres@127.0.0.1:5432/okey_bench}
    export REDIS_URL=${BENCH_REDIS:-redis://127.0.0.1:6379/5}
    export DEBUG=0 STATIC_HASHED=0 SECRET_KEY=${SECRET_KEY:-$(python3 -c "import secrets; print(secrets.token_urlsafe(64))")}
    export DB_POOL_MAX_SIZE=${DB_POOL_MAX_SIZE:-8}
    db=${DATABASE_URL##*/}
    psql -h 127.0.0.1 -U postgres -tc "SELECT 1 FROM pg_database WHERE datname='$db'" | grep -q 1 \
      || psql -h 127.0.0.1 -U postgres -c "CREATE DATABASE $db" >/dev/null
    $BIN/python manage.py migrate --noinput >/dev/null
    # The production web server (okeysite/web.py); WEB_SERVER=daphne for the one make run uses.
    for port in 8101 8102; do
      if [ "${WEB_SERVER:-uvicorn}" = daphne ]; then
        start "web-$port" $BIN/daphne -b 127.0.0.1 -p "$port" okeysite.asgi:application
      else
        start "web-$port" $BIN/python -m okeysite.web --host 127.0.0.1 --port "$port" --log-level warning
      fi
    done
    start worker env DB_POOL_MAX_SIZE=0 CELERY_DB_REUSE_MAX=100 \
      $BIN/celery -A okeysite worker -l warning --concurrency "${WORKER_CONCURRENCY:-2}"
    start beat env DB_POOL_MAX_SIZE=0 $BIN/celery -A okeysite beat -l warning --schedule "$DIR/celerybeat-schedule"
    wait_http http://127.0.0.1:8101/accounts/login/
    wait_http http://127.0.0.1:8102/accounts/login/
    echo "scaled: http://127.0.0.1:8101,http://127.0.0.1:8102  (DATABASE_URL=$DATABASE_URL REDIS_URL=$REDIS_URL)"
    ;;
  stop)
    for pidfile in "$DIR"/*.pid; do
      [ -e "$pidfile" ] || continue
      pid=$(cat "$pidfile")
      kill -- "-$pid" 2>/dev/null || kill "$pid" 2>/dev/null || true
      for _ in $(seq 1 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
      kill -9 -- "-$pid" 2>/dev/null || true
      rm -f "$pidfile"
    done
    ;;
  *)
    echo "usage: $0 embedded|scaled|stop" >&2; exit 2 ;;
esac
