"""Request and socket ids in every log line.

Each HTTP request and each WebSocket connection gets an id (a proxy's ``X-Request-ID`` when it is
well-formed, else a fresh one), kept in a context variable so that every log record written while
serving it carries it — including records from code run in threads through ``sync_to_async``, which
copies the context. The id is echoed in the ``X-Request-ID`` response header so a player's report
("it said error at 21:04") can be matched to the server's lines.
"""

from __future__ import annotations

import contextvars
import json
import logging
import re
import uuid

request_id: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="-")
_WELL_FORMED = re.compile(r"^[A-Za-z0-9._-]{8,64}$")


def new_request_id(offered: str | None) -> str:
    return offered if offered and _WELL_FORMED.match(offered) else uuid.uuid4().hex


class RequestIdMiddleware:
    """Django middleware for HTTP requests (sync and async)."""

    sync_capable = True
    async_capable = False

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        rid = new_request_id(request.headers.get("X-Request-ID"))
        token = request_id.set(rid)
        try:
            response = self.get_response(request)
        finally:
            request_id.reset(token)
        response["X-Request-ID"] = rid
        return response


class SocketIdMiddleware:
    """ASGI middleware: one id per WebSocket connection, for the whole life of its consumer."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket":
            return await self.app(scope, receive, send)
        headers = dict(scope.get("headers") or ())
        offered = headers.get(b"x-request-id", b"").decode("latin-1")
        token = request_id.set("ws-" + new_request_id(offered))
        try:
            return await self.app(scope, receive, send)
        finally:
            request_id.reset(token)


class RequestIdFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, request id, and the traceback if any."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S%z"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", request_id.get()),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)
