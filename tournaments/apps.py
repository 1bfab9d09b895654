import threading

from django.apps import AppConfig
from django.conf import settings


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Turnuvalar"

    def ready(self) -> None:
        from games.apps import serving_in_this_process

        from . import receivers  # noqa: F401 (connects the games app's signals)

        if settings.CELERY_INPROCESS_WORKER and serving_in_this_process():
            # Embedded mode (no celery beat): what the beat schedule does on a real deployment.
            threading.Thread(target=run_sweep, args=(threading.Event(),), name="okey-tournaments", daemon=True).start()


def run_sweep(stop: threading.Event) -> None:
    from django.apps import apps

    if not apps.ready_event.wait(timeout=120):
        return
    from tournaments import services

    while not stop.wait(settings.TOURNAMENT_SWEEP_SECONDS):
        try:
            services.sweep()
        except Exception:  # the sweep must never take the site down; the next tick retries
            pass
