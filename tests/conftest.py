"""Shared factories: players (with a verified e-mail, so they can log in through allauth), salons
and rooms opened through the real service. Plain functions plus thin fixtures around them."""

from __future__ import annotations

import asyncio
import itertools
import logging
from typing import Any

import pytest
from django.core.management.base import CommandError
from django.test import testcases


def _flush_retrying_a_deadlock(original):
    """A transactional test ends with a flush (TRUNCATE of every table). A live server's thread may
    still be reading for an after-commit event (lobby counts), and PostgreSQL may then pick the
    TRUNCATE as the deadlock's victim: the test's data is the same, so the flush is simply tried
    again instead of failing a test that passed."""

    def teardown(self):
        for attempt in range(3):
            try:
                return original(self)
            except CommandError as error:
                if "deadlock detected" not in str(error.__cause__ or "") or attempt == 2:
                    raise

    return teardown


testcases.TransactionTestCase._fixture_teardown = _flush_retrying_a_deadlock(
    testcases.TransactionTestCase._fixture_teardown)

PASSWORD = "Okey-Parola-2024!"
_numbers = itertools.count(1)


def make_player(nickname: str | None = None, *, email: str | None = None, password: str = PASSWORD, verified: bool = True, **fields: Any):
    """A player who can sign in with nickname or e-mail and ``PASSWORD``."""
    from allauth.account.models import EmailAddress
    from django.contrib.auth import get_user_model

    nickname = nickname or f"oyuncu{next(_numbers)}"
    email = email or f"{nickname.lower()}.{next(_numbers)}@private.example"
    user = get_user_model().objects.create_user(username=nickname, email=email, password=password, **fields)
    EmailAddress.objects.create(user=user, email=email, primary=True, verified=verified)
    return user


def make_salon(slug: str = "genel", **fields: Any):
    from salons.models import Salon

    defaults = {"name": slug.capitalize(), "description": "", "min_stake": 10, "max_stake": 1000, **fields}
    salon, _ = Salon.objects.get_or_create(slug=slug, defaults=defaults)
    return salon


def make_room(*, owner=None, salon=None, name: str = "Keyif Odası", rules: dict | None = None, **options: Any):
    """A room opened through ``salons.services.open_room`` (so tables and seats exist as in real life)."""
    from games.engine.rules import RuleSet
    from salons import services

    return services.open_room(
        user=owner or make_player(),
        salon=salon or make_salon(),
        name=name,
        rules=rules if rules is not None else RuleSet().to_dict(),
        **options,
    )


@pytest.fixture
def player_factory(db):
    return make_player


@pytest.fixture
def salon(db):
    return make_salon()


@pytest.fixture
def room_factory(db):
    return make_room


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """After the run, end the connections that server and worker threads left open, so the test
    database can be dropped cleanly on PostgreSQL."""
    yield
    from django.db import connection

    with django_db_blocker.unblock():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )


# -- every test starts in the site's language ---------------------------------------------------------

@pytest.fixture(autouse=True)
def _site_language():
    """The test client's requests activate their language in the test's own thread and leave it
    there, so a test that builds a form or a message directly would read English after an English
    request of another test (order-dependent under pytest-randomly). Start each test in Turkish."""
    from django.utils import translation

    translation.activate("tr")
    yield
    translation.deactivate()


# -- no unhandled exception goes unnoticed ----------------------------------------------------------

# Loggers through which an unhandled exception of the site reaches the log: Django's request handler
# (a 500), daphne, uvicorn and Channels (a socket that crashed: close 1011), asyncio (a task that died), and
# the site's own apps.
SERVER_ERROR_LOGGERS = ("django.request", "django.server", "daphne", "uvicorn.error", "channels", "asyncio",
                        "games", "salons", "moderation", "accounts", "okeysite")


class ServerErrorLog(logging.Handler):
    """Keeps every ERROR record of the loggers above, and any record that carries a traceback."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info and isinstance(record.exc_info[1], asyncio.CancelledError):
            return  # a socket's task cancelled at shutdown (channels_redis logs its unsubscribe): no fault
        if record.name.startswith("django.security."):
            return  # a SuspiciousOperation Django itself answered with a 400: refused, not a crash
        if record.exc_info or record.name.split(".")[0] in SERVER_ERROR_LOGGERS or record.name in SERVER_ERROR_LOGGERS:
            self.records.append(record)

    def report(self) -> str:
        formatter = logging.Formatter("%(name)s %(levelname)s: %(message)s")
        return "\n".join(formatter.format(record) for record in self.records)


@pytest.fixture(scope="session")
def _server_error_log():
    handler = ServerErrorLog()
    root = logging.getLogger()
    root.addHandler(handler)
    yield handler
    root.removeHandler(handler)


@pytest.fixture(autouse=True)
def no_server_errors(request, _server_error_log):
    """Fails any test during which the site logged an unhandled exception or an error (a 500, a
    socket closed with 1011, a traceback). A test that provokes one on purpose says so with
    ``@pytest.mark.allow_server_errors``."""
    _server_error_log.records.clear()
    yield _server_error_log
    if request.node.get_closest_marker("e2e"):
        # Browser tests set data up in the thread where Playwright's sync API runs an event loop, so
        # an event their set-up publishes cannot be sent from there (asgiref refuses): a harness
        # artefact — the site's services never run on an event loop's thread.
        _server_error_log.records[:] = [
            record for record in _server_error_log.records
            if not (record.exc_info and "AsyncToSync in the same thread" in str(record.exc_info[1]))
            # The live server may still be building an after-commit event (lobby counts) when the
            # test database is emptied at the end of the test; PostgreSQL then aborts that read as
            # a deadlock against the TRUNCATE. The test is over: an artefact of the harness.
            and not (record.exc_info and "deadlock detected" in str(record.exc_info[1])
                     and "TRUNCATE" not in str(record.exc_info[1]))
        ]
    if _server_error_log.records and not request.node.get_closest_marker("allow_server_errors"):
        report = _server_error_log.report()
        _server_error_log.records.clear()
        pytest.fail(f"the site logged errors during this test:\n{report}", pytrace=False)
