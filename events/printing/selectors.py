"""What the print kit reads: the players of the badges, the names it checks before printing, the
certificates' rows, the door poster's links; each in a constant number of queries."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _

from events.common.siteurl import absolute_url
from events.live.results_sheet import podium, standings_sheet
from events.models import Competition, Entry
from events.printing.fonts import unprintable


@dataclass(frozen=True)
class Badge:
    entry_id: int
    number: int | None
    name: str
    club: str
    url: str  # absolute: the player's public page (the competition's when the format has none)


def player_page(competition: Competition, entry_id: int) -> str:
    """A player's public page: every format names it ``<format>:player`` by convention; the
    competition's page for a format without one."""
    try:
        return reverse(
            f"{competition.format}:player",
            kwargs={
                "event_slug": competition.event.slug,
                "competition_slug": competition.slug,
                "entry_id": entry_id,
            },
        )
    except NoReverseMatch:
        return competition.get_absolute_url()


def playing_entries(competition: Competition) -> list[Entry]:
    """Everyone registered and not withdrawn, by player number (one query)."""
    return list(
        Entry.objects.filter(competition=competition, withdrawn_at__isnull=True)
        .select_related("player")
        .order_by("number", "pk")
    )


def badges(competition: Competition, scope: str = "") -> list[Badge]:
    """One badge per playing entry, or the one of ``entry-<id>`` (one query)."""
    entries = playing_entries(competition)
    if scope:
        entries = [entry for entry in entries if f"entry-{entry.pk}" == scope]
    return [
        Badge(
            entry_id=entry.pk,
            number=entry.number,
            name=entry.player.public_name,
            club=entry.player.club,
            url=absolute_url(player_page(competition, entry.pk)),
        )
        for entry in entries
    ]


def unprintable_names(competition: Competition) -> list[tuple[str, str]]:
    """``(name, characters)`` of every name and club the kit prints that neither the shipped
    fonts nor a fallback on this machine can draw (one query)."""
    texts: dict[str, None] = {competition.event.name: None, competition.name: None}
    for entry in playing_entries(competition):
        texts[entry.player.public_name] = None
        if entry.player.club:
            texts[entry.player.club] = None
    return unprintable(texts)


@dataclass(frozen=True)
class Placed:
    place: int | None
    shared: bool
    name: str
    club: str
    entry_id: int | None
    group: Any  # the table of a round robin; None where the format has one ranking
    score_label: str
    score: Any


SCORE_HEADINGS = ("Points", "Total score", "Total", "Score", "Qualifying points")


def certificate_rows(competition: Competition, scope: str = "") -> list[Placed]:
    """The podium's players (every one sharing a place 1-3), or the one player of
    ``entry-<id>``, with their place and score as the standings give them (the queries of the
    format's standings, and one)."""
    sheet = standings_sheet(competition)
    at = {heading: index for index, heading in enumerate(sheet.header)}
    name_at, club_at, group_at = at.get(_("Player")), at.get(_("Club")), at.get(_("Table"))
    score_heading = next((_(h) for h in SCORE_HEADINGS if _(h) in at), "")
    entries = playing_entries(competition)
    # The sheets name players, not entries: a name and club pick out the entry (a register
    # never holds one person twice under one name and club).
    by_person = {(e.player.public_name, e.player.club): e.pk for e in entries}

    def person(row: list[Any]) -> tuple[str, str]:
        name = str(row[name_at]) if name_at is not None else ""
        return name, str(row[club_at] or "") if club_at is not None else ""

    def group_of(row: list[Any]) -> Any:
        return row[group_at] if group_at is not None else None

    def placed(row: list[Any], place: int | None, shared: bool) -> Placed:
        name, club = person(row)
        score = row[at[score_heading]] if score_heading else None
        entry_id = by_person.get((name, club))
        return Placed(place, shared, name, club, entry_id, group_of(row), score_heading, score)

    if scope:
        wanted = next((e for e in entries if f"entry-{e.pk}" == scope), None)
        if wanted is None:
            return []
        key = (wanted.player.public_name, wanted.player.club)
        row = next((r for r in sheet.rows if person(r) == key), None)
        if row is None:  # not in the standings yet
            return [Placed(None, False, key[0], key[1], wanted.pk, None, "", None)]
        place = None
        for heading in (_("Final place"), _("Place")):  # a final decides where it was played
            if heading in at and isinstance(row[at[heading]], int) and row[at[heading]]:
                place = row[at[heading]]
                break
        return [placed(row, place, False)]
    rows = []
    for top in podium(sheet):
        for row in sheet.rows:
            if person(row)[0] == top.name and (top.group is None or group_of(row) == top.group):
                rows.append(placed(row, top.place, top.shared))
                break
    return rows


@dataclass(frozen=True)
class DoorPoster:
    competition_url: str
    sign_up_url: str  # empty when the competition has no self check-in
    self_check_in: bool


def door_poster(competition: Competition) -> DoorPoster:
    """The poster's links (one query): the competition's page, and the sign-up page where a
    player types the door screen's code when self check-in is set up."""
    from events.signups.models import SignUpWindow

    window = SignUpWindow.objects.filter(competition=competition).first()
    self_check_in = window is not None and window.self_check_in_from is not None
    return DoorPoster(
        competition_url=absolute_url(competition.get_absolute_url()),
        sign_up_url=absolute_url(reverse("events:signup", args=[competition.event.slug]))
        if window is not None
        else "",
        self_check_in=self_check_in,
    )
