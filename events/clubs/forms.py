"""The club desk's forms: a club's settings (new or changed), a role given, a role changed."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import get_language, gettext_lazy as _

from events.clubs.services import CLUB_FIELDS
from events.common import places
from events.models import ClubRole, HostClub
from events.models.events import time_zone_choices
from events.services.editing import signature


class ColourInput(forms.TextInput):
    """``<input type="color">``: a picker on phones and desks, always "#rrggbb"."""

    input_type = "color"


def zone_choices(country: str, keep: str | None = None) -> list[Any]:
    """The time zones, the country's first (most countries have one or two), then every
    other, as two groups of a select: a few names to look at instead of ~400."""
    own = [(zone, zone) for zone in places.zones_of(country)]
    own_names = {zone for zone, _label in own}
    rest = [(zone, label) for zone, label in time_zone_choices(keep) if zone not in own_names]
    if not own:
        return rest
    return [
        (_("In the club's country"), own),
        (_("Everywhere else"), rest),
    ]


class ClubForm(forms.ModelForm):
    """A club's settings; ``signature`` carries what the form was drawn from (a change made
    since is refused, not overwritten)."""

    signature = forms.CharField(widget=forms.HiddenInput, max_length=64, required=False)

    class Meta:
        model = HostClub
        fields = list(CLUB_FIELDS)
        widgets = {
            "band_colour": ColourInput(),
            "stripe_colour": ColourInput(),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        country = (
            self.data.get("country")
            or self.initial.get("country")
            or getattr(self.instance, "country", "")
            or "SE"
        )
        self.fields["country"] = forms.ChoiceField(
            label=_("Country"),
            choices=places.countries_in((get_language() or "en")[:2]),
            help_text=_("Its time zones are listed first."),
        )
        self.fields["time_zone"] = forms.ChoiceField(
            label=_("Time zone"),
            choices=zone_choices(str(country), getattr(self.instance, "time_zone", None)),
            help_text=_("New events start in it."),
        )
        self.fields["language"].help_text = _("New events start in this language.")
        # A checkbox's help beside it squeezes its label on a phone; the label says it all.
        self.fields["is_listed"].help_text = ""
        self.fields["event_owners_may_start"].help_text = ""
        for name in ("band_colour", "stripe_colour"):
            self.fields[name].required = False
        self.fields["band_colour"].help_text = _(
            "Behind the club's name on its pages and projector screens; black or white text "
            "must read on it."
        )
        self.fields["stripe_colour"].help_text = _(
            "A line beneath the band; it must stand out in the light and the dark theme."
        )
        self.fields["no_colours"] = forms.BooleanField(
            label=_("No colours of our own"), required=False
        )
        if not self.is_bound and self.instance.pk is None:
            self.fields["no_colours"].initial = True
            self.fields["language"].initial = settings.LANGUAGE_CODE
        elif not self.is_bound:
            self.fields["no_colours"].initial = not self.instance.has_colours

    @classmethod
    def of(cls, club: HostClub) -> ClubForm:
        return cls(instance=club, initial={"signature": signature(club, CLUB_FIELDS)})

    def values(self) -> dict[str, Any]:
        values = {name: self.cleaned_data.get(name) for name in CLUB_FIELDS}
        if self.cleaned_data.get("no_colours"):
            values["band_colour"] = values["stripe_colour"] = ""
        return values

    def _post_clean(self) -> None:
        # The service checks the club as a whole (colours, zone) and says what is wrong; the
        # ModelForm's own model validation would check the colours a second time.
        pass


class RoleGrantForm(forms.Form):
    username = forms.CharField(label=_("Login name"), max_length=150)
    role = forms.ChoiceField(
        label=_("Role"), choices=ClubRole.Role.choices, initial=ClubRole.Role.ORGANISER
    )


class InvitationForm(forms.Form):
    email = forms.EmailField(label=_("E-mail address"), max_length=254)
    role = forms.ChoiceField(
        label=_("Role"), choices=ClubRole.Role.choices, initial=ClubRole.Role.ORGANISER
    )


class RoleChangeForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), choices=ClubRole.Role.choices)


class OwnerRestoreForm(forms.Form):
    username = forms.CharField(label=_("Login name of the new owner"), max_length=150)
