"""Log filters: a player's private link (and any other token in a path) never reaches a log line.

The private link ``/p/<token>/`` is the key to a player's page. It is exchanged for a cookie at
the first visit (``roundrobin.views.private.private``), so no other address carries it, but that
first request, a mistyped link and any warning about them (Django's 404/405/CSRF warnings, the
development server's and gunicorn's access lines) would still print it. :class:`RedactPrivateLinks`
rewrites every such record before any handler sees it: it is installed on the loggers that
print request paths (``config/settings.py`` ``LOGGING`` and gunicorn's ``config/gunicorn.py``).
"""

from __future__ import annotations

import logging
import re

# /p/<token> (also percent-encoded or cut short), not the cookie page /p/player/<id>/.
PRIVATE_LINK = re.compile(r"/p/(?!player/)[^/\s\"'?#]+")
REDACTED = "/p/[private]"
# A player's calendar feed (issue 31), /calendar/<token>.ics, which calendar apps fetch every
# few hours: its token opens that feed.
CALENDAR_LINK = re.compile(r"/calendar/[^/\s\"'?#]+")
CALENDAR_REDACTED = "/calendar/[private]"
# The person's page behind the sign-up link, /sign-up/<token>/..., and a message's stop link,
# /notifications/stop/<token>/: each token acts for its person. Only at the start of a path
# (an event's own /e/<event>/sign-up/ page carries no token).
PERSON_LINK = re.compile(r"(^|[\s\"'])/(sign-up|notifications/stop)/[^/\s\"'?#]+")

# The loggers whose records carry request paths (logger filters run before any handler,
# including handlers added later, e.g. by a test or a log shipper).
PATH_LOGGERS = (
    "django.request",
    "django.server",
    "django.security.csrf",
    "django.security.DisallowedHost",
    "django.security.SuspiciousOperation",
    "django.security.RequestDataTooBig",
    "django.security.TooManyFieldsSent",
    "django.security.TooManyFilesSent",
    "gunicorn.access",
    "gunicorn.error",
)


def redact(text: str) -> str:
    text = PERSON_LINK.sub(lambda m: f"{m[1]}/{m[2]}/[private]", text)
    return CALENDAR_LINK.sub(CALENDAR_REDACTED, PRIVATE_LINK.sub(REDACTED, text))


class RedactPrivateLinks(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a record that cannot format itself: leave it to the handler
            return True
        if any(part in message for part in ("/p/", "/calendar/", "/sign-up/", "/stop/")):
            record.msg = redact(message)
            record.args = ()
        return True


def install() -> None:
    """Attach the filter to every logger that prints request paths (idempotent)."""
    for name in PATH_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactPrivateLinks) for f in logger.filters):
            logger.addFilter(RedactPrivateLinks())
