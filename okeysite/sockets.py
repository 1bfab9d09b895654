"""Guards every WebSocket of the site shares, in one place (docs/protocol.md, docs/security.md).

* ``OriginGuard`` — a socket opens only from a page of this site: the ``Origin`` header's scheme,
  host and port must be the socket's own (its ``Host``, an allowed host) or one of
  ``CSRF_TRUSTED_ORIGINS`` — Django's CSRF rule for forms, applied to sockets. Refused at the
  handshake (HTTP 403): a page of another site learns nothing.
* ``SocketLimits`` — at most ``SOCKETS_PER_USER`` open sockets per user and ``SOCKETS_PER_ADDRESS``
  per client address, counted in the cache (shared by every server process) as leases that expire
  unless renewed, so a crashed process cannot hold slots for ever. And a message budget per user
  (per address when anonymous), shared by all their sockets, which every frame spends — malformed
  and oversized ones too — before any consumer reads it.
* ``decode_frame`` — the one JSON decoder of client frames: bounded size and depth, no lone
  surrogates, always a dict with a string ``type``; bad input is a ``FrameError``, never a crash.
* ``language_of`` / ``in_language`` — error messages in the language the person reads the site in.
* ``NotFoundConsumer`` — any other socket path: accepted, told, closed with 4404.

Close codes (after the socket was accepted, with an ``error`` frame first that says why and carries
the coming code as ``close``):
4401 log in, 4403 not allowed here (removed, banned, private room), 4404 no such table/room/path,
4410 the room was closed, 4429 too many sockets. The client does not reconnect after any of them.
4001 (no error frame): the user's sessions changed (a new password); reconnect, and the handshake
decides again who you are.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import threading
import time
import uuid
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import urlsplit

import orjson
import redis.asyncio as redis_asyncio
from asgiref.sync import sync_to_async
from autobahn.exception import Disconnected
from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.core.cache import cache, caches
from django.core.cache.backends.redis import RedisCache
from django.http.request import split_domain_port, validate_host
from django.utils import translation
from django.utils.http import is_same_domain
from django.utils.translation import gettext_lazy
from redis.exceptions import RedisError
from uvicorn.protocols.utils import ClientDisconnected

log = logging.getLogger(__name__)

CLOSE_REAUTHENTICATE = 4001
CLOSE_LOGIN = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_GONE = 4410
CLOSE_TOO_MANY = 4429

# Client frames are small objects of scalars ({"type": "discard", "move": 12, "tile": "K5"}).
MAX_DEPTH = 4

# The clock of the message budget's windows; tests move it instead of waiting.
clock: Callable[[], float] = time.time


def setting(name: str, default: Any) -> Any:
    return getattr(settings, name, default)


# -- language -------------------------------------------------------------------------------------


def language_of(scope: dict[str, Any]) -> str:
    """The language the person reads pages in: the language cookie, else Accept-Language."""
    supported = {code for code, _name in settings.LANGUAGES}
    cookie = (scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME)
    candidates = [cookie] if cookie else []
    accept = header(scope, b"accept-language")
    candidates += [lang for lang, _q in translation.trans_real.parse_accept_lang_header(accept)]
    for candidate in candidates:
        if not candidate or candidate == "*":
            continue
        base = candidate.lower().split("-")[0]
        if base in supported:
            return base
    return settings.LANGUAGE_CODE


def in_language(language: str, func: Callable[..., Any]) -> Callable[..., Any]:
    """``func`` run with ``language`` active: messages made inside it (services' errors) are in it."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with translation.override(language):
            return func(*args, **kwargs)

    return wrapper


def header(scope: dict[str, Any], name: bytes) -> str:
    for key, value in scope.get("headers") or []:
        if key == name:
            return value.decode("latin-1")
    return ""


def error_frame(scope: dict[str, Any], code: str, message: Any, *, close: int | None = None) -> str:
    """An ``error`` frame in the person's language; ``close``: the code the socket closes with next
    (servers such as daphne drop a close frame's reason text, so the frame says it)."""
    frame: dict[str, Any] = {"type": "error", "code": code}
    with translation.override(language_of(scope)):
        frame["message"] = str(message)
    if close is not None:
        frame["close"] = close
    return orjson.dumps(frame).decode()


# -- decoding client frames -------------------------------------------------------------------------


class FrameError(Exception):
    """A client frame the site cannot read: answered with an ``error`` frame of this code."""

    def __init__(self, code: str, message: Any):
        super().__init__(code)
        self.code = code
        self.message = message


def decode_frame(text_data: str | None, *, max_bytes: int) -> dict[str, Any]:
    """The frame as a dict with a string ``type``, or ``FrameError``.

    orjson refuses lone surrogates (``"\\ud800"``, which PostgreSQL and every encoder choke on),
    NaN/Infinity and nesting past its limit without recursing in Python; the depth check here then
    keeps anything but flat frames away from the services.
    """
    if text_data is None:
        raise FrameError("bad_message", gettext_lazy("Mesaj metin değil."))
    try:
        raw = text_data.encode()
    except UnicodeEncodeError:
        raise FrameError("bad_message", gettext_lazy("Mesaj JSON değil.")) from None
    if len(raw) > max_bytes:
        raise FrameError("bad_message", gettext_lazy("Mesaj çok büyük."))
    try:
        content = orjson.loads(raw)
    except (orjson.JSONDecodeError, RecursionError):
        raise FrameError("bad_message", gettext_lazy("Mesaj JSON değil.")) from None
    if depth(content) > MAX_DEPTH:
        raise FrameError("bad_message", gettext_lazy("Mesaj çok iç içe."))
    if not isinstance(content, dict) or not isinstance(content.get("type"), str):
        raise FrameError("bad_message", gettext_lazy("Mesajın bir türü olmalı."))
    return content


def depth(value: Any) -> int:
    """Nesting depth, without recursion (a scalar is 0, ``{}`` is 1)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, level)
            stack.extend((child, level + 1) for child in item)
    return deepest


# -- origin -----------------------------------------------------------------------------------------


def origin_allowed(scope: dict[str, Any]) -> bool:
    """Scheme, host and port of ``Origin`` are this socket's own or a trusted origin."""
    origin = header(scope, b"origin").strip()
    if not origin or origin == "null":
        return False
    try:
        parts = urlsplit(origin)
        origin_port = parts.port
    except ValueError:
        return False
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path not in ("", "/"):
        return False
    origin_port = origin_port or (443 if parts.scheme == "https" else 80)
    for trusted in settings.CSRF_TRUSTED_ORIGINS:
        if trusted_match(parts.scheme, parts.hostname, origin_port, trusted):
            return True
    # Same origin: the Host the socket was opened on (an allowed host), over the same scheme.
    host = header(scope, b"host").lower()
    domain, _port = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return False
    scheme = "https" if socket_is_secure(scope) else "http"
    try:
        host_parts = urlsplit(f"{scheme}://{host}")
        host_port = host_parts.port or (443 if scheme == "https" else 80)
    except ValueError:
        return False
    return (parts.scheme, parts.hostname, origin_port) == (scheme, host_parts.hostname, host_port)


def trusted_match(scheme: str, hostname: str, port: int, trusted: str) -> bool:
    """Django's CSRF_TRUSTED_ORIGINS rule: exact scheme and port, host exact or ``*.domain``."""
    try:
        pattern = urlsplit(trusted)
        pattern_port = pattern.port or (443 if pattern.scheme == "https" else 80)
    except ValueError:
        return False
    netloc_host = pattern.netloc.rsplit("@", 1)[-1]
    pattern_host = netloc_host.rsplit(":", 1)[0] if not netloc_host.endswith("]") else netloc_host
    pattern_host = pattern_host.lower()
    if pattern.scheme != scheme or pattern_port != port:
        return False
    if pattern_host.startswith("*."):
        return is_same_domain(hostname, pattern_host[1:]) and hostname != pattern_host[2:]
    return hostname == pattern_host.strip("[]")


def socket_is_secure(scope: dict[str, Any]) -> bool:
    if scope.get("scheme") == "wss":
        return True
    proxy_header = setting("SECURE_PROXY_SSL_HEADER", None)
    if proxy_header:
        name, value = proxy_header
        wanted = name.lower().removeprefix("http_").replace("_", "-").encode()
        return header(scope, wanted).split(",")[0].strip() == value
    return False


class OriginGuard:
    """Refuse a socket opened by a page of another origin before anything else runs."""

    def __init__(self, inner: Any):
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not origin_allowed(scope):
            message = await receive()
            if message["type"] == "websocket.connect":
                await send({"type": "websocket.close", "code": CLOSE_FORBIDDEN})
            return None
        return await self.inner(scope, receive, send)


# -- connection caps and the message budget -----------------------------------------------------------


def client_address(scope: dict[str, Any]) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def lease_seconds() -> int:
    return int(setting("SOCKET_LEASE_SECONDS", 90))


# One lease set per user or address: owner -> expiry (``clock()`` seconds). On Redis a sorted set,
# claimed by one script (drop expired leases, count, add), so a cap costs one round trip whatever
# its size; a key per slot (the first version) read all ``cap`` keys on every connect: 0.45 s each
# with the bench's cap of 100,000, and every socket of a tournament round queued behind it.
CLAIM_LEASE = """
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if not redis.call('ZSCORE', KEYS[1], ARGV[4]) and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  return 0
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return 1
"""
_local_leases_lock = threading.Lock()  # the fallback (local memory cache: one process) is read-modify-write


def _redis_client(key: str) -> tuple[Any, str] | None:
    backend = caches["default"]
    if not isinstance(backend, RedisCache):
        return None
    full_key = backend.make_and_validate_key(key)
    # Django builds a new client object on every call (copying redis-py's table of response
    # callbacks): kept here, on the backend's own client, for every lease claimed, renewed and released.
    cache_client = backend._cache
    client = getattr(cache_client, "_okey_write_client", None)
    if client is None:
        client = cache_client._okey_write_client = cache_client.get_client(full_key, write=True)
    return client, full_key


def claim_slot(kind: str, ident: str, cap: int, owner: str) -> str | None:
    """A lease for one more socket of this user or address (the lease set's key), or None when
    ``cap`` live leases are held already."""
    key = f"socket-leases:{kind}:{ident}"
    now = clock()
    expires = now + lease_seconds()
    redis = _redis_client(key)
    if redis is not None:
        client, full_key = redis
        claimed = client.eval(CLAIM_LEASE, 1, full_key, now, expires, cap, owner, lease_seconds() * 2)
        return key if claimed else None
    with _local_leases_lock:
        leases = {who: until for who, until in (cache.get(key) or {}).items() if until > now}
        if owner not in leases and len(leases) >= cap:
            return None
        leases[owner] = expires
        cache.set(key, leases, lease_seconds() * 2)
    return key


def lease_seconds_left(key: str, owner: str) -> float | None:
    """How long ``owner``'s lease in this set still runs (None: it holds none)."""
    redis = _redis_client(key)
    if redis is not None:
        client, full_key = redis
        until = client.zscore(full_key, owner)
    else:
        until = (cache.get(key) or {}).get(owner)
    if until is None or until <= clock():
        return None
    return float(until) - clock()


def release_slots(keys: list[str], owner: str) -> None:
    """Give back this socket's own leases (never another's)."""
    for key in keys:
        redis = _redis_client(key)
        if redis is not None:
            client, full_key = redis
            client.zrem(full_key, owner)
            continue
        with _local_leases_lock:
            leases = cache.get(key) or {}
            if leases.pop(owner, None) is not None:
                cache.set(key, leases, lease_seconds() * 2)


def budget_key(ident: str) -> tuple[str, int, int]:
    """(key, expiry in seconds, limit) of the budget window this frame falls in."""
    window = int(setting("SOCKET_BUDGET_WINDOW_SECONDS", 10))
    limit = int(setting("SOCKET_MESSAGES_PER_WINDOW", 60))
    return f"socket-budget:{ident}:{int(clock() // window)}", window * 2, limit


# Count, and give a new window its expiry, in one atomic step and one round trip.
SPEND_BUDGET = """
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return count
"""
# An asyncio Redis client per event loop (a server has one; tests open many, hence weak keys). Its
# pool is bounded and waits for a free connection: every socket of a server spends the budget on
# each frame, and at saturation (2,000 tables) redis-py's default pool ran out of its 100
# connections and sockets died with "Too many connections" instead of waiting their turn.
BUDGET_CONNECTIONS = 16
BUDGET_WAIT_SECONDS = 5.0
_loop_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Any] = weakref.WeakKeyDictionary()


def _loop_client(backend: RedisCache) -> Any:
    loop = asyncio.get_running_loop()
    client = _loop_clients.get(loop)
    if client is None:
        pool = redis_asyncio.BlockingConnectionPool.from_url(
            backend._servers[0], max_connections=BUDGET_CONNECTIONS, timeout=BUDGET_WAIT_SECONDS)
        client = _loop_clients[loop] = redis_asyncio.Redis(connection_pool=pool)
    return client


async def spend_budget(ident: str) -> bool:
    """One message of this user's (or address's) budget: True while there is some left.

    A fixed window counted atomically, so every socket of the user on every server draws from the
    same budget without a read-modify-write race. On Redis it is counted from the socket's own
    loop: every frame a server receives spends the budget, and the hop to a thread and back for it
    cost more than the round trip (BENCHMARKS.md, issue 23). The local memory cache (one process,
    embedded mode) has no I/O to wait for and is counted in place.

    If Redis cannot count it (down, or no connection free within ``BUDGET_WAIT_SECONDS``), the frame
    goes through with a warning: the socket's own ``ConnectionBucket`` still bounds it, and a socket
    closed on a cache hiccup would lose the player's move."""
    backend = caches["default"]
    key, expiry, limit = budget_key(ident)
    if not isinstance(backend, RedisCache):
        return _spend_in_local_cache(key, expiry, limit)
    try:
        # Our own keys ("socket-budget:user-7:..."): make_key, not make_and_validate_key, whose
        # memcached-safety scan of every character would run on every frame.
        count = await _loop_client(backend).eval(SPEND_BUDGET, 1, backend.make_key(key), expiry)
    except RedisError as error:
        log.warning("message budget not counted for %s: %s", ident, error)
        return True
    return count <= limit


def _spend_in_local_cache(key: str, expiry: int, limit: int) -> bool:
    if cache.add(key, 1, expiry):
        return True
    try:
        return cache.incr(key) <= limit
    except ValueError:  # expired between add and incr
        cache.add(key, 1, expiry)
        return True


class ConnectionBucket:
    """A burst of ``RATE_BURST`` frames per socket, refilled at ``RATE_PER_SECOND``: one socket
    cannot spend its user's whole budget in one go, and a flood is turned away without the cache."""

    RATE_BURST = 12
    RATE_PER_SECOND = 4.0

    def __init__(self) -> None:
        self.tokens = float(self.RATE_BURST)
        self.refilled = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.RATE_BURST, self.tokens + (now - self.refilled) * self.RATE_PER_SECOND)
        self.refilled = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


# The guards' cache calls (claims, renewals, the budget) run on threads of their own: on the loop's
# default pool they took turns with the moves' database calls, and moves queued behind them.
_guard_pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="socket-guard")
in_thread = functools.partial(sync_to_async, thread_sensitive=False, executor=_guard_pool)

# Every live socket's leases in this process, renewed together by one thread: one round trip per
# interval for the whole process instead of one per socket (2,000 sockets made 67 renewals a second).
_live_leases: dict[str, list[str]] = {}
_live_leases_lock = threading.Lock()
_renewer: threading.Thread | None = None


def renew_all(leases: dict[str, list[str]]) -> None:
    """Extend many sockets' leases at once (on Redis, one pipeline). Only leases still held are
    extended: a socket that closed after the snapshot was taken is not brought back."""
    if not leases:
        return
    keys = {key for slots in leases.values() for key in slots}
    redis = _redis_client(next(iter(keys)))
    if redis is None:
        with _local_leases_lock:
            for key in keys:
                held = cache.get(key) or {}
                owners = [owner for owner, slots in leases.items() if key in slots and owner in held]
                if owners:
                    held.update(dict.fromkeys(owners, clock() + lease_seconds()))
                    cache.set(key, held, lease_seconds() * 2)
        return
    client, _key = redis
    backend = caches["default"]
    expires = clock() + lease_seconds()
    pipe = client.pipeline(transaction=False)
    for owner, slots in leases.items():
        for key in slots:
            pipe.zadd(backend.make_and_validate_key(key), {owner: expires}, xx=True)
    for key in keys:
        pipe.expire(backend.make_and_validate_key(key), lease_seconds() * 2)
    pipe.execute()


def _renew_forever() -> None:
    while True:
        time.sleep(lease_seconds() / 3)
        with _live_leases_lock:
            leases = dict(_live_leases)
        try:
            renew_all(leases)
        except Exception as error:  # a cache hiccup: the next round renews (a lease outlives three rounds)
            log.warning("socket leases not renewed: %s", error)


def _hold(owner: str, slots: list[str]) -> None:
    global _renewer
    with _live_leases_lock:
        _live_leases[owner] = slots
        if _renewer is None or not _renewer.is_alive():
            _renewer = threading.Thread(target=_renew_forever, name="socket-leases", daemon=True)
            _renewer.start()


def _let_go(owner: str) -> None:
    with _live_leases_lock:
        _live_leases.pop(owner, None)


class SocketLimits:
    """Caps the sockets per user and address, and makes every received frame spend a budget."""

    def __init__(self, inner: Any):
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] != "websocket":
            return await self.inner(scope, receive, send)
        user = scope.get("user")
        user_id = user.pk if user is not None and user.is_authenticated else None
        address = client_address(scope)
        owner = uuid.uuid4().hex
        slots = await in_thread(self.claim)(user_id, address, owner)
        if slots is None:
            message = await receive()
            if message["type"] == "websocket.connect":
                await send({"type": "websocket.accept"})
                await send({"type": "websocket.send", "text": error_frame(
                    scope, "too_many_sockets", gettext_lazy("Çok fazla açık bağlantınız var; başka sekmeleri kapatın."),
                    close=CLOSE_TOO_MANY)})
                await send({"type": "websocket.close", "code": CLOSE_TOO_MANY, "reason": "too_many_sockets"})
            return None
        ident = f"user-{user_id}" if user_id is not None else f"address-{address}"
        bucket = ConnectionBucket()
        told = {"window": None}

        async def budgeted_receive() -> dict[str, Any]:
            while True:
                message = await receive()
                if message["type"] != "websocket.receive":
                    return message
                if bucket.take() and await spend_budget(ident):
                    return message
                # Over budget: the frame is dropped; the client is told once per window, so a
                # flood does not get a flood of answers.
                window = int(clock() // int(setting("SOCKET_BUDGET_WINDOW_SECONDS", 10)))
                if told["window"] != window:
                    told["window"] = window
                    await send({"type": "websocket.send", "text": error_frame(
                        scope, "rate_limited", gettext_lazy("Çok hızlı; biraz yavaşlayın."))})

        _hold(owner, slots)
        try:
            return await self.inner(scope, budgeted_receive, send)
        finally:
            _let_go(owner)
            with contextlib.suppress(Exception):
                await in_thread(release_slots)(slots, owner)

    @staticmethod
    def claim(user_id: int | None, address: str, owner: str) -> list[str] | None:
        claimed: list[str] = []
        wanted = [("address", address, int(setting("SOCKETS_PER_ADDRESS", 100)))]
        if user_id is not None:
            wanted.append(("user", str(user_id), int(setting("SOCKETS_PER_USER", 12))))
        for kind, ident, cap in wanted:
            slot = claim_slot(kind, ident, cap, owner)
            if slot is None:
                release_slots(claimed, owner)
                return None
            claimed.append(slot)
        return claimed


# What each server we run raises for a frame sent after the client left: uvicorn (production,
# ``okeysite.web``) and daphne's autobahn (``make run``, the browser tests' server).
ClientGone = (ClientDisconnected, Disconnected)


class DropSendsAfterClose:
    """A frame sent to a socket whose client has just gone is dropped, not a crash.

    A group event (a seat change, chat) can reach a consumer after the browser closed the socket but
    before the consumer has read the disconnect; the server then raises, and the consumer died with a
    traceback (close 1011 for nobody). Nobody is there to read it: drop it, and any later ones.
    """

    def __init__(self, inner: Any):
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] != "websocket":
            return await self.inner(scope, receive, send)
        gone = False

        async def send_while_there(message: dict[str, Any]) -> None:
            nonlocal gone
            if gone:
                return
            try:
                await send(message)
            except ClientGone:
                gone = True

        return await self.inner(scope, receive, send_while_there)


def guarded(app: Any) -> Any:
    """The websocket application of the site: origin first (nothing else runs for a foreign page),
    then the session's user, then the caps and the budget; sends after the client left are dropped."""
    return DropSendsAfterClose(OriginGuard(AuthMiddlewareStack(SocketLimits(app))))


# -- unknown paths ------------------------------------------------------------------------------------


class NotFoundConsumer(AsyncWebsocketConsumer):
    """Any socket path no route takes: accepted, told, closed with 4404 (never a server error)."""

    async def connect(self) -> None:
        await self.accept()
        await self.send(text_data=error_frame(self.scope, "not_found", gettext_lazy("Böyle bir bağlantı adresi yok."),
                                              close=CLOSE_NOT_FOUND))
        await self.close(code=CLOSE_NOT_FOUND, reason="not_found")

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        return None


async def refuse(consumer: Any, code: int, error: str, message: Any) -> None:
    """On an accepted socket: say why in the person's language, close with the documented code (a
    client sees the code and the reason only on a socket that was accepted; before that it is an
    HTTP 403)."""
    await consumer.send(text_data=error_frame(consumer.scope, error, message, close=code))
    await consumer.close(code=code, reason=error)


class UserSocketEvents:
    """What reaches every socket of a user through their ``user-<id>`` group
    (``accounts.services.user_sockets_group``), handled the same on every socket (issue 20: the
    table socket said a site ban as an ``error``, the others as ``banned``).

    A site ban: one ``banned`` frame (``code`` ``banned``, the reason and end in the user's
    language as ``message``, ``close`` 4403), then the close. A new password: close 4001, no frame.
    A password attack on a room the user owns: the owner's notice. The consumer provides
    ``send_json``, ``close`` and ``scope``.
    """

    async def user_banned(self, event: dict[str, Any]) -> None:
        from moderation.selectors import site_ban_notice  # moderation reads salons' models: imported late

        language = language_of(self.scope)
        message = await database_sync_to_async(in_language(language, site_ban_notice), thread_sensitive=False)(
            self.scope["user"])
        await self.send_json({"type": "banned", "code": "banned", "message": message, "close": CLOSE_FORBIDDEN})
        await self.close(code=CLOSE_FORBIDDEN, reason="banned")

    async def user_reauthenticate(self, event: dict[str, Any]) -> None:
        """A new password ended the user's other sessions: reconnect and be authenticated again."""
        await self.close(code=CLOSE_REAUTHENTICATE, reason="reauthenticate")

    async def room_password_attack(self, event: dict[str, Any]) -> None:
        """To the owner's ``user-<id>``: one of their rooms reached its password limit (salons.services)."""
        from salons.events import password_attack_frame

        await self.send_json(password_attack_frame(language_of(self.scope), event))
