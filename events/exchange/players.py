"""Importing players from a file: a preview of what each row becomes, then one write.

Reading the file (encoding, separator, columns by their header words) is the pure
``events.exchange.csv_rules``; this module decides, against the register and the competition, what
each
row becomes, and writes.

- ``import_plan``: read only. Each row is *new* (a player the register does not know yet),
  *known* (the register has this name and club, case and accents aside: ``person_key``),
  *registered* (already in this competition: left out) or *refused* (with the reason).
- ``import_confirm``: the desk's confirmation. Plans again inside one transaction (the register
  may have changed since the preview) and registers the new and known rows; refused and
  already-registered rows are left out, as the preview said. Nothing when no row can be
  imported. One-time token: a second post of the confirmation does nothing
  (``AlreadySubmitted``).
- ``players_import_csv``: all or nothing (the API the race tests and scripts use): any refused
  or already-registered row refuses the whole file, listing every row.

Races: the writes run in a savepoint; when a concurrent import or desk wrote some of the same
players or entries first (a unique key refuses ours), the file is planned again against what is
now committed, up to three times, then ``csv_race``. Player numbers are taken under the
competition's lock.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _, gettext_lazy

from events.errors import Invalid, Stale
from events.exchange import csv_rules
from events.models import MAX_RATING, Competition, Entry, Player, entry_next_number, fold
from events.services import (
    ALREADY_REGISTERED,
    competition_touch,
    ensure_open,
    ensure_takes_entries,
    organisers,
    person_key,
    player_build,
    submission_done,
    submission_use,
)

CSV_EMPTY = gettext_lazy("The file has no players in it.")
CSV_RACE = gettext_lazy(
    "Someone registered one of these players while the file was read; upload it again."
)
CSV_TOO_MANY_ROWS = gettext_lazy("The file has more than %(limit)s rows.")
CSV_MAX_ROWS = 2000


@dataclass(frozen=True)
class CsvProblem:
    line: int
    reason: str


class CsvImportError(Invalid):
    default_code = "bad_csv"

    def __init__(self, problems: list[CsvProblem]):
        self.problems = problems
        super().__init__([_("Line %(line)s: %(reason)s") % p.__dict__ for p in problems])


@dataclass(frozen=True)
class CsvImportResult:
    created: int
    reused: int


REASONS = {
    "name_missing": gettext_lazy("the name is missing"),
    "name_too_long": gettext_lazy("the name is longer than %(max)s characters"),
    "club_too_long": gettext_lazy("the club is longer than %(max)s characters"),
    "bad_email": gettext_lazy("“%(email)s” is not an e-mail address"),
    "bad_rating": gettext_lazy("the rating “%(rating)s” is not a whole number from 0 to %(max)s"),
    "bad_language": gettext_lazy(
        "“%(language)s” is not a language of this site (English, svenska, eesti, Nederlands)"
    ),
    "too_many_cells": gettext_lazy("%(count)s columns; expected %(expected)s"),
    "bad_csv": gettext_lazy("the file cannot be read as CSV (line %(line)s: %(error)s)"),
    "no_name_column": gettext_lazy(
        "no column holds the players' names (the first row has: %(headers)s); "
        "name one “Name”, “Namn”, “Nimi” or “Naam”"
    ),
    "not_text": gettext_lazy(
        "the file is not text; save it from the spreadsheet as CSV (UTF-8 or semicolon "
        "delimited) and try again"
    ),
    "workbook": gettext_lazy(
        "this is an Excel workbook (.xlsx); save it as “CSV UTF-8” or “CSV (semicolon "
        "delimited)” and upload that"
    ),
    "duplicate": gettext_lazy("the same player as line %(line)s"),
}

FIELD_LABELS = {
    csv_rules.NAME: gettext_lazy("name"),
    csv_rules.FIRST_NAME: gettext_lazy("first name"),
    csv_rules.LAST_NAME: gettext_lazy("last name"),
    csv_rules.CLUB: gettext_lazy("club"),
    csv_rules.EMAIL: gettext_lazy("e-mail"),
    csv_rules.RATING: gettext_lazy("rating"),
    csv_rules.LANGUAGE: gettext_lazy("preferred language"),
}


def reason_text(reason: csv_rules.Reason) -> str:
    return str(REASONS[reason.code]) % dict(reason.values)


def _email_ok(text: str) -> bool:
    try:
        validate_email(text)
    except ValidationError:
        return False
    max_length = Player._meta.get_field("email").max_length
    return max_length is None or len(text) <= max_length


class Action:
    NEW = "new"
    KNOWN = "known"
    REGISTERED = "registered"
    REFUSED = "refused"


@dataclass(frozen=True)
class PlanRow:
    line: int
    name: str
    club: str
    email: str
    rating: int | None
    language: str  # a code, "" when the file gives none
    action: str  # an ``Action``
    reason: str = ""  # why refused, or who is already registered
    key: str = ""  # person_key


@dataclass(frozen=True)
class ImportPlan:
    rows: tuple[PlanRow, ...]
    encoding: str
    delimiter: str
    header: bool
    columns: tuple[tuple[str, str], ...]  # (our field's label, the file's header)
    ignored: tuple[str, ...]
    problem: str = ""  # the whole file is refused

    def of(self, action: str) -> list[PlanRow]:
        return [row for row in self.rows if row.action == action]

    @property
    def new(self) -> list[PlanRow]:
        return self.of(Action.NEW)

    @property
    def known(self) -> list[PlanRow]:
        return self.of(Action.KNOWN)

    @property
    def left_out(self) -> list[PlanRow]:
        return [r for r in self.rows if r.action in (Action.REFUSED, Action.REGISTERED)]

    @property
    def importable(self) -> list[PlanRow]:
        return [r for r in self.rows if r.action in (Action.NEW, Action.KNOWN)]

    @property
    def delimiter_name(self) -> str:
        return {",": _("comma"), ";": _("semicolon"), "\t": _("tab")}.get(
            self.delimiter, self.delimiter
        )


def _read(data: bytes) -> csv_rules.Sheet:
    return csv_rules.read_sheet(data, max_rating=MAX_RATING, email_ok=_email_ok)


def _plan(competition: Competition, sheet: csv_rules.Sheet, by: Any = None) -> ImportPlan:
    """What each row becomes, against the register and the competition now (a constant number
    of queries). ``by``: who imports; in a rated competition the players they may not enter
    (``events.services.organisers.strangers``) are refused, as at the desk."""
    problem = reason_text(sheet.problem) if sheet.problem else ""
    if not problem and len(sheet.rows) > CSV_MAX_ROWS:
        problem = str(CSV_TOO_MANY_ROWS) % {"limit": CSV_MAX_ROWS}
    if not problem and not sheet.rows:
        problem = str(CSV_EMPTY)
    readable = [] if problem else [r for r in sheet.rows if not r.reasons]
    keys = {row.line: person_key(row.name, row.club) for row in readable}
    known = _players_by_key(competition.event.host_id, set(keys.values()))
    registered = set(
        Entry.objects.filter(competition=competition, player__in=known.values()).values_list(
            "player_id", flat=True
        )
    )
    strangers = organisers.strangers(
        competition=competition, player_ids=[p.pk for p in known.values()], by=by
    )
    rows: list[PlanRow] = []
    seen: dict[str, int] = {}
    for row in [] if problem else sheet.rows:
        values = (row.line, row.name, row.club, row.email, row.rating, row.language)
        if row.reasons:
            reason = "; ".join(reason_text(r) for r in row.reasons)
            rows.append(PlanRow(*values, action=Action.REFUSED, reason=reason))
            continue
        key = keys[row.line]
        player = known.get(key)
        if key in seen:
            reason = str(REASONS["duplicate"]) % {"line": seen[key]}
            rows.append(PlanRow(*values, action=Action.REFUSED, reason=reason, key=key))
        elif player is not None and player.pk in registered:
            reason = str(ALREADY_REGISTERED) % {
                "player": player,
                "competition": competition.name,
            }
            rows.append(PlanRow(*values, action=Action.REGISTERED, reason=reason, key=key))
        elif player is not None and player.pk in strangers:
            reason = str(organisers.STRANGER_IN_RATED) % {
                "player": player,
                "competition": competition.name,
            }
            rows.append(PlanRow(*values, action=Action.REFUSED, reason=reason, key=key))
        elif player is not None:
            rows.append(PlanRow(*values, action=Action.KNOWN, reason=str(player), key=key))
        else:
            rows.append(PlanRow(*values, action=Action.NEW, key=key))
        seen.setdefault(key, row.line)
    return ImportPlan(
        rows=tuple(rows),
        encoding=sheet.encoding,
        delimiter=sheet.delimiter,
        header=sheet.header,
        columns=tuple((str(FIELD_LABELS[name]), header) for name, header in sheet.columns),
        ignored=sheet.ignored,
        problem=problem,
    )


def _players_by_key(host_id: int, keys: set[str]) -> dict[str, Player]:
    # Homonym 0 last, so it is the one a row names. The hosting club's register only.
    candidates = Player.objects.filter(host_id=host_id, person_key__in=keys).order_by("-homonym")
    return {p.person_key: p for p in candidates}


def import_plan(*, competition: Competition, data: bytes, by: Any = None) -> ImportPlan:
    """The preview: what importing this file would do now. Writes nothing."""
    return _plan(competition, _read(data), by)


def _write(competition: Competition, rows: list[PlanRow]) -> CsvImportResult:
    """Register these rows (new players first), in the caller's transaction."""
    new_players = []
    problems = []
    for row in rows:
        if row.action != Action.NEW:
            continue
        try:
            player = player_build(
                host_id=competition.event.host_id,
                name=row.name,
                club=row.club,
                email=row.email,
                rating=row.rating,
                language=row.language,
            )
        except ValidationError as exc:
            problems.append(CsvProblem(row.line, " ".join(exc.messages)))
            continue
        # bulk_create skips save(): derive what save() would.
        player.search_text = fold(f"{player.name} {player.club}")
        player.person_key = row.key
        new_players.append(player)
    if problems:
        raise CsvImportError(problems)
    Player.objects.bulk_create(new_players)
    players = _players_by_key(competition.event.host_id, {row.key for row in rows})
    _fill_languages(players, rows)
    first = entry_next_number(competition.pk)
    Entry.objects.bulk_create(
        Entry(competition=competition, player=players[row.key], number=first + i)
        for i, row in enumerate(rows)
    )
    return CsvImportResult(created=len(new_players), reused=len(rows) - len(new_players))


def _fill_languages(players: dict[str, Player], rows: list[PlanRow]) -> None:
    """Known players without a preferred language get the file's (one is never replaced)."""
    by_language: dict[str, list[int]] = {}
    for row in rows:
        player = players[row.key]
        if row.language and not player.language:
            by_language.setdefault(row.language, []).append(player.pk)
    for language, pks in by_language.items():
        Player.objects.filter(pk__in=pks, language="").update(language=language)


def _import(
    competition: Competition, data: bytes, *, all_or_nothing: bool, by: Any = None
) -> CsvImportResult:
    ensure_open(competition)
    ensure_takes_entries(competition)
    # Player numbers are taken one after the other, one desk at a time.
    list(Competition.objects.select_for_update().filter(pk=competition.pk).values("pk"))
    sheet = _read(data)
    for _attempt in range(3):
        plan = _plan(competition, sheet, by)
        if plan.problem:
            raise CsvImportError([CsvProblem(0, plan.problem)])
        if all_or_nothing and plan.left_out:
            raise CsvImportError([CsvProblem(r.line, _row_reason(r)) for r in plan.left_out])
        if not plan.importable:
            if plan.left_out:
                raise CsvImportError([CsvProblem(r.line, _row_reason(r)) for r in plan.left_out])
            raise CsvImportError([CsvProblem(0, str(CSV_EMPTY))])
        try:
            with transaction.atomic():
                result = _write(competition, plan.importable)
        except IntegrityError:  # another desk wrote some of these rows meanwhile: look again
            continue
        competition_touch(competition)
        return result
    raise Stale(CSV_RACE, code="csv_race")


def _row_reason(row: PlanRow) -> str:
    return row.reason if row.reason.endswith(".") else f"{row.reason}."


@transaction.atomic
def import_confirm(
    *, competition: Competition, data: bytes, submission: str = "", by: Any = None
) -> CsvImportResult:
    """The confirmed preview: register every row that can be, leave out the others."""
    record = submission_use(submission)
    result = _import(competition, data, all_or_nothing=False, by=by)
    submission_done(record, competition.get_desk_url())
    return result


@transaction.atomic
def players_import_csv(
    *, competition: Competition, data: bytes, submission: str = "", by: Any = None
) -> CsvImportResult:
    """Register every player in a CSV file, or nobody (every bad row listed)."""
    record = submission_use(submission)
    result = _import(competition, data, all_or_nothing=True, by=by)
    submission_done(record, competition.get_desk_url())
    return result
