"""Backup and restore: every demo event exported to JSON and imported again renders the same
public and desk pages, link for link (ids, addresses and CSRF tokens aside)."""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterator

import pytest
import time_machine
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.test import Client

from events import services
from events.errors import Conflict, Invalid
from events.exchange import document as exchange, sheets
from events.models import (
    ClubRole,
    Competition,
    Correction,
    Entry,
    Event,
    Game,
    HostClub,
    Player,
)
from events.series import services as series_services
from events.series.models import Series
from events.signups.models import SignUp, SignUpWindow
from roundrobin.models import PlayerToken
from shuffleboard.models import Turn as ShuffleboardTurn
from tests.support.factories import PlayerFactory

FROZEN = dt.datetime(2026, 6, 12, 9, 30, tzinfo=dt.UTC)


MAX_PAGES = 400  # per event; the demo events have fewer


LINK = re.compile(r'\bhref="([^"#?]*(?:\?[^"#]*)?)')


ATTRIBUTE = re.compile(r'([\w:-]+)=(["\'])(.*?)\2', re.S)


@pytest.fixture
def frozen() -> Iterator[None]:
    # Clocks, countdowns and "today" read the same time on both sides of the round trip.
    with time_machine.travel(FROZEN, tick=False):
        yield


@pytest.fixture
def demo(demo, frozen, db) -> tuple[User, list[Competition]]:
    """The module's demo world (tests/conftest.py), with the clock frozen at its time. Asks
    for ``db`` itself: pytest leaves the overridden fixture's ``db`` out of the tests' fixture
    names, so running this file alone set up no test database."""
    return demo


def normalise(body: str, slug: str) -> str:
    """The page with what must differ after an import made neutral: the event's address,
    ids in attributes (links, form values, element ids) and in a page's JSON, CSRF tokens, QR
    codes."""
    body = re.sub(r"<svg\b.*?</svg>", "<svg/>", body, flags=re.S)
    body = body.replace(slug, "SLUG")
    body = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "CSRF", body)
    body = re.sub(r'"x-csrftoken": "[^"]*"', "CSRF", body)
    body = re.sub(r"/p/[A-Za-z0-9_-]{32,64}/", "/p/TOKEN/", body)  # private links are new
    body = re.sub(r'(name="submission"[^>]*value=)"[^"]*"', r"\1ONCE", body)  # one-time tokens
    body = re.sub(r'"entry": [0-9]+', '"entry": #', body)  # ids in a page's JSON (the rota)
    body = re.sub(r'"[0-9]+": \[', '"#": [', body)  # entry ids as keys (sjoelen next games)
    return ATTRIBUTE.sub(lambda m: f"{m[1]}={m[2]}{re.sub(r'[0-9]+', '#', m[3])}{m[2]}", body)


def local_links(body: str, slug: str) -> list[str]:
    seen: dict[str, None] = {}
    for link in LINK.findall(body):
        link = link.replace("&amp;", "&")
        if link.startswith((f"/e/{slug}/", f"/desk/{slug}/")) and "/export" not in link:
            seen.setdefault(link, None)
    return list(seen)


def crawl(client: Client, slug: str) -> list[tuple[str, int, str]]:
    """Every public and desk page of an event reachable by links from its public page and its
    desk, in breadth-first order: (address with ids as #, status, normalised body)."""
    queue = [f"/e/{slug}/", f"/desk/{slug}/?all"]
    seen = set(queue)
    pages = []
    while queue:
        url = queue.pop(0)
        page = client.get(url)
        body = page.content.decode() if "html" in page.get("Content-Type", "") else ""
        pages.append((re.sub(r"[0-9]+", "#", url), page.status_code, normalise(body, slug)))
        for link in local_links(body, slug) if page.status_code == 200 else []:
            if link not in seen and len(seen) < MAX_PAGES:
                seen.add(link)
                queue.append(link)
    return pages


def test_every_demo_event_restores_page_for_page_into_an_empty_database(
    demo, client, django_capture_on_commit_callbacks
):
    """Export every demo event, empty the database, import them: every page reachable from
    each event's public page and desk is the same, link for link."""
    organiser, competitions = demo
    client.force_login(organiser)
    slugs = [competition.event.slug for competition in competitions]
    before = {slug: crawl(client, slug) for slug in slugs}
    before_sheets = {c.event.slug: sheets.competition_sheets(c) for c in competitions}
    files = [json.dumps(exchange.export_event(c.event)) for c in competitions]
    players = Player.objects.count()

    if connection.vendor == "postgresql":  # TRUNCATE refuses pending deferred checks
        connection.cursor().execute("SET CONSTRAINTS ALL IMMEDIATE")
    call_command("flush", interactive=False, verbosity=0)
    cache.clear()
    organiser = User.objects.create_user("organiser", password="x")
    # An import recomputes the Blokus rating once it commits (the player page draws it).
    with django_capture_on_commit_callbacks(execute=True):
        for text in files:
            exchange.import_event(json.loads(text))
    assert Player.objects.count() == players
    # A file carries no accounts: whoever restores owns the clubs it came into, as before.
    for club in HostClub.objects.all():
        ClubRole.objects.create(club=club, user=organiser, role=ClubRole.Role.OWNER)

    client.force_login(organiser)
    for slug in slugs:
        after = crawl(client, slug)
        assert len(before[slug]) > 5
        assert [page[:2] for page in after] == [page[:2] for page in before[slug]]
        for old, new in zip(before[slug], after, strict=True):
            assert old == new, old[0]
        competition = Competition.objects.get(event__slug=slug)
        for kind, sheet in sheets.competition_sheets(competition).items():
            assert sheet.rows == before_sheets[slug][kind].rows and sheet.rows, (slug, kind)


def unversioned(rows: list[dict]) -> list[dict]:
    return [{k: v for k, v in row.items() if k != "version"} for row in rows]


def test_the_round_trip_keeps_every_row_and_the_history(demo):
    _, competitions = demo
    for competition in competitions:
        event = competition.event
        document = exchange.export_event(event)
        copy = exchange.import_event(document, slug="copy-" + event.slug[:50]).event
        again = exchange.export_event(copy)
        for label, rows in document["tables"].items():
            # The same rows; only the versions went up (the import publishes new ones).
            assert unversioned(again["tables"][label]) == unversioned(rows), label
        for label, rows in document["history"].items():
            assert len(again["history"][label]) == len(rows), label
            assert [r["history_date"] for r in again["history"][label]] == [
                r["history_date"] for r in rows
            ]
        assert unversioned([again["event"]]) == unversioned(
            [{**document["event"], "slug": copy.slug}]
        )
        assert again["organisers"] == document["organisers"]


def with_sign_ups_and_a_series(organiser: User, competition: Competition) -> None:
    """A sign-up window with a confirmed sign-up (its entry, joined to the register person) and
    a pending one marked as a possible duplicate of a player not entered; the competition in a
    series."""
    window = SignUpWindow.objects.create(
        competition=competition,
        opens_at=FROZEN - dt.timedelta(days=30),
        closes_at=FROZEN + dt.timedelta(days=1),
        cap=40,
        waitlist_limit=5,
    )
    entry = Entry.objects.filter(competition=competition).select_related("player").first()
    assert entry is not None
    SignUp.objects.create(
        window=window,
        name=entry.player.name,
        email="entered@example.org",
        status=SignUp.Status.CONFIRMED,
        confirmed_at=FROZEN - dt.timedelta(days=2),
        entry=entry,
        register_person=entry.player,
        payment=SignUp.Payment.PAID,
    )
    SignUp.objects.create(
        window=window,
        name="Not Entered",
        email="pending@example.org",
        hold_until=FROZEN + dt.timedelta(minutes=30),
        possible_duplicate=PlayerFactory(name="Not Entered"),
    )
    series = series_services.series_create(
        by=organiser, name=f"Season {competition.pk}", format_key=competition.format, best=3
    )
    series_services.series_join(series=series, competition_id=competition.pk, by=organiser)


def test_export_import_export_is_the_same_file_apart_from_time_address_and_versions(demo):
    """The whole second document equals the first (sign-ups and series included),
    apart from ``exported_at``, the address it was imported under, and the versions, which the
    import bumps on purpose (``import_event``: no page cached under an old stamp is served)."""
    organiser, competitions = demo
    for competition in competitions:
        with_sign_ups_and_a_series(organiser, competition)
        event = competition.event
        document = json.loads(json.dumps(exchange.export_event(event)))
        assert len(document["tables"]["events.signup"]) == 2
        assert document["tables"]["events.signupwindow"] and document["series"]
        assert "entered@example.org" in json.dumps(document["tables"]["events.signup"])
        slug = "copy-" + event.slug[:50]
        copy = exchange.import_event(document, slug=slug).event
        assert Series.objects.get(slug=document["series"][0]["slug"]).members.count() == 2
        assert SignUp.objects.filter(window__competition__event=copy).count() == 2
        again = json.loads(json.dumps(exchange.export_event(copy)))

        def neutral(doc: dict, slug: str) -> dict:
            doc = json.loads(json.dumps(doc).replace(json.dumps(slug), '"SLUG"'))
            doc.pop("exported_at")
            doc["event"].pop("version", None)
            for row in doc["tables"]["events.competition"]:
                row.pop("version")
            return doc

        assert neutral(again, copy.slug) == neutral(document, event.slug), event.slug
        assert again["exported_at"] >= document["exported_at"]
        assert [row["version"] for row in again["tables"]["events.competition"]] > [
            row["version"] for row in document["tables"]["events.competition"]
        ]


def test_private_link_tokens_are_not_exported_and_are_new_after_import(demo):
    _, competitions = demo
    tokens = set(PlayerToken.objects.values_list("token", flat=True))
    events = [c.event for c in competitions if PlayerToken.objects.filter(entry__competition=c)]
    assert events, "the round-robin demo gives private links"
    text = json.dumps(exchange.export_event(events[0]))
    assert not any(token in text for token in tokens)
    copy = exchange.import_event(json.loads(text), slug="links-copy").event
    new = set(
        PlayerToken.objects.filter(entry__competition__event=copy).values_list("token", flat=True)
    )
    assert new and not new & tokens


def correct_one_result(competition: Competition, user: User) -> None:
    """Correct a finished result of the competition through its format's own service (the
    desk's path), so that the trail holds that format's undo data."""
    if competition.format == "shuffleboard":
        from shuffleboard import services as sjoelen

        turn = ShuffleboardTurn.objects.filter(entry__competition=competition).first()
        counts = [turn.c1, turn.c2, turn.c3, turn.c4]
        counts[0] = counts[0] + 1 if sum(counts) < 30 else counts[0] - 1
        sjoelen.turn_correct(
            turn=turn, revision=turn.revision, counts=counts, entered_by=user, confirmed=True
        )
    elif competition.format == "blokus":
        from blokus.services import HandInput, game_result_record

        game = Game.objects.filter(
            round__session__competition=competition, status="finished"
        ).first()
        hands = [
            HandInput(seat_id=seat.pk, squares_left=seat.blokus_hand.squares_left + 1)
            for seat in game.seats.select_related("blokus_hand").order_by("position")
        ]
        game_result_record(
            game=game, revision=game.revision, hands=hands, confirm_later_round=True, by=user
        )
    elif competition.format == "roundrobin":
        from roundrobin.models import Ending
        from roundrobin.services.corrections import seats_correct

        game = Game.objects.filter(
            round__session__competition=competition, rr_detail__ending=Ending.PLAYED
        ).first()
        seats = list(game.seats.order_by("position"))
        flipped = {
            seat.pk: {"score": None, "points": 1 - seat.points, "colour": seat.colour}
            for seat in seats
        }
        if seats[0].points == seats[1].points:  # a draw: White wins instead
            flipped = {
                seats[0].pk: {"score": None, "points": 1, "colour": seats[0].colour},
                seats[1].pk: {"score": None, "points": 0, "colour": seats[1].colour},
            }
        seats_correct(game=game, values=flipped, by=user)


def test_corrections_keep_their_trail_and_their_undo_after_import(demo):
    """Every format's correction trail comes along, and an imported correction's undo puts
    the imported result back (its undo data names the imported rows)."""
    organiser, competitions = demo
    # The formats that undo corrections (FormatHooks.undo_correction): the others have none.
    undoing = [c for c in competitions if c.game_format.hooks.undoes_corrections()]
    assert undoing
    for competition in undoing:
        correct_one_result(competition, organiser)
        event = competition.event
        sheet_before = sheets.competition_sheets(competition)["results"].rows
        copy = exchange.import_event(
            exchange.export_event(event), slug=f"{event.slug[:40]}-c"
        ).event
        old = list(Correction.objects.filter(competition__event=event).order_by("pk"))
        new = list(Correction.objects.filter(competition__event=copy).order_by("pk"))
        assert old, competition.format
        assert [(c.item, c.before, c.after, c.source, c.corrected_by) for c in old] == [
            (c.item, c.before, c.after, c.source, c.corrected_by) for c in new
        ]
        services.correction_undo(correction=new[0], by=organiser)
        imported = copy.competitions.get()
        assert sheets.competition_sheets(imported)["results"].rows != sheet_before
        # The original is untouched by the copy's undo, and its own undo works the same.
        assert sheets.competition_sheets(competition)["results"].rows == sheet_before
        services.correction_undo(correction=old[0], by=organiser)
        assert (
            sheets.competition_sheets(competition)["results"].rows
            == sheets.competition_sheets(imported)["results"].rows
        )


def test_import_refuses_a_taken_address_and_writes_nothing(demo):
    _, competitions = demo
    event = competitions[0].event
    document = exchange.export_event(event)
    counts = (Event.objects.count(), Entry.objects.count(), Player.objects.count())
    with pytest.raises(Conflict) as refused:
        exchange.import_event(document)
    assert refused.value.code == "slug_taken"
    assert (Event.objects.count(), Entry.objects.count(), Player.objects.count()) == counts


def test_import_refuses_an_unknown_version_or_a_foreign_file(demo):
    _, competitions = demo
    document = exchange.export_event(competitions[0].event)
    with pytest.raises(Invalid) as refused:
        exchange.import_event({**document, "version": 99}, slug="future")
    assert refused.value.code == "unknown_version"
    with pytest.raises(Invalid) as refused:
        exchange.import_event({"format": "something-else"}, slug="other")
    assert refused.value.code == "not_an_export"
    assert not Event.objects.filter(slug__in=["future", "other"]).exists()


def test_a_broken_file_leaves_nothing_half_written(demo):
    _, competitions = demo
    document = exchange.export_event(competitions[0].event)
    # A seat naming an entry the file does not hold: found only after players, the event and
    # earlier tables were written.
    document["tables"]["events.seat"][-1]["entry"] = 999_999
    document["tables"]["events.player"].append(
        {**document["tables"]["events.player"][0], "id": 10_000, "name": "Nobody Before"}
    )
    counts = (Event.objects.count(), Entry.objects.count(), Player.objects.count())
    with pytest.raises(Invalid) as refused:
        exchange.import_event(document, slug="broken")
    assert refused.value.code == "broken_file"
    assert (Event.objects.count(), Entry.objects.count(), Player.objects.count()) == counts
