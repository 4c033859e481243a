"""Check-in by the desk's camera: the scanned QR code (the address of a
player's own page) names an entry of this event, and checks it in through the check-in box's own
view; a code of another event, or not a player's page, is refused with a sentence."""

from __future__ import annotations

import pytest
from django.urls import get_resolver, reverse

from events.common.middleware import DESK_PERMISSIONS_POLICY, PERMISSIONS_POLICY
from events.common.siteurl import absolute_url
from events.desk.views.checkin import entry_for_code
from events.errors import ServiceError
from events.selectors import entries_for_competition
from events.services.events import competition_touch
from tests.support.factories import CompetitionFactory, EntryFactory, EventFactory, PlayerFactory

HTMX = {"HX-Request": "true"}


@pytest.fixture
def sjoelen(event):
    return CompetitionFactory(
        event=event, name="Sjoelen", slug="sjoelen", format="shuffleboard", settings={}
    )


def player_page(entry):
    competition = entry.competition
    return absolute_url(
        reverse("shuffleboard:player", args=[competition.event.slug, competition.slug, entry.pk])
    )


def private_page(entry):
    return absolute_url(reverse("roundrobin:private_page", args=[entry.pk]))


def resolve(competition, code, **kwargs):
    return entry_for_code(entries_for_competition(competition), competition, code, **kwargs)


def test_a_players_own_page_names_their_entry(sjoelen):
    entry = EntryFactory(competition=sjoelen)
    EntryFactory(competition=sjoelen)
    assert resolve(sjoelen, player_page(entry)) == entry
    assert resolve(sjoelen, "  " + private_page(entry) + "\n") == entry


def test_a_code_of_another_competition_of_the_event_names_the_same_players_entry_here(
    sjoelen, competition
):
    player = PlayerFactory(name="Õie Sööt")
    here = EntryFactory(competition=competition, player=player)
    there = EntryFactory(competition=sjoelen, player=player)
    assert resolve(competition, player_page(there)) == here


def test_a_player_not_in_this_competition_is_refused_by_name(sjoelen, competition):
    there = EntryFactory(competition=sjoelen, player=PlayerFactory(name="Zed"))
    with pytest.raises(ServiceError) as refused:
        resolve(competition, player_page(there))
    assert refused.value.code == "not_in_competition"
    assert "Zed (Test Club) is not registered in “Blokus”." in refused.value.messages


def test_a_code_of_another_event_is_refused(sjoelen):
    other = CompetitionFactory(
        event=EventFactory(slug="elsewhere"), slug="sjoelen", format="shuffleboard", settings={}
    )
    stranger = EntryFactory(competition=other)
    with pytest.raises(ServiceError) as refused:
        resolve(sjoelen, player_page(stranger))
    assert refused.value.code == "other_event"
    assert "belongs to another event, not to “LinCon 2026”" in refused.value.messages[0]


@pytest.mark.parametrize(
    "code",
    [
        "hello",
        "12",
        "https://evil.example.org/p/player/1/",
        "javascript:alert(1)",
        absolute_url("/e/lincon-2026/"),
        absolute_url("/p/player/999999/"),
    ],
)
def test_what_is_not_a_players_page_of_this_site_is_refused(sjoelen, code):
    EntryFactory(competition=sjoelen)
    with pytest.raises(ServiceError) as refused:
        resolve(sjoelen, code)
    assert refused.value.code == "not_a_player_code"


def test_a_page_address_with_the_wrong_event_in_it_is_refused(sjoelen):
    entry = EntryFactory(competition=sjoelen)
    forged = absolute_url(reverse("shuffleboard:player", args=["elsewhere", "sjoelen", entry.pk]))
    with pytest.raises(ServiceError):
        resolve(sjoelen, forged)


def test_the_desks_own_host_is_accepted_too(sjoelen):
    entry = EntryFactory(competition=sjoelen)
    path = reverse("roundrobin:private_page", args=[entry.pk])
    assert (
        resolve(sjoelen, f"http://192.168.1.20:8000{path}", hosts=("192.168.1.20:8000",)) == entry
    )


def test_a_scanned_code_checks_in_through_the_check_in_box(desk_client, sjoelen):
    entry = EntryFactory(competition=sjoelen, player=PlayerFactory(name="Ann"))
    url = reverse("events:check_in_typed", args=[sjoelen.event.slug, sjoelen.slug])
    response = desk_client.post(url, {"q": "", "code": player_page(entry)}, headers=HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Ann" in html and f"checked in (no. {entry.number})." in html
    entry.refresh_from_db()
    assert entry.checked_in_at is not None


def test_a_scanned_code_of_another_event_is_refused_on_the_desk(desk_client, sjoelen):
    other = CompetitionFactory(
        event=EventFactory(slug="elsewhere"), slug="sjoelen", format="shuffleboard", settings={}
    )
    stranger = EntryFactory(competition=other)
    url = reverse("events:check_in_typed", args=[sjoelen.event.slug, sjoelen.slug])
    response = desk_client.post(url, {"q": "", "code": player_page(stranger)}, headers=HTMX)
    html = response.content.decode()
    assert 'role="alert"' in html and "belongs to another event" in html
    stranger.refresh_from_db()
    assert stranger.checked_in_at is None


def test_the_camera_is_allowed_on_desk_pages_only(desk_client, sjoelen):
    assert "camera=(self)" in DESK_PERMISSIONS_POLICY and "camera=()" in PERMISSIONS_POLICY
    desk = desk_client.get(sjoelen.get_desk_url())
    assert "camera=(self)" in desk["Permissions-Policy"]
    assert "microphone=()" in desk["Permissions-Policy"]
    assert "data-scan " in desk.content.decode()
    public = desk_client.get(sjoelen.get_absolute_url())
    assert "camera=()" in public["Permissions-Policy"]


def player_page_names() -> set[str]:
    from tests.support.routes import routes

    return {name for name, _route in routes(get_resolver().url_patterns)}


def test_every_formats_player_page_shows_the_check_in_code_the_desk_reads(demo, client):
    """Each format's player page carries a QR code of its own address; that address is what
    the desk's scanner posts, and it names that player's entry. At sjoelen and Blokus only
    until the player is checked in: then the page leads with their next board or table."""
    _, competitions = demo
    # The formats with a public player page (named "player"; not part of the contract).
    with_page = [c for c in competitions if f"{c.format}:player" in player_page_names()]
    assert with_page
    for competition in with_page:
        entry = competition.entries.order_by("pk").first()
        assert entry is not None
        if entry.checked_in_at is not None and competition.format in ("shuffleboard", "blokus"):
            checked_in = reverse(
                f"{competition.format}:player",
                args=[competition.event.slug, competition.slug, entry.pk],
            )
            assert "check-in-code" not in client.get(checked_in).content.decode()
            entry.checked_in_at = None  # as if not yet: the demo is running, no undo there
            entry.save(update_fields=["checked_in_at"])
            competition_touch(competition)  # a new version: the page is drawn anew
        path = reverse(
            f"{competition.format}:player",
            args=[competition.event.slug, competition.slug, entry.pk],
        )
        page = client.get(path)
        assert page.status_code == 200, path
        body = page.content.decode()
        assert 'class="qr check-in-code' in body and "<svg" in body, path
        entries = list(entries_for_competition(competition))
        assert entry_for_code(entries, competition, absolute_url(path)).pk == entry.pk
