"""Writes of series: create, change the formula, add and remove competitions. Each in one
transaction, each bumping the series' version (its public page's ETag); the database's
constraints stand behind the checks here (events.series.models).

Who may: a series is changed by its organisers (a superuser by anyone with the flag). A
competition joins only when the person also manages its event (decided: a series organiser
cannot pull in another club's competition on their own), and only a competition of the
series' format."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.text import slugify
from django.utils.translation import gettext as _, gettext_lazy

from events.errors import Forbidden, Invalid, NotFound, Stale
from events.formats import get_format
from events.models import Competition, HostClub
from events.rules import series as rules
from events.series.models import FORMULA_FIELDS, Series, SeriesCompetition, table_values
from events.services import RESERVED_SLUGS, clean_text
from events.services.hosts import host_for_new
from events.versions import versions_bump

# The pure rules name the field out of range; the words are said here, translated.
FORMULA_MESSAGES = {
    "kind": gettext_lazy("Choose one of the formulas."),
    "best": gettext_lazy("Best results counted: 1 to 1,000."),
    "drop_worst": gettext_lazy("Worst results dropped: 0 to 1,000."),
    "min_events": gettext_lazy("Events needed to be ranked: 1 to 1,000."),
    "table": gettext_lazy("Placement points are 0 or more, at most 1,000 places."),
}


def ensure_organiser(series: Series, user: Any) -> None:
    """403 unless ``user`` organises the series (one query)."""
    if not series.is_organised_by(user):
        raise Forbidden(_("Only the series' organisers may change it."), code="not_organiser")


def formula_check(values: dict[str, Any]) -> None:
    """Refuse a formula out of range, naming the field (``Invalid`` with a dict of errors)."""
    try:
        table = table_values(str(values.get("table") or ""))
    except ValueError:
        raise Invalid(
            {"table": [_("Placement points are whole numbers separated by commas.")]}
        ) from None
    formula = rules.Formula(
        kind=values.get("kind") or "placement",
        table=table,
        best=values.get("best"),
        drop_worst=values.get("drop_worst") or 0,
        min_events=values.get("min_events") or 1,
        final_counts=bool(values.get("final_counts")),
    )
    try:
        formula.check()
    except rules.FormulaError as exc:
        raise Invalid({exc.code: [str(FORMULA_MESSAGES[exc.code])]}) from None
    class_a, class_b = values.get("class_a"), values.get("class_b")
    if (class_a is None) != (class_b is None) or (
        class_a is not None and class_b is not None and class_a <= class_b
    ):
        raise Invalid({"class_a": [_("Class A must start above class B (or set neither).")]})


def unique_slug(name: str) -> str:
    base = (slugify(name) or "series")[:50]
    taken = set(Series.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    taken |= RESERVED_SLUGS
    candidate, n = base, 2
    while candidate in taken:
        candidate, n = f"{base}-{n}", n + 1
    return candidate


@transaction.atomic
def series_create(
    *, by: Any, name: str, format_key: str, host: HostClub | None = None, **values: Any
) -> Series:
    """A new series of one format at hosting club ``host`` (as ``host_for_new`` decides when
    none is named), organised by ``by``."""
    host = host_for_new(by, host)
    name = clean_text(name)
    if not name:
        raise Invalid({"name": [_("Give the series a name.")]})
    try:
        get_format(format_key)
    except (KeyError, LookupError):
        raise Invalid({"format": [_("Choose one of the formats.")]}) from None
    values = {k: v for k, v in values.items() if k in FORMULA_FIELDS}
    formula_check(values)
    series = Series(name=name, slug=unique_slug(name), format=format_key, host=host, **values)
    try:
        series.full_clean(exclude=["slug"])
        series.save()
    except ValidationError as exc:
        raise Invalid(exc.message_dict) from None
    series.organisers.add(by)
    return series


@transaction.atomic
def series_update(
    *, series: Series, by: Any, expected_version: int, values: dict[str, Any]
) -> Series:
    """Change the series' name and formula; refused when someone changed it since the form was
    shown (``expected_version``)."""
    series = Series.objects.select_for_update().get(pk=series.pk)
    ensure_organiser(series, by)
    if series.version != expected_version:
        raise Stale(
            _("Someone changed this series since you opened it. Reload to see their change."),
        )
    values = {k: v for k, v in values.items() if k in FORMULA_FIELDS}
    if "name" in values:
        values["name"] = clean_text(str(values["name"]))
        if not values["name"]:
            raise Invalid({"name": [_("Give the series a name.")]})
    merged = {f: getattr(series, f) for f in FORMULA_FIELDS} | values
    formula_check(merged)
    for key, value in values.items():
        setattr(series, key, value)
    try:
        series.full_clean(exclude=["slug"])
        series.save()
    except ValidationError as exc:
        raise Invalid(exc.message_dict) from None
    versions_bump(series=Q(pk=series.pk))
    return series


def member_check(*, series: Series, competition: Competition | None, by: Any) -> Competition:
    """Refuse a competition that may not join ``series`` (``Invalid`` naming the field
    "competition"): gone, of another format, at an event ``by`` does not manage, or in the
    series already; else the competition. The series may be unsaved (the admin's add page: no
    member to collide with). The rule of :func:`series_join`, also checked by the admin's form
    before it calls it."""
    if competition is None:
        raise Invalid({"competition": [_("That competition does not exist (any more).")]})
    if competition.format != series.format:
        raise Invalid(
            {"competition": [_("Only competitions of the series' format can join it.")]},
            code="wrong_format",
        )
    if competition.event.host_id != series.host_id:
        raise Invalid(
            {"competition": [_("Only competitions of the club's own events can join its series.")]},
            code="other_club",
        )
    if not competition.event.is_organised_by(by):
        raise Invalid(
            {"competition": [_("You can add only competitions of events you organise.")]},
            code="not_organiser",
        )
    if (
        series.pk is not None
        and SeriesCompetition.objects.filter(series=series, competition=competition).exists()
    ):
        raise Invalid(
            {"competition": [_("This competition is in the series already.")]}, code="duplicate"
        )
    return competition


@transaction.atomic
def series_join(
    *, series: Series, competition_id: int, by: Any, is_final: bool = False
) -> SeriesCompetition:
    """Add a competition of the series' format, at an event ``by`` manages."""
    series = Series.objects.select_for_update().get(pk=series.pk)
    ensure_organiser(series, by)
    competition = Competition.objects.select_related("event").filter(pk=competition_id).first()
    competition = member_check(series=series, competition=competition, by=by)
    try:
        with transaction.atomic():
            member = SeriesCompetition.objects.create(
                series=series, competition=competition, is_final=is_final
            )
    except IntegrityError:
        raise Invalid(
            {"competition": [_("This competition is in the series already.")]}, code="duplicate"
        ) from None
    versions_bump(series=Q(pk=series.pk))
    return member


@transaction.atomic
def series_member_set(
    *, series: Series, member_id: int, by: Any, is_final: bool | None = None, remove: bool = False
) -> None:
    """Mark a competition as the final (or not), or take it out of the series."""
    series = Series.objects.select_for_update().get(pk=series.pk)
    ensure_organiser(series, by)
    member = SeriesCompetition.objects.filter(series=series, pk=member_id).first()
    if member is None:
        raise NotFound(_("That competition is not in the series (any more)."))
    if remove:
        member.delete()
    elif is_final is not None:
        member.is_final = is_final
        member.save(update_fields=["is_final"])
    versions_bump(series=Q(pk=series.pk))


def member_deleted(sender: Any, instance: SeriesCompetition, **kwargs: Any) -> None:
    """After any deletion of a membership (the desk's, or a cascade): bump the series."""
    versions_bump(series=Q(pk=instance.series_id))
