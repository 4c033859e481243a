"""The core's reads (``events.selectors``): whose events an organiser sees, the competition at an
address for the right format and person, entries in the desk's order with their counts, and the
register's search by every word typed, accents and case aside."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils import timezone

from events import selectors
from events.models import ClubRole
from events.signups.models import SignUpWindow
from tests.support.factories import (
    CompetitionFactory,
    EntryFactory,
    EventFactory,
    HostClubFactory,
    PlayerFactory,
    UserFactory,
)


def test_an_organiser_sees_the_events_of_their_roles_and_their_clubs(db):
    organiser, club_organiser, stranger = UserFactory(), UserFactory(), UserFactory()
    own = EventFactory(organisers=[organiser], starts_on=dt.date(2026, 5, 5))
    other_club = HostClubFactory(slug="other")
    at_club = EventFactory(
        host=other_club, starts_on=dt.date(2026, 6, 6), ends_on=dt.date(2026, 6, 6)
    )
    ClubRole.objects.create(club=other_club, user=club_organiser, role="organiser")
    CompetitionFactory(event=own)
    assert list(selectors.events_for_organiser(organiser)) == [own]
    assert selectors.events_for_organiser(organiser).get().competition_count == 1
    assert list(selectors.events_for_organiser(club_organiser)) == [at_club]
    assert list(selectors.events_for_organiser(stranger)) == []
    superuser = UserFactory(is_superuser=True, two_factor=False)
    assert list(selectors.events_for_organiser(superuser)) == [at_club, own]  # newest first


def test_a_competition_is_found_at_its_address_for_its_format_and_organisers_only(db):
    organiser = UserFactory()
    competition = CompetitionFactory(event=EventFactory(organisers=[organiser]), format="blokus")
    slugs = (competition.event.slug, competition.slug)
    assert selectors.competition_by_slugs(*slugs, format_key="blokus") == competition
    with pytest.raises(Http404):
        selectors.competition_by_slugs(*slugs, format_key="shuffleboard")
    with pytest.raises(Http404):
        selectors.competition_by_slugs(competition.event.slug, "nothing-here")
    assert selectors.competition_for_organiser(organiser, *slugs) == competition
    with pytest.raises(PermissionDenied):
        selectors.competition_for_organiser(UserFactory(), *slugs)


def test_entries_are_listed_withdrawn_last_and_counted(db):
    competition = CompetitionFactory()
    now = timezone.now()
    gone = EntryFactory(competition=competition, player=PlayerFactory(name="Aaron"))
    gone.withdrawn_at = now
    gone.save()
    here = EntryFactory(
        competition=competition, player=PlayerFactory(name="Bea"), checked_in_at=now
    )
    waiting = EntryFactory(competition=competition, player=PlayerFactory(name="Cid"))
    entries = selectors.entries_for_competition(competition)
    assert entries == [here, waiting, gone]
    assert selectors.entry_counts(entries) == selectors.EntryCounts(
        registered=2, checked_in=1, withdrawn=1
    )


def test_the_search_takes_every_word_accents_and_case_aside_in_the_clubs_register(db):
    competition = CompetitionFactory()
    host = competition.event.host
    oie = PlayerFactory(host=host, name="Õie Sööt", club="Tallinn")
    PlayerFactory(host=host, name="Õie Kask", club="Tartu")
    PlayerFactory(host=HostClubFactory(slug="elsewhere"), name="Õie Sööt", club="Tallinn")
    EntryFactory(competition=competition, player=oie)
    found = selectors.players_search("OIE tallinn", competition=competition)
    assert found == [oie]
    assert found[0].is_registered
    assert len(selectors.players_search("oie", competition=competition)) == 2
    assert selectors.players_search("   ", competition=competition) == []


def test_a_player_that_is_not_there_or_not_a_number_is_a_404(db):
    player = PlayerFactory()
    assert selectors.player_or_404(str(player.pk)) == player
    for wrong in ("x", None, player.pk + 1000):
        with pytest.raises(Http404):
            selectors.player_or_404(wrong)


def test_the_event_page_counts_active_entries_and_knows_an_open_sign_up(db):
    competition = CompetitionFactory()
    EntryFactory(competition=competition)
    withdrawn = EntryFactory(competition=competition)
    withdrawn.withdrawn_at = timezone.now()
    withdrawn.save()
    quiet = CompetitionFactory(event=competition.event)
    SignUpWindow.objects.create(
        competition=competition,
        opens_at=timezone.now() - dt.timedelta(days=1),
        closes_at=timezone.now() + dt.timedelta(days=1),
        cap=4,
    )
    event = selectors.event_with_competitions(competition.event.slug)
    rows = {c.pk: (c.entry_count, c.takes_sign_ups) for c in event.competitions.all()}
    assert rows == {competition.pk: (1, True), quiet.pk: (0, False)}
