"""The kit's reads: badges and names in a constant number of queries, the podium's
certificates and any one player's, the door poster's links."""

from __future__ import annotations

import pytest

from events.models import Entry
from events.printing.selectors import (
    badges,
    door_poster,
    player_page,
    unprintable_names,
)
from tests.support.factories import CompetitionFactory, EntryFactory, PlayerFactory

pytestmark = pytest.mark.django_db


def test_badges_list_the_playing_entries_by_number_with_their_page(competition, settings):
    settings.SITE_URL = "https://events.example.org"
    first = EntryFactory(competition=competition, player=PlayerFactory(name="Bo", club=""))
    second = EntryFactory(competition=competition, player=PlayerFactory(name="Al"))
    gone = EntryFactory(competition=competition)
    Entry.objects.filter(pk=gone.pk).update(withdrawn_at="2026-05-05T10:00Z")
    found = badges(competition)
    assert [b.entry_id for b in found] == [first.pk, second.pk]
    assert [b.number for b in found] == [first.number, second.number]
    assert found[0].club == "" and found[1].club == "Test Club"
    assert found[0].url == "https://events.example.org" + player_page(competition, first.pk)
    assert f"/{first.pk}/" in found[0].url
    assert [b.name for b in badges(competition, f"entry-{second.pk}")] == ["Al"]
    assert badges(competition, "entry-0") == []


def test_a_format_without_player_pages_links_the_competition(competition):
    competition.format = "no-such-format"
    assert player_page(competition, 1) == competition.get_absolute_url()


@pytest.mark.parametrize("players", [10, 100])
def test_badges_and_names_read_in_constant_queries(players, django_assert_max_num_queries):
    competition = CompetitionFactory()
    for n in range(players):
        EntryFactory(competition=competition, player=PlayerFactory(name=f"Name {n}"))
    with django_assert_max_num_queries(1):
        assert len(badges(competition)) == players
    with django_assert_max_num_queries(1):
        unprintable_names(competition)


def test_names_no_font_draws_are_flagged(competition, settings):
    settings.PRINT_FALLBACK_FONTS = []
    EntryFactory(competition=competition, player=PlayerFactory(name="Ülle Sööt"))
    EntryFactory(competition=competition, player=PlayerFactory(name="山田 太郎", club="東京"))
    assert unprintable_names(competition) == [("山田 太郎", "山田太郎"), ("東京", "東京")]


def test_the_door_poster_links_the_sign_up_page_only_with_self_check_in(competition):
    from events.signups.models import SignUpWindow

    plain = door_poster(competition)
    assert plain.competition_url.endswith(competition.get_absolute_url())
    assert not plain.self_check_in and plain.sign_up_url == ""
    SignUpWindow.objects.create(
        competition=competition,
        opens_at="2026-05-01T10:00Z",
        closes_at="2026-05-04T10:00Z",
        cap=10,
        self_check_in_from="2026-05-05T08:00Z",
        self_check_in_until="2026-05-05T10:00Z",
    )
    poster = door_poster(competition)
    assert poster.self_check_in and poster.sign_up_url.endswith("/sign-up/")
