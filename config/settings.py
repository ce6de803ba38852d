"""Settings, all from the environment (see docs/operations.md for every variable)."""

from __future__ import annotations

import ipaddress
import re
import sys
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _
from kombu import Queue

from config.env import (
    Env,
    EnvError,
    check_redis_url,
    parse_database_url,
    read_or_create_secret,
    sqlite_database,
)
from config.staticfiles import cache_for_a_year

BASE_DIR = Path(__file__).resolve().parent.parent
env = Env()
# A rate as DRF's throttles read it: requests per second, minute, hour or day (first letter).
RATE = re.compile(r"^[1-9][0-9]*/(?:s|sec|second|m|min|minute|h|hour|d|day)$")


def _seconds(name: str, default: float, lowest: float, highest: float) -> float:
    """Read a duration in seconds that may have decimals, like 0.5 (Env reads whole numbers)."""
    value = env.str(name)
    if value is None:
        return default
    try:
        number = float(value)
    except ValueError:
        raise EnvError(name, f"expected a number of seconds, got {value!r}") from None
    if not lowest <= number <= highest:  # also refuses nan
        raise EnvError(name, f"expected a number between {lowest:g} and {highest:g}, got {value}")
    return number


def _rate(name: str, default: str) -> str:
    """Read a rate of actions, like 20/hour (DRF's spelling)."""
    value = env.str(name, default)
    if not RATE.match(value):
        raise EnvError(
            name,
            f"expected a number of requests per second, minute, hour or day, like {default}, "
            f"got {value!r}",
        )
    return value


try:
    VAR_DIR = Path(env.str("VAR_DIR", str(BASE_DIR / "var"))).resolve()
    DEBUG = env.bool("DEBUG", False)
    SECRET_KEY = env.str("SECRET_KEY") or read_or_create_secret(VAR_DIR / "secret_key")
    if len(SECRET_KEY) < 50:
        raise EnvError("SECRET_KEY", "must be at least 50 characters long")
    ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", ["127.0.0.1", "localhost"])
    CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", [])
    _database_url = env.str("DATABASE_URL")
    DATABASES = {
        "default": parse_database_url("DATABASE_URL", _database_url)
        if _database_url
        else sqlite_database(VAR_DIR / "db.sqlite3")
    }
    _redis_url = env.str("REDIS_URL")
    REDIS_URL = check_redis_url("REDIS_URL", _redis_url) if _redis_url else None
    # Behind TLS (the default in production) cookies are secure and HTTP redirects to HTTPS.
    RUNNING_TESTS = "pytest" in sys.modules
    HTTPS = env.bool("HTTPS", not DEBUG and not RUNNING_TESTS)
    HSTS_SECONDS = env.int("HSTS_SECONDS", 31_536_000 if HTTPS else 0)
    HSTS_PRELOAD = env.bool("HSTS_PRELOAD", HSTS_SECONDS >= 31_536_000)
    BEHIND_PROXY = env.bool("BEHIND_PROXY", False)
    SITE_URL = env.str("SITE_URL", "")
    LOG_LEVEL = env.choice("LOG_LEVEL", "INFO", ["DEBUG", "INFO", "WARNING", "ERROR"])
    WIKIPEDIA_LANGUAGE = env.str("WIKIPEDIA_LANGUAGE", "fr")
    WIKIPEDIA_API_URL = env.str(
        "WIKIPEDIA_API_URL", f"https://{WIKIPEDIA_LANGUAGE}.wikipedia.org/w/api.php"
    )
    WIKIPEDIA_USER_AGENT = env.str("WIKIPEDIA_USER_AGENT", "")
    WIKIPEDIA_MIN_INTERVAL = env.int("WIKIPEDIA_MIN_INTERVAL_MS", 1000, minimum=0) / 1000
    WIKIPEDIA_TIMEOUT = env.int("WIKIPEDIA_TIMEOUT", 30, minimum=1)
    WIKIPEDIA_MAX_RETRIES = env.int("WIKIPEDIA_MAX_RETRIES", 5, minimum=0, maximum=20)
    CORPUS_CATEGORY = env.str("CORPUS_CATEGORY", "Article de qualité")
    # The demo's offline Wikipedia (corpus/offline_views.py): a corpus file it answers from.
    OFFLINE_WIKIPEDIA_FILE = env.str("OFFLINE_WIKIPEDIA_FILE", "")
    CORPUS_MIN_PARAGRAPH_CHARS = env.int("CORPUS_MIN_PARAGRAPH_CHARS", 500, minimum=1)
    CORPUS_MAX_PARAGRAPH_CHARS = env.int("CORPUS_MAX_PARAGRAPH_CHARS", 0, minimum=0) or None
    if CORPUS_MAX_PARAGRAPH_CHARS and CORPUS_MAX_PARAGRAPH_CHARS < CORPUS_MIN_PARAGRAPH_CHARS:
        raise EnvError(
            "CORPUS_MAX_PARAGRAPH_CHARS",
            "must be 0 (no maximum) or at least "
            f"CORPUS_MIN_PARAGRAPH_CHARS ({CORPUS_MIN_PARAGRAPH_CHARS})",
        )
    CORPUS_SPLIT_RATIOS = env.ratios("CORPUS_SPLIT_RATIOS", {"train": 83, "dev": 9, "test": 8})
    JOB_MAX_SECONDS = env.int("JOB_MAX_SECONDS", 36_000, minimum=300)
    # How often the worker keeps MRQA tokens ahead of the exports (exports.services.tokens).
    MRQA_TOKENS_AHEAD_SECONDS = env.int("MRQA_TOKENS_AHEAD_SECONDS", 600, minimum=10)
    # How often beat sends the release schedules' tick (docs/release-schedules.md).
    RELEASE_SCHEDULE_TICK_SECONDS = env.int("RELEASE_SCHEDULE_TICK_SECONDS", 60, minimum=5)
    # Redis redelivers a task whose worker died after this long; keep it above the longest job.
    BROKER_VISIBILITY_TIMEOUT = env.int(
        "BROKER_VISIBILITY_TIMEOUT", JOB_MAX_SECONDS + 3600, minimum=1
    )
    # Release files: a private folder by default, an S3-compatible bucket when one is named.
    RELEASES_S3_BUCKET = env.str("RELEASES_S3_BUCKET", "")
    RELEASES_S3_ENDPOINT_URL = env.str("RELEASES_S3_ENDPOINT_URL", "")
    RELEASES_S3_REGION = env.str("RELEASES_S3_REGION", "")
    # Hashed static names (cached for a year) need `collectstatic`; `make run` turns this on
    # and collects first. Off (tests, or DEBUG alone) serves the source files, never cached.
    STATIC_MANIFEST = env.bool("STATIC_MANIFEST", not DEBUG and not RUNNING_TESTS)
    # Failed sign-ins an account takes in an hour from browsers it never signed in from
    # (OWASP ASVS 2.2.1: at most 100); see accounts/signin.py.
    LOGIN_ACCOUNT_FAILURES = env.int("LOGIN_ACCOUNT_FAILURES", 100, minimum=1, maximum=10_000)
    # Leaderboard: the largest request body of a submission, and how often one user may submit.
    SUBMISSION_MAX_MB = env.int("SUBMISSION_MAX_MB", 20, minimum=1, maximum=1024)
    SUBMISSIONS_RATE = _rate("SUBMISSIONS_RATE", "20/hour")
    # Model in the loop (evaluation.services.model_loop.ask): how long the annotation page waits
    # for a
    # model's answer; how long an idle checkpoint server keeps the gpu worker; requests per
    # forward pass.
    MODEL_LOOP_TIMEOUT_SECONDS = _seconds("MODEL_LOOP_TIMEOUT_SECONDS", 3.0, 0.1, 60.0)
    MODEL_LOOP_SERVE_IDLE_SECONDS = env.int(
        "MODEL_LOOP_SERVE_IDLE_SECONDS", 120, minimum=1, maximum=3600
    )
    MODEL_LOOP_BATCH_SIZE = env.int("MODEL_LOOP_BATCH_SIZE", 32, minimum=1, maximum=1024)
    # Questions one annotator may ask the model in the loop (per minute, hour…).
    MODEL_ATTEMPTS_RATE = _rate("MODEL_ATTEMPTS_RATE", "20/minute")
    # The egress policy (core/egress.py, docs/security.md): the networks and host names the
    # server may send admins' requests to beside public addresses ("10.0.0.0/8", "::1";
    # "models.internal", ".svc.cluster.local" for every name under it).
    EGRESS_ALLOWED_NETWORKS = env.list("EGRESS_ALLOWED_NETWORKS", [])
    for _network in EGRESS_ALLOWED_NETWORKS:
        try:
            ipaddress.ip_network(_network, strict=False)
        except ValueError:
            raise EnvError(
                "EGRESS_ALLOWED_NETWORKS",
                f"expected networks like 10.0.0.0/8 or fd00::/8, got {_network!r}",
            ) from None
    EGRESS_ALLOWED_HOSTS = env.list("EGRESS_ALLOWED_HOSTS", [])
    # The only folder `evaluate` and `finetune` runs load local models from, named relative
    # to it (evaluation/model_names.py); a name that is not there is a model hub name.
    MODELS_DIR = Path(env.str("MODELS_DIR", str(VAR_DIR / "models"))).resolve()
except EnvError as error:
    raise ImproperlyConfigured(f"Bad environment variable {error}") from None

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "template_partials.apps.SimpleAppConfig",
    "django_htmx",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "core",
    "accounts",
    "corpus",
    "annotation",
    "exports",
    "evaluation",
]

MIDDLEWARE = [
    "core.middleware.HealthCheckMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "core.middleware.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.language.AccountLanguageMiddleware",  # the account's language, once signed in
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"
AUTH_USER_MODEL = "accounts.User"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            # "page.html#partial" names resolve through django-template-partials' loader.
            "loaders": [
                (
                    "template_partials.loader.Loader",
                    [
                        (
                            "django.template.loaders.cached.Loader",
                            [
                                "django.template.loaders.filesystem.Loader",
                                "django.template.loaders.app_directories.Loader",
                            ],
                        )
                    ],
                )
            ],
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.context_processors.roles",
            ],
            "builtins": ["template_partials.templatetags.partials"],
        },
    },
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "accounts:home"
LOGOUT_REDIRECT_URL = "accounts:login"
PASSWORD_RESET_TIMEOUT = 7 * 24 * 3600  # set-password links of imported users last a week

LANGUAGE_CODE = "fr"
LANGUAGES = [("fr", _("French")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Our English formats write times on the 24-hour clock, as French does (config/formats/en).
FORMAT_MODULE_PATH = ["config.formats"]
TIME_ZONE = "Europe/Paris"
USE_I18N = True
USE_TZ = True

# Rate limits and other shared counters need one cache for every web process. While Redis is
# down the resilient backend counts in each process's memory instead of failing (core/cache.py).
CACHES = {
    "default": {"BACKEND": "core.cache.ResilientRedisCache", "LOCATION": REDIS_URL}
    if REDIS_URL
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
}

# The leaderboard refuses a submission over SUBMISSION_MAX_MB itself (413, from Content-Length,
# before the body is read). Django's own limit must not be lower: DRF parses a JSON body from
# request.body, which Django refuses past DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB by default), so a
# valid 3 MB submission would be refused. Django has no per-view limit, so it is raised for
# every request: other forms may then also hold that much in memory, and the reverse proxy's
# body limit (nginx client_max_body_size) should be set to the same value.
DATA_UPLOAD_MAX_MEMORY_SIZE = max(2_621_440, SUBMISSION_MAX_MB * 1024 * 1024)

STATIC_URL = "/static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # WhiteNoise warns at start-up when it is missing
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_ROOT = VAR_DIR / "media"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Never served by URL: downloads go through a view that checks the user's role.
    "releases": {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": RELEASES_S3_BUCKET,
            "endpoint_url": RELEASES_S3_ENDPOINT_URL or None,
            "region_name": RELEASES_S3_REGION or None,
            "default_acl": "private",
            "querystring_auth": True,
            "file_overwrite": False,
        },
    }
    if RELEASES_S3_BUCKET
    else {
        "BACKEND": "django.core.files.storage.FileSystemStorage",
        "OPTIONS": {"location": str(VAR_DIR / "releases")},
    },
    "staticfiles": {
        "BACKEND": "config.staticfiles.HashedStaticFilesStorage"
        if STATIC_MANIFEST
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
# WhiteNoise serves STATIC_ROOT: hashed names with `max-age=31536000, public, immutable`, the
# others (a plain name someone typed) for a minute. With STATIC_MANIFEST off it serves the
# source files through the finders, re-read on every request and never cached (max-age=0).
WHITENOISE_ADD_HEADERS_FUNCTION = cache_for_a_year
if STATIC_MANIFEST:
    WHITENOISE_USE_FINDERS = False
    WHITENOISE_AUTOREFRESH = False
    WHITENOISE_MAX_AGE = 60

# Security: strict by default, relaxed only by DEBUG or explicit variables.
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_SSL_REDIRECT = HTTPS
SECURE_HSTS_SECONDS = HSTS_SECONDS
SECURE_HSTS_INCLUDE_SUBDOMAINS = HSTS_SECONDS > 0
SECURE_HSTS_PRELOAD = HSTS_PRELOAD
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
if BEHIND_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    USE_X_FORWARDED_HOST = True
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first, so an anonymous call is answered 401 with WWW-Authenticate, not 403.
        "accounts.authentication.HashedTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # JSON bodies are refused past a nesting depth (400) before the recursive parser sees them.
    "DEFAULT_PARSER_CLASSES": [
        "core.parsers.DepthLimitedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "core.api.exception_handler",
    "DEFAULT_PAGINATION_CLASS": "core.pagination.LimitOffset",
    "PAGE_SIZE": 50,
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
    "DEFAULT_THROTTLE_RATES": {"auth": "20/minute", "submissions": SUBMISSIONS_RATE},
    # The client address for rate limits: REMOTE_ADDR, or the proxy's X-Forwarded-For entry.
    "NUM_PROXIES": 1 if BEHIND_PROXY else 0,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "QA dataset platform API",
    "DESCRIPTION": "Every action of the pages: corpus, annotation, review, releases, evaluation.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # A request body is its own component (`…Request`): without read-only fields, and with
    # `minLength: 1` on a text the API refuses blank, as it is read.
    "COMPONENT_SPLIT_REQUEST": True,
    # Every operation's refusals (400, 401, 403, 404; 409 and 415 where they can be) are
    # documented by one hook.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "core.schema.add_error_responses",
    ],
    # Several models have a `status`; name each choice set after its model.
    "ENUM_NAME_OVERRIDES": {
        "JobStatusEnum": "core.models.Job.Status",
        "LeaseStatusEnum": "annotation.models.Lease.Status",
        "QuestionStatusEnum": "annotation.models.Question.Status",
        "ReleaseReasonEnum": "annotation.models.Lease.Reason",
        "RejectReasonEnum": "annotation.models.RejectReason",
        "SplitEnum": "corpus.models.Split",
        "LeaseKindEnum": "annotation.models.Lease.Kind",
        "CampaignKindEnum": "annotation.models.Campaign.Kind",
        "BaselineKindEnum": "evaluation.models.BaselineRun.Kind",
        "EvaluationSplitEnum": "evaluation.models.CrossEvaluation.Split",
    },
}

# Background jobs: Redis when REDIS_URL is set, otherwise kombu's filesystem transport under
# var/broker, so the embedded install still runs jobs in a separate worker process.
BROKER_DIR = VAR_DIR / "broker"
CELERY_BROKER_URL = REDIS_URL or "filesystem://"
if not REDIS_URL:
    for _folder in ("queue", "control"):
        (BROKER_DIR / _folder).mkdir(parents=True, exist_ok=True)
CELERY_BROKER_TRANSPORT_OPTIONS = (
    # Redis redelivers an unacknowledged task after this long: keep it above the longest job.
    {"visibility_timeout": BROKER_VISIBILITY_TIMEOUT}
    if REDIS_URL
    else {
        "data_folder_in": str(BROKER_DIR / "queue"),
        "data_folder_out": str(BROKER_DIR / "queue"),
        "control_folder": str(BROKER_DIR / "control"),
        "store_processed": False,
    }
)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Without Redis (make run) one worker on this machine, in this virtualenv, serves every queue,
# gpu included: a run needing what this environment lacks is refused up front
# (evaluation.gpu_extra). With Redis the gpu worker is another machine, with its own install.
GPU_QUEUE_LOCAL = not REDIS_URL
CELERY_TASK_IGNORE_RESULT = True  # job state lives in our tables, never in a result backend
JOB_QUEUES = ["default", "scrape", "export", "gpu"]
CELERY_TASK_QUEUES = [Queue(name) for name in JOB_QUEUES]
CELERY_TASK_DEFAULT_QUEUE = "default"
CELERY_TASK_ROUTES = {
    "corpus.tasks.*": {"queue": "scrape"},
    "exports.tasks.*": {"queue": "export"},
    "evaluation.tasks.gpu_*": {"queue": "gpu"},
}
# Periodic jobs, sent by the one beat (docker compose's `beat`; `make run`'s worker runs its own).
CELERY_BEAT_SCHEDULE = {
    "mrqa-tokens-ahead": {
        "task": "exports.tasks.tokens_ahead_task",
        "schedule": float(MRQA_TOKENS_AHEAD_SECONDS),
    },
    # On the default queue: a tick never waits behind a long build on the export queue.
    "release-schedules-tick": {
        "task": "exports.tasks.release_schedules_tick_task",
        "schedule": float(RELEASE_SCHEDULE_TICK_SECONDS),
        "options": {"queue": "default"},
    },
}
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = JOB_MAX_SECONDS
CELERY_TASK_SOFT_TIME_LIMIT = JOB_MAX_SECONDS - 60
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "filters": {"refusals": {"()": "core.logging.RefusalsWithoutTraceback"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "plain",
            "filters": ["refusals"],
        }
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        # Django's own console handler (DEBUG) would print each record a second time.
        "django": {"handlers": ["console"], "level": LOG_LEVEL, "propagate": False},
        # wikipedia-api logs every request at INFO; the scrape log already says what matters.
        # Both log every request at INFO: one line per Wikipedia page or per context scored.
        "wikipediaapi": {"level": "WARNING"},
        "httpx": {"level": "WARNING"},
    },
}
