"""Settings for Tamalou Ref, read from the environment with safe development defaults.

SQLite is the default database; set DATABASE_URL (postgres://…) for PostgreSQL.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name: str, default: str) -> bool:
    return os.environ.get(name, default).lower() in ("1", "true", "yes", "on")


def envint(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


def envlist(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# Development defaults; production sets DEBUG=0 and the rest (see the README).
DEBUG = envbool("DEBUG", "True")
DEVELOPMENT_KEY = "django-insecure-development-only-never-use-in-production"
SECRET_KEY = os.environ.get("SECRET_KEY", DEVELOPMENT_KEY if DEBUG else "")
if not SECRET_KEY:
    raise ImproperlyConfigured("Set SECRET_KEY when DEBUG is off.")
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "127.0.0.1,localhost")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS")

# Production is served over HTTPS behind a proxy: trust its X-Forwarded-Proto, redirect to
# HTTPS, send cookies over HTTPS only. HTTPS=0 is for a laptop serving a table on its local
# network without TLS.
if not DEBUG and envbool("HTTPS", "True"):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", "True")
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = LANGUAGE_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", "True")
    SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", "True")
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Only the app's own scripts and styles (django-csp); inline SVG is markup and needs nothing.
# The service worker (/sw.js) and the web app manifest come from the app itself too.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "worker-src": [SELF],
        "manifest-src": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
        "base-uri": [NONE],
        "object-src": [NONE],
    }
}

INSTALLED_APPS = [
    "whitenoise.runserver_nostatic",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "scoring",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    # Compressed pages; CSRF tokens are masked per response, which is Django's answer to BREACH.
    "django.middleware.gzip.GZipMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language chosen with the switch (its cookie), else the phone's, else French.
    "django.middleware.locale.LocaleMiddleware",
    "scoring.guards.errors.ErrorPages",
    # Bodies in UTF-8 only: another charset can decode to lone surrogates (see the module).
    "scoring.guards.encoding.Utf8Bodies",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "tamalou_ref.urls"
WSGI_APPLICATION = "tamalou_ref.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "builtins": ["template_partials.templatetags.partials"],
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.messages.context_processors.messages",
                "scoring.phone.webapp.theme_colours",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=envint("CONN_MAX_AGE", 60),
        conn_health_checks=True,  # a kept connection the database dropped is not handed out
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several phones save at once: wait for the write lock instead of failing.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    # Tests use a file too: an in-memory database is one connection shared by every thread,
    # which would hide the concurrency the live-server tests exercise.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / ".test-db.sqlite3")}
elif (
    DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
    and DATABASES["default"]["CONN_MAX_AGE"] == 0
    and envint("DATABASE_POOL", 10)
):
    # PostgreSQL with CONN_MAX_AGE=0 (a connection closed after each request): a pool of
    # DATABASE_POOL connections per process serves the requests instead of a connection each
    # (a request waits for one, at most 10 s), each checked before it is handed out (one the
    # server dropped is replaced: Django gives the pool psycopg's check, as CONN_HEALTH_CHECKS
    # is on). DATABASE_POOL=0: no pool.
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": envint("DATABASE_POOL", 10),
        "timeout": 10,
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Rate limits on the writes that create things, per client (scoring/guards/limits.py), counted
# in the database every server shares. Behind a proxy every request comes from its address:
# name the header it sets with the phone's, e.g. RATELIMIT_CLIENT_HEADER=HTTP_X_REAL_IP.
RATELIMIT_CLIENT_HEADER = os.environ.get("RATELIMIT_CLIENT_HEADER", "")
RATE_LIMITS = {
    "new-game": os.environ.get("RATE_LIMIT_NEW_GAMES", "30/10m"),
    "import": os.environ.get("RATE_LIMIT_IMPORTS", "30/10m"),
    "sync": os.environ.get("RATE_LIMIT_SYNCS", "300/10m"),
    "rule-set": os.environ.get("RATE_LIMIT_RULE_SETS", "30/10m"),
    "table": os.environ.get("RATE_LIMIT_TABLES", "30/10m"),
}

# Request bodies: forms are small; a game file (2 MB at most, scoring/referee/gamefile.py) is
# the largest upload. A longer body is refused (413) before it is read (scoring/guards/encoding.py).
DATA_UPLOAD_MAX_MEMORY_SIZE = 200_000
MAX_REQUEST_BYTES = 2_200_000

SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"
SESSION_COOKIE_AGE = 60 * 60 * 24 * 365 * 2  # the games of this device, for two years
LANGUAGE_COOKIE_AGE = SESSION_COOKIE_AGE

LANGUAGE_CODE = "fr"
LANGUAGES = [("fr", "Français"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "Europe/Paris"
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "tamalou_ref.staticfiles.ShippedStaticFiles"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# Errors with their traceback on stderr (gunicorn's error log), each line with the id of its
# request, which the 500 page shows.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "scoring.guards.errors.RequestId"}},
    "formatters": {
        "plain": {
            "format": "{asctime} {levelname} [request {request_id}] {name}: {message}",
            "style": "{",
        }
    },
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "filters": ["request_id"],
            "formatter": "plain",
        }
    },
    "loggers": {
        "django.request": {"handlers": ["stderr"], "level": "ERROR", "propagate": False},
        "scoring": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
    },
}
