"""The desk's forms: an event, a competition, a new player, the CSV import, a person's role."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import get_language, gettext_lazy as _

from events.common.forms import SubmissionTokenField
from events.formats import format_choices
from events.language import supported
from events.models import MAX_RATING, HostClub, time_zone_choices
from events.services.players import clean_text

CSV_MAX_BYTES = 1_048_576


class EventForm(forms.Form):
    submission = SubmissionTokenField()
    name = forms.CharField(label=_("Name"), max_length=120)
    venue = forms.CharField(label=_("Venue"), max_length=200, required=False)
    info = forms.CharField(
        label=_("Information for players"),
        max_length=300,
        required=False,
        help_text=_("E.g. “Registration in room P42”."),
    )
    # <input type="date"> takes ISO dates only, never the language's own ("30.11.2026").
    starts_on = forms.DateField(
        label=_("Starts on"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    ends_on = forms.DateField(
        label=_("Ends on"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    time_zone = forms.ChoiceField(label=_("Time zone"), choices=time_zone_choices)
    language = forms.ChoiceField(
        label=_("Language"),
        choices=settings.LANGUAGES,
        required=False,  # not posted: the language the organiser sees the desk in
        help_text=_("For visitors whose browser asks for none of the site's languages."),
    )
    is_public = forms.BooleanField(
        label=_("List on the public front page"), required=False, initial=True
    )
    competition_name = forms.CharField(
        label=_("Competition name"),
        max_length=120,
        help_text=_("E.g. “Blokus tournament”. You can add more competitions later."),
    )
    competition_format = forms.ChoiceField(label=_("Format"), choices=format_choices)

    def __init__(self, *args, hosts: Sequence[HostClub] = (), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.hosts = {club.slug: club for club in hosts}
        if hosts:
            # Without a club of their own, an organiser's first event makes one (hosts.py).
            # Not required: a form drawn before the organiser's first club existed (posted
            # twice, or from another tab) goes to their first club.
            self.fields["host"] = forms.ChoiceField(
                label=_("Hosting club"),
                choices=[(club.slug, club.name) for club in hosts],
                required=False,
            )
            self.order_fields(["submission", "host"])
            chosen = self.hosts.get(str(self.initial.get("host") or "")) or hosts[0]
            self.initial["host"] = chosen.slug
            self.fields["time_zone"].initial = chosen.time_zone
            self.fields["language"].initial = chosen.language
            return
        self.fields["time_zone"].initial = settings.TIME_ZONE
        # The organiser's own language, as they see the desk now.
        self.fields["language"].initial = supported(get_language()) or settings.LANGUAGE_CODE

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("starts_on") and data.get("ends_on") and data["ends_on"] < data["starts_on"]:
            self.add_error("ends_on", _("An event cannot end before it starts."))
        if "host" in data:
            data["host"] = self.hosts.get(data["host"])
        return data


class CompetitionForm(forms.Form):
    name = forms.CharField(label=_("Competition name"), max_length=120)
    format = forms.ChoiceField(label=_("Format"), choices=format_choices)


class NewPlayerForm(forms.Form):
    submission = SubmissionTokenField()
    name = forms.CharField(label=_("Name"), max_length=100)
    club = forms.CharField(label=_("Club"), max_length=100, required=False)
    email = forms.EmailField(label=_("E-mail"), required=False)
    rating = forms.IntegerField(
        label=_("Rating"), min_value=0, max_value=MAX_RATING, required=False
    )
    language = forms.ChoiceField(
        label=_("Preferred language"),
        choices=[("", _("The event's language")), *settings.LANGUAGES],
        required=False,
    )
    check_in = forms.BooleanField(label=_("Check in now"), required=False)

    def clean_name(self) -> str:
        # A no-break or ideographic space is a space between names, not nothing.
        name = clean_text(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError(_("Type the player's name."))
        return name


class CsvImportForm(forms.Form):
    file = forms.FileField(
        label=_("CSV file"),
        help_text=_(
            "A header row names the columns, in any order: name (or first and last name), "
            "club, e-mail, rating; other columns are left out. Without a header: name, club, "
            "e-mail, rating. Excel's CSV files (UTF-8 or semicolon delimited) and Google "
            "Forms downloads are read as they are. You see what will happen before anything "
            "is imported."
        ),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > CSV_MAX_BYTES:
            raise forms.ValidationError(_("The file is larger than 1 MB."))
        return upload


class CsvConfirmForm(forms.Form):
    """The preview's confirmation: the file itself travels signed
    (``events.desk.views.imports``)."""

    submission = SubmissionTokenField()
    payload = forms.CharField(widget=forms.HiddenInput, max_length=4_000_000)


class OrganiserForm(forms.Form):
    username = forms.CharField(label=_("Login name"), max_length=150)
