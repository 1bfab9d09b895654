"""``/healthz`` for the proxy and orchestrators: 200 when this process can serve, 503 when not.

Checks what a page or a move needs: the database answers, every migration is applied (a web process
started before ``migrate`` finished would fail on the first new column), and Redis — the channel
layer, cache and Celery broker — answers when one is configured. The body names each check and never
carries connection strings or error texts (it is public).
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

log = logging.getLogger(__name__)


def database_ok() -> bool:
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute("SELECT 1")
        return cursor.fetchone() == (1,)


def migrations_applied() -> bool:
    connection = connections[DEFAULT_DB_ALIAS]
    executor = MigrationExecutor(connection)
    return not executor.migration_plan(executor.loader.graph.leaf_nodes())


def redis_ok() -> bool | None:
    """None when the site runs without Redis (embedded mode)."""
    if not settings.REDIS_URL:
        return None
    import redis

    client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2, socket_timeout=2)
    try:
        return bool(client.ping())
    finally:
        client.close()


CHECKS = {"database": database_ok, "migrations": migrations_applied, "redis": redis_ok}


@never_cache
@require_GET
def healthz(request):
    results: dict[str, str] = {}
    for name, check in CHECKS.items():
        try:
            outcome = check()
        except Exception as error:  # noqa: BLE001 - any failure of a dependency is "not healthy", and logged
            log.warning("health check %s failed: %s", name, type(error).__name__)
            outcome = False
        if outcome is not None:
            results[name] = "ok" if outcome else "failing"
    healthy = all(value == "ok" for value in results.values())
    return JsonResponse({"status": "ok" if healthy else "failing", "checks": results}, status=200 if healthy else 503)
