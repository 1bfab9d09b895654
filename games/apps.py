import os
import sys
import threading

from django.apps import AppConfig
from django.conf import settings


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Oyunlar"

    def ready(self) -> None:
        from games import services  # noqa: F401  (its receiver closes practice when a player sits elsewhere)

        if settings.CELERY_INPROCESS_WORKER and serving_in_this_process():
            # Not from here: ready() runs inside django.setup(), and Celery's Django fix-up calls
            # django.setup() again when its worker starts ("populate() isn't reentrant").
            threading.Thread(target=start_when_apps_ready, name="okey-worker-start", daemon=True).start()


def serving_in_this_process() -> bool:
    """True in the dev server's serving process (not the autoreloader's watcher, not tests)."""
    if len(sys.argv) < 2 or sys.argv[1] != "runserver":
        return False
    return "--noreload" in sys.argv or os.environ.get("RUN_MAIN") == "true"


_running: list = []


def start_when_apps_ready() -> None:
    from django.apps import apps

    if apps.ready_event.wait(timeout=120):
        start_inprocess_worker()


def start_inprocess_worker() -> None:
    """Embedded mode: a Celery worker thread on the in-memory broker, plus a beat-like thread (turn clock, sweep),
    so turn deadlines work with no Redis and no extra process (DESIGN.md, "Services and defaults")."""
    from celery.contrib.testing.worker import start_worker

    # Register the tasks before the worker starts consuming: an unknown task is dropped.
    import games.tasks  # noqa: F401
    import moderation.tasks  # noqa: F401
    from okeysite.celery import app

    worker = start_worker(app, pool="solo", concurrency=1, perform_ping_check=False, loglevel="WARNING",
                          shutdown_timeout=5)
    worker.__enter__()
    # Keep the context manager alive: once garbage-collected, its generator closes and stops the worker.
    _running.append(worker)

    threading.Thread(target=run_beat, args=(threading.Event(),), name="okey-beat", daemon=True).start()


# The sweep runs every this many seconds (as CELERY_BEAT_SCHEDULE says for real deployments).
SWEEP_SECONDS = 10


def run_beat(stop: threading.Event) -> None:
    """What celery beat does on a real deployment: the turn clock every tick, the sweep every 10 s
    (until ``stop`` is set)."""
    from games.tasks import sweep, turn_clock

    ticks = 0
    while not stop.wait(settings.TURN_CLOCK_SECONDS):
        ticks += 1
        try:
            turn_clock.delay()
            if ticks % max(1, round(SWEEP_SECONDS / settings.TURN_CLOCK_SECONDS)) == 0:
                sweep.delay()
        except Exception:  # the clock must never take the site down; the next tick retries
            pass
