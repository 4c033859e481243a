"""Who may use which desk page: every URL under /desk/, enumerated from the resolver, for every
role, with GET and POST.

The world's event belongs to a hosting club whose owner, organiser and scorekeeper hold their
roles at the club (and the owner at the event too); another club's owner, organiser and
scorekeeper (``other_club_*``) and an organiser of another club's event are strangers to every
page of it: the isolation matrix of clubs (403, never 200, never 500).

``ACCESS`` is the table of record of the shared desk. A desk URL missing from it fails
``test_every_desk_url_is_classified``: whoever adds a desk page decides here who may use it
(``desk_view`` itself defaults to organisers and owners, so an unclassified page is never open
to scorekeepers by accident). A format's desk pages are classified by their own views
(``desk_view(FORMAT, allow=...)``), so a new format changes nothing here; each format's tests
keep their table of record (``tests/<format>/views/test_desk_access.py``).
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.conf import settings
from django.db import transaction
from django.shortcuts import resolve_url
from django.test import Client
from django.urls import URLPattern, get_resolver
from django.utils import timezone

from events.clubs import invitations
from events.formats import all_formats, default_settings
from events.models import ClubRole, Correction, EventRole
from events.permissions import MANAGE, OWNER, SCOREKEEPER
from events.series.models import Series, SeriesCompetition
from events.signups.models import SignUp, SignUpWindow
from tests.support import totp
from tests.support.desk_urls import declared_access, desk_patterns
from tests.support.factories import CompetitionFactory, EntryFactory, EventFactory, HostClubFactory

SIGNED_IN = "signed_in"  # any login (the desk's index lists only the user's own events)
MOVED = "moved"  # an old address that redirects to the page's new one, whoever asks
PUBLIC = "public"  # no data, for everyone: the desk's service worker script
SERIES = "series"  # a series' own organisers, whatever their roles at events
CLUB = "club"  # the club's owners and organisers: its desk, people, season
CLUB_OWNER = "club_owner"  # the club's owners: its settings, logo, roles, archive, deletion
STAFF = "staff"  # site staff: an owner restored to a club left without one

ACCESS: dict[str, str] = {
    # events: the shared desk
    "events:desk": SIGNED_IN,
    "events:event_create": SIGNED_IN,
    "events:event_desk": SCOREKEEPER,  # a scorekeeper sees the competitions' result pages
    "events:organiser_add": OWNER,
    "events:people": OWNER,
    "events:person_remove": OWNER,
    "events:event_edit": MANAGE,
    "events:player_edit": MANAGE,
    "events:competition_create": MANAGE,
    "events:competition_desk": MANAGE,
    "events:competition_settings": MANAGE,
    "events:competition_edit": MANAGE,
    "events:player_search": MANAGE,
    "events:register_known": MANAGE,
    "events:register_new": MANAGE,
    "events:csv_import": MANAGE,
    "events:csv_import_confirm": MANAGE,
    "events:check_in_typed": MANAGE,
    "events:competition_export": MANAGE,  # exports: organisers only
    "events:event_export": MANAGE,
    "events:outbox_retry": MANAGE,
    "events:outbox_test": MANAGE,  # a test e-mail to oneself
    "events:webhooks": MANAGE,  # webhooks and their secrets
    "events:webhook_action": MANAGE,
    "events:webhook_resend": MANAGE,
    # calls for help: every role of the event answers the tables, scorekeepers too
    "events:help_queue": SCOREKEEPER,
    "events:help_badge": SCOREKEEPER,
    "events:help_take": SCOREKEEPER,
    "events:help_close": SCOREKEEPER,
    "events:print_kit": MANAGE,  # the print kit: badges and sheets carry every name
    "events:print_download": MANAGE,
    "events:embed_desk": MANAGE,  # the widget's sites, its snippet, the overlays
    "events:screens": MANAGE,  # the projectors: pair, switch, pause, forget
    "events:screen_show": MANAGE,
    "events:screen_action": MANAGE,
    "events:seating_groups": MANAGE,  # families kept apart at the tables
    "events:desk_service_worker": PUBLIC,
    "events:entry_action": MANAGE,  # check-in, withdrawal, reinstatement
    "events:entry_remove": MANAGE,
    "events:correction_undo": SCOREKEEPER,
    "events:proposals": SCOREKEEPER,  # results from players: like entering results
    "events:proposal_accept": SCOREKEEPER,
    "events:proposal_reject": SCOREKEEPER,
    "events:signup_desk": MANAGE,  # online sign-up: its settings, the list, e-mail addresses
    "events:signup_promote": MANAGE,
    "events:signup_payment": MANAGE,  # entry fees: paid, unpaid, waived
    "events:signup_download": MANAGE,  # the sign-ups with their e-mail addresses
    "events:signup_merge": MANAGE,  # a possible duplicate joined to the register's person
    "events:door_screen": MANAGE,  # whoever sees the door code can check in
    "events:series_desk_list": SIGNED_IN,  # one's own series, and a new one
    "events:series_desk": SERIES,
    "events:series_join": SERIES,
    "events:series_member": SERIES,
    "events:series_desk_download": SERIES,
    "events:club_list": SIGNED_IN,  # one's own clubs (the switcher), a new club
    "events:club_create": SIGNED_IN,
    "events:club_desk": CLUB,
    "events:club_people": CLUB,
    # an organiser may leave (a scorekeeper too: the address with their own id); owners change
    "events:club_role_action": CLUB,
    "events:club_season": CLUB,
    "events:club_season_download": CLUB,
    "events:club_settings": CLUB_OWNER,
    "events:club_embed": CLUB_OWNER,  # the sites allowed to frame every event's widget
    "events:club_logo_upload": CLUB_OWNER,
    "events:club_role_grant": CLUB_OWNER,
    "events:club_deletion": CLUB_OWNER,
    "events:club_archive": CLUB_OWNER,
    "events:club_invite": CLUB_OWNER,
    "events:club_invitation_withdraw": CLUB_OWNER,
    "events:club_owner_restore": STAFF,
    "desk/<slug:event_slug>/<slug:competition_slug>/tables/": MOVED,
    "desk/<slug:event_slug>/<slug:competition_slug>/tables/start/": MOVED,
    "desk/<slug:event_slug>/<slug:competition_slug>/tables/<int:number>/": MOVED,
    "desk/<slug:event_slug>/<slug:competition_slug>/games/<int:game_id>/result/": MOVED,
    "desk/<slug:event_slug>/<slug:competition_slug>/withdraw/<int:entry_id>/": MOVED,
    "desk/<slug:event_slug>/<slug:competition_slug>/links/": MOVED,
}

ROLES = (
    "anonymous",
    "scorekeeper",
    "organiser",
    "owner",
    "other_organiser",
    "other_club_owner",
    "other_club_organiser",
    "other_club_scorekeeper",
    "staff",
    "superuser",
)
ALLOWED = {
    PUBLIC: set(ROLES),
    SIGNED_IN: set(ROLES) - {"anonymous"},
    SCOREKEEPER: {"scorekeeper", "organiser", "owner", "superuser"},
    MANAGE: {"organiser", "owner", "superuser"},
    OWNER: {"owner", "superuser"},
    # The world's series: organised by the event's owner, and the club's owners and organisers.
    SERIES: {"owner", "organiser", "superuser"},
    CLUB: {"owner", "organiser", "superuser"},
    CLUB_OWNER: {"owner", "superuser"},
    STAFF: {"staff", "superuser"},
}
DESK = sorted((key, route, pattern) for key, route, pattern in desk_patterns())
# A format's desk pages (its URL namespace is its key): each view declares who may use it
# (``desk_view``), and the format's own tests hold its table of record.
FORMAT_ACCESS = {
    key: access
    for game_format in all_formats()
    for key, access in declared_access(game_format.key).items()
    if access is not None
}
EXPECTED = {**ACCESS, **FORMAT_ACCESS}


def test_every_desk_url_is_classified():
    keys = [key for key, _route, _pattern in DESK]
    assert sorted(set(keys) - set(EXPECTED)) == [], (
        "classify these desk URLs in ACCESS, or declare a format's with desk_view(allow=...)"
    )
    assert sorted(set(ACCESS) - set(keys)) == [], "these ACCESS entries name no URL"
    assert not set(ACCESS) & set(FORMAT_ACCESS), "a format's page is classified by its view"


def test_desk_views_declare_what_the_table_says():
    """The decorator's own classification (``desk_view(..., allow=...)``) agrees with ACCESS."""
    for key, _route, pattern in DESK:
        declared = getattr(pattern.callback, "desk_access", None)
        if declared is not None:
            assert declared == EXPECTED[key], key


@pytest.fixture
def world(django_user_model):
    def login(username: str, **flags: bool):  # no password: hashing would dominate the run
        user = django_user_model.objects.create(username=username, **flags)
        # Everyone with two-factor login on: this table is about roles (the pages of personal
        # data without it: tests/events/accounts/).
        totp.turn_on(user)
        return user

    owner = login("olga")
    event = EventFactory(slug="matrix", organisers=[owner])
    users = {
        "owner": owner,
        "organiser": login("otto"),
        "scorekeeper": login("sam"),
        "other_organiser": login("mallory"),
        "staff": login("stan", is_staff=True),
        "superuser": login("root", is_staff=True, is_superuser=True),
    }
    event.organisers.add(users["organiser"])
    event.organisers.add(users["scorekeeper"], through_defaults={"role": "scorekeeper"})
    for role in ("owner", "organiser", "scorekeeper"):
        ClubRole.objects.create(club=event.host, user=users[role], role=role)
    other = HostClubFactory(slug="other-club")
    for role in ("owner", "organiser", "scorekeeper"):
        users[f"other_club_{role}"] = login(f"other-{role}")
        ClubRole.objects.create(club=other, user=users[f"other_club_{role}"], role=role)
    EventFactory(host=other, organisers=[users["other_organiser"], users["other_club_owner"]])
    competitions = {
        key: CompetitionFactory(event=event, slug=key, format=key, settings=default_settings(key))
        for key in [f.key for f in all_formats()]
    }
    entries = {key: EntryFactory(competition=c) for key, c in competitions.items()}
    # The shared desk's pages (corrections, sign-ups, series) use the first format's.
    shared = competitions[all_formats()[0].key]
    correction = Correction.objects.create(
        competition=shared, item="game 1", before="1", after="2", source="desk"
    )
    window = SignUpWindow.objects.create(
        competition=shared,
        opens_at=timezone.now() - dt.timedelta(days=1),
        closes_at=timezone.now() + dt.timedelta(days=1),
        cap=4,
    )
    sign_up = SignUp.objects.create(window=window, name="Sue", email="sue@example.org")
    series = Series.objects.create(
        name="League", slug="league", format=shared.format, host=event.host
    )
    series.organisers.add(owner)
    member = SeriesCompetition.objects.create(series=series, competition=shared)
    invitation = invitations.invitation_send(
        club=event.host, by=owner, email="ivy@example.org", role="organiser"
    ).invitation
    return {
        "invitation": invitation,
        "series": series,
        "member": member,
        "sign_up": sign_up,
        "event": event,
        "users": users,
        "competitions": competitions,
        "entries": entries,
        "correction": correction,
    }


def url_of(key: str, route: str, pattern: URLPattern, world: dict) -> str:
    """The address of ``route`` (the whole route, its groups' prefixes included)."""
    named = pattern.name is not None
    # A format's pages take its own competition; the shared desk's and old addresses (which
    # redirect whatever the competition) the first format's.
    namespace = key.split(":")[0] if named else ""
    fmt = namespace if namespace in world["competitions"] else all_formats()[0].key
    competition = world["competitions"][fmt]
    entry = world["entries"][fmt]
    values = {
        "event_slug": world["event"].slug,
        "competition_slug": competition.slug,
        "entry_id": entry.pk,
        "player_id": entry.player_id,
        "correction_id": world["correction"].pk,
        "sign_up_id": world["sign_up"].pk,
        "series_slug": world["series"].slug,
        "club_slug": world["event"].host.slug,
        "version": "0",
        "member_id": world["member"].pk,
        "payment": "paid",
        "file_format": "csv",
        "user_id": world["users"]["organiser"].pk,
        "invitation_id": world["invitation"].pk,
        "action": "check_in",
    }
    converters = re.findall(r"<(?:\w+:)?(\w+)>", route)
    kwargs = {name: values.get(name, 999_999) for name in converters}
    if named:
        return resolve_url(key, **kwargs)
    for name, value in kwargs.items():
        route = route.replace(f"<{'int' if isinstance(value, int) else 'slug'}:{name}>", str(value))
    return "/" + route


def answer(role: str, method: str, url: str, world: dict) -> tuple[int, str]:
    """(status, Location) of one request, rolled back afterwards."""
    with transaction.atomic():
        client = Client()
        if role != "anonymous":
            client.force_login(world["users"][role])
        response = client.get(url) if method == "GET" else client.post(url, {})
        transaction.set_rollback(True)
    return response.status_code, response.get("Location", "")


def is_login_redirect(status: int, location: str) -> bool:
    return status == 302 and location.startswith(resolve_url(settings.LOGIN_URL))


@pytest.mark.parametrize("key", [key for key, _route, _pattern in DESK])
def test_each_role_gets_what_the_table_says(key, world):
    route, pattern = next((r, p) for k, r, p in DESK if k == key)
    url = url_of(key, route, pattern, world)
    access = EXPECTED[key]
    for method in ("GET", "POST"):
        answers = {role: answer(role, method, url, world) for role in ROLES}
        statuses = {status for status, _location in answers.values()}
        assert max(statuses) < 500, (key, method, answers)
        if access == MOVED:
            assert statuses <= {301, 308}, (key, method, answers)
            continue
        if 405 in statuses:  # the method is not served: the same answer for everyone
            assert statuses == {405}, (key, method, answers)
            continue
        for role, (status, location) in answers.items():
            if role in ALLOWED[access]:
                assert status != 403 and not is_login_redirect(status, location), (
                    key,
                    method,
                    role,
                    status,
                )
            elif role == "anonymous":
                assert is_login_redirect(status, location), (key, method, role, status)
            else:
                assert status == 403, (key, method, role, status)


def test_the_roles_of_the_world_are_what_the_matrix_assumes(world):
    event = world["event"]
    users = world["users"]
    assert event.role_of(users["owner"]) == EventRole.Role.OWNER
    assert event.role_of(users["organiser"]) == EventRole.Role.ORGANISER
    assert event.role_of(users["scorekeeper"]) == EventRole.Role.SCOREKEEPER
    assert event.role_of(users["staff"]) is None
    assert event.role_of(users["superuser"]) == EventRole.Role.OWNER
    assert event.is_organised_by(users["organiser"])
    assert not event.is_organised_by(users["scorekeeper"])


# Calendar feeds live outside /desk/: no login opens them, a token or a public
# event does. Every feed route (".ics") is classified here, as the desk's are in ACCESS.
TOKEN = "token"  # the player's signed token is the key, whoever asks; a tampered one is a 404
PUBLIC_EVENT = "public_event"  # public events only; an unlisted one is a 404 for everyone
CLUB_FEED = "club_feed"  # a hosting club's public events, for everyone; an unknown club a 404
FEEDS: dict[str, str] = {
    "events:calendar_club": CLUB_FEED,
    "events:calendar_event": PUBLIC_EVENT,
    "events:calendar_player": TOKEN,
}


def test_every_calendar_feed_is_classified():
    from tests.support.routes import routes

    feeds = {name for name, route in routes(get_resolver().url_patterns) if ".ics" in route}
    assert feeds == set(FEEDS)


@pytest.mark.parametrize("key", sorted(FEEDS))
def test_each_role_gets_what_the_feed_table_says(key, world):
    from events.calendar.links import player_token

    unlisted = EventFactory(slug="unlisted", is_public=False)
    if FEEDS[key] == TOKEN:
        good = player_token(world["entries"][all_formats()[0].key].player_id)
        open_url, closed_url = resolve_url(key, token=good), resolve_url(key, token=good[:-2])
    elif FEEDS[key] == CLUB_FEED:
        open_url = resolve_url(key, club_slug=world["event"].host.slug)
        closed_url = resolve_url(key, club_slug="no-such-club")
    else:
        open_url = resolve_url(key, event_slug=world["event"].slug)
        closed_url = resolve_url(key, event_slug=unlisted.slug)
    for role in ROLES:
        assert answer(role, "GET", open_url, world)[0] == 200, (key, role)
        assert answer(role, "GET", closed_url, world)[0] == 404, (key, role)
        assert answer(role, "POST", open_url, world)[0] == 405, (key, role)


# Notifications live outside /desk/ too: the person's signed link, the stop link or
# the private page's cookie is the key, whoever asks; the service worker and manifest hold no
# data. Every such route is classified here.
PERSON_LINK = "person_link"  # the sign-up link's token: a tampered one is a 404
STOP_LINK = "stop_link"  # the signed (player, event) of a message: GET asks, POST stops
PLAYER_COOKIE = "player_cookie"  # the round robin's private page cookie: without it a 403
# "this is me" on a public player page: anyone may post the browser's own subscription as
# JSON (no cookie, no login is read); a form post is a 415, a GET a 405
PUBLIC_JSON = "public_json"
PHONE_STOP_LINK = "phone_stop_link"  # the signed (subscription, endpoint) of a public push
NOTIFY: dict[str, str] = {
    "events:signup_notify": PERSON_LINK,
    "events:signup_push": PERSON_LINK,
    "events:notify_stop": STOP_LINK,
    "events:service_worker": PUBLIC,
    "events:manifest": PUBLIC,
    "roundrobin:private_notify": PLAYER_COOKIE,
    "events:public_push": PUBLIC_JSON,
    "events:public_push_stop": PUBLIC_JSON,
    "events:public_push_off": PHONE_STOP_LINK,
}


def test_every_notification_url_is_classified():
    from tests.support.routes import routes

    found = {
        name
        for name, route in routes(get_resolver().url_patterns)
        if "notif" in route or "push/" in route or route in ("sw.js", "manifest.webmanifest")
    }
    assert found == set(NOTIFY)


@pytest.mark.parametrize("key", sorted(NOTIFY))
def test_each_role_gets_what_the_notification_table_says(key, world):
    from events.outbox.stop_links import public_stop_token, stop_token
    from events.signups.services.mail import person_token

    event, entry = world["event"], world["entries"]["roundrobin"]
    kind = NOTIFY[key]
    for role in ROLES:
        if kind == PUBLIC:
            assert answer(role, "GET", resolve_url(key), world)[0] == 200, (key, role)
            assert answer(role, "POST", resolve_url(key), world)[0] == 405, (key, role)
        elif kind == PERSON_LINK:
            token = person_token("nobody@example.org")
            for bad in (token, token[:-2] + "zz"):
                url = resolve_url(key, token=bad, event_id=event.pk)
                assert answer(role, "POST", url, world)[0] == 404, (key, role)
                assert answer(role, "GET", url, world)[0] == 405, (key, role)
        elif kind == PUBLIC_JSON:
            url = resolve_url(key, entry_id=entry.pk)
            assert answer(role, "POST", url, world)[0] == 415, (key, role)
            assert answer(role, "GET", url, world)[0] == 405, (key, role)
        elif kind == PHONE_STOP_LINK:
            good = public_stop_token(10**9, "https://push.example.org/gone")
            # a link to a subscription already gone says so (200); an altered one is a 404
            assert answer(role, "GET", resolve_url(key, token=good), world)[0] == 200
            assert answer(role, "GET", resolve_url(key, token=good[:-2] + "zz"), world)[0] == 404
        elif kind == STOP_LINK:
            good = stop_token(entry.player_id, event.pk)
            assert answer(role, "GET", resolve_url(key, token=good), world)[0] == 200
            assert answer(role, "GET", resolve_url(key, token=good[:-2] + "zz"), world)[0] == 404
        else:
            url = resolve_url(key, entry_id=entry.pk)
            assert answer(role, "POST", url, world)[0] == 403, (key, role)
            assert answer(role, "GET", url, world)[0] == 405, (key, role)
