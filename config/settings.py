"""Settings for the board-game events app: one module, everything from the environment.

Defaults are for a laptop: SQLite under var/, DEBUG off unless DEBUG=1 (``make run`` sets it).
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from config.logfilters import PATH_LOGGERS

BASE_DIR = Path(__file__).resolve().parent.parent
# The site's templates/ and static/ sit beside the apps in a checkout; an installed copy carries
# them inside this package (pyproject.toml maps them there).
PACKAGE_DIR = Path(__file__).resolve().parent
SITE_DIR = PACKAGE_DIR if (PACKAGE_DIR / "templates").is_dir() else BASE_DIR
# The SQLite database and the collected static files: var/ of the checkout unless VAR_DIR is set
# (an installed copy sets it, rather than write into site-packages).
VAR_DIR = Path(os.environ.get("VAR_DIR") or BASE_DIR / "var")


def envbool(name: str, default: bool) -> bool:
    value = os.environ.get(name, "")
    if value == "":
        return default
    if value.lower() in ("1", "true", "on"):
        return True
    if value.lower() in ("0", "false", "off"):
        return False
    raise ImproperlyConfigured(f"{name} must be one of 1/0, true/false, on/off, not {value!r}")


def envint(name: str, default: int) -> int:
    value = os.environ.get(name, "")
    try:
        return int(value) if value else default
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}") from exc


def envsecret(name: str, default: str = "") -> str:
    """Read NAME, or the contents of the file named by NAME_FILE (for container secrets)."""
    path = os.environ.get(f"{name}_FILE")
    if path:
        return Path(path).read_text().strip()
    return os.environ.get(name, default)


def envlist(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = envbool("DEBUG", False)
SECRET_KEY = envsecret("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY is required when DEBUG is off")
    SECRET_KEY = "insecure-development-key-only-for-DEBUG"

ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", "")
# A refused form says so in the reader's language (events/common/error_pages.py).
CSRF_FAILURE_VIEW = "events.common.error_pages.csrf_failure"
SITE_NAME = os.environ.get("SITE_NAME", "Tabletop Desk")
# The one base address of every absolute link (QR codes, table cards, e-mails;
# events/common/siteurl.py): the public address on a server, the laptop's LAN address at a venue
# (`make run HOST=0.0.0.0` sets it). Its host is allowed and its origin trusted for forms.
SITE_URL = os.environ.get("SITE_URL", "http://localhost:8000").rstrip("/")
if os.environ.get("SITE_URL"):
    _site = urlsplit(SITE_URL)
    if _site.scheme not in ("http", "https") or not _site.hostname:
        raise ImproperlyConfigured(f"SITE_URL must be http(s)://host[:port], not {SITE_URL!r}")
    _site_host = f"[{_site.hostname}]" if ":" in _site.hostname else _site.hostname
    if _site_host not in ALLOWED_HOSTS:
        ALLOWED_HOSTS.append(_site_host)
    if f"{_site.scheme}://{_site.netloc}" not in CSRF_TRUSTED_ORIGINS:
        CSRF_TRUSTED_ORIGINS.append(f"{_site.scheme}://{_site.netloc}")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",  # allauth's list of sessions ("2 hours ago")
    "django_htmx",
    "template_partials",
    "simple_history",
    "axes",
    # Organiser accounts (events/accounts/): sign-up, verified addresses, password and address
    # changes, two-factor login (TOTP, recovery codes, passkeys, trusted browsers), sessions.
    "allauth",
    "allauth.account",
    "allauth.mfa",
    "allauth.usersessions",
    "ninja",  # the read API's Swagger UI, served from our static files (no CDN)
    # Background work: Django's Tasks API and its database backend (events/management/worker.py)
    "django_tasks",
    "django_tasks_db",
    "events",
    "blokus",
    "shuffleboard",
    "roundrobin",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # An event's pages in the event's language when the visitor chose none (events/language.py).
    "events.language.EventLanguageMiddleware",
    "events.api.middleware.ReadApiMiddleware",  # /api/v1/: English, GET, CORS, rate limit
    # A NUL byte anywhere in the request: 400 before any view; control characters stripped.
    "events.common.middleware.HostileInputMiddleware",
    "events.common.middleware.SecurityHeadersMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # The account's sessions, listed and ended from the account page (their address, browser).
    "allauth.usersessions.middleware.UserSessionsMiddleware",
    # Site staff open the admin only with two-factor login on (events/accounts/twofactor.py).
    "events.accounts.twofactor.StaffTwoFactorMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    # Last, as django-axes asks: refuses logins while a username and address are locked out.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [SITE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "events.common.context_processors.site",
            ],
        },
    },
]

# SQLite by default so that a checkout runs as it is; DATABASE_URL switches to PostgreSQL.
# Connections are kept for CONN_MAX_AGE seconds (a new PostgreSQL connection costs more than
# the one query of a poll) and checked before reuse; docs/deploy.md ("Connections, caching and
# health checks") has the arithmetic against PostgreSQL's max_connections. CONN_MAX_AGE=0: a
# connection per request; DB_POOL_MAX (below): a pool instead.
(VAR_DIR / "static").mkdir(parents=True, exist_ok=True)
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}",
        conn_max_age=envint("CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Two desks entering results at once must wait for each other, not fail with "locked".
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL;",
        "transaction_mode": "IMMEDIATE",
    }
# DB_POOL_MAX > 0 (`make run` sets 10 for the development server): PostgreSQL connections come
# from a pool of at most that many in this process (Django's, on psycopg_pool), each borrowed
# for one request. The threaded development server otherwise opens one per request in flight,
# and a room signing up at once ran PostgreSQL out of connections ("too many clients", 500).
# A request waits up to POOL_TIMEOUT seconds for a free connection rather than fail at once
# (60 sign-ups sent together are all answered within about 6 s, tests/test_run_load.py).
# Django refuses persistent connections with a pool, so CONN_MAX_AGE does not apply then.
# gunicorn's sync workers (`make serve`) serve one request at a time and keep one persistent
# connection each: they need no pool.
DB_POOL_MAX = envint("DB_POOL_MAX", 0)
POOL_TIMEOUT = 30
if DB_POOL_MAX > 0 and DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": DB_POOL_MAX,
        "timeout": POOL_TIMEOUT,
    }

REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    # Django's Redis cache made optional: a Redis that is down is a cache miss, logged once.
    CACHES = {
        "default": {"BACKEND": "events.common.cache.OptionalRedisCache", "LOCATION": REDIS_URL}
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# Several sites (or test runs) on one Redis keep apart by a prefix of their keys.
CACHES["default"]["KEY_PREFIX"] = os.environ.get("CACHE_KEY_PREFIX", "")
# The live pages' versions are read from the cache (a poll without the database) only when
# the cache is shared by every server process (events/versions.py): with Redis.
LIVE_VERSIONS_IN_CACHE = envbool("LIVE_VERSIONS_IN_CACHE", bool(REDIS_URL))
# A live page seen by anonymous visitors may be held by a shared cache in front (nginx, a CDN;
# docs/deploy.md) this many seconds, then served stale this many more while it is fetched
# again: a phone sees a change within one poll plus these seconds. The stale window stays
# under the 10 s poll, so a browser never serves a poll from its own cache.
LIVE_SHARED_SECONDS = envint("LIVE_SHARED_SECONDS", 2)
LIVE_STALE_SECONDS = envint("LIVE_STALE_SECONDS", 8)

# Behind PgBouncer in transaction pooling mode (docs/deploy.md): a server-side cursor
# (QuerySet.iterator()) would outlive the transaction that owns its server connection.
if envbool("DISABLE_SERVER_SIDE_CURSORS", False):
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Login throttling (django-axes) on the desk and admin logins: AXES_FAILURE_LIMIT wrong
# passwords for one username from one address lock that pair out for AXES_COOLOFF_MINUTES.
# Unlock: `manage.py axes_reset` (or axes_reset_username NAME), or delete the rows in admin
# (Axes > Access attempts).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # By username (the accounts a site admin made) or by verified e-mail address.
    "allauth.account.auth_backends.AuthenticationBackend",
]
AXES_FAILURE_LIMIT = envint("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=envint("AXES_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_LOCKOUT_CALLABLE = "config.security.locked_out"
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "events.common.network.client_ip"
AXES_USERNAME_CALLABLE = "config.security.login_username"  # cut to the column's length
AXES_USERNAME_FORM_FIELD = "login"  # the login form's one field: a username or an address
# Its start-up banner, printed by every process (the server, its reloader, the worker, each
# management command), says nothing the settings above do not.
AXES_VERBOSE = False
# Proxies in front of the app (a load balancer, nginx): the client's address is then taken from
# X-Forwarded-For, that many entries from the right. 0: the connection's own address.
TRUSTED_PROXIES = envint("TRUSTED_PROXIES", 0)

LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "events:desk"
LOGOUT_REDIRECT_URL = "events:index"

# Accounts (django-allauth; events/accounts/ and docs/guide/clubs-and-accounts.md).
# Anyone may sign up as an organiser with an e-mail address, verified by a link before anything
# works; an account a site admin made without an address logs in by username as before.
ACCOUNT_ADAPTER = "events.accounts.adapter.AccountAdapter"
ACCOUNT_FORMS = {"login": "events.accounts.forms.LoginForm"}
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_CHANGE_EMAIL = True  # one address; a new one replaces it once verified
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_CONFIRM_EMAIL_ON_GET = False  # a mail scanner's GET verifies nothing
ACCOUNT_EMAIL_NOTIFICATIONS = True  # "your password / address / two-factor login changed"
ACCOUNT_PREVENT_ENUMERATION = True  # the same answer for a known and an unknown address
ACCOUNT_EMAIL_SUBJECT_PREFIX = f"[{SITE_NAME}] "
ACCOUNT_SESSION_REMEMBER = None  # "Remember me" on the login form
ACCOUNT_LOGOUT_REDIRECT_URL = "events:index"

# Sign-up open to all (1), or closed (0: accounts by invitation or a site admin only).
ACCOUNT_SIGNUP_OPEN = envbool("ACCOUNT_SIGNUP_OPEN", True)
# A club someone starts is a request until site staff approve it (admin › Hosting clubs ›
# "Approve"): no events and no public page before. Off: it starts at once.
CLUBS_NEED_APPROVAL = envbool("CLUBS_NEED_APPROVAL", False)
# Per address, per account and per IP (allauth's counters live in the cache: Redis in production,
# so every app server counts together; a cache that is down counts nothing and refuses nothing).
ACCOUNT_RATE_LIMITS = {
    "signup": "10/h/ip",
    "reset_password": "10/h/ip,3/h/key",
    # Wrong second-factor codes count here too (allauth's own limit, per account): above the
    # lockout's 5 wrong passwords, so that the lockout answers those first.
    "login_failed": "10/m/ip,10/300s/key",
}
# Two-factor login: TOTP with recovery codes, passkeys; "trust this browser" for an event day.
MFA_ADAPTER = "events.accounts.adapter.MFAAdapter"  # its secrets encrypted in the database
MFA_SUPPORTED_TYPES = ["totp", "recovery_codes", "webauthn"]
MFA_PASSKEY_LOGIN_ENABLED = True
MFA_TRUST_ENABLED = True
MFA_TRUST_COOKIE_AGE = timedelta(hours=envint("MFA_TRUST_HOURS", 12))
MFA_TOTP_ISSUER = SITE_NAME
MFA_TOTP_TOLERANCE = 1  # a code from the previous or next 30 s still counts (a slow phone)
MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN = DEBUG  # passkeys on http://localhost while developing
# Two-factor login required before the pages with people's addresses, fees and sign-up lists
# open (and for site staff before the admin): off only where a site chooses so.
TWO_FACTOR_REQUIRED = envbool("TWO_FACTOR_REQUIRED", True)
STAFF_TWO_FACTOR_REQUIRED = envbool("STAFF_TWO_FACTOR_REQUIRED", not DEBUG)
# An invitation to a club is good for this many days; an owner sends at most this many a day.
INVITATION_DAYS = envint("INVITATION_DAYS", 7)
INVITATIONS_PER_DAY = envint("INVITATIONS_PER_DAY", 30)

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("sv", _("Swedish")),
    ("et", _("Estonian")),
    ("nl", _("Dutch")),
]
LOCALE_PATHS = [SITE_DIR / "locale"]
# The language switcher's choice (Django's set_language view) is kept in this cookie, for a
# year, by anonymous visitors too; it wins over the browser's language (events/language.py).
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
USE_I18N = True
# Numbers and dates are always localised (Django 5.2): a decimal comma in sv/et/nl, local month
# names. Thousands stay ungrouped ("1500", not "1 500"): scores and ratings read better so, and
# the same number looks alike in every language. Exports and JSON never localise.
USE_THOUSAND_SEPARATOR = False
# Formats Django lacks for a language (Estonian has no DATETIME_FORMAT): config/formats/<lang>/.
FORMAT_MODULE_PATH = ["config.formats"]
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Stockholm")
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [SITE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "static"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Background work (docs/architecture.md, "Background work"): jobs are rows in this database,
# claimed by `manage.py worker` processes on any machine; no broker to run. A worker says it is
# alive every TASK_WORKER_BEAT_SECONDS; a job held by one silent for TASK_WORKER_STALE_SECONDS
# runs again (its worker died). TASK_WORKER_INTERVAL: how long an idle worker waits before it
# looks for due jobs again (the lateness of a job at an instant).
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
TASK_WORKER_INTERVAL = float(os.environ.get("TASK_WORKER_INTERVAL", "0.5"))
TASK_WORKER_BEAT_SECONDS = envint("TASK_WORKER_BEAT_SECONDS", 5)
TASK_WORKER_STALE_SECONDS = envint("TASK_WORKER_STALE_SECONDS", 60)
# Days between an owner asking for their hosting club's deletion and the deletion (an owner
# may take the request back until then).
CLUB_DELETION_DAYS = envint("CLUB_DELETION_DAYS", 30)

# The console backend prints every e-mail, private links included, into the server's log: fine
# for development, refused in production unless chosen on purpose (EMAIL_BACKEND set).
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "")
if not EMAIL_BACKEND:
    if not DEBUG:
        raise ImproperlyConfigured(
            "EMAIL_BACKEND is required when DEBUG is off: e.g. "
            "django.core.mail.backends.smtp.EmailBackend with EMAIL_HOST, EMAIL_PORT, "
            "EMAIL_HOST_USER, EMAIL_HOST_PASSWORD. The console backend would print every "
            "player's private link into the log; set it explicitly if that is really wanted."
        )
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
# The file backend's folder (django.core.mail.backends.filebased: the benches, a trial run).
EMAIL_FILE_PATH = os.environ.get("EMAIL_FILE_PATH") or None
EMAIL_PORT = envint("EMAIL_PORT", 25)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = envsecret("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = envbool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "desk@localhost")

# The read API (events.api): requests per address per window (0: no limit), counted
# in batches per process (events/api/limits.py); the data licence every answer states.
API_RATE_LIMIT = envint("API_RATE_LIMIT", 600)
API_RATE_SECONDS = envint("API_RATE_SECONDS", 60)
API_RATE_BATCH = envint("API_RATE_BATCH", 50)
API_DATA_LICENCE = os.environ.get("API_DATA_LICENCE", "CC BY 4.0")
API_DATA_LICENCE_URL = os.environ.get(
    "API_DATA_LICENCE_URL", "https://creativecommons.org/licenses/by/4.0/"
)

# Browser push: the VAPID key pair (RFC 8292) from `manage.py vapid_keys`. Without
# both keys push is not offered, and e-mail works as before. VAPID_SUBJECT is how a push service
# reaches the operator (mailto: or https:).
VAPID_PRIVATE_KEY = envsecret("VAPID_PRIVATE_KEY")
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "")
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "") or f"mailto:{DEFAULT_FROM_EMAIL}"
# Where a browser's push subscription may point: the push services of Chrome/Edge (FCM),
# Firefox, Safari and Windows. The site posts to that address, so any other host (the
# operator's own network) is refused (no server-side request forgery through a subscription).
PUSH_SERVICE_HOSTS = tuple(
    host.strip().lower()
    for host in os.environ.get(
        "PUSH_SERVICE_HOSTS",
        "fcm.googleapis.com,push.services.mozilla.com,push.apple.com,notify.windows.com",
    ).split(",")
    if host.strip()
)
# The tests: a push endpoint on this machine too (their own push service). Never in production.
PUSH_ANY_LOCAL_ENDPOINT = envbool("PUSH_ANY_LOCAL_ENDPOINT", False)
# Webhooks post only to public https addresses; this also allows plain http and
# private, loopback and link-local addresses (a receiver on the venue's network, the tests).
WEBHOOKS_ALLOW_PRIVATE = envbool("WEBHOOKS_ALLOW_PRIVATE", False)
# A mail server that stops answering must not hold the outbox past its lease.
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT") or 20)

# Uploads: a CSV of players is small; refuse anything that is not.
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
FILE_UPLOAD_MAX_MEMORY_SIZE = 2_621_440

if not DEBUG:
    SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", True)
    # A load balancer checks health over plain HTTP: a redirect would read as "down".
    SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 31_536_000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # Players' private links (/p/<token>/) are redacted in every record that carries a path.
    "filters": {"redact_private_links": {"()": "config.logfilters.RedactPrivateLinks"}},
    "formatters": {
        "django.server": {
            "()": "django.utils.log.ServerFormatter",
            "format": "[{server_time}] {message}",
            "style": "{",
        }
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler"},
        "django.server": {
            "class": "logging.StreamHandler",
            "formatter": "django.server",
            "level": "INFO",
        },
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        # The task library logs every job's start and end at INFO (two lines a job, periodic
        # ones every few seconds); a failed job at ERROR. TASK_LOG_LEVEL=INFO to see them all.
        "django_tasks": {"level": os.environ.get("TASK_LOG_LEVEL", "WARNING")},
        "django_tasks_db": {"level": os.environ.get("TASK_LOG_LEVEL", "WARNING")},
        # Django's own records go to the root's handler once: Django's default configuration
        # gives this logger a console handler of its own as well, so in DEBUG every line
        # (the autoreloader's, a request's error) was printed twice.
        "django": {"handlers": [], "level": "INFO"},
        # Django's own access log (runserver), as Django configures it, plus the filter.
        "django.server": {
            "handlers": ["django.server"],
            "level": "INFO",
            "propagate": False,
            "filters": ["redact_private_links"],
        },
        # Loggers without handlers of their own (they propagate): the filter only. gunicorn's
        # loggers are left to gunicorn (config/gunicorn.py installs the filter there).
        **{
            name: {"filters": ["redact_private_links"]}
            for name in PATH_LOGGERS
            if name != "django.server" and not name.startswith("gunicorn.")
        },
    },
}
