"""Browser tests: a real ASGI server (daphne) on a free port, and headless Debian Chromium.

Reusable by every app's browser tests:

* ``asgi_live_server`` — the site served by daphne from a thread of the test process, against
  the test database (works with the in-memory SQLite default, which a subprocess could not see,
  and with PostgreSQL). HTTP and WebSockets; static files served as in development.
* ``browser`` — one Chromium per test module; ``new_page(user=None, viewport=None)`` — a fresh
  context (cookies of its own, signed in as ``user`` when given) whose console errors fail the test.
* ``login_cookie(user)`` — a session cookie for ``user``, so tests skip the login form when the
  login form is not what they test.
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
EXPECT_TIMEOUT_MS = 10_000


class LiveServer:
    """daphne on the twisted reactor, in a daemon thread (the reactor runs once per process)."""

    def __init__(self) -> None:
        self.port = 0
        self.thread: threading.Thread | None = None
        self.error: BaseException | None = None
        self.server: Any = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20.0) -> None:
        from daphne.server import Server  # installs the asyncio reactor: import here, not at module import
        from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

        from okeysite.asgi import application

        self.server = Server(
            ASGIStaticFilesHandler(application),
            endpoints=["tcp:port=0:interface=127.0.0.1"],
            signal_handlers=False,
            verbosity=0,
        )

        def run() -> None:
            try:
                self.server.run()
            except BaseException as error:  # pragma: no cover - surfaced by start()
                self.error = error

        self.thread = threading.Thread(target=run, name="daphne-live-server", daemon=True)
        self.thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.listening_addresses:
            if self.error is not None or time.monotonic() > deadline:
                raise RuntimeError(f"daphne did not start: {self.error!r}")
            time.sleep(0.05)
        self.port = self.server.listening_addresses[0][1]

    def stop(self) -> None:
        from twisted.internet import reactor

        if reactor.running:
            reactor.callFromThread(reactor.stop)
        if self.thread is not None:
            self.thread.join(timeout=10)


@pytest.fixture(scope="session")
def _asgi_server(django_db_setup: None) -> Iterator[LiveServer]:
    server = LiveServer()
    server.start()
    yield server
    server.stop()


def wait_until(condition: Callable[[], bool], timeout: float = 10.0, message: str = "condition") -> None:
    """Poll a condition (never a fixed sleep): for server-side effects the browser cannot see."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {message}")
        time.sleep(0.05)


@pytest.fixture
def asgi_live_server(_asgi_server: LiveServer, transactional_db: None, settings: Any) -> Iterator[LiveServer]:
    """The running server for one test; its data is committed so the server thread sees it."""
    from django.core.cache import cache

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cache.clear()
    yield _asgi_server
    # Let sockets of closed pages finish their goodbyes before the database is flushed.
    from salons.models import RoomPresence

    try:
        wait_until(lambda: not RoomPresence.objects.exists(), timeout=5, message="room sockets to close")
    except AssertionError:
        pass
    # The server may still be reading for an after-commit event (lobby counts): on PostgreSQL that
    # read and the flush's TRUNCATE can deadlock, and then the flush fails the test. Let it finish.
    try:
        wait_until(_no_other_busy_session, timeout=3, message="the server's reads to end")
    except AssertionError:
        pass
    cache.clear()


@pytest.fixture
def machine_pace(settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A test that plays whole matches as fast as the page answers sends more messages than a
    person can: the message budget (``okeysite/sockets.py``) turned such a test's move away now and
    then ("Çok hızlı") and it waited for a move that never came. The budget has its own tests
    (``tests/site/test_socket_guards.py``); here it is made wide enough for a machine's pace."""
    from okeysite import sockets

    settings.SOCKET_MESSAGES_PER_WINDOW = 100_000
    monkeypatch.setattr(sockets.ConnectionBucket, "RATE_BURST", 10_000)
    monkeypatch.setattr(sockets.ConnectionBucket, "RATE_PER_SECOND", 10_000.0)


def _no_other_busy_session() -> bool:
    from django.db import connection

    if connection.vendor != "postgresql":
        return True
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                       "AND pid <> pg_backend_pid() AND state NOT IN ('idle')")
        return cursor.fetchone()[0] == 0


@pytest.fixture(scope="module")
def _playwright() -> Iterator[Any]:
    """Playwright per test module: its sync API keeps an event loop running in the main thread,
    which must be gone before other apps' async tests run in the same session."""
    from playwright.sync_api import sync_playwright

    # With that loop running, Django's ORM would refuse to run in the test thread ("async
    # context"); the ORM calls of browser tests are plain synchronous set-up code, so allow them
    # for the module only.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            yield playwright
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture(scope="module")
def browser(_playwright: Any) -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        # A missing browser is a broken set-up, never a reason to pass: `make test` installs it.
        pytest.fail(f"Chromium not found at {CHROMIUM} (apt-get install -y chromium)", pytrace=False)
    from playwright.sync_api import expect

    expect.set_options(timeout=EXPECT_TIMEOUT_MS)
    browser = _playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.fixture
def login_cookie(asgi_live_server: LiveServer) -> Callable[[Any], dict[str, Any]]:
    def make(user: Any) -> dict[str, Any]:
        from django.conf import settings
        from django.test import Client

        client = Client()
        client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
        session = client.cookies[settings.SESSION_COOKIE_NAME].value
        return {"name": settings.SESSION_COOKIE_NAME, "value": session, "url": asgi_live_server.url}

    return make


@pytest.fixture
def new_page(browser: Any, asgi_live_server: LiveServer, login_cookie: Callable[[Any], dict[str, Any]]) -> Iterator[Callable[..., Any]]:
    """Open pages in fresh browser contexts; any console error or page error fails the test.

    A test that expects an error status (e.g. a 403 page) adds a regex to ``new_page.allow``.
    """
    contexts: list[Any] = []
    problems: list[str] = []

    def open_page(user: Any = None, *, viewport: dict[str, int] | None = None, language: str = "tr-TR") -> Any:
        context = browser.new_context(
            base_url=asgi_live_server.url,
            viewport=viewport or {"width": 1280, "height": 900},
            locale=language,
        )
        if user is not None:
            context.add_cookies([login_cookie(user)])
        context.set_default_timeout(EXPECT_TIMEOUT_MS)
        page = context.new_page()
        page.on("console", lambda msg: problems.append(f"console {msg.type}: {msg.text}") if msg.type == "error" else None)
        page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
        contexts.append(context)
        return page

    open_page.allow = []  # type: ignore[attr-defined]
    yield open_page
    for context in contexts:
        context.close()
    problems = [p for p in problems if not any(re.search(pattern, p) for pattern in open_page.allow)]  # type: ignore[attr-defined]
    assert not problems, "browser reported errors:\n" + "\n".join(problems)
