"""Settings for the Bid Whist tournament manager, read from the environment.

One code base runs on a director's laptop (SQLite, no internet) and hosted (PostgreSQL via
DATABASE_URL, gunicorn, whitenoise); only these environment variables differ.
"""

import datetime
import os
import secrets
import tomllib
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from whitenoise.compress import Compressor

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in {"1", "true", "yes", "on"}:
        return True
    if value.lower() in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}.")


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def local_secret_key() -> str:
    """A key kept beside the project, so a laptop install needs no configuration."""
    path = BASE_DIR / ".secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


DEBUG = env_bool("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY") or local_secret_key()
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")
# The address phones use to reach the app, printed under each table's QR code. Unset, the web pages
# use the address the director is browsing with, and the command line uses http://127.0.0.1:8000.
SITE_URL = os.environ.get("SITE_URL", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.forms",
    "django_tables2",
    "django_htmx",
    "ninja",
    "axes",
    "tournament",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Below whitenoise, which serves its own compressed files; above everything that writes a page.
    "tournament.views.compress.TextGZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "tournament.security.NoStoreMiddleware",
    "tournament.views.device.DeviceMiddleware",
    # After the messages and who is asking: a form's second post is answered with the first's result.
    "tournament.views.once.FormOnceMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into its refusal page.
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    # Refuses a login from a locked-out address or for a locked-out account before any password is hashed.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

ROOT_URLCONF = "tournament.urls"
WSGI_APPLICATION = "tournament.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            # {% form_once %} in every template without loading it: a form that adds something is taken once.
            "builtins": ["tournament.templatetags.once"],
        },
    },
]

# Form widgets may be overridden by the project's templates (the table page's big choice buttons).
FORM_RENDERER = "django.forms.renderers.TemplatesSetting"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}", conn_max_age=60, conn_health_checks=True
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Many phones save at once at a venue: WAL lets readers work during a write, the busy
    # timeout makes a writer wait its turn, and IMMEDIATE transactions take the write lock up
    # front so two saves queue instead of failing with "database is locked". Threads of one worker take
    # their write transactions in turn (tournament/sqlite), so SQLite's busy wait sees one writer a process.
    DATABASES["default"]["ENGINE"] = "tournament.sqlite"
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        # FULL: a hand the phone was told is saved is on disk before the answer goes out (power cuts).
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;",
    }

# The public pages' renderings, shared by every worker: in the database by default (a laptop, or one
# server), in Redis with CACHE_URL=redis://host:6379/0 (several app servers; its client is pinned), or in a
# folder with CACHE_URL=file:///var/tmp/whist-cache (one machine). Never per-process memory.
CACHE_URL = os.environ.get("CACHE_URL", "")
CACHES: dict[str, dict[str, Any]]
if CACHE_URL.startswith(("redis://", "rediss://")):
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CACHE_URL}}
elif CACHE_URL.startswith("file://"):
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": CACHE_URL.removeprefix("file://"),
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "tournament.pagecache.database.PageCache",
            "LOCATION": "tournament_page_cache",
            "TIMEOUT": 6 * 3600,
            "OPTIONS": {"MAX_ENTRIES": 5000, "CULL_FREQUENCY": 4},
        }
    }

# CACHE_KEY_PREFIX: a prefix to every key the app writes in its cache, so that apps (or a benchmark's run) sharing
# one Redis database keep apart and each can delete its own keys alone.
CACHES["default"]["KEY_PREFIX"] = os.environ.get("CACHE_KEY_PREFIX", "")

# The release serving the pages, a part of every cached page's version: a new release renders each page afresh,
# app servers of one release share the cache. Set by the recipe that starts the server (`manage.py venue` sets
# the code's commit); unset, the project's version in pyproject.toml, and with DEBUG the process too (the
# development server starts a new one for each change of the code).
VERSION = tomllib.loads((BASE_DIR / "pyproject.toml").read_text())["project"]["version"]
RELEASE = os.environ.get("RELEASE") or (f"{VERSION}+dev{os.getpid()}" if DEBUG else VERSION)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
# Staff sessions end within the day; players and table scorekeepers have no account.
SESSION_COOKIE_AGE = 60 * 60 * 12
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en-us"
TIME_ZONE = os.environ.get("TIME_ZONE", "America/New_York")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# Where collectstatic puts the files whitenoise serves (hashed names, compressed copies).
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# Source maps are for developers' tools, never sent to phones: compressing them would double collectstatic's time.
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = (*Compressor.SKIP_COMPRESS_EXTENSIONS, "map")

MESSAGE_TAGS = {40: "error"}

# Behind a hosting proxy that terminates TLS; at a venue without TLS set SECURE_HTTPS=false.
SECURE_HTTPS = env_bool("SECURE_HTTPS", not DEBUG)
if SECURE_HTTPS:
    SECURE_SSL_REDIRECT = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    # A year, as browsers expect of a site that means it; subdomains and the preload list are the
    # domain owner's decision, so they are opt-in (Django's deploy check is told so below).
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", 60 * 60 * 24 * 365))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
SILENCED_SYSTEM_CHECKS = ["security.W005", "security.W021"]
if env_bool("TRUST_X_FORWARDED_PROTO", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Behind a proxy, the client's address is the last one the proxy added to X-Forwarded-For.
TRUST_X_FORWARDED_FOR = env_bool("TRUST_X_FORWARDED_FOR", False)

# Logins: after 5 failures from one address (for one account or for several), logins from that address are
# refused (without hashing a password) for 15 minutes; a director can unlock at once (Manage → Locked logins).
# An account alone is never locked: a stranger's failures must not lock the real person out from their own
# device. Guessing stays slow: 5 tries an address every 15 minutes.
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = datetime.timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "tournament.security.locked_out"
AXES_CLIENT_IP_CALLABLE = "tournament.security.client_ip"
AXES_USERNAME_CALLABLE = "tournament.security.login_username"
AXES_ENABLE_ADMIN = False
AXES_VERBOSE = False

# Every script, style, image and font comes from the app itself; nothing inline, nothing from elsewhere.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "worker-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"refusals": {"()": "tournament.security.RefusalsWithoutTraceback"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["refusals"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
