"""The test run's settings: production settings (DEBUG off) with a throwaway secret and no
HTTPS redirect, since the test client and the browser tests speak plain HTTP to localhost."""

import os

os.environ.setdefault("SECRET_KEY", "test-only-secret-key-not-for-production")
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
# Production refuses to start without an explicit e-mail backend; tests keep mails in memory.
os.environ.setdefault("EMAIL_BACKEND", "django.core.mail.backends.locmem.EmailBackend")
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API runs a loop

from config.settings import *  # noqa: E402, F403

# Hashing test passwords slowly only slows the suite.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES["staticfiles"]["BACKEND"] = "django.contrib.staticfiles.storage.StaticFilesStorage"  # noqa: F405
# Tests run inside transactions that never commit, so the after-commit writes of versions to a
# shared cache never happen: read versions from the database even when REDIS_URL is set. The
# tests that cover the cached versions turn this on themselves (two servers, live tests).
LIVE_VERSIONS_IN_CACHE = False
# The tests run their own push service on 127.0.0.1 (events.outbox.channels.push.endpoint_usable).
PUSH_ANY_LOCAL_ENDPOINT = True
# The webhook tests run their receiver on 127.0.0.1 (the refusal is tested with this off).
WEBHOOKS_ALLOW_PRIVATE = True
