"""Safe defaults and the documented production settings (issue 10 item 18, issue 11 item 8).

Each case starts a fresh Python process, because settings are read once at start-up."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

from okeysite.settings import secret_key_problem

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION_ENV = ROOT / "deploy" / "production.env"


def production_env(**extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items()
           if key not in {"DEBUG", "SECRET_KEY", "DJANGO_SETTINGS_MODULE"}}
    for line in PRODUCTION_ENV.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            key, _, value = line.partition("=")
            env[key] = value
    env["DJANGO_SETTINGS_MODULE"] = "okeysite.settings"
    env.update(extra)
    return env


def run_python(code: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def bare_env(**extra: str) -> dict[str, str]:
    """The environment of a server started with nothing configured."""
    env = {key: value for key, value in os.environ.items()
           if key not in {"DEBUG", "SECRET_KEY", "DJANGO_SETTINGS_MODULE"}}
    env.update(extra)
    return env


SHOW_DEBUG = "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'okeysite.settings'); " \
             "django.setup(); from django.conf import settings; print(settings.DEBUG)"


def test_debug_is_off_when_nothing_is_set_and_a_key_is_then_required():
    refused = run_python(SHOW_DEBUG, bare_env())
    assert refused.returncode != 0
    assert "SECRET_KEY is not set" in refused.stderr
    started = run_python(SHOW_DEBUG, bare_env(SECRET_KEY=secrets.token_urlsafe(64)))
    assert started.returncode == 0, started.stderr
    assert started.stdout.strip() == "False"


@pytest.mark.parametrize("key", [
    "x",
    "short-but-random-Zq81",
    "dev-only-insecure-key-change-me-in-production",
    "change-me-to-a-long-random-string-please-0123456789abcdefghijklmnop",
    "django-insecure-" + "a1b2c3d4e5" * 5,
    "a" * 80,
])
def test_short_and_placeholder_keys_are_refused_with_debug_off(key):
    assert secret_key_problem(key) is not None
    result = run_python(SHOW_DEBUG, bare_env(SECRET_KEY=key))
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_a_random_key_is_accepted():
    assert secret_key_problem(secrets.token_urlsafe(64)) is None


def test_deploy_check_is_clean_for_the_documented_production_settings():
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=production_env(SECRET_KEY=secrets.token_urlsafe(64)), capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_settings_turn_on_https_hsts_csp_and_one_proxy_hop():
    code = ("import django; django.setup(); from django.conf import settings as s; "
            "print(s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, "
            "s.TRUSTED_PROXY_HOPS, s.SECURE_PROXY_SSL_HEADER, 'csp.middleware.CSPMiddleware' in s.MIDDLEWARE, "
            "s.STATIC_HASHED)")
    result = run_python(code, production_env(SECRET_KEY=secrets.token_urlsafe(64)))
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "31536000", "True", "True", "1", "('HTTP_X_FORWARDED_PROTO',",
                                     "'https')", "True", "True"]


def test_every_page_carries_a_content_security_policy(client, db):
    response = client.get("/")
    policy = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
    assert "frame-ancestors 'none'" in policy
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["Referrer-Policy"] == "same-origin"
