"""The Procfile's web process, started as the Procfile says, with DEBUG off.

- Static files: served by the process itself, hashed and compressed (issue 11 item 8).
- Forged client addresses (issue 10 item 7): a proxy in front appends the address it saw to
  X-Forwarded-For; the client may have written anything before it. Per-address limits (allauth's
  failed-login limit here) must count the address the proxy saw, not the client's say.
"""

from __future__ import annotations

import http.cookiejar
import os
import re
import secrets
import shlex
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from tests.games.test_scale_out import free_port, servers_database_url

pytestmark = [pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 60.0


def procfile_web_command(port: int) -> list[str]:
    line = next(line for line in (ROOT / "Procfile").read_text().splitlines() if line.startswith("web:"))
    command = line.split(":", 1)[1].replace("${PORT:-8000}", str(port))
    # `env A=${A:-x} ...` as a shell would expand it, with nothing set.
    command = re.sub(r"\$\{(\w+):-([^}]*)\}", lambda m: os.environ.get(m.group(1), m.group(2)), command)
    return shlex.split(command)


class ProcfileServer:
    def __init__(self, **env: str) -> None:
        self.port = free_port()
        self.log = tempfile.TemporaryFile()
        full_env = {key: value for key, value in os.environ.items() if key not in {"DEBUG", "DJANGO_SETTINGS_MODULE"}}
        full_env.update({
            "DATABASE_URL": servers_database_url(), "DEBUG": "0", "SECRET_KEY": secrets.token_urlsafe(64),
            "ALLOWED_HOSTS": "127.0.0.1", "SECURE_COOKIES": "0", "DJANGO_SETTINGS_MODULE": "okeysite.settings",
            "DB_POOL_MAX_SIZE": "0",
        })
        full_env.pop("REDIS_URL", None)  # one process: its own cache counts the limits
        full_env["CELERY_INPROCESS_WORKER"] = "0"
        full_env.update(env)
        self.env = full_env
        command = procfile_web_command(self.port)
        if command[0] == "env":  # run `env A=b python -m okeysite.web ...` through our own interpreter
            command = command[1:]
            while "=" in command[0]:
                key, _, value = command.pop(0).partition("=")
                full_env[key] = value
        assert command[:3] == ["python", "-m", "okeysite.web"], command
        self.proc = subprocess.Popen([os.sys.executable, *command[1:]],
                                     cwd=ROOT, env=full_env, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            try:
                urllib.request.urlopen(self.url("/healthz"), timeout=2)
                break
            except urllib.error.HTTPError:
                break
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"the web server did not start:\n{self.output()}") from None
                time.sleep(0.2)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-6000:]

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()


@pytest.fixture(scope="module")
def collected_static(tmp_path_factory):
    """`collectstatic` as the Procfile's release step runs it."""
    root = tmp_path_factory.mktemp("static")
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    env.update({"DEBUG": "0", "SECRET_KEY": secrets.token_urlsafe(64), "STATIC_ROOT": str(root),
                "DJANGO_SETTINGS_MODULE": "okeysite.settings"})
    subprocess.run([os.sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env,
                   check=True, timeout=300)
    return root


def fetch(url: str, headers: dict[str, str] | None = None):
    request = urllib.request.Request(url, headers=headers or {})
    try:
        return urllib.request.urlopen(request, timeout=60)
    except urllib.error.HTTPError as error:
        return error


def test_the_procfile_web_process_serves_hashed_compressed_static_files_with_debug_off(collected_static):
    server = ProcfileServer(STATIC_ROOT=str(collected_static))
    try:
        plain = fetch(server.url("/static/js/table.js"))
        assert plain.status == 200, server.output()
        home = fetch(server.url("/")).read().decode()
        hashed = re.search(r'/static/js/site\.[0-9a-f]{12}\.js', home)
        assert hashed, "pages link the hashed name"
        cached = fetch(server.url(hashed.group(0)), {"Accept-Encoding": "gzip"})
        assert cached.status == 200
        assert "immutable" in cached.headers["Cache-Control"]
        assert cached.headers["Content-Encoding"] == "gzip"
        health = fetch(server.url("/healthz"))
        assert health.status == 200
    finally:
        server.stop()


class Browser:
    """A cookie-keeping client that talks to the server as if through a proxy that appends."""

    def __init__(self, server: ProcfileServer) -> None:
        self.server = server
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def failed_login(self, *, forwarded_for: str) -> str:
        """"wrong", "limited" (allauth's failed-login limit for the address), or the HTTP status."""
        headers = {"X-Forwarded-For": forwarded_for, "Accept-Language": "en"}
        page = self.opener.open(urllib.request.Request(self.server.url("/accounts/login/"), headers=headers), timeout=60)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.read().decode()).group(1)
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": token, "login": f"nobody{secrets.token_hex(4)}",
                                       "password": "wrong-password-123"}).encode()
        request = urllib.request.Request(self.server.url("/accounts/login/"), data=body,
                                         headers={**headers, "Referer": self.server.url("/accounts/login/")})
        try:
            page = self.opener.open(request, timeout=60).read().decode()
        except urllib.error.HTTPError as error:
            return str(error.code)
        return "limited" if "Too many failed login attempts" in page else "wrong"


def test_a_forged_forwarded_for_does_not_escape_the_per_address_login_limit(collected_static):
    server = ProcfileServer(STATIC_ROOT=str(collected_static))
    try:
        attacker = Browser(server)
        # The attacker writes a new address each time; the proxy appends the one it really saw.
        # allauth refuses more than 10 failed logins a minute from one address (each attempt names
        # a new account, so only the per-address limit can stop them).
        outcomes = [attacker.failed_login(forwarded_for=f"6.6.{i // 250}.{i % 250}, 203.0.113.9") for i in range(12)]
        assert outcomes[:10] == ["wrong"] * 10, server.output()
        assert outcomes[10:] == ["limited", "limited"], outcomes
        # Someone else behind the same proxy is not punished for it: the proxy-seen address counts.
        assert Browser(server).failed_login(forwarded_for="198.51.100.7") == "wrong"
    finally:
        server.stop()


def test_the_procfile_web_process_refuses_forged_origins_and_says_why_it_closes(collected_static):
    """The socket guards on the wire of the production server (uvicorn, ``okeysite.web``), as the
    browser tests check them on daphne: a page of another origin is refused at the handshake, the
    site's own page gets its table, and a refusal after the handshake carries its code and words."""
    import asyncio

    from tests.conftest import make_player, make_room
    from tests.e2e.test_socket_handshake import forged_origins, handshake_status, refusal, session_cookie

    owner = make_player()
    table = make_room(owner=owner).tables.get()
    cookie = session_cookie(owner)
    server = ProcfileServer(STATIC_ROOT=str(collected_static), TRUSTED_PROXY_HOPS="0")
    try:
        port = server.port
        url = f"ws://127.0.0.1:{port}/ws/tables/{table.pk}/"
        for origin in forged_origins(port):
            assert asyncio.run(handshake_status(url, origin, cookie)) == 403, origin
        own = f"http://127.0.0.1:{port}"
        assert asyncio.run(handshake_status(url, own, cookie)) == 101, server.output()
        frame, code = asyncio.run(refusal(url, own))
        assert (frame["code"], frame["close"], code) == ("login_required", 4401, 4401)
        frame, code = asyncio.run(refusal(f"ws://127.0.0.1:{port}/ws/nowhere/", own))
        assert (frame["code"], code) == ("not_found", 4404)
        assert "Traceback" not in server.output()
    finally:
        server.stop()
