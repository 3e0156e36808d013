"""Settings, all from the environment.

Embedded default (nothing set — what ``make demo`` uses): SQLite under ``var/`` and an
in-process worker thread; its SECRET_KEY is a random one made on first start and kept in
``var/secrets/`` (mode 0600, see :func:`portal.secretfiles.stored_secret`). Production and the
test suite set ``DATABASE_URL`` (PostgreSQL through psycopg 3) and ``CELERY_BROKER_URL`` (Redis),
and run real ``celery worker`` processes.
"""

import json
import os
import re
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

# Django-free, so the settings can use it before any app is loaded
from portal.secretfiles import stored_secret

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("EKB_VAR_DIR", BASE_DIR / "var"))


def _flag(name: str, default: bool = False) -> bool:
    return os.environ.get(name, "1" if default else "0").lower() in ("1", "true", "yes", "on")


def _json_setting(name: str, default: dict) -> dict:
    raw = os.environ.get(name, "")
    if not raw:
        return default
    try:
        value = json.loads(raw)
    except ValueError as e:
        raise ImproperlyConfigured(f"{name} is not JSON: {e}") from None
    if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
        raise ImproperlyConfigured(f"{name} must be a JSON object of objects, one per backend")
    return value


def _number(name: str, default: float, low: float, high: float, cast=float):
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = cast(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a number") from None
    if not low <= value <= high:
        raise ImproperlyConfigured(f"{name}={raw!r} must be between {low:g} and {high:g}")
    return value


_RATE = re.compile(r"^[1-9][0-9]{0,6}/(s|sec|second|m|min|minute|h|hour|d|day)$")


def _rate(name: str, default: str) -> str | None:
    """A DRF throttle rate ("600/minute"), or None (no limit) when set empty."""
    raw = os.environ.get(name, default).strip()
    if not raw:
        return None
    if not _RATE.match(raw):
        raise ImproperlyConfigured(f"{name}={raw!r} is not a rate: write N/second, N/minute, N/hour or N/day "
                                   "(e.g. 600/minute), or leave it empty for no limit")
    return raw


# Secrets this deployment makes itself when none is configured: one file each, readable by the
# owner only, in a folder of the owner only (never under STATIC_ROOT or MEDIA_ROOT).
EKB_SECRETS_DIR = VAR_DIR / "secrets"


# Embedded default: neither a database nor a broker is configured.
EMBEDDED = not os.environ.get("DATABASE_URL") and not os.environ.get("CELERY_BROKER_URL")
DEBUG = _flag("DJANGO_DEBUG", default=False)
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not EMBEDDED:
        raise RuntimeError("DJANGO_SECRET_KEY must be set when DATABASE_URL or CELERY_BROKER_URL is")
    # Embedded mode: never a key anyone can read in the source; one made here, kept in var/.
    try:
        SECRET_KEY = stored_secret(EKB_SECRETS_DIR / "django-secret-key")
    except OSError as e:
        raise RuntimeError(f"cannot keep a generated secret key under {EKB_SECRETS_DIR} ({e}); "
                           "set DJANGO_SECRET_KEY") from e
ALLOWED_HOSTS = [h for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost").split(",") if h]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI served from our static files, no CDN
    "portal",
    "leaderboard",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "portal.middleware.DatabaseLost",  # 503 with Retry-After, not 500, when the connection dies mid-request
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "DIRS": [BASE_DIR / "templates"],
    "APP_DIRS": True,
    "OPTIONS": {"context_processors": [
        "django.template.context_processors.request",
        "django.contrib.auth.context_processors.auth",
        "django.contrib.messages.context_processors.messages",
    ]},
}]

# Health checks: a kept connection the server dropped (a restart, pg_terminate_backend) is
# replaced when next used, not handed to a request or a job (docs/operations.md#load-and-faults).
DATABASES = {"default": dj_database_url.config(
    default=f"sqlite:///{VAR_DIR / 'portal.sqlite3'}", conn_max_age=60, conn_health_checks=True)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "leaderboard:board"
LOGOUT_REDIRECT_URL = "leaderboard:board"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    "leaderboard.staticfinders.PlotlyFinder",  # plotly.js from the pinned plotly package
]
STATIC_ROOT = VAR_DIR / "static"
MEDIA_ROOT = VAR_DIR / "media"
MEDIA_URL = "media/"
# Bundles never get a public URL: MEDIA_URL is not routed; files are read by the workers only.

# Uploads: bodies over 2 MiB spool to a temporary file; the bundle size limit
# (evaluator Limits.max_archive_bytes) is checked before the archive is opened.
DATA_UPLOAD_MAX_MEMORY_SIZE = 2 << 20
FILE_UPLOAD_MAX_MEMORY_SIZE = 2 << 20

# --- quotas and rates (docs/operations.md#where-is-my-job) ------------------------------------
# Submissions (uploads, endpoint submissions and reruns) one user may make in any 24 hours; staff
# are exempt, 0 turns the quota off. Over it: 429 with Retry-After until the oldest one ages out.
EKB_DAILY_SUBMISSIONS = _number("EKB_DAILY_SUBMISSIONS", 50, 0, 1_000_000, cast=int)
# Every API request of a logged-in user (per user), of anonymous clients (per address), and the
# uploads and reruns of a user (a short-term rate under the daily quota); empty: no limit.
EKB_API_RATE = _rate("EKB_API_RATE", "1000/minute")
EKB_API_ANON_RATE = _rate("EKB_API_ANON_RATE", "")
EKB_SUBMISSION_RATE = _rate("EKB_SUBMISSION_RATE", "60/hour")
# How often a running job asks whether its submission was cancelled (portal.evaluation.stop_on_cancel)
EKB_CANCEL_POLL_S = _number("EKB_CANCEL_POLL_S", 1.0, 0.1, 60.0)
# Stuck submissions (docs/operations.md#stuck-submissions): no result for this long and no live
# worker for a backend it waits on, `manage.py reap_stuck` re-queues its jobs, at most
# EKB_MAX_REQUEUES times, then fails it with the reason.
EKB_REAP_AFTER_S = _number("EKB_REAP_AFTER_S", 900, 1, 7 * 86400, cast=int)
EKB_MAX_REQUEUES = _number("EKB_MAX_REQUEUES", 2, 0, 100, cast=int)
# A job whose database connection dropped, or whose worker ran short of scratch space, memory or
# file handles, is retried this many times with a backoff of 2, 4, 8, 16, 30, 30… s (portal.tasks)
EKB_JOB_RETRIES = _number("EKB_JOB_RETRIES", 8, 0, 100, cast=int)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # every operation's errors documented, one error body (portal/openapi.py; docs/api.md)
    "DEFAULT_SCHEMA_CLASS": "portal.openapi.ApiSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    # limit 1..1000 and offset 0..1000000, enforced (400 naming the parameter) as documented
    "DEFAULT_PAGINATION_CLASS": "portal.pagination.Pagination",
    "PAGE_SIZE": 100,
    # per user and per anonymous address (portal/throttles.py: the rates are read on each request)
    "DEFAULT_THROTTLE_CLASSES": ["portal.throttles.UserRate", "portal.throttles.AnonRate"],
    "DEFAULT_THROTTLE_RATES": {"submissions": EKB_SUBMISSION_RATE, "user": EKB_API_RATE, "anon": EKB_API_ANON_RATE},
}
SPECTACULAR_SETTINGS = {
    "TITLE": "EdgeKernelBench Portal API",
    "DESCRIPTION": "Submit kernel bundles, follow their evaluation, read the leaderboards.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # one component for a choice set met in several places
    "ENUM_NAME_OVERRIDES": {"BaselineEnum": "leaderboard.ranking.scoring.BASELINES"},
}

# --- evaluation --------------------------------------------------------------------------------
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
# No broker: jobs run on a worker thread inside the web process (embedded mode).
EKB_INPROCESS_WORKER = not CELERY_BROKER_URL
# Building and measuring as separate jobs: a bundle's tasks are built on `build.<backend>` (any
# machine with TVM and the compilers), their artifacts stored in the database, and measured on
# `eval.<backend>` (the machines with the device). Off: one job per backend does both.
EKB_COMPILE_FARM = os.environ.get("EKB_COMPILE_FARM", "").lower() in ("1", "true", "yes")
# What a build worker builds for a backend whose device is not on its machine, as JSON:
# {"cuda": {"arch": "sm_90", "host": {"kind": "llvm", "mcpu": "x86-64-v3"}}} (the measuring GPU's
# arch and its host CPU). A measurement worker refuses artifacts built for another device.
EKB_BUILD_TARGETS = _json_setting("EKB_BUILD_TARGETS", {})
# What one stored blob (an uploaded bundle, a built artifact) may hold
EKB_BLOB_MAX_BYTES = int(os.environ.get("EKB_BLOB_MAX_MB", "64")) << 20
CELERY_TASK_ACKS_LATE = True  # a job killed mid-way is redelivered; task bodies are idempotent
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_DEFAULT_QUEUE = "eval.cpu-llvm"
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Sending a job waits out a broker restart (about 20 s) rather than failing the upload that
# queued it (the default gives up after under a second)
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 12, "interval_start": 0.2, "interval_step": 0.5,
                                    "interval_max": 2.0}
# An unacknowledged job is redelivered after this many seconds (Redis transport). It must be
# longer than the longest job; tests shorten it to exercise a killed worker.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.environ.get("EKB_VISIBILITY_TIMEOUT", "3600")),
}
CELERY_TASK_IGNORE_RESULT = True
if CELERY_BROKER_URL.startswith("filesystem://"):
    # A broker that is a folder (kombu's filesystem transport): for a measurement machine that
    # is reached by carrying files to it, not over a network (bench/gpu_matrix.py). The folder
    # travels with the database; jobs are idempotent, so one read twice is harmless.
    EKB_BROKER_DIR = Path(os.environ.get("EKB_BROKER_DIR", VAR_DIR / "broker"))
    for _part in ("queue", "control"):
        (EKB_BROKER_DIR / _part).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {"data_folder_in": str(EKB_BROKER_DIR / "queue"),
                                       "data_folder_out": str(EKB_BROKER_DIR / "queue"),
                                       "control_folder": str(EKB_BROKER_DIR / "control")}

EKB_BACKENDS = [b for b in os.environ.get("EKB_BACKENDS", "cpu-llvm").split(",") if b]
# The public workloads this deployment evaluates and ranks: every one when empty, else
# comma-separated globs over workload ids and/or "sample:N" (evaluator.suite.served); the demo
# serves a representative subset so that evaluating the examples takes minutes, not an hour.
EKB_TASKS = os.environ.get("EKB_TASKS", "")
# Verified runs derive their secret input seeds from this. Unset: from a random secret of its own
# made on first use in EKB_VERIFY_SECRET_FILE (0600; portal.evaluation.verification_seeds), never
# from SECRET_KEY. Workers on several hosts must share it (or EKB_VERIFY_SECRET) to agree.
EKB_VERIFY_SECRET = os.environ.get("EKB_VERIFY_SECRET", "")
EKB_VERIFY_SECRET_FILE = EKB_SECRETS_DIR / "verify-secret"
# Held-out workloads are drawn from this (evaluator.suite.heldout): unset, from a random secret of
# the deployment's own, made on first use in EKB_HELDOUT_SECRET_FILE (0600). Every worker of a
# deployment must see the same one, or their verified boards rank different shapes.
EKB_HELDOUT_SECRET = os.environ.get("EKB_HELDOUT_SECRET", "")
EKB_HELDOUT_SECRET_FILE = EKB_SECRETS_DIR / "heldout-secret"

# --- model endpoints -------------------------------------------------------------------------
# API keys of endpoint submissions are encrypted at rest (Fernet). EKB_ENDPOINT_KEYS: comma-
# separated Fernet keys, the first encrypts, all decrypt (rotation); unset, one key is derived
# from DJANGO_SECRET_KEY (rotating that then makes stored keys unreadable).
EKB_ENDPOINT_KEYS = [k for k in os.environ.get("EKB_ENDPOINT_KEYS", "").split(",") if k]
# The SSRF guard refuses loopback, private, link-local and metadata addresses; this admits
# loopback only, for local development and the tests' own endpoint server.
EKB_ENDPOINT_ALLOW_LOOPBACK = _flag("EKB_ENDPOINT_ALLOW_LOOPBACK", default=False)
EKB_ENDPOINT_TIMEOUT_S = float(os.environ.get("EKB_ENDPOINT_TIMEOUT_S", "180"))

if not DEBUG:
    SESSION_COOKIE_SECURE = _flag("EKB_SECURE_COOKIES", default=not EMBEDDED)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    SECURE_CONTENT_TYPE_NOSNIFF = True
    X_FRAME_OPTIONS = "DENY"
    SECURE_HSTS_SECONDS = int(os.environ.get("EKB_HSTS_SECONDS", "0"))
    SECURE_SSL_REDIRECT = _flag("EKB_SSL_REDIRECT", default=False)
