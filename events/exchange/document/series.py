"""The series an event's competitions count in, written into the event's document and read back.

In the document (``"series"``, one entry per series, by address)::

    {"slug": "sjoelen-season-2026", "name": ..., "format": ..., ...the formula's fields,
     "organisers": ["anna"],                      # only those who organise this event too
     "competitions": [{"competition": 1, "is_final": false}],
     "results": [{"competition": 1, "player": 3, "place": 1, "field": 12,
                  "points": "9", "total": 245, "games": 10}]}

``results`` are what the series counted from this event (the format's
``SeriesResults``), written for readers of the archive; they follow from the event's
own tables, so an import does not read them. A series spans events, so its standings over all of
them are not in one event's file: the series page and its CSV/XLSX have them.

On import (decided here): a series with the same address and format takes the imported
competitions; a missing one is created with the file's formula, organised by the listed users the
database knows; one whose address holds a series of another format is left out and reported.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from events.formats import part
from events.models import Competition, Event
from events.series.contract import SeriesResults
from events.series.models import FORMULA_FIELDS, Series, SeriesCompetition, table_values

SERIES_FIELDS = ("format", *FORMULA_FIELDS)  # the series as the file writes it

Remap = Callable[[str, Any], Any]


def series_section(
    event: Event, remap: Remap, usernames: Mapping[Any, str], organiser_ids: set[Any]
) -> list[dict[str, Any]]:
    """The document's ``series``: every series holding a competition of ``event``. Queries: a
    constant number per format present, whatever the number of series or players."""
    members = list(
        SeriesCompetition.objects.filter(competition__event=event)
        .select_related("series", "competition")
        .order_by("series__slug", "competition__pk")
    )
    if not members:
        return []
    by_series: dict[int, list[SeriesCompetition]] = {}
    for member in members:
        by_series.setdefault(member.series_id, []).append(member)
    series_ids = list(by_series)
    organisers: dict[int, list[str]] = {pk: [] for pk in series_ids}
    through = Series.organisers.through
    for series_id, user_id in (
        through.objects.filter(series_id__in=series_ids, user_id__in=organiser_ids)
        .order_by("series_id", "user_id")
        .values_list("series_id", "user_id")
    ):
        if user_id in usernames:
            organisers[series_id].append(usernames[user_id])
    results_by_competition: dict[int, list[Any]] = {}
    formats: dict[str, list[Competition]] = {}
    for member in members:
        formats.setdefault(member.series.format, []).append(member.competition)
    for key, competitions in formats.items():
        unique = list({c.pk: c for c in competitions}.values())
        taking_part = part(key, SeriesResults)
        for line in taking_part.series_results(unique) if taking_part else []:
            results_by_competition.setdefault(line.competition_id, []).append(line)
    section = []
    for series_id, held in by_series.items():
        series = held[0].series
        entry: dict[str, Any] = {"slug": series.slug}
        entry |= {name: getattr(series, name) for name in SERIES_FIELDS}
        entry["organisers"] = sorted(organisers[series_id])
        entry["competitions"] = [
            {"competition": remap("events.competition", m.competition_id), "is_final": m.is_final}
            for m in held
        ]
        lines = []
        for member in held:
            ordered = sorted(
                results_by_competition.get(member.competition_id, []),
                key=lambda line: (line.place, remap("events.player", line.player_id) or 0),
            )
            lines += [
                {
                    "competition": remap("events.competition", line.competition_id),
                    "player": remap("events.player", line.player_id),
                    "place": line.place,
                    "field": line.field,
                    "points": str(line.points),
                    "total": line.total,
                    "games": line.games,
                }
                for line in ordered
            ]
        entry["results"] = lines
        section.append(entry)
    return section


def series_restore(
    section: Any,
    remap: Remap,
    user: Callable[[Any], Any],
    formats: Mapping[Any, str],
    *,
    host: Any,
) -> tuple[list[str], list[str]]:
    """Put the imported competitions into their series (see the module's docstring). Returns
    the addresses of the series joined or created, and of those left out. Raises ValueError,
    TypeError, KeyError or ValidationError on a broken entry (the import turns those into one
    refusal and writes nothing)."""
    if not section:
        return [], []
    if not isinstance(section, list):
        raise TypeError("series: a list expected")
    joined: list[str] = []
    skipped: list[str] = []
    members: list[SeriesCompetition] = []
    for entry in section:
        slug = str(entry["slug"])
        format_key = str(entry["format"])
        held = [
            (remap("events.competition", item["competition"]), bool(item.get("is_final", False)))
            for item in entry.get("competitions", [])
        ]
        for competition_id, _final in held:
            if competition_id is None:
                raise KeyError(f"series {slug}: a competition not in the file")
        if any(
            formats.get(item["competition"]) != format_key for item in entry.get("competitions", [])
        ):
            raise ValueError(f"series {slug}: a competition of another format")
        series = Series.objects.filter(slug=slug).first()
        # A series of another club, or of another format, at that address: left out.
        if series is not None and (series.format != format_key or series.host_id != host.pk):
            skipped.append(slug)
            continue
        if series is None:
            values = {name: entry[name] for name in SERIES_FIELDS if name in entry}
            series = Series(slug=slug, host=host, **values)
            table_values(series.table)  # ValueError on a broken table
            series.full_clean()
            series.save()
            users = [user(name) for name in entry.get("organisers", [])]
            series.organisers.add(*[u for u in users if u is not None])
        members += [
            SeriesCompetition(series=series, competition_id=competition_id, is_final=is_final)
            for competition_id, is_final in held
        ]
        joined.append(slug)
    for member in members:
        member.full_clean(exclude=["series", "competition"])
    SeriesCompetition.objects.bulk_create(members)
    return joined, skipped
