"""Hosting clubs' writes: roles held at the club reach its events, a club keeps an owner, the
history says who changed what, settings are checked (colours, zone) and stale edits refused."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from events import services as core
from events.clubs import services
from events.errors import Conflict, Forbidden, Invalid, NotFound, Refused
from events.models import ClubRole, Event, HostClub, Player
from events.permissions import ensure_access
from events.services.editing import signature
from events.services.hosts import host_for_new
from tests.support.factories import EventFactory, HostClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

VALUES = {
    "name": "Tartu Lauamängud",
    "country": "EE",
    "language": "et",
    "time_zone": "Europe/Tallinn",
}


def club_with_owner(slug: str = "a"):
    owner = UserFactory()
    club = services.club_create(by=owner, values={**VALUES, "name": f"Club {slug}"})
    return club, owner


def test_a_new_club_is_owned_by_its_maker_and_the_history_says_so():
    club, owner = club_with_owner()
    assert services.role_at(club, owner) == ClubRole.Role.OWNER
    assert club.slug == "club-a"
    (row,) = ClubRole.history.filter(club_id=club.pk)
    assert row.history_user == owner and row.history_type == "+"


def test_a_club_role_reaches_every_event_of_the_club_and_no_other():
    club, owner = club_with_owner()
    other, _other_owner = club_with_owner("b")
    scorer = UserFactory()
    services.role_grant(club=club, by=owner, username=scorer.username, role="scorekeeper")
    ours = EventFactory(host=club)
    theirs = EventFactory(host=other)
    assert ours.role_of(owner) == "owner"
    assert ours.role_of(scorer) == "scorekeeper"
    assert theirs.role_of(owner) is None and theirs.role_of(scorer) is None
    with pytest.raises(Exception) as refused:
        ensure_access(theirs, owner)
    assert refused.type.__name__ == "PermissionDenied"


def test_the_stronger_of_the_event_role_and_the_club_role_counts():
    club, owner = club_with_owner()
    guest = UserFactory()
    services.role_grant(club=club, by=owner, username=guest.username, role="scorekeeper")
    event = EventFactory(host=club, organisers=[owner])
    event.organisers.add(guest, through_defaults={"role": "organiser"})
    assert event.role_of(guest) == "organiser"


def test_the_last_owner_cannot_leave_be_removed_or_demoted():
    club, owner = club_with_owner()
    with pytest.raises(Refused) as left:
        services.role_remove(club=club, by=owner, user_id=owner.pk)
    assert left.value.code == "last_owner"
    with pytest.raises(Refused):
        services.role_change(club=club, by=owner, user_id=owner.pk, role="organiser")
    assert services.role_at(club, owner) == "owner"


def test_ownership_is_handed_over_and_the_old_owner_becomes_an_organiser():
    club, owner = club_with_owner()
    heir = UserFactory()
    services.role_grant(club=club, by=owner, username=heir.username, role="organiser")
    services.ownership_hand_over(club=club, by=owner, user_id=heir.pk)
    assert services.role_at(club, heir) == "owner"
    assert services.role_at(club, owner) == "organiser"
    # Now the old owner may leave; the new one may not (the last owner).
    services.role_remove(club=club, by=owner, user_id=owner.pk)
    with pytest.raises(Refused):
        services.role_remove(club=club, by=heir, user_id=heir.pk)
    kinds = list(
        ClubRole.history.filter(club_id=club.pk)
        .order_by("history_date", "history_id")
        .values_list("history_type", "role", "history_user__username")
    )
    assert kinds[-1] == ("-", "organiser", owner.username)
    assert ("~", "owner", owner.username) in kinds


def test_only_owners_change_roles_and_organisers_cannot():
    club, owner = club_with_owner()
    organiser, stranger = UserFactory(), UserFactory()
    services.role_grant(club=club, by=owner, username=organiser.username, role="organiser")
    with pytest.raises(Forbidden):
        services.role_grant(club=club, by=organiser, username=stranger.username, role="owner")
    with pytest.raises(Forbidden):
        services.role_change(club=club, by=organiser, user_id=owner.pk, role="scorekeeper")
    with pytest.raises(Forbidden):
        services.role_remove(club=club, by=stranger, user_id=organiser.pk)


def test_granting_refuses_unknown_logins_roles_and_doubles():
    club, owner = club_with_owner()
    with pytest.raises(NotFound):
        services.role_grant(club=club, by=owner, username="nobody", role="organiser")
    with pytest.raises(Invalid):
        services.role_grant(club=club, by=owner, username=owner.username, role="king")
    with pytest.raises(Conflict):
        services.role_grant(club=club, by=owner, username=owner.username.upper(), role="organiser")


def test_site_staff_restore_an_owner_only_to_a_club_without_one():
    club, owner = club_with_owner()
    staff = UserFactory(is_staff=True)
    with pytest.raises(Refused):
        services.owner_restore(club=club, by=staff, username=staff.username)
    owner.delete()  # the account gone: the club is left without an owner
    assert services.clubs_without_owner() == [club]
    with pytest.raises(Forbidden):
        services.owner_restore(club=club, by=UserFactory(), username="x")
    services.owner_restore(club=club, by=staff, username=staff.username)
    assert services.role_at(club, staff) == "owner"
    assert services.clubs_without_owner() == []


@pytest.mark.parametrize(
    ("field", "colour"),
    [("band_colour", "#7a7a7a"), ("stripe_colour", "#ffff00"), ("stripe_colour", "#000000")],
)
def test_colours_that_cannot_be_read_are_refused(field, colour):
    club, owner = club_with_owner()
    values = {**VALUES, field: colour}
    with pytest.raises(Invalid) as refused:
        services.club_update(
            club=club, by=owner, expected=signature(club, services.CLUB_FIELDS), values=values
        )
    assert field in refused.value.message_dict


def test_a_stale_edit_is_refused_not_overwritten():
    club, owner = club_with_owner()
    drawn = signature(club, services.CLUB_FIELDS)
    services.club_update(club=club, by=owner, expected=drawn, values={**VALUES, "name": "First"})
    with pytest.raises(Conflict) as stale:
        services.club_update(club=club, by=owner, expected=drawn, values={**VALUES, "name": "Late"})
    assert stale.value.code == "stale_edit"
    club.refresh_from_db()
    assert club.name == "First"


def test_a_changed_club_re_renders_its_events_pages():
    club, owner = club_with_owner()
    event = EventFactory(host=club)
    before = Event.objects.get(pk=event.pk).version
    services.club_update(
        club=club,
        by=owner,
        expected=signature(club, services.CLUB_FIELDS),
        values={**VALUES, "band_colour": "#1f4e8c"},
    )
    assert Event.objects.get(pk=event.pk).version > before


def test_an_organiser_without_a_club_gets_one_of_their_own_at_the_first_event():
    user = UserFactory(username="anna")
    competition = core.event_create_with_competition(
        name="Night",
        starts_on=dt.date(2026, 5, 5),
        ends_on=dt.date(2026, 5, 5),
        time_zone="Europe/Stockholm",
        organiser=user,
        competition_name="Cup",
        competition_format="shuffleboard",
    )
    club = competition.event.host
    assert club.slug == "anna" and not club.is_listed
    assert services.role_at(club, user) == "owner"
    # Their next event goes to the same club.
    assert host_for_new(user) == club


def test_an_event_goes_only_to_a_club_its_maker_runs():
    club, _owner = club_with_owner()
    with pytest.raises(Forbidden):
        host_for_new(UserFactory(), club)


def test_registers_are_per_club_and_a_person_of_another_club_is_not_entered():
    a, owner_a = club_with_owner("a")
    b, _owner_b = club_with_owner("b")
    alice = PlayerFactory(host=a, name="Alice Berg", club="Uppsala")
    twin = PlayerFactory(host=b, name="Alice Berg", club="Uppsala")  # a different row
    assert alice.pk != twin.pk and alice.homonym == twin.homonym == 0
    event = EventFactory(host=a)
    competition = core.competition_create(event=event, name="Cup", format="shuffleboard")
    with pytest.raises(NotFound):
        core.player_register(competition=competition, player=twin)
    entry = core.player_register_new(competition=competition, name="Bo Ek")
    assert entry.player.host == a


def test_a_club_asked_to_be_deleted_goes_after_the_notice_with_its_register(settings):
    club, owner = club_with_owner()
    kept, _ = club_with_owner("kept")
    event = EventFactory(host=club)
    core.competition_create(event=event, name="Cup", format="shuffleboard")
    PlayerFactory(host=club, name="Gone Person")
    PlayerFactory(host=kept, name="Kept Person")
    services.club_deletion_request(club=club, by=owner)
    now = timezone.now()
    assert services.clubs_delete_due(now=now) == 0
    services.club_deletion_cancel(club=club, by=owner)
    later = now + dt.timedelta(days=settings.CLUB_DELETION_DAYS + 1)
    assert services.clubs_delete_due(now=later) == 0  # taken back
    services.club_deletion_request(club=club, by=owner)
    assert services.clubs_delete_due(now=later) == 1
    assert not HostClub.objects.filter(pk=club.pk).exists()
    assert not Event.objects.filter(pk=event.pk).exists()
    assert list(Player.objects.values_list("name", flat=True)) == ["Kept Person"]
    assert not Player.history.filter(name="Gone Person").exists()


def test_the_factory_club_is_shared_unless_asked():
    assert EventFactory().host == PlayerFactory().host == HostClubFactory()


def test_an_event_owner_starts_events_in_the_club_only_where_the_club_lets_them():
    club, owner = club_with_owner()
    guest = UserFactory()
    EventFactory(host=club, organisers=[guest])  # the guest owns one of the club's events
    mine = host_for_new(guest)
    assert mine != club and services.role_at(mine, guest) == "owner"
    with pytest.raises(Forbidden):
        host_for_new(guest, club)
    club.event_owners_may_start = True  # an install from before clubs: its one club
    club.save()
    other = UserFactory()
    EventFactory(host=club, organisers=[other])
    assert host_for_new(other) == club == host_for_new(other, club)


def test_a_scorekeeper_may_leave_but_not_remove_others(client):
    club, owner = club_with_owner()
    scorer = UserFactory()
    services.role_grant(club=club, by=owner, username=scorer.username, role="scorekeeper")
    client.force_login(scorer)
    others = f"/desk/clubs/{club.slug}/people/{owner.pk}/remove/"
    assert client.post(others).status_code == 403
    leave = f"/desk/clubs/{club.slug}/people/{scorer.pk}/remove/"
    assert client.post(leave).status_code == 302
    assert services.role_at(club, scorer) is None


def test_an_entry_of_another_clubs_person_is_refused_in_admin_as_at_the_desk():
    from django.core.exceptions import ValidationError

    from events.models import Entry
    from tests.support.factories import CompetitionFactory

    a, _ = club_with_owner("a")
    b, _ = club_with_owner("b")
    competition = CompetitionFactory(event=EventFactory(host=a))
    entry = Entry(competition=competition, player=PlayerFactory(host=b))
    with pytest.raises(ValidationError) as refused:
        entry.full_clean()
    assert "player" in refused.value.message_dict
    Entry(competition=competition, player=PlayerFactory(host=a)).full_clean()
