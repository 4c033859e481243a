"""Admin for the Blokus detail tables, readable and safe.

A hand changed here goes through the desk's own service (``services.game_result_record``):
``rules.check_hand`` refuses an impossible hand beside the field; a valid one recomputes the
table's scores and points, bumps the game's revision and the competition's version, and is
written to the correction trail (source "admin"). A hand whose result a later round (or the
final's seating) was drawn from is saved only after the organiser has read what it changes
(``services.game_result_impact``, the desk's words) and ticked "Correct it anyway".

Results are entered at the desk (no hand is added here), seating is corrected at the desk, a
lot is drawn when the final is seated, and a row that holds results is never deleted here:
the admin's delete page lists what holds it instead.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy as _, ngettext

from blokus import rules, services
from blokus.models import Hand, QualificationLot, SessionNotHeld, SessionPlayer
from blokus.validation import HAND_MESSAGES
from events.admin import TouchingAdmin
from events.errors import ServiceError, Stale
from events.models import Competition, Correction, Event, Game, Round, Seat, Session

SEATING_FIELDS = [
    "role",
    "roll_call",
    "checked_in_at",
    "dropped_after_round",
    "back_from_round",
    "dropped_by_withdrawal",
]
BLOKUS = "blokus"


def _whole(value: Any) -> int | None:
    """A list filter's value as a small whole number, or None for anything else (a NUL ...)."""
    text = str(value or "")
    if not text.isdigit() or len(text) > 9:
        return None
    return int(text)


# --- list filters (values are parsed, never passed raw to the database) ------------------------


class _NumberFilter(admin.SimpleListFilter):
    prefix = ""  # path to the session from the admin's model, "" for Session itself

    def _path(self, rest: str) -> str:
        return f"{self.prefix}__{rest}" if self.prefix else rest

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        number = _whole(self.value())
        if self.value() is None:
            return queryset
        if number is None:
            return queryset.none()
        return queryset.filter(**{self._path(self.field): number})

    field = ""


class EventFilter(_NumberFilter):
    title = _("event")
    parameter_name = "event"
    field = "competition__event_id"

    def lookups(self, request, model_admin):
        events = Event.objects.filter(competitions__format=BLOKUS).distinct().order_by("-starts_on")
        return [(e.pk, e.name) for e in events[:50]]


class CompetitionFilter(_NumberFilter):
    title = _("competition")
    parameter_name = "competition"
    field = "competition_id"

    def lookups(self, request, model_admin):
        competitions = Competition.objects.filter(format=BLOKUS).select_related("event")
        return [(c.pk, f"{c.name} ({c.event.name})") for c in competitions.order_by("-pk")[:50]]


class SessionFilter(_NumberFilter):
    title = _("session")
    parameter_name = "session"
    field = "number"

    def lookups(self, request, model_admin):
        numbers = (
            Session.objects.filter(competition__format=BLOKUS, kind=Session.Kind.QUALIFYING)
            .values_list("number", flat=True)
            .distinct()
            .order_by("number")
        )
        return [(n, gettext("Session %(number)s") % {"number": n}) for n in numbers]


class RoundFilter(_NumberFilter):
    title = _("round")
    parameter_name = "round"
    field = "number"

    def lookups(self, request, model_admin):
        numbers = (
            Round.objects.filter(session__competition__format=BLOKUS)
            .values_list("number", flat=True)
            .distinct()
            .order_by("number")
        )
        return [(n, gettext("Round %(number)s") % {"number": n}) for n in numbers]


def _filters(session_path: str, *, rounds: str | None = None) -> list[type]:
    """The event, competition, session (and round) filters for a model ``session_path`` away."""
    made: list[type] = []
    for base in (EventFilter, CompetitionFilter, SessionFilter):
        made.append(type(base.__name__, (base,), {"prefix": session_path}))
    if rounds:
        made.append(type("RoundFilter", (RoundFilter,), {"prefix": rounds}))
    return made


def _session_page(session: Session) -> str:
    competition = session.competition
    slugs = [competition.event.slug, competition.slug]
    if session.kind == Session.Kind.FINAL:
        return reverse("blokus:overview", args=slugs)
    return reverse("blokus:session", args=[*slugs, session.number])


class _Protecting:
    """A delete page lists what holds a row (Django's "protected" list) instead of losing it."""

    def holders(self, obj: Any) -> list[str]:
        return []

    def get_deleted_objects(self, objs, request):
        deleted, counts, perms, protected = super().get_deleted_objects(objs, request)  # type: ignore[misc]
        held = [text for obj in objs for text in self.holders(obj)]
        return deleted, counts, perms, [*protected, *held]


# --- session players ----------------------------------------------------------------------------


@admin.register(SessionPlayer)
class SessionPlayerAdmin(_Protecting, TouchingAdmin):
    list_display = ["player", "event", "competition", "session", "role", "roll_call", "dropped"]
    list_filter = [*_filters("session"), "role"]
    list_select_related = ["entry__player", "session__competition__event"]
    search_fields = ["entry__player__name", "session__competition__name"]
    autocomplete_fields = ["session", "entry"]
    readonly_fields = SEATING_FIELDS

    @admin.display(description=_("player"), ordering="entry__player__name")
    def player(self, obj: SessionPlayer) -> str:
        return obj.entry.player.name

    @admin.display(description=_("event"))
    def event(self, obj: SessionPlayer) -> str:
        return obj.session.competition.event.name

    @admin.display(description=_("competition"))
    def competition(self, obj: SessionPlayer) -> str:
        return obj.session.competition.name

    @admin.display(description=_("dropped out after round"))
    def dropped(self, obj: SessionPlayer) -> str:
        return "" if obj.dropped_after_round is None else str(obj.dropped_after_round)

    def get_readonly_fields(self, request, obj=None):
        if obj is not None:  # moving a player to another session or entry: through the desk
            return ["session", "entry", *SEATING_FIELDS]
        return SEATING_FIELDS

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        extra_context = {
            **(extra_context or {}),
            "subtitle": _(
                "Check-in, seating, reserves and drop-outs are corrected on the session's desk "
                "page, which keeps the tables and points consistent."
            ),
        }
        return super().changeform_view(request, object_id, form_url, extra_context)

    def view_on_site(self, obj: SessionPlayer) -> str:
        competition = obj.session.competition
        return reverse(
            "blokus:player", args=[competition.event.slug, competition.slug, obj.entry_id]
        )

    def competition_of(self, obj: SessionPlayer) -> Competition:
        return obj.session.competition

    def holders(self, obj: SessionPlayer) -> list[str]:
        played = Seat.objects.filter(
            entry_id=obj.entry_id, game__round__session_id=obj.session_id
        ).count()
        if played:
            return [
                ngettext(
                    "%(player)s is seated at %(count)s table of %(session)s: their results "
                    "and the session's groupings depend on this place. Correct it at the desk.",
                    "%(player)s is seated at %(count)s tables of %(session)s: their results "
                    "and the session's groupings depend on this place. Correct it at the desk.",
                    played,
                )
                % {"player": obj.entry.player.name, "count": played, "session": obj.session}
            ]
        if obj.role == SessionPlayer.Role.SEATED:
            return [
                gettext("%(player)s is seated in %(session)s. Correct it at the desk.")
                % {"player": obj.entry.player.name, "session": obj.session}
            ]
        return []


# --- sessions not held --------------------------------------------------------------------------


@admin.register(SessionNotHeld)
class SessionNotHeldAdmin(_Protecting, TouchingAdmin):
    list_display = ["session", "competition", "event", "reason", "recorded_at"]
    list_filter = _filters("session")
    list_select_related = ["session__competition__event"]
    search_fields = ["session__competition__name", "reason"]
    readonly_fields = ["session"]

    @admin.display(description=_("competition"))
    def competition(self, obj: SessionNotHeld) -> str:
        return obj.session.competition.name

    @admin.display(description=_("event"))
    def event(self, obj: SessionNotHeld) -> str:
        return obj.session.competition.event.name

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # declared at the session's desk, which checks nobody was seated

    def view_on_site(self, obj: SessionNotHeld) -> str:
        return _session_page(obj.session)

    def competition_of(self, obj: SessionNotHeld) -> Competition:
        return obj.session.competition

    def holders(self, obj: SessionNotHeld) -> list[str]:
        if Session.objects.filter(
            competition_id=obj.session.competition_id, kind=Session.Kind.FINAL
        ).exists():
            return [gettext("The final was seated without this session.")]
        return []


# --- hands --------------------------------------------------------------------------------------


class PiecesField(forms.MultipleChoiceField):
    """The pieces left, ticked; a JSON list of names (``["I1", "V3"]``) is read as well."""

    def to_python(self, value: Any) -> list[str]:
        if isinstance(value, (list, tuple)) and len(value) == 1:
            value = value[0]
        if isinstance(value, str):
            text = value.strip()
            if text.startswith("[") and len(text) <= 1000:
                try:
                    value = json.loads(text)
                except ValueError as exc:
                    raise ValidationError(
                        self.error_messages["invalid_list"], code="invalid_list"
                    ) from exc
            elif not text:
                value = []
            else:
                value = [text]
        if not isinstance(value, (list, tuple)) or len(value) > len(rules.PIECE_SIZES):
            raise ValidationError(self.error_messages["invalid_list"], code="invalid_list")
        if not all(isinstance(v, str) for v in value):
            raise ValidationError(self.error_messages["invalid_list"], code="invalid_list")
        return [str(v) for v in value]


class HandForm(forms.ModelForm):
    pieces = PiecesField(
        label=_("pieces left"),
        choices=[(name, f"{name} ({size})") for name, size in rules.PIECE_SIZES.items()],
        widget=forms.CheckboxSelectMultiple,
        required=False,
        help_text=_("Optional: when ticked, they must add up to the squares left."),
    )
    revision = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=0)
    confirm = forms.BooleanField(
        label=_("Correct it anyway"), required=False, widget=forms.HiddenInput
    )

    class Meta:
        model = Hand
        fields = ["squares_left", "monomino_last", "pieces"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.hands: list[services.HandInput] = []
        if self.instance.pk:
            self.fields["revision"].initial = self.instance.seat.game.revision

    def clean(self) -> dict[str, Any]:
        """After the fields: the whole table through the desk's check and impact. A refused
        hand is left to the model's ``clean()`` (``rules.check_hand``, beside its field)."""
        super().clean()
        data: dict[str, Any] = self.cleaned_data
        if self.errors or not self.instance.pk:
            return data
        squares: int = data["squares_left"]
        mono = bool(data.get("monomino_last"))
        pieces = tuple(data.get("pieces") or ())
        try:
            rules.check_hand(squares, mono, pieces)
        except rules.InvalidResult:
            return data  # Hand.clean() says why, beside the field
        game = Game.objects.select_related("round__session__competition").get(
            pk=self.instance.seat.game_id
        )
        if data.get("revision") not in (None, game.revision):
            message = gettext(
                "Someone else changed this table's result in the meantime. Reload the page to "
                "see the current result."
            )
            raise Stale(message, code="stale_result")
        hands = []
        for hand in Hand.objects.filter(seat__game=game).order_by("seat__position"):
            if hand.pk == self.instance.pk:
                hands.append(services.HandInput(hand.seat_id, squares, mono, pieces))
            else:
                hands.append(
                    services.HandInput(
                        hand.seat_id,
                        hand.squares_left,
                        hand.monomino_last,
                        tuple(hand.pieces or ()),
                    )
                )
        try:
            impact = services.game_result_impact(game=game, hands=hands)
        except ServiceError as exc:
            if exc.code in HAND_MESSAGES:
                return data  # Hand.clean() says why, beside the field
            raise
        self.hands = hands
        if impact.needs_confirmation and not data.get("confirm"):
            self.fields["confirm"].widget = forms.CheckboxInput()
            code = "later_round_drawn" if impact.later_round is not None else "final_seated_confirm"
            message = gettext("%(impact)s Tick “Correct it anyway” and save again to confirm.")
            self.add_error("confirm", ValidationError(message % {"impact": impact.text}, code=code))
        return data


@admin.register(Hand)
class HandAdmin(_Protecting, TouchingAdmin):
    form = HandForm
    list_display = [
        "where",
        "player",
        "event",
        "competition",
        "squares_left",
        "monomino_last",
        "score",
        "points",
    ]
    list_filter = _filters("seat__game__round__session", rounds="seat__game__round")
    list_select_related = [
        "seat__game__round__session__competition__event",
        "seat__entry__player",
    ]
    search_fields = ["seat__entry__player__name"]
    readonly_fields = ["event", "competition", "where", "player", "score", "points"]
    fields = [
        "event",
        "competition",
        "where",
        "player",
        "squares_left",
        "monomino_last",
        "pieces",
        "score",
        "points",
        "revision",
        "confirm",
    ]

    @admin.display(description=_("table"), ordering="seat__game__round__session__number")
    def where(self, obj: Hand) -> str:
        return str(obj).rsplit(" · ", 1)[0]

    @admin.display(description=_("player"), ordering="seat__entry__player__name")
    def player(self, obj: Hand) -> str:
        return obj.seat.entry.player.name

    @admin.display(description=_("event"))
    def event(self, obj: Hand) -> str:
        return obj.seat.game.round.session.competition.event.name

    @admin.display(description=_("competition"))
    def competition(self, obj: Hand) -> str:
        return obj.seat.game.round.session.competition.name

    @admin.display(description=_("score"))
    def score(self, obj: Hand) -> str:
        return "" if obj.seat.score is None else str(obj.seat.score)

    @admin.display(description=_("points"))
    def points(self, obj: Hand) -> str:
        return "" if obj.seat.points is None else str(obj.seat.points)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a table's result is entered at the desk, all four hands at once

    def view_on_site(self, obj: Hand) -> str:
        return _session_page(obj.seat.game.round.session)

    def competition_of(self, obj: Hand) -> Competition:
        return obj.seat.game.round.session.competition

    def holders(self, obj: Hand) -> list[str]:
        return [
            gettext(
                "%(hand)s is part of a played table's result; correct it instead of deleting it."
            )
            % {"hand": obj}
        ]

    def save_model(self, request, obj, form, change) -> None:
        """Through the desk's service, never ``obj.save()``: scores, points, revision,
        version and the correction trail in one transaction."""
        game = obj.seat.game
        try:
            services.game_result_record(
                game=game,
                revision=game.revision,
                hands=form.hands,
                confirm_later_round=bool(form.cleaned_data.get("confirm")),
                by=request.user,
                source=Correction.Source.ADMIN,
            )
        except ServiceError as exc:  # changed in the moment between the check and the save
            request._blokus_refused = exc

    def response_change(self, request: HttpRequest, obj: Hand) -> HttpResponse:
        refused: ServiceError | None = getattr(request, "_blokus_refused", None)
        if refused is not None:
            self.message_user(request, refused.text, messages.ERROR)
            return HttpResponseRedirect(request.path)
        return super().response_change(request, obj)

    def log_change(self, request, obj, message):
        if getattr(request, "_blokus_refused", None) is not None:
            return None
        return super().log_change(request, obj, message)


# --- the qualification lot ----------------------------------------------------------------------


@admin.register(QualificationLot)
class QualificationLotAdmin(_Protecting, TouchingAdmin):
    list_display = ["__str__", "competition", "event", "seed", "drawn_at"]
    list_filter = [EventFilter, CompetitionFilter]
    list_select_related = ["competition__event"]
    search_fields = ["competition__name", "competition__event__name"]
    readonly_fields = ["competition", "seed", "order", "drawn_at"]

    @admin.display(description=_("event"))
    def event(self, obj: QualificationLot) -> str:
        return obj.competition.event.name

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # drawn once, when the final is seated

    def view_on_site(self, obj: QualificationLot) -> str:
        return reverse("blokus:overview", args=[obj.competition.event.slug, obj.competition.slug])

    def competition_of(self, obj: QualificationLot) -> Competition:
        return obj.competition

    def holders(self, obj: QualificationLot) -> list[str]:
        if Session.objects.filter(competition=obj.competition, kind=Session.Kind.FINAL).exists():
            return [gettext("The final was seated with this lot deciding the ties.")]
        return []
