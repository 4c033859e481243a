"""Log filters: a player's private link (and any other token in a path) never reaches a log line.

The private link ``/p/<token>/`` is the key to a player's page. It is exchanged for a cookie at
the first visit (``roundrobin.views.private.private``), so no other address carries it, but that
first request, a mistyped link and any warning about them (Django's 404/405/CSRF warnings, the
development server's and gunicorn's access lines) would still print it. The person's sign-up
link, the stop links and a calendar feed's address are keys too, and stay in the address bar:
besides the request line, gunicorn's access line prints the ``Referer`` (``http://host/…``),
which a browser fills with the page's address unless its Referrer-Policy says not to
(``events.common.middleware.referrer_policy``), and a link may travel in a query value
(``?next=/sign-up/…``, percent-encoded or not). :class:`RedactPrivateLinks` rewrites every
such record before any handler sees it: it is installed on the loggers that print request
paths (``config/settings.py`` ``LOGGING`` and gunicorn's ``config/gunicorn.py``).
"""

from __future__ import annotations

import logging
import re

# A slash in a path, or percent-encoded in a path inside a query value (?next=%2Fsign-up%2F…,
# once more encoded when such an address is itself a query value): each is logged as sent.
SLASH = r"(?:/|%(?:25)*2[Ff])"
# One path segment: up to the next slash (plain or encoded) or what ends a path in a log line
# (a space, a quote, the query, the fragment).
SEGMENT = r"(?:[^/\s\"'?#%]|%(?!(?:25)*2[Ff]))+"
SLUG = r"[-\w]+"
# /p/<token> (also percent-encoded or cut short), not the cookie page /p/player/<id>/.
PRIVATE_LINK = re.compile(rf"{SLASH}p{SLASH}(?!player{SLASH}){SEGMENT}")
REDACTED = "/p/[private]"
# A player's calendar feed, /calendar/<token>.ics, which calendar apps fetch every
# few hours: its token opens that feed.
CALENDAR_LINK = re.compile(rf"{SLASH}calendar{SLASH}{SEGMENT}")
CALENDAR_REDACTED = "/calendar/[private]"
# The person's page behind the sign-up link, /sign-up/<token>/..., a message's stop link,
# /notifications/stop/<token>/, and a "this is me" push's stop, /notifications/phone/<token>/:
# each token acts for its person. Wherever it stands (a request line, after a host in a
# Referer, in a query value), only the pages that merely end in sign-up/ are kept: an event's
# /e/<event>/sign-up/... and the desk's /desk/<event>/<competition>/sign-up/... carry no token.
PERSON_LINK = re.compile(
    rf"(?P<kept>{SLASH}e{SLASH}{SLUG}|{SLASH}desk{SLASH}{SLUG}{SLASH}{SLUG})?"
    rf"{SLASH}(?P<kind>sign-up|notifications{SLASH}(?:stop|phone)){SLASH}{SEGMENT}"
)
# What a message must contain to be worth the regular expressions (most log lines do not).
MARKERS = ("/p/", "/calendar/", "/sign-up/", "/notifications/", "%2f")

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


def _person_link(match: re.Match[str]) -> str:
    if match["kept"] and match["kind"] == "sign-up":
        return match[0]
    kind = re.sub(SLASH, "/", match["kind"])
    return f"{match['kept'] or ''}/{kind}/[private]"


def redact(text: str) -> str:
    text = PERSON_LINK.sub(_person_link, text)
    return CALENDAR_LINK.sub(CALENDAR_REDACTED, PRIVATE_LINK.sub(REDACTED, text))


class RedactPrivateLinks(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a record that cannot format itself: leave it to the handler
            return True
        if any(part in message.lower() for part in MARKERS):
            record.msg = redact(message)
            record.args = ()
        return True


def install() -> None:
    """Attach the filter to every logger that prints request paths (idempotent)."""
    for name in PATH_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactPrivateLinks) for f in logger.filters):
            logger.addFilter(RedactPrivateLinks())
