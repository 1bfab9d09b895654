"""Operations: /healthz, request ids in logs, the proxy's client address (issue 11 item 9, issue 10 item 7)."""

from __future__ import annotations

import asyncio
import json
import logging

import pytest
from django.test import RequestFactory

from okeysite import health
from okeysite.observability import (
    JsonFormatter,
    RequestIdFilter,
    RequestIdMiddleware,
    SocketIdMiddleware,
    request_id,
)
from okeysite.proxy import TrustedProxyMiddleware, client_from_forwarded_for


@pytest.mark.django_db
def test_healthz_reports_each_check_and_is_public(client, settings):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["checks"]["database"] == "ok" and body["checks"]["migrations"] == "ok"
    assert ("redis" in body["checks"]) == bool(settings.REDIS_URL)
    assert "no-cache" in response.headers["Cache-Control"] or "max-age=0" in response.headers["Cache-Control"]


@pytest.mark.django_db
@pytest.mark.allow_server_errors  # the 503 is the point; Django logs every 5xx as an error
def test_healthz_fails_with_503_and_no_details_when_a_dependency_fails(client, monkeypatch, caplog):
    def unreachable():
        raise ConnectionError("redis://secret-password@10.0.0.5:6379 refused")

    monkeypatch.setitem(health.CHECKS, "redis", unreachable)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "failing", "checks": {"database": "ok", "migrations": "ok", "redis": "failing"}}
    assert "secret-password" not in response.content.decode()
    assert "Traceback" not in caplog.text and "secret-password" not in caplog.text


@pytest.mark.django_db
@pytest.mark.allow_server_errors  # the 503 is the point; Django logs every 5xx as an error
def test_healthz_fails_when_a_migration_is_not_applied(client, monkeypatch):
    monkeypatch.setitem(health.CHECKS, "migrations", lambda: False)
    assert client.get("/healthz").status_code == 503


def test_healthz_refuses_posts(client):
    assert client.post("/healthz").status_code == 405


def captured_records():
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record):
            records.append(record)

    handler = Keep()
    handler.addFilter(RequestIdFilter())
    return records, handler


def test_every_log_line_of_a_request_carries_its_id_and_the_response_echoes_it():
    records, handler = captured_records()
    logger = logging.getLogger("tests.operations")
    logger.addHandler(handler)
    try:
        def view(request):
            logger.warning("inside the view")
            from django.http import HttpResponse
            return HttpResponse("ok")

        response = RequestIdMiddleware(view)(RequestFactory().get("/", HTTP_X_REQUEST_ID="abcdef12-proxy"))
        assert response["X-Request-ID"] == "abcdef12-proxy"
        assert records[0].request_id == "abcdef12-proxy"
        # A malformed id from outside is replaced, not logged as given (log injection).
        response = RequestIdMiddleware(view)(RequestFactory().get("/", HTTP_X_REQUEST_ID="bad\nid id"))
        assert response["X-Request-ID"] != "bad\nid id" and len(response["X-Request-ID"]) == 32
        assert records[1].request_id == response["X-Request-ID"]
    finally:
        logger.removeHandler(handler)
    assert request_id.get() == "-"


def test_json_log_lines_are_one_object_each():
    record = logging.LogRecord("games", logging.WARNING, __file__, 1, "move %s refused", ("12",), None)
    record.request_id = "ws-1234abcd"
    line = JsonFormatter().format(record)
    assert json.loads(line) == {**json.loads(line), "level": "WARNING", "logger": "games",
                                "message": "move 12 refused", "request_id": "ws-1234abcd"}
    assert "\n" not in line


def test_a_socket_keeps_one_id_for_its_whole_life():
    seen = []

    async def app(scope, receive, send):
        seen.append(request_id.get())
        await asyncio.sleep(0)
        seen.append(request_id.get())

    asyncio.run(SocketIdMiddleware(app)({"type": "websocket", "headers": []}, None, None))
    assert seen[0] == seen[1] and seen[0].startswith("ws-")


@pytest.mark.parametrize(("header", "hops", "client"), [
    ("6.6.6.6, 203.0.113.9", 1, "203.0.113.9"),      # the proxy appended what it saw
    ("203.0.113.9", 1, "203.0.113.9"),               # nginx overwrote the header
    ("6.6.6.6, 203.0.113.9, 10.0.0.2", 2, "203.0.113.9"),
    ("6.6.6.6", 0, None),                            # no proxy trusted: the header means nothing
    ("", 1, None),
    ("not-an-address, also-not", 1, None),
    ("2001:db8::1", 1, "2001:db8::1"),
    ("203.0.113.9", 2, None),                        # fewer entries than trusted hops
])
def test_the_client_is_the_address_our_nearest_trusted_proxy_saw(header, hops, client):
    assert client_from_forwarded_for(header, hops) == client


@pytest.mark.parametrize("kind", ["http", "websocket"])
def test_the_proxy_middleware_rewrites_the_scope_client_for_pages_and_sockets(kind):
    seen = {}

    async def app(scope, receive, send):
        seen["client"] = scope["client"]

    scope = {"type": kind, "client": ("10.0.0.2", 5555), "headers": [(b"x-forwarded-for", b"6.6.6.6, 203.0.113.9")]}
    asyncio.run(TrustedProxyMiddleware(app, hops=1)(scope, None, None))
    assert seen["client"] == ("203.0.113.9", 5555)
    asyncio.run(TrustedProxyMiddleware(app, hops=0)(scope, None, None))
    assert seen["client"] == ("10.0.0.2", 5555)
