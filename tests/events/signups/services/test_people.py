"""A sign-up's person in the club's register (events/signups/services/people.py): found by the
address, never by the name alone; a namesake made anew and shown as a possible duplicate."""

from __future__ import annotations

import pytest

from events.models import Player
from events.signups.models import SignUp
from events.signups.services.people import register_namesake, register_person_for
from tests.support.factories import HostClubFactory, PlayerFactory
from tests.support.signups import open_window

pytestmark = pytest.mark.django_db


def _sign_up(window, name, email, club=""):
    return SignUp(window=window, name=name, email=email, club=club)


def test_the_person_with_the_same_address_is_found_whatever_its_case(competition):
    window = open_window(competition)
    host = competition.event.host_id
    known = PlayerFactory(host_id=host, name="Anna Berg", email="anna@example.org")
    sign_up = _sign_up(window, "Anna B.", "ANNA@example.org")
    assert register_person_for(window, sign_up) == known
    assert Player.objects.filter(host_id=host).count() == 1


def test_a_namesake_is_a_new_person_marked_as_a_possible_duplicate(competition):
    window = open_window(competition)
    host = competition.event.host_id
    namesake = PlayerFactory(host_id=host, name="Anna Berg", club="Tartu", email="old@x.org")
    sign_up = _sign_up(window, "Anna Berg", "new@example.org", club="Tartu")
    person = register_person_for(window, sign_up)
    assert person.pk != namesake.pk and person.email == "new@example.org"
    assert sign_up.possible_duplicate == namesake
    assert person.homonym == namesake.homonym + 1


def test_a_new_name_is_a_new_person_without_a_duplicate(competition):
    window = open_window(competition)
    sign_up = _sign_up(window, "Bo Nilsson", "bo@example.org", club="Lund")
    person = register_person_for(window, sign_up)
    assert (person.name, person.club, person.email) == ("Bo Nilsson", "Lund", "bo@example.org")
    assert person.host_id == competition.event.host_id
    assert sign_up.possible_duplicate is None


def test_the_person_joined_on_their_own_page_wins_over_the_address(competition):
    window = open_window(competition)
    host = competition.event.host_id
    joined = PlayerFactory(host_id=host, name="Anna Berg", email="")
    PlayerFactory(host_id=host, name="Other", email="anna@example.org")
    sign_up = _sign_up(window, "Anna Berg", "anna@example.org")
    sign_up.register_person = joined
    assert register_person_for(window, sign_up) == joined


def test_another_clubs_register_is_never_searched(competition):
    window = open_window(competition)
    other_club = HostClubFactory(slug="elsewhere")
    elsewhere = PlayerFactory(host=other_club, name="Anna Berg", email="anna@example.org")
    assert elsewhere.host_id != competition.event.host_id
    person = register_person_for(window, _sign_up(window, "Anna Berg", "anna@example.org"))
    assert person.pk != elsewhere.pk and person.host_id == competition.event.host_id


def test_the_namesake_shown_at_the_desk_only_when_no_one_has_the_address(competition):
    host = competition.event.host_id
    namesake = PlayerFactory(host_id=host, name="Anna Berg", club="Tartu", email="old@x.org")
    person = Player(host_id=host, name="Anna Berg", club="Tartu")
    assert register_namesake(person, "new@example.org") == namesake
    assert register_namesake(person, "OLD@x.org") is None
