"""Security: the cache is optional, one login (its lockout is in tests/config/test_security.py),
private links stay private, security headers, hostile input (NUL, control characters), the
register search shows no e-mail."""

from __future__ import annotations

import datetime as dt
import http.cookiejar
import logging
import re
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
import time_machine
from django.core.cache import cache
from django.core.servers import basehttp
from django.test import Client, override_settings
from django.urls import reverse

from events.formats import all_formats
from events.models import Competition, Player
from roundrobin.models import PlayerToken, Turn
from roundrobin.views.private import PRIVATE_COOKIE
from tests.support.factories import (
    CompetitionFactory,
    EntryFactory,
    EventFactory,
    PlayerFactory,
)
from tests.support.roundrobin import START, started_duel
from tests.support.servers import DEAD_REDIS, redis_up

ROOT = Path(__file__).resolve().parents[1]


HTMX = {"HX-Request": "true"}


def _public_addresses(client: Client) -> list[str]:
    """Every public page reachable from the index by links (demo data), each once."""
    seen: list[str] = []
    queue = ["/"]
    while queue:
        address = queue.pop(0)
        if address in seen:
            continue
        seen.append(address)
        response = client.get(address)
        assert response.status_code == 200, (address, response.status_code)
        for href in re.findall(r'href="(/[^"#]*)"', response.content.decode()):
            href = href.replace("&amp;", "&")
            if href.startswith(("/e/", "/?")) or href == "/":
                if href not in seen and len(seen) + len(queue) < 400:
                    queue.append(href)
    return seen


def test_the_admin_login_is_the_sites_login(client):
    """/admin/login/ leads to the one login (lockout, two-factor), keeping where to go next."""
    answer = client.get("/admin/login/?next=/admin/events/event/")
    assert answer.status_code == 302
    assert answer["Location"] == "/accounts/login/?next=/admin/events/event/"


@pytest.fixture
def duel(event):
    duel = started_duel(event, "pv", seed=3)
    return duel.competition, duel.entries


def _token(entry) -> str:
    return PlayerToken.objects.get(entry=entry).token


def _open_game(entry):
    turn = Turn.objects.filter(game__seats__entry=entry, closed_at__isnull=True).first()
    return turn.game_id, turn.number


def test_the_link_is_exchanged_for_a_cookie_and_the_page_works_from_it(client, duel):
    _competition, (a, b) = duel
    token = _token(a)
    response = client.get(f"/p/{token}/")
    assert response.status_code == 303
    page_url = response["Location"]
    assert token not in page_url and page_url == f"/p/player/{a.pk}/"
    cookie = response.cookies[PRIVATE_COOKIE]
    assert cookie["httponly"] and cookie["samesite"] == "Lax" and cookie["path"] == page_url
    assert cookie["secure"]  # DEBUG is off in the tests, as in production
    assert token not in cookie.value.split(":")[-1]  # signed, not the token alone
    page = client.get(page_url)
    assert page.status_code == 200 and a.player.name in page.content.decode()
    assert token not in page.content.decode()
    assert page["Cache-Control"] == "private, no-store"
    game_id, number = _open_game(a)
    with time_machine.travel(START + dt.timedelta(hours=2), tick=False):
        moved = client.post(page_url, {"game": game_id, "turn": number, "move": "e4"})
    assert moved.status_code == 303 and moved["Location"].startswith(page_url)
    assert (
        Turn.objects.get(game_id=game_id, number=number).first_move
        or Turn.objects.get(game_id=game_id, number=number).second_move
    )
    # without the cookie, or with another player's: no page
    assert Client().get(page_url).status_code == 403
    assert client.get(f"/p/player/{b.pk}/").status_code == 403
    assert client.get("/p/" + "x" * 43 + "/").status_code == 404


def test_the_api_keeps_bearer_tokens_and_sends_no_store(client, duel):
    _competition, (a, _b) = duel
    response = client.get("/api/roundrobin/games/", HTTP_AUTHORIZATION=f"Bearer {_token(a)}")
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    assert "no-store" in client.get("/api/roundrobin/games/")["Cache-Control"]  # 404 too


@pytest.fixture
def access_log(monkeypatch):
    """The live server's handler logs its access lines like runserver's (django.server)."""
    from django.test.testcases import QuietWSGIRequestHandler

    monkeypatch.setattr(
        QuietWSGIRequestHandler, "log_message", basehttp.WSGIRequestHandler.log_message
    )


class _Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


def test_the_token_appears_in_no_log_line(transactional_db, live_server, settings, access_log):
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = False  # plain HTTP here
    event = EventFactory(name="Log", slug="log")
    a, _b = started_duel(event, "logs", seed=3).entries
    token = _token(a)
    capture = _Capture()
    names = ["", "django.request", "django.security.csrf", "django.server"]
    loggers = [logging.getLogger(name) for name in names]
    for logger in loggers:
        logger.addHandler(capture)
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

    def send(method: str, path: str, data: dict | None = None) -> int:
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        request = urllib.request.Request(live_server.url + path, data=body, method=method)
        try:
            with opener.open(request) as response:
                return response.status
        except urllib.error.HTTPError as exc:
            return exc.code

    try:
        travel = time_machine.travel(START + dt.timedelta(hours=2), tick=True)
        travel.start()
        assert send("GET", f"/p/{token}/") == 200  # the visit: 303, then the page
        page = f"/p/player/{a.pk}/"
        csrf = next(c.value for c in jar if c.name == "csrftoken")
        game_id, number = _open_game(a)
        move = {"game": game_id, "turn": number, "move": "Nf3", "csrfmiddlewaretoken": csrf}
        assert send("POST", page, move) == 200  # the move: 303, then the page
        assert send("OPTIONS", page) == 405  # (an unsafe method would be a CSRF 403 first)
        assert send("OPTIONS", f"/p/{token}/") == 405
        assert send("POST", page, {"game": game_id, "move": "x"}) == 403  # no CSRF token
        assert send("POST", f"/p/{token}/", {"move": "x"}) == 403
        assert send("GET", f"/p/{token[:-1]}Z/") == 404
    finally:
        travel.stop()
        for logger in loggers:
            logger.removeHandler(capture)
    text = "\n".join(capture.lines)
    assert "/p/player/" in text and "405" in text and "Forbidden (CSRF" in text  # logged…
    assert token not in text and token[:20] not in text  # …without the token


def test_security_headers(desk_client, competition):
    public = Client().get("/")
    policy = public["Content-Security-Policy"]
    script_src = next(p for p in policy.split(";") if p.strip().startswith("script-src"))
    assert "unsafe-inline" not in script_src and "unsafe-eval" not in policy
    assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy
    assert "camera=()" in public["Permissions-Policy"]
    assert "no-store" not in public.get("Cache-Control", "")
    for address in ["/desk/", competition.get_desk_url(), "/accounts/login/"]:
        assert "no-store" in desk_client.get(address)["Cache-Control"], address
    assert "Server" not in public


def test_templates_hold_no_inline_script():
    for path in (ROOT / "templates").rglob("*.html"):
        text = path.read_text()
        for tag in re.findall(r"<script\b[^>]*>", text):
            # A JSON data block is never run (the Swagger page's settings).
            assert "src=" in tag or 'type="application/json"' in tag, (path, tag)
        assert not re.search(r"\son[a-z]+=", text), path


@pytest.mark.parametrize("address", ["/p/%00" + "a" * 40 + "/", "/e/%00/", "/desk/a%00b/c/"])
def test_a_nul_in_the_path_is_a_readable_400(client, db, address):
    response = client.get(address)
    assert response.status_code == 400
    assert "NUL character" in response.content.decode()


def test_a_nul_in_a_form_field_is_a_400_and_writes_nothing(desk_client, competition):
    address = reverse("blokus:session_not_held", args=[competition.event.slug, competition.slug, 1])
    response = desk_client.post(address, {"reason": "a\x00b"})
    assert response.status_code == 400 and "NUL character" in response.content.decode()
    api = Client().post(
        "/api/roundrobin/games/1/move/", '{"move": "e4\\u0000"}', content_type="application/json"
    )
    assert api.status_code == 400 and api.json()["code"] == "nul_character"


def test_control_characters_are_stripped_from_names(desk_client, competition):
    address = reverse("events:register_new", args=[competition.event.slug, competition.slug])
    desk_client.post(address, {"name": "Ann\x07a\x1b Berg\u0085", "club": "K\x7fA"})
    player = Player.objects.get()
    assert player.name == "Anna Berg" and player.club == "KA"


def test_the_register_search_shows_name_and_club_only(
    desk_client, competition, outsider, django_assert_max_num_queries
):
    theirs = PlayerFactory(name="Zed Other", club="Far", email="zed@example.org")
    EntryFactory(
        player=theirs, competition=CompetitionFactory(event=outsider.organised_events.get())
    )
    address = reverse("events:player_search", args=[competition.event.slug, competition.slug])
    with django_assert_max_num_queries(8):
        html = desk_client.get(address, {"q": "zed"}, headers=HTMX).content.decode()
    assert "Zed Other" in html and "Far" in html
    assert "zed@example.org" not in html
    full = desk_client.get(address, {"q": "zed"}).content.decode()
    assert "zed@example.org" not in full


@pytest.fixture
def demo(demo_site, db):
    """The demo site, loaded once for the module (``tests/conftest.py``)."""


def test_every_public_page_answers_200_with_the_cache_down(demo, client, caplog):
    caplog.set_level(logging.WARNING, logger="events.common.cache")
    with override_settings(CACHES=DEAD_REDIS):
        addresses = _public_addresses(client)
        for address in addresses:  # the live fragments too: they are what the cache holds
            fragment = client.get(address, headers=HTMX)
            assert fragment.status_code == 200, address
    formats = {c.format for c in Competition.objects.all()}
    assert {f.key for f in all_formats()} <= formats
    for competition in Competition.objects.select_related("event"):
        assert any(a.startswith(competition.get_absolute_url()) for a in addresses)
    assert len(addresses) >= 20
    warnings = [r for r in caplog.records if "cache unavailable" in r.getMessage()]
    assert len(warnings) == 1  # logged once, not per request


@pytest.mark.skipif(not redis_up(), reason="no Redis at 127.0.0.1:6379")
def test_live_fragments_are_cached_in_a_real_redis(demo, client):
    real = {"default": {**DEAD_REDIS["default"], "LOCATION": "redis://127.0.0.1:6379/15"}}
    with override_settings(CACHES=real):
        cache.clear()
        cache.set("probe", "yes")
        assert cache.get("probe") == "yes"
        competition = Competition.objects.select_related("event").first()
        assert client.get(competition.get_absolute_url(), headers=HTMX).status_code == 200
        keys = cache._cache.get_client().keys("*live:z:c:*")  # type: ignore[attr-defined]
        assert keys, "the fragment went into Redis"
        again = client.get(competition.get_absolute_url(), headers=HTMX)
        assert again.status_code == 200
        cache.clear()


def test_every_public_page_is_the_same_bytes_for_two_visitors(demo, settings):
    """A public page's body carries nothing per visitor (no CSRF token, no cookie), so it is
    cached and compressed once per version (one request path)."""
    settings.LIVE_VERSIONS_IN_CACHE = True
    addresses = _public_addresses(Client())
    assert len(addresses) > 30
    different = []
    for address in addresses:
        if address.endswith("/sign-up/") or "/help/" in address:
            continue  # a form, not a live page: its CSRF token is per visitor, never cached
        first, second = Client().get(address), Client().get(address)
        if first.content != second.content or first.cookies or second.cookies:
            different.append(address)
    assert not different, different
