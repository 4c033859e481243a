"""Events, the people who run them, their competitions and the entries of players."""

from __future__ import annotations

import zoneinfo
from functools import cache, lru_cache
from importlib import resources
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from events.formats import clean_settings, format_choices, get_format, settings_errors
from events.formats.declaration import KEY_MAX_LENGTH

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise
from events.models.clubs import ClubRole
from events.models.people import Player


@cache
@lru_cache(maxsize=1)
def _zones_to_choose() -> tuple[str, ...]:
    """One zone per place, as the tz database lists them by country (its ``zone.tab``), and
    UTC: without the ~150 old aliases ("US/Eastern", "Europe/Kiev", "Etc/GMT+1") the full list
    has. Static data of the installed tzdata package, the same in every process."""
    available = zoneinfo.available_timezones()
    try:
        text = resources.files("tzdata").joinpath("zoneinfo/zone.tab").read_text(encoding="utf-8")
    except (ModuleNotFoundError, OSError):  # no tzdata package: the system's full list
        return tuple(sorted(available))
    listed = {
        line.split("\t")[2]
        for line in text.splitlines()
        if line and not line.startswith("#") and line.count("\t") >= 2
    }
    return tuple(sorted((listed & available) | ({"UTC"} & available)))


def time_zone_choices(keep: str | None = None) -> list[tuple[str, str]]:
    """The zones an organiser chooses from; ``keep`` (an event's stored zone, an old alias
    perhaps) is listed too, so that editing the event never changes it unasked."""
    names = list(_zones_to_choose())
    if keep and keep not in names and keep in zoneinfo.available_timezones():
        names = sorted([*names, keep])
    return [(name, name) for name in names]


def validate_time_zone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(_("%(value)s is not a known time zone."), params={"value": value})


class Event(models.Model):
    """A gathering with its organisers, e.g. "LinCon 2026"."""

    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("address"), max_length=60, unique=True)
    # The club that hosts it: its people hold roles here too (``role_of``), its register is the
    # event's, its colours are on the event's pages.
    host = models.ForeignKey(
        "events.HostClub",
        on_delete=models.PROTECT,
        related_name="events",
        verbose_name=_("hosting club"),
    )
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    info = models.CharField(
        _("information"),
        max_length=300,
        blank=True,
        help_text=_("Shown on the public page, e.g. where registration takes place."),
    )
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(_("ends on"))
    time_zone = models.CharField(
        _("time zone"), max_length=64, default="Europe/Stockholm", validators=[validate_time_zone]
    )
    # What a visitor without a choice of their own (no cookie, no browser language of ours)
    # reads on the event's pages, and the e-mails of players without a preferred language.
    language = models.CharField(
        _("language"),
        max_length=8,
        choices=settings.LANGUAGES,
        default=settings.LANGUAGE_CODE,
        help_text=_("For visitors whose browser asks for none of the site's languages."),
    )
    is_public = models.BooleanField(
        _("listed publicly"),
        default=True,
        help_text=_("Unlisted events are reachable by their address but not shown in the list."),
    )
    # Everyone with a role at this event (owner, organiser or scorekeeper): see ``EventRole``.
    # ``event.organisers.add(user)`` gives the role "organiser" (the through model's default).
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        through="events.EventRole",
        related_name="organised_events",
        verbose_name=_("organisers"),
    )
    # Bumped by every write to the event or anything in it; public pages key ETags on it.
    version = models.PositiveBigIntegerField(default=1, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    # Who got or lost a role, and when, is in EventRole's own history.
    history = HistoricalRecords(excluded_fields=["version"])

    class Meta:
        ordering = ["-starts_on", "name"]
        verbose_name = _("event")
        verbose_name_plural = _("events")
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__gte=F("starts_on")),
                name="event_ends_after_start",
                violation_error_message=_("An event cannot end before it starts."),
            ),
            models.CheckConstraint(
                condition=Q(language__in=[code for code, _name in settings.LANGUAGES]),
                name="event_language_known",
                violation_error_message=_("Choose one of the site's languages."),
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        if self.starts_on and self.ends_on and self.ends_on < self.starts_on:
            raise ValidationError({"ends_on": _("An event cannot end before it starts.")})

    def get_absolute_url(self) -> str:
        return reverse("events:event", args=[self.slug])

    def role_of(self, user) -> str | None:
        """``user``'s role at this event (an ``EventRole.Role`` value), or None (one query):
        the stronger of the role held at the event and the role held at its hosting club.
        A superuser counts as an owner of every event."""
        if not user.is_authenticated:
            return None
        if user.is_superuser:
            return EventRole.Role.OWNER
        at_event = EventRole.objects.filter(event_id=self.pk, user_id=user.pk).order_by()
        at_club = ClubRole.objects.filter(club_id=self.host_id, user_id=user.pk).order_by()
        held = set(
            at_event.values_list("role", flat=True).union(at_club.values_list("role", flat=True))
        )
        return strongest_role(held)

    def is_organised_by(self, user) -> bool:
        """Whether ``user`` may see this event's desk and change it (owner or organiser; a
        scorekeeper only enters and corrects results)."""
        return self.role_of(user) in EventRole.MANAGERS


ROLE_STRENGTH = ("owner", "organiser", "scorekeeper")


def strongest_role(roles) -> str | None:
    """The strongest of these role values (owner, then organiser, then scorekeeper), or None."""
    return next((role for role in ROLE_STRENGTH if role in roles), None)


class EventRole(models.Model):
    """Who runs an event, and how far (the through table of ``Event.organisers``).

    owner: everything an organiser can, and adds or removes people (every event keeps one);
    organiser: the whole desk (settings, registrations, check-in, withdrawals, edits, results);
    scorekeeper: enters and corrects results only.
    """

    class Role(models.TextChoices):
        OWNER = "owner", _("owner")
        ORGANISER = "organiser", _("organiser")
        SCOREKEEPER = "scorekeeper", _("scorekeeper")

    MANAGERS = frozenset({Role.OWNER, Role.ORGANISER})

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="roles", verbose_name=_("event")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="event_roles",
        verbose_name=_("user"),
    )
    role = models.CharField(_("role"), max_length=20, choices=Role.choices, default=Role.ORGANISER)

    history = HistoricalRecords()

    class Meta:
        ordering = ["event", "role", "user__username"]
        verbose_name = _("event role")
        verbose_name_plural = _("event roles")
        constraints = [
            models.UniqueConstraint(fields=["event", "user"], name="eventrole_one_per_user"),
            models.CheckConstraint(
                condition=Q(role__in=["owner", "organiser", "scorekeeper"]),
                name="eventrole_role_known",
                violation_error_message=_("Unknown role."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.get_role_display()}"


class CompetitionStatus(models.TextChoices):
    REGISTRATION = "registration", _("Registration open")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")


class Competition(models.Model):
    """One tournament of one format inside an event."""

    Status = CompetitionStatus

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="competitions", verbose_name=_("event")
    )
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("address"), max_length=60)
    format = models.CharField(_("format"), max_length=KEY_MAX_LENGTH, choices=format_choices)
    settings = models.JSONField(_("settings"), default=dict, blank=True)
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.REGISTRATION
    )
    # Bumped by every write to the competition or anything in it (entries, games, seats).
    version = models.PositiveBigIntegerField(default=1, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords(excluded_fields=["version"])

    class Meta:
        ordering = ["event", "created_at", "pk"]
        verbose_name = _("competition")
        verbose_name_plural = _("competitions")
        constraints = [
            models.UniqueConstraint(fields=["event", "slug"], name="competition_slug_unique"),
            models.CheckConstraint(
                condition=Q(status__in=CompetitionStatus.values),
                name="competition_status_known",
                violation_error_message=_("Unknown competition status."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event.name}: {self.name}"

    def clean(self) -> None:
        errors = settings_errors(self.format, self.settings)
        if errors:
            raise ValidationError({"settings": errors})
        # Store what the form cleaned (3, not "3"; defaults filled in), as the desk does.
        self.settings = clean_settings(self.format, self.settings)

    def get_absolute_url(self) -> str:
        return reverse("events:competition", args=[self.event.slug, self.slug])

    def get_desk_url(self) -> str:
        return reverse("events:competition_desk", args=[self.event.slug, self.slug])

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED

    @property
    def game_format(self):  # -> events.formats.GameFormat
        return get_format(self.format)

    @property
    def options(self):  # -> the format's settings dataclass
        """The typed settings (``competition.options.games``), defaults filled in."""
        return self.game_format.read_settings(self.settings)


class Entry(models.Model):
    """A player in a competition."""

    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="entries", verbose_name=_("competition")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="entries", verbose_name=_("player")
    )
    registered_at = models.DateTimeField(_("registered at"), auto_now_add=True)
    checked_in_at = models.DateTimeField(_("checked in at"), null=True, blank=True)
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)
    # The player's number in this competition (1, 2, ... in order of registration): typed at
    # the desk to check them in, shown on the desk and on the player's page.
    number = models.PositiveIntegerField(_("player number"), null=True, blank=True)
    # A group the desk marks (a family, a car-load) that seatings with the "keep apart" option
    # seat at different tables, beside the club the player plays for (events/seating/).
    group = models.CharField(_("group"), max_length=40, blank=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["competition", "player__name", "pk"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["competition", "player"], name="entry_one_per_player"),
            models.UniqueConstraint(fields=["competition", "number"], name="entry_number_unique"),
        ]

    def __str__(self) -> str:
        # The competition is named when it was fetched with the entry (every admin list selects
        # it); a bare entry does not cost a query per row to print.
        if Entry.competition.is_cached(self):
            return f"{self.player} · {self.competition.name}"
        return str(self.player)

    def clean(self) -> None:
        # The admin's path: the desk's services refuse this too (``player_register``).
        if self.player_id and self.competition_id:
            player_host = Player.objects.filter(pk=self.player_id).values("host_id")
            if not Competition.objects.filter(
                pk=self.competition_id, event__host_id__in=player_host
            ).exists():
                raise ValidationError(
                    {"player": _("This person is in another hosting club's register.")}
                )

    def save(self, *args, **kwargs) -> None:
        # Every entry has a number, whoever creates it (the desk's services lock the
        # competition first, so two desks never pick the same one; the constraint stays).
        if self.number is None and self.competition_id is not None:
            self.number = entry_next_number(self.competition_id)
            if kwargs.get("update_fields") is not None:
                kwargs["update_fields"] = {*kwargs["update_fields"], "number"}
        super().save(*args, **kwargs)

    @property
    def is_checked_in(self) -> bool:
        return self.checked_in_at is not None and self.withdrawn_at is None

    @property
    def is_withdrawn(self) -> bool:
        return self.withdrawn_at is not None

    @property
    def status_label(self) -> StrOrPromise:
        if self.withdrawn_at:
            return _("withdrawn")
        if self.checked_in_at:
            return _("checked in")
        return _("registered")


def entry_next_number(competition_id: int) -> int:
    """The next player number of a competition: one more than the highest."""
    highest = Entry.objects.filter(competition_id=competition_id).aggregate(
        highest=models.Max("number")
    )["highest"]
    return (highest or 0) + 1
