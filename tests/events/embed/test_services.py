import pytest
from django.db.models import Q

from events.embed import services
from events.embed.models import ClubEmbed, EventEmbed
from events.errors import Invalid
from events.models import Competition, Event
from tests.support.factories import CompetitionFactory, EventFactory, HostClubFactory

pytestmark = pytest.mark.django_db


def versions(*competitions):
    return [Competition.objects.get(pk=c.pk).version for c in competitions]


def test_an_events_sites_bump_its_competitions_only(competition, organiser):
    elsewhere = CompetitionFactory(event=EventFactory())
    before = versions(competition, elsewhere)
    embed = services.event_sites_save(
        competition.event, sites="https://club.se/", with_club_sites=False, by=organiser
    )
    assert embed.sites == "https://club.se" and not embed.with_club_sites
    assert embed.changed_by == organiser
    after = versions(competition, elsewhere)
    assert after[0] == before[0] + 1 and after[1] == before[1]
    # Saved again: the same row, changed.
    services.event_sites_save(competition.event, sites="", with_club_sites=True, by=organiser)
    assert EventEmbed.objects.get().sites == ""


def test_a_clubs_sites_bump_every_event_it_hosts(competition, organiser):
    club = competition.event.host
    sibling = CompetitionFactory(event=EventFactory(host=club))
    stranger = CompetitionFactory(event=EventFactory(host=HostClubFactory(slug="other")))
    before = versions(competition, sibling, stranger)
    services.club_sites_save(club, sites="https://club.se", by=organiser)
    after = versions(competition, sibling, stranger)
    assert [a - b for a, b in zip(after, before, strict=True)] == [1, 1, 0]
    assert ClubEmbed.objects.get(club=club).sites == "https://club.se"
    assert Event.objects.filter(Q(host=club)).count() == 2


def test_a_list_with_a_bad_site_is_refused_whole(competition, organiser):
    with pytest.raises(Invalid) as refused:
        services.event_sites_save(
            competition.event,
            sites="https://club.se\nhttps://club.se; script-src *",
            with_club_sites=True,
            by=organiser,
        )
    assert refused.value.code == "sites"
    assert not EventEmbed.objects.exists()
    with pytest.raises(Invalid):
        services.club_sites_save(competition.event.host, sites="*", by=organiser)
    assert not ClubEmbed.objects.exists()
