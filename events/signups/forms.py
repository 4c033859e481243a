"""The sign-up page's forms."""

from __future__ import annotations

from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

from django import forms
from django.conf import settings
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import get_language, gettext, gettext_lazy as _, ngettext

from events.models import MAX_RATING, NameShown, Session
from events.services.players import clean_text
from events.signups.models import CURRENCIES, SignUpWindow, validate_iban


def session_label(session: Session, window: SignUpWindow) -> str:
    """A session as the sign-up page offers it: its name, start and free seats."""
    parts = [str(session)]
    if session.starts_at:
        zone = ZoneInfo(window.competition.event.time_zone)
        parts.append(date_format(timezone.localtime(session.starts_at, zone), "DATETIME_FORMAT"))
    free = getattr(session, "free", None)
    if free is not None:
        parts.append(
            ngettext("%(count)s seat free", "%(count)s seats free", free) % {"count": free}
            if free
            else gettext("full: the waitlist")
        )
    return " · ".join(parts)


class SignUpForm(forms.Form):
    """Name, address, club, rating, language, the competitions, consent; and ``website``, a
    field people never see (a bot that fills it is answered as if it had signed up)."""

    name = forms.CharField(label=_("Name"), max_length=100)
    email = forms.EmailField(label=_("E-mail"), max_length=254)
    club = forms.CharField(label=_("Club"), max_length=100, required=False)
    rating = forms.IntegerField(
        label=_("Rating"),
        min_value=0,
        max_value=MAX_RATING,
        required=False,
        help_text=_("If you have one: some competitions seat players by rating."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    language = forms.ChoiceField(
        label=_("Language of your e-mails"), choices=settings.LANGUAGES, required=False
    )
    name_shown = forms.ChoiceField(
        label=_("Your name on the public pages"),
        choices=NameShown.choices,
        initial=NameShown.FULL,
        required=False,
        widget=forms.RadioSelect,
        help_text=_(
            "Results, seatings and downloads show it so; the organisers see your full name."
        ),
    )
    competitions = forms.TypedMultipleChoiceField(
        label=_("Competitions"), coerce=int, widget=forms.CheckboxSelectMultiple
    )
    consent = forms.BooleanField(
        label=_(
            "I agree that the organisers keep my name, club, rating and e-mail address to run "
            "this event, and show my name and results on its public pages."
        )
    )
    website = forms.CharField(
        required=False,
        label=_("Leave this empty"),
        widget=forms.TextInput(attrs={"tabindex": "-1", "autocomplete": "off"}),
    )

    def __init__(self, *args: Any, windows: list[SignUpWindow], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.windows = {w.competition_id: w for w in windows}
        self.fields["competitions"].choices = [  # type: ignore[attr-defined]
            (w.competition_id, w.competition.name) for w in windows
        ]
        if len(windows) == 1 and not self.is_bound:
            self.initial["competitions"] = [windows[0].competition_id]
        # A session to choose where the format has players choose one (a Blokus qualifying
        # session), required when its competition is chosen.
        self.session_fields: dict[int, str] = {}
        for window in windows:
            sessions = getattr(window, "sessions", [])
            if not sessions:
                continue
            name = f"session_{window.competition_id}"
            self.session_fields[window.competition_id] = name
            self.fields[name] = forms.TypedChoiceField(
                label=_("Session: %(competition)s") % {"competition": window.competition.name},
                choices=[(s.pk, session_label(s, window)) for s in sessions],
                coerce=int,
                required=False,
                widget=forms.RadioSelect,
            )
        self.order_fields(
            ["name", "email", "club", "rating", "language", "name_shown", "competitions"]
            + list(self.session_fields.values())
        )
        # The e-mails in the language the page is read in, unless the person chooses another.
        self.fields["language"].initial = get_language()
        self.fields["name"].widget.attrs["autocomplete"] = "name"
        self.fields["email"].widget.attrs["autocomplete"] = "email"

    def clean_name(self) -> str:
        # A no-break or ideographic space is a space between names, not nothing.
        name = clean_text(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError(_("Type your name."))
        return name

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        data["name_shown"] = data.get("name_shown") or NameShown.FULL
        for competition_id in data.get("competitions") or []:
            name = self.session_fields.get(competition_id)
            if name and not data.get(name):
                self.add_error(name, _("Choose a session."))
        return data

    def chosen_sessions(self) -> dict[int, Session]:
        """The session chosen for each chosen competition that has them, by window pk."""
        chosen: dict[int, Session] = {}
        for competition_id, name in self.session_fields.items():
            window = self.windows[competition_id]
            by_pk = {s.pk: s for s in getattr(window, "sessions", [])}
            session = by_pk.get(self.cleaned_data.get(name) or 0)
            if session is not None:
                chosen[window.pk] = session
        return chosen

    def chosen_windows(self) -> list[SignUpWindow]:
        chosen = dict.fromkeys(self.cleaned_data["competitions"])  # a key sent twice counts once
        return [self.windows[pk] for pk in chosen if pk in self.windows]

    @property
    def is_bot(self) -> bool:
        return bool(self.data.get("website"))


class NameShownForm(forms.Form):
    name_shown = forms.ChoiceField(
        label=_("Show my name as"),
        choices=NameShown.choices,
        widget=forms.RadioSelect,
    )


class NotifyForm(forms.Form):
    """A person's notifications for one event: by e-mail, and by push in this browser."""

    email = forms.BooleanField(label=_("E-mail"), required=False)
    push = forms.BooleanField(label=_("Notifications in this browser"), required=False)
    quiet_from = forms.TimeField(
        label=_("Quiet from"), required=False, widget=forms.TimeInput(attrs={"type": "time"})
    )
    quiet_to = forms.TimeField(
        label=_("Quiet until"), required=False, widget=forms.TimeInput(attrs={"type": "time"})
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        start, end = data.get("quiet_from"), data.get("quiet_to")
        if (start is None) != (end is None) or (start is not None and start == end):
            raise forms.ValidationError(_("Give both ends of the quiet hours, and not the same."))
        return data


class ResendForm(forms.Form):
    email = forms.EmailField(label=_("E-mail"), max_length=254)


FIRST_YEAR, LAST_YEAR = 2000, 2100  # dates beyond are typing mistakes (and overflow SQLite)


class WindowForm(forms.Form):
    """The desk's settings of a competition's sign-up, times in the event's time zone."""

    opens_at = forms.DateTimeField(
        label=_("Opens at"),
        widget=forms.DateTimeInput(format="%Y-%m-%dT%H:%M", attrs={"type": "datetime-local"}),
    )
    closes_at = forms.DateTimeField(
        label=_("Closes at"),
        widget=forms.DateTimeInput(format="%Y-%m-%dT%H:%M", attrs={"type": "datetime-local"}),
    )
    cap = forms.IntegerField(label=_("Seats"), min_value=1, max_value=10_000)
    waitlist_limit = forms.IntegerField(
        label=_("Waitlist limit"),
        min_value=0,
        max_value=10_000,
        required=False,
        help_text=_("Empty: no limit."),
    )
    hold_minutes = forms.IntegerField(
        label=_("Minutes an unconfirmed sign-up holds a seat"),
        min_value=1,
        max_value=24 * 60,
        initial=30,
    )
    # Asked in hours (a day is 24, not 1440), stored in minutes: ``clean`` converts.
    offer_hours = forms.DecimalField(
        label=_("Hours to accept an offered seat"),
        min_value=Decimal("0.01"),
        max_value=14 * 24,
        max_digits=5,
        decimal_places=2,
        initial=24,
        localize=True,
        widget=forms.TextInput(attrs={"inputmode": "decimal"}),
        help_text=_("Before the event's first day, in hours; for example 24, a day, or 1.5."),
    )
    day_offer_minutes = forms.IntegerField(
        label=_("Minutes to accept an offered seat on the event's days"),
        min_value=1,
        max_value=24 * 60,
        initial=15,
        required=False,
        help_text=_("On the event's days, in its time zone; for example 15."),
    )

    fee = forms.DecimalField(
        label=_("Entry fee"),
        min_value=0,
        max_value=10_000,
        max_digits=7,
        decimal_places=2,
        required=False,
        help_text=_("Empty or 0: no fee."),
    )
    currency = forms.ChoiceField(
        label=_("Currency"), choices=CURRENCIES, initial="EUR", required=False
    )
    payee_name = forms.CharField(
        label=_("Account holder"),
        max_length=70,
        required=False,
        help_text=_("With the IBAN, a euro fee gets a bank transfer QR code."),
    )
    payee_iban = forms.CharField(
        label=_("IBAN"), max_length=42, required=False, validators=[validate_iban]
    )

    self_check_in_from = forms.DateTimeField(
        label=_("Self check-in from"),
        required=False,
        widget=forms.DateTimeInput(format="%Y-%m-%dT%H:%M", attrs={"type": "datetime-local"}),
        help_text=_("Both times set: confirmed players check themselves in with the door code."),
    )
    self_check_in_until = forms.DateTimeField(
        label=_("Self check-in until"),
        required=False,
        widget=forms.DateTimeInput(format="%Y-%m-%dT%H:%M", attrs={"type": "datetime-local"}),
    )

    def __init__(self, *args: Any, sessions: list[Session] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The seats of each session players choose from (a Blokus qualifying session).
        self.session_fields = {f"session_cap_{s.pk}": s for s in sessions or []}
        for name, session in self.session_fields.items():
            self.fields[name] = forms.IntegerField(
                label=_("Seats in %(session)s") % {"session": session},
                min_value=1,
                max_value=10_000,
                required=False,
                initial=session.sign_up_cap,
                help_text=_("Empty: only the competition's seats count."),
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for name in ("opens_at", "closes_at", "self_check_in_from", "self_check_in_until"):
            value = data.get(name)
            if value is not None and not (FIRST_YEAR <= value.year <= LAST_YEAR):
                self.add_error(
                    name,
                    _("Choose a date between %(first)s and %(last)s.")
                    % {"first": FIRST_YEAR, "last": LAST_YEAR},
                )
                data[name] = None
        start, end = data.get("self_check_in_from"), data.get("self_check_in_until")
        if (start is None) != (end is None):
            self.add_error("self_check_in_until", _("Set both times, or neither."))
        elif start and end and end <= start:
            self.add_error("self_check_in_until", _("Self check-in ends after it starts."))
        if data.get("fee") is None:
            data["fee"] = Decimal("0")
        data["currency"] = data.get("currency") or "EUR"
        data["day_offer_minutes"] = data.get("day_offer_minutes") or 15
        hours = data.pop("offer_hours", None)
        if hours is not None:
            data["offer_minutes"] = max(1, int((hours * 60).to_integral_value()))
        if data.get("opens_at") and data.get("closes_at") and data["closes_at"] <= data["opens_at"]:
            self.add_error("closes_at", _("The sign-up closes after it opens."))
        return data

    def values(self) -> dict[str, Any]:
        values = {k: v for k, v in self.cleaned_data.items() if k not in self.session_fields}
        values["session_caps"] = {
            session.pk: self.cleaned_data.get(name) for name, session in self.session_fields.items()
        }
        return values
