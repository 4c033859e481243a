"""Sign-up for a Blokus qualifying session through the format's hooks (``blokus.hooks``): the
person chooses the session, each session has its own seats and waitlist under the
competition's cap, a seat registers the entry in its session, and a freed seat goes to the
first waiting for that session."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from blokus.hooks import BlokusHooks
from blokus.models import SessionPlayer
from events.errors import Invalid, Refused
from events.printing.contract import NoSuchItem, PrintItem
from events.printing.pdf import KitPdf
from events.signups.models import SignUp
from events.signups.services import lifecycle as signups
from tests.support.blokus import seated_round, set_up
from tests.support.factories import CompetitionFactory
from tests.support.printing import opened

NOW = dt.datetime(2026, 5, 1, 12, 0, tzinfo=dt.UTC)
MIN = dt.timedelta(minutes=1)


@pytest.fixture
def blokus(competition):
    first, second = set_up(competition)
    window = signups.window_set(
        competition=competition,
        opens_at=NOW - dt.timedelta(days=1),
        closes_at=NOW + dt.timedelta(days=3),
        cap=10,
        session_caps={first.pk: 2, second.pk: None},
        now=NOW,
    )
    first.refresh_from_db()
    second.refresh_from_db()
    return window, first, second


def sign(window, n, session, at=NOW):
    sign_up = signups.signup_submit(
        window=window, name=f"Ann {n}", email=f"a{n}@example.org", session=session, now=at
    )
    return signups.signup_confirm(sign_up=sign_up, now=at + MIN)


@pytest.mark.django_db
def test_each_session_has_its_seats_and_its_waitlist(blokus):
    window, first, second = blokus
    assert (first.sign_up_cap, second.sign_up_cap) == (2, None)
    a, b, c, d = (sign(window, n, first, NOW + n * MIN) for n in range(4))
    assert [s.status for s in (a, b, c, d)] == [
        "confirmed",
        "confirmed",
        "waitlisted",
        "waitlisted",
    ]
    # The seat registered the entry in its session (the roll call seats it on the day).
    assert SessionPlayer.objects.filter(session=first, entry=a.entry).exists()
    # The second session has room while the first is full.
    e = sign(window, 9, second, NOW + 9 * MIN)
    assert e.status == "confirmed"
    assert SessionPlayer.objects.filter(session=second, entry=e.entry).exists()

    # Someone waiting for the second session (competition cap reached) ...
    window = signups.window_set(
        competition=window.competition,
        opens_at=window.opens_at,
        closes_at=window.closes_at,
        cap=3,
        session_caps={first.pk: 2},
        now=NOW + 10 * MIN,
    )
    f = sign(window, 10, second, NOW + 11 * MIN)
    assert f.status == "waitlisted"
    # ... and the first session's seat freed: it goes to the first waiting for that session,
    # not to the one waiting for another.
    signups.signup_cancel(sign_up=b, now=NOW + 12 * MIN)
    c.refresh_from_db()
    d.refresh_from_db()
    f.refresh_from_db()
    assert (c.status, d.status, f.status) == ("offered", "waitlisted", "waitlisted")
    assert not SessionPlayer.objects.filter(session=first, entry__player__name="Ann 1").exists()
    signups.offer_accept(sign_up=c, now=NOW + 13 * MIN)
    c.refresh_from_db()
    assert SessionPlayer.objects.filter(session=first, entry=c.entry).exists()


@pytest.mark.django_db
def test_a_session_is_needed_and_must_be_one_of_the_competition(blokus):
    window, first, _second = blokus
    with pytest.raises(Invalid) as missing:
        signups.signup_submit(window=window, name="No Session", email="n@example.org", now=NOW)
    assert missing.value.code == "session_needed"
    other = set_up(CompetitionFactory(format="blokus"))[0]
    with pytest.raises(Invalid):
        signups.signup_submit(
            window=window, name="Wrong", email="w@example.org", session=other, now=NOW
        )
    assert not SignUp.objects.exists()


@pytest.mark.django_db
def test_a_full_session_with_a_full_waitlist_refuses(blokus):
    window, first, _second = blokus
    window = signups.window_set(
        competition=window.competition,
        opens_at=window.opens_at,
        closes_at=window.closes_at,
        cap=10,
        waitlist_limit=1,
        session_caps={first.pk: 1},
        now=NOW,
    )
    sign(window, 1, first)
    assert sign(window, 2, first).status == "waitlisted"
    with pytest.raises(Refused):
        signups.signup_submit(
            window=window, name="Late", email="late@example.org", session=first, now=NOW
        )


@pytest.mark.django_db
def test_the_page_offers_the_sessions_and_keeps_the_form_when_none_is_chosen(client, blokus):
    window, first, second = blokus
    event = window.competition.event
    page = reverse("events:signup", args=[event.slug])
    with_times = signups.window_set(
        competition=window.competition,
        opens_at=dt.datetime(2020, 1, 1, tzinfo=dt.UTC),
        closes_at=dt.datetime(2099, 1, 1, tzinfo=dt.UTC),
        cap=10,
    )
    field = f"session_{with_times.competition_id}"
    shown = client.get(page)
    assert shown.status_code == 200
    assert f'name="{field}"'.encode() in shown.content
    assert b"2 seats free" in shown.content  # the first session's seats

    data = {
        "name": "Åsa Öberg",
        "email": "asa@example.org",
        "competitions": [with_times.competition_id],
        "consent": "on",
    }
    missing = client.post(page, data)
    assert missing.status_code == 400
    assert b"Choose a session." in missing.content and "Åsa Öberg".encode() in missing.content
    # Another competition's session, or nonsense: an error beside the field, never a 500.
    for value in ("999999", "x", "-1"):
        assert client.post(page, {**data, field: value}).status_code == 400
    assert not SignUp.objects.exists()

    done = client.post(page, {**data, field: second.pk})
    assert done.status_code == 200
    assert SignUp.objects.get().session == second


@pytest.mark.django_db
def test_the_desk_sets_each_sessions_seats(desk_client, blokus):
    window, first, second = blokus
    competition = window.competition
    desk = reverse("events:signup_desk", args=[competition.event.slug, competition.slug])
    page = desk_client.get(desk)
    assert f'name="session_cap_{first.pk}"'.encode() in page.content
    form = {
        "opens_at": "2026-04-01T10:00",
        "closes_at": "2026-05-04T10:00",
        "cap": "24",
        "hold_minutes": "30",
        "offer_hours": "24",
        f"session_cap_{first.pk}": "12",
        f"session_cap_{second.pk}": "",
    }
    assert desk_client.post(desk, form).status_code == 302
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.sign_up_cap, second.sign_up_cap) == (12, None)
    bad = desk_client.post(desk, {**form, f"session_cap_{first.pk}": "0"})
    assert bad.status_code == 400
    first.refresh_from_db()
    assert first.sign_up_cap == 12


@pytest.mark.django_db
def test_a_seated_session_is_no_longer_offered_nor_its_waitlist_given_seats(blokus):
    from blokus import services
    from tests.support.blokus import register

    window, first, second = blokus
    window = signups.window_set(
        competition=window.competition,
        opens_at=window.opens_at,
        closes_at=window.closes_at,
        cap=10,
        session_caps={first.pk: 3},
        now=NOW,
    )
    sign(window, 1, first), sign(window, 2, first)
    holding = signups.signup_submit(
        window=window, name="Ann Hold", email="hold@example.org", session=first, now=NOW
    )
    assert holding.hold_until is not None  # the third seat, held for 30 minutes
    waiting = [sign(window, n, first, NOW + n * MIN) for n in (3, 4)]
    assert [s.status for s in waiting] == ["waitlisted", "waitlisted"]
    register(first.competition, first, 4)
    services.session_seat(session=first)  # the roll call is closed
    assert [s.pk for s in signups.sign_up_sessions(window.competition)] == [second.pk]

    # The hold runs out: its seat is in a session that takes nobody any more.
    signups.signups_sweep(now=NOW + 40 * MIN)
    for sign_up in waiting:
        sign_up.refresh_from_db()
    assert [s.status for s in waiting] == ["waitlisted", "waitlisted"]
    with pytest.raises(Invalid):
        signups.signup_submit(
            window=window, name="Late", email="late@example.org", session=first, now=NOW
        )


@pytest.mark.django_db
def test_a_new_sign_up_never_lengthens_a_chosen_short_name(blokus):
    window, first, second = blokus
    shorted = signups.signup_confirm(
        sign_up=signups.signup_submit(
            window=window,
            name="Åsa Öberg",
            email="asa@example.org",
            session=first,
            name_shown="short",
            now=NOW,
        ),
        now=NOW,
    )
    player = shorted.entry.player
    assert player.public_name == "Åsa Ö."
    other = signups.window_set(
        competition=CompetitionFactory(event=window.competition.event, format="shuffleboard"),
        opens_at=window.opens_at,
        closes_at=window.closes_at,
        cap=5,
        now=NOW,
    )
    again = signups.signup_submit(window=other, name="Åsa Öberg", email="asa@example.org", now=NOW)
    signups.signup_confirm(sign_up=again, now=NOW)
    player.refresh_from_db()
    assert player.name_shown == "short"


@pytest.mark.django_db
def test_a_player_the_desk_moves_takes_the_online_seat_along(blokus):
    from blokus import services

    window, first, second = blokus
    seated = sign(window, 1, first)
    registered = SessionPlayer.objects.get(session=first, entry=seated.entry)
    services.session_unregister(session_player=registered)
    services.session_register(session=second, entry=seated.entry)
    seated.refresh_from_db()
    assert seated.session == second
    # The first session's two seats are both free again for the sign-up.
    assert [sign(window, n, first).status for n in (2, 3)] == ["confirmed", "confirmed"]


@pytest.mark.django_db
def test_the_hooks_draw_every_item_they_list_and_refuse_another(competition):
    seated_round(competition, set_up(competition)[0], 4)
    hooks = BlokusHooks()
    items = hooks.print_items(competition)
    assert {item.key for item in items} == {"tents", "score-sheets"}
    for item in items:
        pdf = KitPdf(title="Blokus", paper=item.paper, orientation=item.orientation)
        hooks.draw_print_item(pdf, competition, item)
        assert len(opened(pdf.to_bytes()).pages) == 1
    with pytest.raises(NoSuchItem):
        hooks.draw_print_item(KitPdf(title="Blokus"), competition, PrintItem("tents", "", "s9"))
    assert hooks.certificate_details(competition) == {}  # no result yet, no rating
