"""Series: standings across events. A series gathers competitions of one format,
from any number of events, and ranks their players by a formula the organisers pick
(``events.rules.series``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from events.formats import format_choices
from events.formats.declaration import KEY_MAX_LENGTH
from events.models.events import Competition
from events.rules import series as rules

MAX_COUNTED = rules.MAX_COUNTED
# What an organiser sets on a series (the desk's form, the admin, the event's document): its
# name and formula; the format is chosen once, at creation.
FORMULA_FIELDS = (
    "name",
    "info",
    "kind",
    "table",
    "best",
    "drop_worst",
    "min_events",
    "final_counts",
    "class_a",
    "class_b",
    "is_public",
)


class SeriesKind(models.TextChoices):
    POINTS = "points", _("Sum of competition points")
    TOTALS = "totals", _("Sum of totals")
    PLACEMENT = "placement", _("Placement points")
    AVERAGE = "average", _("Average per game")


class Series(models.Model):
    """A season, a league, a yearly convention: competitions of one format across events."""

    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("address"), max_length=60, unique=True)
    # Its competitions come from this club's events; the club's organisers run it too.
    host = models.ForeignKey(
        "events.HostClub",
        on_delete=models.PROTECT,
        related_name="series",
        verbose_name=_("hosting club"),
    )
    format = models.CharField(_("format"), max_length=KEY_MAX_LENGTH, choices=format_choices)
    info = models.CharField(_("information"), max_length=300, blank=True)
    kind = models.CharField(
        _("formula"), max_length=12, choices=SeriesKind.choices, default=SeriesKind.PLACEMENT
    )
    # Placement points, place 1 first, comma-separated; empty: field size − place + 1.
    table = models.CharField(
        _("placement points"),
        max_length=300,
        blank=True,
        help_text=_(
            "Points for 1st, 2nd, 3rd … separated by commas; empty: field size − place + 1."
        ),
    )
    best = models.PositiveIntegerField(
        _("best results counted"),
        null=True,
        blank=True,
        help_text=_("Only a player's best N results count; empty: all."),
    )
    drop_worst = models.PositiveIntegerField(_("worst results dropped"), default=0)
    min_events = models.PositiveIntegerField(_("events needed to be ranked"), default=1)
    final_counts = models.BooleanField(
        _("a final always counts"),
        default=True,
        help_text=_("A competition marked as the final counts besides the best results."),
    )
    # Classes by average (sjoelen club practice): A from class_a, B from class_b, else C.
    class_a = models.PositiveIntegerField(_("class A from average"), null=True, blank=True)
    class_b = models.PositiveIntegerField(_("class B from average"), null=True, blank=True)
    is_public = models.BooleanField(_("listed publicly"), default=True)
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        related_name="organised_series",
        verbose_name=_("organisers"),
        blank=True,
    )
    competitions = models.ManyToManyField(
        Competition,
        through="events.SeriesCompetition",
        related_name="series",
        verbose_name=_("competitions"),
    )
    # Bumped by every write to the series and by every write to one of its competitions
    # (events.versions), so the public page's ETag follows a correction.
    version = models.PositiveBigIntegerField(default=1, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("series")
        verbose_name_plural = _("series")
        constraints = [
            models.CheckConstraint(
                condition=Q(best__isnull=True) | Q(best__gte=1, best__lte=MAX_COUNTED),
                name="series_best_in_range",
                violation_error_message=_("Best results counted: 1 to 1,000."),
            ),
            models.CheckConstraint(
                condition=Q(drop_worst__lte=MAX_COUNTED),
                name="series_drop_worst_in_range",
                violation_error_message=_("Worst results dropped: 0 to 1,000."),
            ),
            models.CheckConstraint(
                condition=Q(min_events__gte=1, min_events__lte=MAX_COUNTED),
                name="series_min_events_in_range",
                violation_error_message=_("Events needed to be ranked: 1 to 1,000."),
            ),
            models.CheckConstraint(
                condition=Q(kind__in=rules.KINDS),
                name="series_kind_known",
                violation_error_message=_("Choose one of the formulas."),
            ),
            models.CheckConstraint(
                condition=Q(class_a__isnull=True, class_b__isnull=True)
                | Q(class_a__isnull=False, class_b__isnull=False, class_a__gt=models.F("class_b")),
                name="series_classes_ordered",
                violation_error_message=_("Class A must start above class B (or set neither)."),
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("events:series_public", args=[self.slug])

    def get_desk_url(self) -> str:
        return reverse("events:series_desk", args=[self.slug])

    def formula(self) -> rules.Formula:
        return rules.Formula(
            kind=self.kind,
            table=table_values(self.table),
            best=self.best,
            drop_worst=self.drop_worst,
            min_events=self.min_events,
            final_counts=self.final_counts,
        )

    def is_organised_by(self, user) -> bool:
        if not getattr(user, "is_authenticated", False):
            return False
        if user.is_superuser:
            return True
        from events.models import ClubRole

        # One query: a series organiser, or an owner or organiser of the hosting club.
        return (
            self.organisers.filter(pk=user.pk)
            .order_by()
            .values("pk")
            .union(
                ClubRole.objects.filter(
                    club_id=self.host_id, user_id=user.pk, role__in=ClubRole.MANAGERS
                )
                .order_by()
                .values("pk")
            )
            .exists()
        )


def table_values(text: str) -> tuple[int, ...]:
    """The placement table as numbers ("10, 8, 6" -> (10, 8, 6)); raises ValueError."""
    parts = [part.strip() for part in text.split(",") if part.strip()]
    return tuple(int(part) for part in parts)


class SeriesCompetition(models.Model):
    """A competition counted in a series; ``is_final``: the series' final (it always counts
    when the formula says so)."""

    series = models.ForeignKey(
        Series, on_delete=models.CASCADE, related_name="members", verbose_name=_("series")
    )
    competition = models.ForeignKey(
        Competition,
        on_delete=models.CASCADE,
        related_name="series_memberships",
        verbose_name=_("competition"),
    )
    is_final = models.BooleanField(_("final"), default=False)
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["series", "competition__event__starts_on", "competition__pk"]
        verbose_name = _("competition in a series")
        verbose_name_plural = _("competitions in a series")
        constraints = [
            models.UniqueConstraint(
                fields=["series", "competition"],
                name="series_competition_once",
                violation_error_message=_("This competition is in the series already."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.series} · {self.competition}"
