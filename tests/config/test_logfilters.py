"""No log line shows a link that is a key (``config/logfilters.py``): the person's sign-up link,
a stop link, a player's private link or calendar feed, in every form a log line carries one (a
request line, after a host in a Referer, in a query value, percent-encoded), while the pages
that only end in ``sign-up/`` (an event's, the desk's) stay readable. The last test reads the
access log of a real gunicorn started with ``config/gunicorn.py``."""

from __future__ import annotations

import http.client
import logging
import time
from pathlib import Path

import pytest
from django.core import signing

from config.logfilters import RedactPrivateLinks, redact
from events.signups.services import mail as signup_mail
from tests.support.servers import free_port, gunicorn_server

TOKEN = "gAAAAABpSECRETtokenOfAPerson_-xyz"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("GET /sign-up/T0KEN/ HTTP/1.1", "GET /sign-up/[private]/ HTTP/1.1"),
        (
            '"GET /static/css/site.css HTTP/1.1" 200 9 "http://127.0.0.1:8000/sign-up/T0KEN/" "UA"',
            '"GET /static/css/site.css HTTP/1.1" 200 9 '
            '"http://127.0.0.1:8000/sign-up/[private]/" "UA"',
        ),
        (
            '"https://events.example.org/sign-up/T0KEN/confirm/"',
            '"https://events.example.org/sign-up/[private]/confirm/"',
        ),
        ("//[::1]:8000/sign-up/T0KEN/erase/", "//[::1]:8000/sign-up/[private]/erase/"),
        ("GET /language/sv/?next=/sign-up/T0KEN/", "GET /language/sv/?next=/sign-up/[private]/"),
        ("?next=%2Fsign-up%2FT0KEN%2F", "?next=/sign-up/[private]%2F"),
        ("?next=%2fsign-up%2fT0KEN%2f", "?next=/sign-up/[private]%2f"),
        (
            "?u=http%253A%252F%252Fh%252Fsign-up%252FT0KEN",
            "?u=http%253A%252F%252Fh/sign-up/[private]",
        ),
        ("/sign-up/eyJh:1u2v3w:sIgNaTuRe/", "/sign-up/[private]/"),  # a link of the old form
        ("http://h/notifications/stop/T0KEN/", "http://h/notifications/stop/[private]/"),
        ("/notifications/phone/T0KEN/stop/", "/notifications/phone/[private]/stop/"),
        ("http://h:8000/p/T0KEN/", "http://h:8000/p/[private]/"),
        ("%2Fp%2FT0KEN", "/p/[private]"),
        ("http://h/calendar/T0KEN.ics", "http://h/calendar/[private]"),
        # No token in these: kept as they are.
        ('"GET /e/lincon/sign-up/ HTTP/1.1"', '"GET /e/lincon/sign-up/ HTTP/1.1"'),
        ('"http://h:8000/e/lincon/sign-up/resend/"', '"http://h:8000/e/lincon/sign-up/resend/"'),
        ("/desk/lincon/blokus/sign-up/door/", "/desk/lincon/blokus/sign-up/door/"),
        ("%2Fe%2Flincon%2Fsign-up%2F", "%2Fe%2Flincon%2Fsign-up%2F"),
        ("/p/player/12/ /e/lincon/calendar.ics", "/p/player/12/ /e/lincon/calendar.ics"),
        ("/notifications/me/3/stop/", "/notifications/me/3/stop/"),
    ],
)
def test_every_form_of_a_key_is_redacted(line, expected):
    assert redact(line) == expected


def record(msg: str, args: object) -> logging.LogRecord:
    return logging.LogRecord("gunicorn.access", logging.INFO, __file__, 1, msg, args, None)


def test_the_filter_rewrites_a_record_with_its_arguments():
    # gunicorn logs its access line as a format and a dict of atoms; runserver as %s arguments.
    atoms = {"r": "GET /static/site.css HTTP/1.1", "f": f"http://h:8000/sign-up/{TOKEN}/"}
    gunicorn = record('"%(r)s" "%(f)s"', (atoms,))
    server = record('"%s" %s %s', (f"GET /sign-up/{TOKEN}/ HTTP/1.1", 200, 10))
    plain = record("%s", ("GET /e/lincon/ HTTP/1.1",))
    for item in (gunicorn, server, plain):
        assert RedactPrivateLinks().filter(item) is True
    assert (
        gunicorn.getMessage()
        == '"GET /static/site.css HTTP/1.1" "http://h:8000/sign-up/[private]/"'
    )
    assert server.getMessage() == '"GET /sign-up/[private]/ HTTP/1.1" 200 10'
    assert plain.args == ("GET /e/lincon/ HTTP/1.1",)  # left alone: nothing to look at


@pytest.mark.server
def test_gunicorns_access_log_shows_no_person_link(tmp_path):
    """The app under gunicorn, as deployed (``-c python:config.gunicorn``): an asset requested
    from the person's page with its address as the Referer, as a browser ignoring the page's
    Referrer-Policy would, and the link in a query value, reach the access log redacted."""
    token = signup_mail.person_token("ann@example.org")
    old = signing.dumps("ann@example.org", salt=signup_mail.LINK_SALT, compress=False)
    access = tmp_path / "access.log"
    port = free_port()
    env = {
        "DJANGO_SETTINGS_MODULE": "config.test_settings",
        "DEBUG": "1",  # the static files from the checkout, without collectstatic
        "DATABASE_URL": f"sqlite:///{tmp_path / 'unused.sqlite3'}",
        "REDIS_URL": "",
        "GUNICORN_CMD_ARGS": f"--access-logfile {access}",
    }
    base = f"http://127.0.0.1:{port}"
    sent = [
        ("/static/favicon.svg", f"{base}/sign-up/{token}/"),
        ("/static/favicon.svg", f"{base}/sign-up/{old}/confirm/"),
        (f"/healthz?next=%2Fsign-up%2F{token}%2F", ""),
        ("/static/favicon.svg", f"{base}/e/lincon/sign-up/"),
    ]
    with gunicorn_server(port, env, workers=1):
        for path, referer in sent:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            try:
                conn.request("GET", path, headers={"Referer": referer} if referer else {})
                assert conn.getresponse().status == 200, path
            finally:
                conn.close()
        lines = _lines(access, containing="favicon.svg", count=3)
    text = access.read_text()
    assert len(lines) == 3 and "healthz?next=" in text
    assert token not in text and token[:24] not in text and old not in text
    assert "ann@" not in text and old.split(":")[0] not in text  # the old link's readable part
    assert f'"{base}/sign-up/[private]/"' in lines[0]
    assert f'"{base}/sign-up/[private]/confirm/"' in lines[1]
    assert "/healthz?next=/sign-up/[private]%2F" in text
    assert f'"{base}/e/lincon/sign-up/"' in lines[2]  # an event's page: no token, kept


def _lines(path: Path, *, containing: str, count: int, timeout: float = 15.0) -> list[str]:
    """The access log's lines with ``containing``, once there are ``count`` (gunicorn writes a
    line after its answer is sent)."""
    deadline = time.monotonic() + timeout
    while True:
        lines = (
            [line for line in path.read_text().splitlines() if containing in line]
            if path.exists()
            else []
        )
        if len(lines) >= count or time.monotonic() > deadline:
            return lines
        time.sleep(0.05)
