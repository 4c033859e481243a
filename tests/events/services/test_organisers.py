"""Who runs an event (``events.services.organisers``): giving and taking roles with at least one
owner kept, and who may enter a known player into a rated competition."""

from __future__ import annotations

import pytest

from events import services
from events.errors import Conflict, NotFound, Refused
from events.models import ClubRole, EventRole
from events.services import organisers
from tests.support.factories import EntryFactory, EventFactory, PlayerFactory, UserFactory


def test_a_role_is_given_by_login_changed_and_not_given_twice(db):
    owner = UserFactory(username="owner")
    UserFactory(username="Keeper")
    event = EventFactory(organisers=[owner])
    role = organisers.event_role_set(event=event, username="  keeper ", role="scorekeeper")
    assert (role.user.username, role.role) == ("Keeper", "scorekeeper")
    with pytest.raises(Conflict) as info:
        organisers.event_role_set(event=event, username="keeper", role="scorekeeper")
    assert info.value.code == "same_role"
    organisers.event_role_set(event=event, username="keeper", role="organiser")
    assert EventRole.objects.get(event=event, user=role.user).role == "organiser"
    with pytest.raises(NotFound) as info:
        organisers.event_role_set(event=event, username="nobody", role="organiser")
    assert info.value.code == "no_such_user"


def test_the_last_owner_is_neither_demoted_nor_removed(db):
    owner = UserFactory(username="owner")
    event = EventFactory(organisers=[owner])
    with pytest.raises(Refused) as info:
        organisers.event_role_set(event=event, username="owner", role="organiser")
    assert info.value.code == "last_owner"
    with pytest.raises(Refused):
        organisers.event_role_remove(event=event, user_id=owner.pk)
    second = UserFactory(username="second")
    organisers.event_role_set(event=event, username="second", role="owner")
    removed = organisers.event_role_remove(event=event, user_id=owner.pk)
    assert removed.user == owner
    assert list(EventRole.objects.filter(event=event).values_list("user", "role")) == [
        (second.pk, "owner")
    ]
    with pytest.raises(NotFound) as info:
        organisers.event_role_remove(event=event, user_id=owner.pk)
    assert info.value.code == "no_role"


def test_a_known_player_enters_a_rated_competition_only_by_one_of_their_organisers(db):
    ours, theirs = UserFactory(), UserFactory()
    our_event = EventFactory(organisers=[ours])
    rated = services.competition_create(event=our_event, name="League", format="roundrobin")
    unrated = services.competition_create(event=our_event, name="Night", format="shuffleboard")
    assert organisers.is_rated(rated) and not organisers.is_rated(unrated)
    stranger = PlayerFactory(name="Stranger")
    EntryFactory(player=stranger, competition__event=EventFactory(organisers=[theirs]))
    regular = PlayerFactory(name="Regular")
    EntryFactory(player=regular, competition__event=our_event)
    newcomer = PlayerFactory(name="Newcomer")
    assert not organisers.may_enter(competition=rated, player=stranger, by=ours)
    assert organisers.may_enter(competition=rated, player=regular, by=ours)
    assert organisers.may_enter(competition=rated, player=newcomer, by=ours)
    assert organisers.may_enter(competition=unrated, player=stranger, by=ours)
    assert organisers.may_enter(competition=rated, player=stranger, by=None)  # the player
    ids = [stranger.pk, regular.pk, newcomer.pk]
    assert organisers.strangers(competition=rated, player_ids=ids, by=ours) == {stranger.pk}
    assert organisers.strangers(competition=unrated, player_ids=ids, by=ours) == set()
    with pytest.raises(Refused) as info:
        organisers.ensure_may_enter(competition=rated, player=stranger, by=ours)
    assert info.value.code == "stranger_in_rated"


def test_a_club_organiser_runs_every_event_of_the_club(db):
    club_organiser = UserFactory()
    event = EventFactory()
    ClubRole.objects.create(club=event.host, user=club_organiser, role="organiser")
    rated = services.competition_create(event=event, name="League", format="roundrobin")
    player = PlayerFactory()
    EntryFactory(player=player, competition__event=EventFactory(host=event.host))
    assert organisers.may_enter(competition=rated, player=player, by=club_organiser)
    superuser = UserFactory(is_superuser=True, two_factor=False)
    stranger = PlayerFactory()
    EntryFactory(player=stranger, competition__event=EventFactory())
    assert organisers.may_enter(competition=rated, player=stranger, by=superuser)
