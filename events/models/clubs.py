"""Hosting clubs: the organisations that own events, series and a register of people, and the
roles people hold at them.

Named *hosting* club (``HostClub``, ``event.host``) so that code and pages never confuse it with
the free text a player gives as the club they play for (``Player.club``), which stays what it
is: a player of "Uppsala Spelklubb" may well play at a night another club hosts.
"""

from __future__ import annotations

import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy as _
from simple_history.models import HistoricalRecords

from events.common import colours, places

COLOUR = RegexValidator(colours.HEX, _("A colour is # and six hexadecimal digits, e.g. #1f5fa8."))


def country_choices() -> list[tuple[str, str]]:
    return list(places.countries())


def validate_country(value: str) -> None:
    if value not in dict(places.countries()):
        raise ValidationError(_("Choose a country from the list."))


class HostClubManager(models.Manager["HostClub"]):
    def get_queryset(self) -> models.QuerySet[HostClub]:
        # A logo is tens of kilobytes: a list of clubs never carries them (the logo's view
        # loads the bytes it serves; a page links to them).
        return super().get_queryset().defer("logo")


class HostClub(models.Model):
    """A club, an association or a federation's member that hosts events on this site."""

    name = models.CharField(_("name"), max_length=120)
    short_name = models.CharField(
        _("short name"), max_length=30, blank=True, help_text=_("For narrow screens, e.g. “TLK”.")
    )
    slug = models.SlugField(_("address"), max_length=60, unique=True)
    country = models.CharField(
        _("country"), max_length=2, default="SE", validators=[validate_country]
    )
    language = models.CharField(
        _("language"),
        max_length=8,
        choices=settings.LANGUAGES,
        default=settings.LANGUAGE_CODE,
        help_text=_("New events start in this language."),
    )
    time_zone = models.CharField(_("time zone"), max_length=64, default="Europe/Stockholm")
    contact_email = models.EmailField(_("contact address"), blank=True)
    # Two colours, each checked before it is accepted (events.common.colours): the band behind
    # the club's name on its pages and projector screens, and the stripe beneath it.
    band_colour = models.CharField(_("band colour"), max_length=7, blank=True, validators=[COLOUR])
    stripe_colour = models.CharField(
        _("stripe colour"), max_length=7, blank=True, validators=[COLOUR]
    )
    # The logo as stored after its checks (a PNG at most LOGO_SIDE pixels a side, no
    # metadata): in the database, so that every app server serves the same one.
    logo = models.BinaryField(_("logo"), blank=True, default=b"", editable=False)
    # A hash of the logo's bytes: its address changes with it, so it may be cached for a year.
    logo_version = models.CharField(max_length=16, blank=True, default="", editable=False)
    # An install from before clubs: the owners of its events started events as they liked, with
    # one register; the migration's club lets them go on (its owners may turn this off).
    event_owners_may_start = models.BooleanField(
        _("owners of its events may start events"),
        default=False,
        help_text=_(
            "Whoever owns one of the club's events may start new events at the club, as before "
            "clubs; otherwise only its owners and organisers."
        ),
    )
    is_listed = models.BooleanField(
        _("listed on the front page"),
        default=True,
        help_text=_("The site's front page lists the club with its next events."),
    )
    people = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        through="events.ClubRole",
        related_name="host_clubs",
        verbose_name=_("people"),
    )
    # An install may have site staff approve every new club (CLUBS_NEED_APPROVAL): until then
    # it is a request, with a desk but no events and no public page.
    is_approved = models.BooleanField(_("approved by the site's staff"), default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Set when an owner asks for the club to be deleted: it goes after the notice period.
    deletion_requested_at = models.DateTimeField(null=True, blank=True, editable=False)

    objects = HostClubManager()

    # The logo's bytes stay out of the history: each save would copy them.
    history = HistoricalRecords(excluded_fields=["logo"])

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = _("hosting club")
        verbose_name_plural = _("hosting clubs")
        constraints = [
            models.CheckConstraint(
                condition=Q(language__in=[code for code, _name in settings.LANGUAGES]),
                name="hostclub_language_known",
                violation_error_message=_("Choose one of the site's languages."),
            ),
            models.CheckConstraint(
                condition=~Q(name=""),
                name="hostclub_name_not_empty",
                violation_error_message=_("A club needs a name."),
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        errors: dict[str, list[str]] = {}
        if self.time_zone not in zoneinfo.available_timezones():
            errors["time_zone"] = [str(_("Choose a time zone from the list."))]
        if self.band_colour and colours.HEX.match(self.band_colour):
            if not colours.band_readable(self.band_colour):
                errors["band_colour"] = [
                    gettext(
                        "Neither black nor white text can be read on this colour; choose a "
                        "darker or a lighter one."
                    )
                ]
        if self.stripe_colour and colours.HEX.match(self.stripe_colour):
            if not colours.stripe_visible(self.stripe_colour):
                errors["stripe_colour"] = [
                    gettext(
                        "This colour does not stand out from the page in the light or the dark "
                        "theme; choose one of middle brightness."
                    )
                ]
        if errors:
            raise ValidationError(errors)

    def get_absolute_url(self) -> str:
        return reverse("events:club", args=[self.slug])

    @property
    def shown_name(self) -> str:
        return self.short_name or self.name

    @property
    def country_name(self) -> str:
        """The country's name in the active language."""
        from django.utils.translation import get_language

        return places.country_name(self.country, (get_language() or "en")[:2])

    @property
    def has_colours(self) -> bool:
        return bool(self.band_colour or self.stripe_colour)

    @property
    def style_version(self) -> str:
        """Changes with the colours: the stylesheet's address carries it."""
        return f"{self.band_colour}{self.stripe_colour}".replace("#", "") or "none"

    @property
    def band_text(self) -> str:
        return colours.text_on(self.band_colour) if self.band_colour else ""


class ClubRole(models.Model):
    """A role at a hosting club, held at every one of its events (beside the per-event roles of
    ``EventRole``: a guest scorekeeper for one night). The same three words as at an event:
    owner (everything, the club's settings and people), organiser (every event's desk),
    scorekeeper (results). A club keeps at least one owner (``events.clubs.services``)."""

    class Role(models.TextChoices):
        OWNER = "owner", _("owner")
        ORGANISER = "organiser", _("organiser")
        SCOREKEEPER = "scorekeeper", _("scorekeeper")

    MANAGERS = frozenset({Role.OWNER, Role.ORGANISER})

    club = models.ForeignKey(
        HostClub, on_delete=models.CASCADE, related_name="roles", verbose_name=_("hosting club")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="club_roles",
        verbose_name=_("user"),
    )
    role = models.CharField(_("role"), max_length=20, choices=Role.choices, default=Role.ORGANISER)

    # Who gave or changed the role, and when: ``history_user`` of each historical row.
    history = HistoricalRecords()

    class Meta:
        ordering = ["club", "role", "user__username"]
        verbose_name = _("club role")
        verbose_name_plural = _("club roles")
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="clubrole_one_per_user"),
            models.CheckConstraint(
                condition=Q(role__in=["owner", "organiser", "scorekeeper"]),
                name="clubrole_role_known",
                violation_error_message=_("Unknown role."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.get_role_display()}"
