"""Hostile input never gives a 500, and a refused request writes nothing.

Every URL pattern of the project (from the resolver; the admin has its own fuzz in
``test_admin_fuzz.py``) is filled from the demo data (``manage.py load_demo``: one competition
of each format) and then, parameter by parameter, with hostile values (unknown, zero, huge, very
long, negative, non-ASCII, NUL, control characters). Each address is asked for with GET, HEAD and
POST as every role: anonymous, the event's organiser, an organiser of another event, a staff
superuser and, on the round robin's pages, a player holding the private-link cookie (the JSON
API: the player's bearer token). Every form found on the pages (``<form>``, and ``hx-post`` /
``hx-get`` elements) is then posted as it stands, as every role, and with hostile values: each
value in every field at once, three values per field in turn (the same on every run), fields
missing, keys duplicated, half of it with ``HX-Request: true``.

Asserted, request by request (each in a savepoint rolled back afterwards, so every request meets
the same demo data):

- never a status >= 500 (the test client re-raises a view's exception: it is caught and named);
- a role that may not change the address's data (anyone but the event's organisers and staff on
  the desk, anyone but the player on a private page or the API, anyone at all on a public page)
  changes nothing;
- an error answer (4xx, a 200 that shows a form error, a redirect carrying an error message)
  changes nothing: no partial write.

"Changed" is a signature of every table of our apps (their history and many-to-many tables
included) and of the user count: one SELECT of row counts and per-column sums, taken after the
request. ``-s`` prints the counts of addresses, roles, forms, values and requests.

A new URL pattern that the fill below cannot fill fails ``test_every_url_pattern_is_fuzzed``:
teach ``_build_world`` its parameters (or add it to :data:`EXCLUDED` with a reason). A format
the world does not know gets what every competition has (its slugs, entries, players).
"""

from __future__ import annotations

import copy
import logging
import traceback
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode, urlsplit

import pytest
from django.contrib import messages
from django.core.management import call_command
from django.db import connection, transaction
from django.test import Client, override_settings
from django.urls import Resolver404, resolve

from events.formats import all_formats
from tests.support.hostile import (
    JSON_BODIES,
    PATH_VALUES,
    VALUES,
    Form,
    Route,
    forms_of,
    routes,
    sample,
    signature,
    signature_sql,
)

# Patterns the fuzz does not fill, with the reason. Keep it small: every entry is a hole.
EXCLUDED: dict[str, str] = {}

ROLES = ("anonymous", "organiser", "other", "staff", "player")
COUNTS: Counter[str] = Counter()
SEEN_FORMS: set[tuple[Any, ...]] = set()
ROUTES = {r.route: r for r in routes() if r.route not in EXCLUDED}
# An HTML page with a form error, as the project's templates render one.
ERROR_MARKERS = ('class="error"', 'class="errors"', 'class="msg error"')


# --- the demo world, built once ----------------------------------------------------------


@dataclass
class World:
    clients: dict[str, Client]
    token: str
    contexts: dict[str, list[dict[str, Any]]]  # URL namespace -> consistent parameter values
    base: tuple[object, ...] = ()
    sql: str = ""


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker) -> Iterator[World]:
    """``load_demo`` (every format's demo event; a stand-in for a format without one), an
    organiser of another event, a correction to undo; the clients of every role. One
    transaction, rolled back at the end."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield _build_world()
        transaction.set_rollback(True)
    print(
        "\nhostile input: "
        f"{len(ROUTES)} URL patterns, {len(ROLES)} roles, {COUNTS['forms']} forms, "
        f"{len(VALUES)} form values, {sum(len(a + r) for a, r in PATH_VALUES.values())} path "
        "values, "
        f"{len(JSON_BODIES)} JSON bodies; {dict(sorted(COUNTS.items()))}"
    )


def _build_world() -> World:
    from django.contrib.auth import get_user_model

    from blokus.models import SessionPlayer
    from blokus.views.desk import PLAYER_ACTIONS
    from events.calendar.links import player_token
    from events.desk.views.registration import ENTRY_ACTIONS
    from events.models import Competition, Correction, Entry, Game, Round, Session
    from events.outbox.stop_links import public_stop_token, stop_token
    from events.signups.models import SignUp
    from events.signups.services.mail import person_token
    from roundrobin.models import PlayerToken
    from shuffleboard import services as sjoelen
    from shuffleboard.models import Turn
    from tests.support.factories import EventFactory, UserFactory, stand_in_demo

    with override_settings(DEBUG=True):  # load_demo refuses to run with DEBUG off
        call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    users = get_user_model()
    organiser = users.objects.get(username="organiser")
    # A format without a demo of its own gets a stand-in, so that its pages are fuzzed too.
    for game_format in all_formats():
        if not Competition.objects.filter(format=game_format.key).exists():
            stand_in_demo(game_format, organiser)
    staff = users.objects.get(username="admin")
    other = UserFactory(username="other-organiser")
    EventFactory(organisers=[other], slug="another-event")

    # A correction, for the desk's undo address.
    turn = Turn.objects.order_by("pk").first()
    assert turn is not None
    counts = list(turn.counts)
    counts[0] = counts[0] - 1 if counts[0] else counts[0] + 1
    sjoelen.turn_correct(
        turn=turn, revision=turn.revision, counts=counts, entered_by=organiser, confirmed=True
    )
    correction = Correction.objects.order_by("pk").first()

    # The player: a round-robin entry with a game in play.
    token = (
        PlayerToken.objects.filter(entry__seats__game__status=Game.Status.PLAYING)
        .select_related("entry")
        .order_by("pk")
        .first()
        or PlayerToken.objects.order_by("pk").first()
    )
    assert token is not None

    contexts: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for competition in Competition.objects.select_related("event").order_by("pk"):
        fmt = competition.format
        common: dict[str, Any] = {
            "event_slug": competition.event.slug,
            "competition_slug": competition.slug,
            "entry_id": list(
                Entry.objects.filter(competition=competition)
                .order_by("pk")
                .values_list("pk", flat=True)[:2]
            ),
            "player_id": list(
                Entry.objects.filter(competition=competition)
                .order_by("pk")
                .values_list("player_id", flat=True)[:2]
            ),
            "user_id": [organiser.pk, other.pk],
            "correction_id": [correction.pk] if correction else [],
            "proposal_id": [999999],  # results from players: none in the demo
            "kind": ["standings", "all"],  # the exports: standings.csv, all.xlsx
            "file_format": ["csv", "xlsx"],
            "action": list(ENTRY_ACTIONS),
        }
        # Sign-up: the demo's sign-ups, and a person's link to their page.
        sign_ups = list(SignUp.objects.order_by("-status", "pk")[:3])
        contexts["events"].append(
            {
                **common,
                "sign_up_id": [s.pk for s in sign_ups] or [999999],
                # The person's links, and a player's calendar feed.
                "token": [
                    *([person_token(s.email) for s in sign_ups[:2]] or [person_token("x@y.org")]),
                    player_token(token.entry.player_id),
                    # A message's stop link.
                    stop_token(token.entry.player_id, competition.event_id),
                    # A "this is me" push's own stop link (a browser long gone).
                    public_stop_token(999999, "0" * 16),
                ],
                "event_id": [competition.event_id],
                "table": [1, 999999],  # a call for help from a table
                "call_id": [999999],  # the desk's take and close of a call (none in the demo)
                "screen_id": [999999],  # a projector of the desk (none paired in the demo)
                "claim": ["no-such-claim"],  # a browser waiting for its pairing
                # The print kit's downloads (and any other key: a call for help's, unknown here).
                "key": ["badges", "wall-chart", "no-such-item"],
                "action": [*ENTRY_ACTIONS, "accept", "decline", "cancel", "check-in", "pause"],
                "payment": ["paid", "waived", "unpaid"],
            }
        )
        if fmt == "blokus":
            for session in Session.objects.filter(competition=competition).order_by("number")[:3]:
                sps = SessionPlayer.objects.filter(session=session).order_by("pk")
                contexts["blokus"].append(
                    {
                        **common,
                        "number": session.number,
                        "sp_id": [sp.pk for sp in sps[:2]] or [999999],
                        "entry_id": [sp.entry_id for sp in sps[:2]] or common["entry_id"],
                        "round_id": list(
                            Round.objects.filter(session=session).values_list("pk", flat=True)[:2]
                        )
                        or [999999],
                        "game_id": list(
                            Game.objects.filter(round__session=session).values_list(
                                "pk", flat=True
                            )[:2]
                        )
                        or [999999],
                        "action": list(PLAYER_ACTIONS),
                    }
                )
        elif fmt == "shuffleboard":
            contexts["shuffleboard"].append(
                {
                    **common,
                    "turn_id": list(
                        Turn.objects.filter(entry__competition=competition)
                        .order_by("pk")
                        .values_list("pk", flat=True)[:2]
                    ),
                    "board": [1],  # a board's page of results from players
                }
            )
        elif fmt == "roundrobin":
            games = Game.objects.filter(round__session__competition=competition)
            playing = list(
                games.filter(seats__entry=token.entry, status=Game.Status.PLAYING).values_list(
                    "pk", flat=True
                )[:1]
            )
            finished = list(
                games.filter(status=Game.Status.FINISHED).values_list("pk", flat=True)[:1]
            )
            contexts["roundrobin"].append(
                {
                    **common,
                    "entry_id": [token.entry_id, *common["entry_id"]],
                    "number": list(
                        Session.objects.filter(competition=competition)
                        .order_by("number")
                        .values_list("number", flat=True)[:2]
                    ),
                    "game_id": playing + finished,
                    "token": token.token,
                    "rest": ["games/abc/", "nothing/here"],
                }
            )
        else:
            # Any other format's pages: what every competition has (its address, entries,
            # players), so a new format is fuzzed without being taught here.
            contexts[fmt].append(common)

    # Series: the demo's series, their players and members.
    from events.series.models import SeriesCompetition

    members = list(SeriesCompetition.objects.select_related("series").order_by("pk")[:3])
    contexts["events"].append(
        {
            "series_slug": [m.series.slug for m in members],
            "player_id": list(
                Entry.objects.filter(competition__in=[m.competition_id for m in members])
                .order_by("pk")
                .values_list("player_id", flat=True)[:2]
            ),
            "member_id": [m.pk for m in members[:2]],
            "action": ["final", "not-final", "remove"],
            "file_format": ["csv", "xlsx"],
        }
    )

    # Hosting clubs: the demo's clubs, their people, the club pages' words.
    from events.models import ClubRole, HostClub

    demo_clubs = list(HostClub.objects.order_by("pk")[:2])
    # An open invitation of the first club: its link's page and its withdrawal.
    from events.clubs import invitations

    owner_of_first = ClubRole.objects.filter(club=demo_clubs[0], role="owner").first()
    sent = invitations.invitation_send(
        club=demo_clubs[0], by=owner_of_first.user, email="fuzz@example.org", role="organiser"
    )
    contexts["events"].append(
        {
            "club_slug": [club.slug for club in demo_clubs],
            "invitation_id": [sent.invitation.pk, 999999],
            "token": [sent.url.rstrip("/").rsplit("/", 1)[-1], "x" * 200],
            "user_id": list(
                ClubRole.objects.filter(club__in=demo_clubs)
                .order_by("pk")
                .values_list("user_id", flat=True)[:2]
            ),
            "action": ["change", "remove", "hand-over", "request", "cancel", "nothing"],
            "version": [demo_clubs[0].logo_version or "none", "0"],
            "file_format": ["csv", "xlsx", "pdf"],
        }
    )

    # Patterns outside the apps' namespaces: the JavaScript catalogue per language (an unknown
    # one is a 404) and the results sheet of a competition.
    pairs = [
        (c["event_slug"], c["competition_slug"]) for c in contexts["events"] if "event_slug" in c
    ][:3]
    contexts[""].append(
        {
            "lang": ["sv", "xx"],
            "code": ["et", "xx", "EN"],  # the footer's language links
            # allauth's links: an address's confirmation, a password reset, a passkey
            "key": ["MQ:1xZtDc:forged", "x" * 300],
            "uidb36": ["1", "zz"],
            "pk": [1, 999999],
            "event_slug": [event for event, _ in pairs],
            "competition_slug": [competition for _, competition in pairs],
        }
    )

    # Webhooks: one webhook of a demo event and one of its deliveries.
    from events.models import Event
    from events.outbox import queue as outbox, webhooks
    from events.outbox.models import OutboxMessage

    hooked = Event.objects.filter(organisers=organiser).order_by("pk").first()
    assert hooked is not None
    hook = webhooks.webhook_create(
        event=hooked, url="http://127.0.0.1:9/hook", topics=["result.confirmed"]
    )
    outbox.enqueue(
        key="wh:fuzz",
        channel="webhook",
        to=hook.url,
        subject="test",
        body="{}",
        event=hooked,
        webhook=hook,
    )
    contexts["events"].append(
        {
            "event_slug": hooked.slug,
            "webhook_id": [hook.pk, 999999],
            "delivery_id": [OutboxMessage.objects.get(key="wh:fuzz").pk, 999999],
            "action": ["test", "off", "on", "delete"],
        }
    )

    # The read API: every public competition's addresses, its sessions, the series
    # and the rating lists.
    for competition in Competition.objects.select_related("event").order_by("pk"):
        contexts["api-v1"].append(
            {
                "event_slug": competition.event.slug,
                "competition_slug": competition.slug,
                "number": [1, 2],
                "series_slug": [m.series.slug for m in members[:2]],
                "format_segment": [f.url_segment for f in all_formats()],
            }
        )

    clients = {role: Client() for role in ROLES}
    clients["organiser"].force_login(organiser)
    clients["other"].force_login(other)
    clients["staff"].force_login(staff)
    # The private link exchanges the token for the player's cookie.
    assert clients["player"].get(f"/p/{token.token}/").status_code == 303
    sql = signature_sql()
    return World(clients=clients, token=token.token, contexts=dict(contexts), sql=sql)


# --- filling a pattern ----------------------------------------------------------------------


def _namespace(route: Route) -> str:
    return route.namespace


def fills(route: Route, world: World) -> list[dict[str, str]]:
    """Real values for the pattern's parameters (up to four sets), or [] when some parameter
    cannot be filled."""
    params = [name for name, _converter in route.params]
    if not params:
        return [{}]
    # Only the contexts that know every parameter (a series' context has no competition).
    contexts = [c for c in world.contexts.get(_namespace(route)) or [] if set(params) <= set(c)]
    if not contexts:
        return []
    sets: list[dict[str, str]] = []
    longest = max(
        [len(contexts)]
        + [len(ctx[p]) for ctx in contexts for p in params if isinstance(ctx.get(p), list)]
    )
    for i in range(min(longest, 4 if "action" in params else 2)):
        ctx = contexts[i % len(contexts)] if contexts else {}
        values: dict[str, str] = {}
        for p in params:
            value = ctx.get(p)
            if isinstance(value, list):
                value = value[i % len(value)] if value else None
            if value is None:
                return []
            values[p] = str(value)
        if values not in sets:
            sets.append(values)
    return sets


# --- who may change what ---------------------------------------------------------------------


def may_write(role: str, path: str) -> bool:
    """Whether ``role`` may change data through ``path`` (every demo event is organised by the
    organiser; staff is a superuser, the owner of every event)."""
    try:
        route = resolve(path).route
    except Resolver404:
        return False
    if route in ("desk/", "desk/new/"):
        return role in ("organiser", "other", "staff")
    if route.startswith("desk/"):
        return role in ("organiser", "staff")
    if route.startswith(("p/", "api/")):
        return role == "player"
    if route.startswith(("e/<slug:event_slug>/sign-up/", "sign-up/", "notifications/")):
        return True  # anyone signs up; the signed link is the person's key, whoever holds it
    if route.startswith("e/") and "/help/" in route:
        return True  # anyone at a table calls for help, without an account
    if route == "screen/":
        return True  # a projector's browser asks for a pairing code (rate-limited per address)
    # Logins and the language switch write sessions only (not in the signature).
    return route.startswith(("accounts/", "i18n/"))


def roles_of(route: Route) -> tuple[str, ...]:
    """Every role; the player only where a player's cookie or token can matter."""
    if route.route.startswith(("p/", "api/", "e/")) and _namespace(route) == "roundrobin":
        return ROLES
    return ROLES[:4]


def main_role(route: Route) -> str:
    if route.route.startswith("desk/"):
        return "organiser"
    if route.route.startswith(("p/", "api/")):
        return "player"
    return "anonymous"


# --- sending, and checking each answer -----------------------------------------------------


@dataclass
class Fuzz:
    world: World
    failures: list[str] = field(default_factory=list)
    forms: list[tuple[Form, str]] = field(default_factory=list)

    def send(
        self,
        role: str,
        method: str,
        url: str,
        data: list[tuple[str, str]] | None = None,
        *,
        htmx: bool = False,
        multipart: bool = False,
        json_body: str | None = None,
        bearer: bool = False,
        collect: bool = False,
    ) -> int:
        client = self.world.clients[role]
        cookies = copy.deepcopy(client.cookies)  # a logout or login must not change the role
        headers: dict[str, str] = {}
        if htmx:
            headers["HX-Request"] = "true"
        if bearer:
            headers["Authorization"] = f"Bearer {self.world.token}"
        COUNTS["requests"] += 1
        COUNTS[f"requests {method}"] += 1
        what = f"{role} {method.upper()} {url[:120]}" + (
            f" {_short(data)}" if data else f" {json_body[:60]!r}" if json_body else ""
        )
        writes: list[str] = []
        with transaction.atomic(), connection.execute_wrapper(_writes_into(writes)):
            try:
                response = self._request(
                    client, method, url, data, headers, multipart=multipart, json_body=json_body
                )
            except Exception as exc:  # noqa: BLE001 - every crash is a finding
                frames = [
                    f
                    for f in traceback.extract_tb(exc.__traceback__)
                    if "/work/main/" in f.filename and "/.venv/" not in f.filename
                ] or traceback.extract_tb(exc.__traceback__)
                where = f"{frames[-1].filename}:{frames[-1].lineno}"
                self.failures.append(
                    f"500 {what}: {type(exc).__name__}: {str(exc)[:160]} at {where}"
                )
                transaction.set_rollback(True)
                client.cookies = cookies
                return 500
            try:
                # No INSERT, UPDATE or DELETE ran: nothing changed (the signature is for the
                # requests that wrote, since a write may have been rolled back since).
                changed = bool(writes) and signature(self.world.sql) != self.world.base
            except Exception as exc:  # noqa: BLE001 - a broken transaction is a finding too
                self.failures.append(f"transaction left broken by {what}: {exc}")
                changed = True
            transaction.set_rollback(True)
        client.cookies = cookies
        status = response.status_code
        if status >= 500:
            self.failures.append(f"{status} {what}")
        refused = _refused(response)
        if changed:
            if refused:
                self.failures.append(f"partial write: {status} (refused) after {what}")
            elif not may_write(role, urlsplit(url).path):
                self.failures.append(f"unauthorised write: {status} after {what}")
            else:
                COUNTS["successful writes"] += 1
        if collect and status == 200 and "text/html" in response.get("Content-Type", ""):
            for form in forms_of(response.content.decode(), url):
                self.forms.append((form, role))
        return status

    def _request(self, client, method, url, data, headers, *, multipart, json_body):
        if json_body is not None:
            return client.post(url, json_body, content_type="application/json", headers=headers)
        if method in ("get", "head"):
            query = _as_dict(data) if data else None
            return getattr(client, method)(url, query, headers=headers)
        if multipart:
            return client.post(url, _as_dict(data or []), headers=headers)
        return client.post(
            url,
            urlencode(data or [], doseq=True),
            content_type="application/x-www-form-urlencoded",
            headers=headers,
        )


# Tables whose writes are not the app's data: sessions (logins, messages), login attempts and
# the attempt counters of every other lockout (events.services.attempts).
NOT_DATA = ("django_session", "axes_", "events_attemptcounter")
WRITE = ("insert", "update", "delete", "replace")


def _writes_into(writes: list[str]):
    """An execute wrapper that notes every statement that may change a table of data."""

    def wrapper(execute, sql, params, many, context):
        text = sql.lstrip().lower()
        if text.startswith(WRITE) and not any(table in text[:80] for table in NOT_DATA):
            writes.append(sql[:80])
        return execute(sql, params, many, context)

    return wrapper


def _as_dict(data: list[tuple[str, str]]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = defaultdict(list)
    for name, value in data:
        out[name].append(value)
    return dict(out)


def _short(data: list[tuple[str, str]]) -> str:
    return ", ".join(f"{k}={v[:20]!r}" for k, v in data if k != "csrfmiddlewaretoken")[:200]


def _refused(response) -> bool:
    """An error answer: 4xx, a page showing a form error, a redirect with an error message,
    a JSON error."""
    if response.status_code >= 400:
        return True
    request = getattr(response, "wsgi_request", None)
    queued = getattr(getattr(request, "_messages", None), "_queued_messages", [])
    if any(m.level >= messages.ERROR for m in queued):
        return True
    if response.status_code >= 300 or getattr(response, "streaming", False):
        return False
    content_type = response.get("Content-Type", "")
    body = response.content.decode(errors="replace")
    if "json" in content_type:
        return '"error"' in body
    return any(marker in body for marker in ERROR_MARKERS)


# --- the fuzz of one URL pattern -------------------------------------------------------------


def fuzz_form(fuzz: Fuzz, form: Form, seen_by: str, roles: tuple[str, ...]) -> None:
    path = urlsplit(form.action).path
    try:
        target = resolve(path).route
    except Resolver404:
        fuzz.failures.append(f"form posts to an unknown address {form.action}")
        return
    if target.startswith("admin/"):
        return
    # One form per address and set of field names: the rows of a list share theirs.
    key = (form.method, target, tuple(sorted(form.names)))
    if key in SEEN_FORMS:
        return
    SEEN_FORMS.add(key)
    COUNTS["forms"] += 1
    names = form.names
    COUNTS["form fields"] += len(names)
    url = form.action
    send = fuzz.send

    # As it stands, as every role: only an authorised one may change anything.
    for role in roles:
        send(role, form.method, url, form.data, htmx=form.htmx)

    def replaced(values: dict[str, str]) -> list[tuple[str, str]]:
        return [(n, values.get(n, v)) for n, v in form.data]

    variants: list[list[tuple[str, str]]] = []
    for value in VALUES:  # each value in every field at once
        variants.append(replaced(dict.fromkeys(names, value)) if names else [("x", value)])
    for name in names:  # three values per field in turn, the others valid
        variants.extend(replaced({name: value}) for value in sample(f"{target}|{name}", 2))
    csrf = [(n, v) for n, v in form.data if n == "csrfmiddlewaretoken"]
    variants.append(csrf)  # every field missing
    variants.append([(n, v) for n, v in form.data if n not in names[::2]])  # half missing
    variants.append(form.data + [(n, VALUES[4]) for n in names])  # duplicated keys
    variants.append([(n, "-1") for n in names] + form.data)
    for i, data in enumerate(variants):
        COUNTS["form values"] += 1
        send(seen_by, form.method, url, data, htmx=bool(i % 2), multipart=i % 3 == 2)


@pytest.fixture
def fuzz(world, db) -> Iterator[Fuzz]:
    world.base = signature(world.sql)
    logging.disable(logging.WARNING)  # thousands of "Not Found" lines; errors still show
    try:
        yield Fuzz(world)
    finally:
        logging.disable(logging.NOTSET)


def test_every_url_pattern_is_fuzzed(world, db):
    unfilled = [f"{r.route} ({r.name})" for r in ROUTES.values() if not fills(r, world)]
    assert not unfilled, (
        "URL patterns the hostile-input fuzz cannot fill (teach _build_world their parameters or "
        "add them to EXCLUDED with a reason):\n" + "\n".join(unfilled)
    )
    stale = [route for route in EXCLUDED if route not in {r.route for r in routes()}]
    assert not stale, f"EXCLUDED names patterns that no longer exist: {stale}"


@pytest.mark.parametrize("route_key", list(ROUTES))
def test_hostile_input(fuzz, route_key):
    route = ROUTES[route_key]
    world = fuzz.world
    sets = fills(route, world)
    if not sets:
        pytest.skip("not filled: test_every_url_pattern_is_fuzzed fails for it")
    COUNTS["URL patterns"] += 1
    roles = roles_of(route)
    api = route.route.startswith("api/")

    # Real values, every role, GET / HEAD / POST (no form: 405, 403 or 400 are all fine).
    for values in sets:
        url = route.url(values)
        COUNTS["addresses"] += 1
        for role in roles:
            fuzz.send(role, "get", url, bearer=api and role == "player", collect=True)
            if role == main_role(route):
                fuzz.send(role, "head", url, bearer=api)
            fuzz.send(role, "post", url, bearer=api and role == "player")

    # Hostile values in each parameter, the others real, as the role that gets furthest:
    # GET and POST for those the converter lets through to the view, GET for the others.
    role = main_role(route)
    for name, converter in route.params:
        accepted, refused = PATH_VALUES.get(converter, PATH_VALUES["str"])
        for value in accepted + refused:
            url = route.url({**sets[0], name: value})
            COUNTS["path values"] += 1
            fuzz.send(role, "get", url, bearer=api)
            if value in accepted:
                fuzz.send(role, "post", url, bearer=api)

    # The JSON API: hostile bodies, with and without the player's token.
    if api:
        url = route.url(sets[0])
        for body in JSON_BODIES:
            COUNTS["JSON bodies"] += 1
            fuzz.send("player", "post", url, json_body=body, bearer=True)
        fuzz.send("anonymous", "post", url, json_body=JSON_BODIES[-2])

    # Every form on these pages.
    for form, seen_by in fuzz.forms:
        fuzz_form(fuzz, form, seen_by, roles_of(ROUTES.get(_route_of(form), route)))

    assert not fuzz.failures, f"{route.route}:\n" + "\n".join(fuzz.failures[:40])


def _route_of(form: Form) -> str:
    try:
        return resolve(urlsplit(form.action).path).route
    except Resolver404:
        return ""


# --- the 400 of a form post holding a NUL ---------------------------------------------------


def test_a_form_post_refused_for_a_nul_links_back_to_its_form(db):
    page = "/desk/some-event/some-competition/?tab=players"
    client = Client()
    response = client.post(
        "/desk/some-event/some-competition/register-new/",
        {"name": "Ann\x00a"},
        headers={"Referer": f"http://testserver{page}"},
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "NUL character" in html and "Nothing was saved" in html
    assert f'href="{page.replace("&", "&amp;")}"' in html
    # Another site's page is never linked; a read gets no form link.
    foreign = client.post(
        "/desk/x/y/register-new/", {"name": "\x00"}, headers={"Referer": "https://evil.example/"}
    )
    assert foreign.status_code == 400 and "evil.example" not in foreign.content.decode()
    assert "Back to the form" not in client.get("/e/%00/").content.decode()


def test_the_signature_sees_a_changed_value_and_the_rollback(fuzz):
    from events.models import Player

    world = fuzz.world
    writes: list[str] = []
    first = Player.objects.order_by("pk").first()
    assert first is not None
    with transaction.atomic(), connection.execute_wrapper(_writes_into(writes)):
        Player.objects.filter(pk=first.pk).update(club=first.club + "x")
        assert writes and signature(world.sql) != world.base
        transaction.set_rollback(True)
    assert signature(world.sql) == world.base
    # A write the desk may do is allowed to the organiser only, never to a public page.
    entry = first.entries.select_related("competition__event").first()
    assert entry is not None
    desk = f"/desk/{entry.competition.event.slug}/"
    assert may_write("organiser", desk) and may_write("staff", desk)
    assert not may_write("other", desk) and not may_write("anonymous", desk)
    assert not may_write("organiser", entry.competition.get_absolute_url())
    assert may_write("player", "/api/roundrobin/games/") and not may_write("other", "/p/x/")


@pytest.mark.django_db
@pytest.mark.parametrize("query", ["?q=a%00b", "?%00=1", "?page=1&q=%00", "?format=json%00"])
def test_a_nul_in_the_query_string_is_a_400_as_in_the_path(client, query):
    """The README's word: a NUL in the address is a 400, and the query is part of the address."""
    assert client.get("/" + query).status_code == 400
    assert client.get("/api/v1/events" + query).status_code == 400
    assert client.get("/api/v1/events" + query).json()["code"] == "nul_character"
