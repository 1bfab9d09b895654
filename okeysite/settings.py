"""One settings module, configured from the environment.

With no variables set the site runs on embedded defaults (SQLite, in-memory channel layer,
local-memory cache, Celery in the dev server's process). ``DATABASE_URL`` switches to PostgreSQL,
``REDIS_URL`` to Redis for the channel layer, cache and Celery broker.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    return default if value is None else value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# Off unless asked for: a server started with nothing set must not show tracebacks or accept a
# known key. `make run` and `make test` (okeysite/settings_test.py) turn it on for local work.
DEBUG = env_bool("DEBUG", False)
DEV_SECRET_KEY = "dev-only-insecure-key-change-me-in-production"
SECRET_KEY = os.environ.get("SECRET_KEY", DEV_SECRET_KEY if DEBUG else "")
PLACEHOLDER_KEY_WORDS = ("change-me", "changeme", "change_me", "placeholder", "dev-only", "insecure", "secret-key",
                         "django-insecure", "example", "your-secret")


def secret_key_problem(key: str) -> str | None:
    """Why a key is unfit for production, or None. Mirrors Django's deploy check (W009) and refuses
    the placeholders that documentation and compose files tend to carry."""
    if not key:
        return "SECRET_KEY is not set"
    if len(key) < 50 or len(set(key)) < 5:
        return "SECRET_KEY must be at least 50 characters with at least 5 different ones"
    if any(word in key.lower() for word in PLACEHOLDER_KEY_WORDS):
        return "SECRET_KEY looks like a placeholder"
    return None


if not DEBUG and (problem := secret_key_problem(SECRET_KEY)):
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured(f"{problem}: set a long random one, e.g. "
                               "`python -c 'import secrets; print(secrets.token_urlsafe(64))'`.")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "http://127.0.0.1:8000,http://localhost:8000")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "allauth",
    "allauth.account",
    "accounts",
    "salons",
    "games",
    "moderation",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "okeysite.observability.RequestIdMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "okeysite.middleware.RejectNulBytesMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

ROOT_URLCONF = "okeysite.urls"
WSGI_APPLICATION = None
ASGI_APPLICATION = "okeysite.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# PostgreSQL connections come from a pool (psycopg_pool, one per process): without one every socket
# message that touches the database (each move) and every page opens a new PostgreSQL connection,
# a server process each time. Django's persistent connections (CONN_MAX_AGE) are no substitute
# under ASGI: each request runs in a thread of its own, so a kept connection is never reused and
# the server soon runs out of connections. DB_POOL_MAX_SIZE per process (0 = no pool). The pool
# opens connections on demand (min_size 0): Celery's prefork workers close the pool around every
# task, so there a pool that pre-opened connections would open several per task.
# Off unless asked for (the web processes of Procfile, compose.yaml and bench/serve.sh ask for 8):
# the test run's many short-lived server and worker threads would each hold a pooled connection.
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "0")),
    )
}
DB_POOL_MAX_SIZE = int(os.environ.get("DB_POOL_MAX_SIZE", "0"))
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and DB_POOL_MAX_SIZE > 0:
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 0, "max_size": DB_POOL_MAX_SIZE, "timeout": 20,
    }
# The move path's few statements run prepared on PostgreSQL (games.move_sql): planned once per
# connection rather than on every move. Off (0) behind a pooler that cannot keep prepared statements
# (PgBouncer in transaction mode before 1.21).
DB_PREPARED_MOVES = env_bool("DB_PREPARED_MOVES", True)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several writers (web, in-process worker) share one file: wait for the lock instead of failing.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
    # Take the write lock when a transaction starts: two racing moves then queue up and the second
    # sees the first's move number (as SELECT ... FOR UPDATE does on PostgreSQL) instead of failing.
    DATABASES["default"]["OPTIONS"]["transaction_mode"] = "IMMEDIATE"
    # Write-ahead log: a commit appends to the log instead of rewriting and syncing a rollback
    # journal, and readers (page views, frames) no longer wait for the writer. Every move commits,
    # so this sets how many moves a second the embedded site can take. SQLITE_WAL=0 to keep the
    # rollback journal (a database file switched to WAL stays in WAL).
    if env_bool("SQLITE_WAL", True):
        DATABASES["default"]["OPTIONS"]["init_command"] = "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
    # Tests use a file too: an in-memory database shared between threads locks whole tables and
    # ignores the busy timeout, which is not how the site behaves.
    DATABASES["default"]["TEST"] = {"NAME": os.environ.get("TEST_SQLITE_PATH", str(BASE_DIR / "test-db.sqlite3"))}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

AUTHENTICATION_BACKENDS = [
    # Both refuse site-banned players (moderation/backends.py); allauth's comes first so a banned
    # player's correct password reaches allauth's pre_login, which says why the login is refused.
    "moderation.backends.SanctionAwareAuthenticationBackend",
    "moderation.backends.SanctionAwareModelBackend",
    # Kept last only so sessions that name it stay valid (Django drops a session whose backend is
    # not listed); every password is checked by the two above first.
    "django.contrib.auth.backends.ModelBackend",
]

LANGUAGE_CODE = "tr"
LANGUAGES = [("tr", "Türkçe"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Istanbul"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
# Hashed names (a changed file gets a new URL, so browsers may cache for ever) and gzip/brotli copies.
# They need `collectstatic` first, which the Procfile's release step, compose and the Dockerfile run;
# local runs (DEBUG) serve the source files as they are.
STATIC_HASHED = env_bool("STATIC_HASHED", not DEBUG)
if STATIC_HASHED:
    # Static files from the daphne processes themselves (hashed, compressed, cached for a year), so
    # every documented way to run the site serves /static/ without a separate web server.
    MIDDLEWARE.insert(1, "whitenoise.middleware.WhiteNoiseMiddleware")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "okeysite.static_storage.ModuleAwareStaticFilesStorage" if STATIC_HASHED
        else "django.contrib.staticfiles.storage.StaticFilesStorage",
    },
}

REDIS_URL = os.environ.get("REDIS_URL", "")

if REDIS_URL:
    # Redis publish/subscribe: a group send is one PUBLISH, and each server process gets it once
    # and hands it to its own sockets. (The list-based RedisChannelLayer pops every message per
    # socket and, worse, silently drops messages once a process's backlog passes its capacity of
    # 100: under load, players missed the frame saying it was their turn and waited for the clock.)
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "okeysite.channel_layer.SharedDecodePubSubChannelLayer",
            "CONFIG": {
                # redis-py 8 reads with a 5 s socket timeout by default: give slow moments room.
                "hosts": [{"address": REDIS_URL, "socket_timeout": 30, "socket_connect_timeout": 5}],
                "prefix": os.environ.get("CHANNELS_PREFIX", "okey")},
        }
    }
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("CACHE_PREFIX", "okey"),
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Celery: Redis broker in production; in embedded mode an in-memory broker served by a worker
# thread inside the site's own process (see games/apps.py).
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", REDIS_URL or "memory://")
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_INPROCESS_WORKER = env_bool("CELERY_INPROCESS_WORKER", not REDIS_URL)
# Celery closes the database connection before and after every task unless told to keep it for
# this many tasks (set it for worker processes, with DB_POOL_MAX_SIZE=0: see Procfile).
if os.environ.get("CELERY_DB_REUSE_MAX"):
    CELERY_DB_REUSE_MAX = int(os.environ["CELERY_DB_REUSE_MAX"])

EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Okey Salonu <noreply@localhost>")

# --- Accounts (django-allauth), rate limits, cache --------------------------------------------
# The nickname (rumuz) is ``User.username``: shown as typed, unique case-insensitively. Players log
# in with the nickname or the e-mail address. allauth's rate limits stay on (its defaults); they
# count in the default cache above (local memory, or Redis when REDIS_URL is set), which is why a
# real cache backend is configured even in the embedded default. The admin login is routed
# through allauth's login in okeysite/urls.py so it is rate-limited too.
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_FORMS = {"signup": "accounts.forms.SignupForm"}
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_PRESERVE_USERNAME_CASING = True
ACCOUNT_USERNAME_MIN_LENGTH = 3
ACCOUNT_USERNAME_VALIDATORS = "accounts.validators.NICKNAME_VALIDATORS"
# "mandatory" (default), "optional" or "none"; by code (default) or by link.
ACCOUNT_EMAIL_VERIFICATION = os.environ.get("ACCOUNT_EMAIL_VERIFICATION", "mandatory")
ACCOUNT_EMAIL_VERIFICATION_BY_CODE_ENABLED = env_bool("ACCOUNT_EMAIL_VERIFICATION_BY_CODE", True)
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Okey Salonu] "
ACCOUNT_USER_DISPLAY = "accounts.selectors.display_name"
ACCOUNT_RATE_LIMITS: dict = {}  # allauth's defaults; never False (that would switch them off)
# Play-money chips every new account starts with. Chips are never money.
OKEY_STARTING_CHIPS = int(os.environ.get("OKEY_STARTING_CHIPS", "1000"))

LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
# TLS is terminated by the proxy in front (nginx, the platform's router). Behind it these come from
# the environment; the documented production settings (README, compose.yaml, Procfile) turn them on.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
# How many proxies in front of the site append to X-Forwarded-For (okeysite/proxy.py). 0: trust no
# forwarded header at all (the peer address is the client). Behind the reference nginx: 1.
TRUSTED_PROXY_HOPS = int(os.environ.get("TRUSTED_PROXY_HOPS", "0"))
if TRUSTED_PROXY_HOPS > 0:
    # Only a proxy we trust sets this header (nginx overwrites whatever the client sent).
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Exempt from the HTTPS redirect: the proxy and orchestrators probe it over plain HTTP inside.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

# Content-Security-Policy (django-csp): our own scripts, styles, images and sockets only; no inline
# script, no framing, no plugins. Style attributes stay allowed (the table sets positions in markup).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "style-src-attr": ["'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'", "data:"],
        "media-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
        "base-uri": ["'none'"],
        "object-src": ["'none'"],
    },
}

# Logs: one line per record with the request or socket id (okeysite/observability.py), as text or,
# with LOG_FORMAT=json, as JSON objects for a log collector.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "okeysite.observability.RequestIdFilter"}},
    "formatters": {
        "text": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
        "json": {"()": "okeysite.observability.JsonFormatter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["request_id"],
            "formatter": "json" if os.environ.get("LOG_FORMAT", "text") == "json" else "text",
        },
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# Every this many seconds, turns whose deadline has passed are played (games/tasks.py, turn_clock):
# a turn's clock is this precise.
TURN_CLOCK_SECONDS = float(os.environ.get("TURN_CLOCK_SECONDS", "1.0"))
CELERY_BEAT_SCHEDULE = {
    "games-turn-clock": {"task": "games.turn_clock", "schedule": TURN_CLOCK_SECONDS},
    "games-sweep": {"task": "games.sweep", "schedule": 10.0},
    # Sanctions stop applying at their end time anyway; this marks them expired and logs it.
    "moderation-expire": {"task": "moderation.expire_sanctions", "schedule": 60.0},
    # Every balance against its chip ledger; a difference is logged as an error (docs/security.md).
    "accounts-chip-ledger": {"task": "accounts.check_chip_ledger", "schedule": 3600.0},
    # Sign-ups that never verified their address within 48 hours stop holding their nickname
    # (accounts/signups.py); this removes them when nobody signed up with their nickname first.
    "accounts-stale-signups": {"task": "accounts.remove_stale_signups", "schedule": 3600.0},
}
# Tournaments: starts, rounds, arena seating and ends run at most this long after they are due.
TOURNAMENT_SWEEP_SECONDS = float(os.environ.get("TOURNAMENT_SWEEP_SECONDS", "2.0"))
CELERY_BEAT_SCHEDULE["tournaments-sweep"] = {"task": "tournaments.sweep", "schedule": TOURNAMENT_SWEEP_SECONDS}

# --- WebSocket limits (okeysite/sockets.py; docs/security.md) ------------------------------------
# Open sockets at once per signed-in user (tabs × table, room and lobby sockets) and per client
# address (an internet café shares one), counted in the cache as leases that expire unless renewed.
SOCKETS_PER_USER = int(os.environ.get("SOCKETS_PER_USER", "12"))
SOCKETS_PER_ADDRESS = int(os.environ.get("SOCKETS_PER_ADDRESS", "100"))
SOCKET_LEASE_SECONDS = int(os.environ.get("SOCKET_LEASE_SECONDS", "90"))
# Frames a user (an address when anonymous) may send over all their sockets per window.
SOCKET_MESSAGES_PER_WINDOW = int(os.environ.get("SOCKET_MESSAGES_PER_WINDOW", "60"))
SOCKET_BUDGET_WINDOW_SECONDS = int(os.environ.get("SOCKET_BUDGET_WINDOW_SECONDS", "10"))
