"""Admin for sjoelen games ("Sjoelen game"): every add, change and delete goes through the
same services and the one check (``rules.check_game``) as the desk's correction, is written to
the correction trail and bumps the versions (A-SJ-12). Impossible counts are a form error beside
the field; a change that moves 1st place in final standings needs "Correct it anyway" (A-SJ-13).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy as _

from events.admin import TouchingAdmin
from events.errors import ServiceError
from events.models import Competition
from shuffleboard import selectors, services
from shuffleboard.models import Turn

STALE = _(
    "Someone changed this game meanwhile (it now scores %(score)s). Reload the page and "
    "check it again."
)
CONFIRM_LABEL = _("Correct it anyway")
CONFIRM_HELP = _("Needed when the correction changes who is 1st in the final standings.")
FAILED_FLAG = "sjoelen_admin_failed"
NOTES_FLAG = "sjoelen_delete_notes"


class TurnAdminForm(forms.ModelForm):
    """The model's own check (``Turn.clean`` calls ``rules.check_game``), then the two checks
    only admin needs: the page was not out of date, and a 1st-place change is confirmed."""

    seen_revision = forms.IntegerField(required=False, widget=forms.HiddenInput)
    confirm = forms.BooleanField(label=CONFIRM_LABEL, required=False, help_text=CONFIRM_HELP)

    class Meta:
        model = Turn
        fields = ["entry", "number", "board", "c1", "c2", "c3", "c4", "max_after"]
        fields += ["b1", "b2", "b3", "b4"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        raw = self.data.get("entry") if self.is_bound else None
        if raw is not None and not (str(raw).isdigit() and len(str(raw)) < 18):
            # Not an id (or too big for the database): say "Select a valid choice" instead of
            # letting the lookup, or the autocomplete widget drawing it, fail.
            data = QueryDict(mutable=True)
            data.update(self.data)
            data["entry"] = "0"
            self.data = data
        if self.instance.pk:
            self.fields["seen_revision"].initial = self.instance.revision

    def full_clean(self) -> None:
        stored = Turn.objects.filter(pk=self.instance.pk).first() if self.instance.pk else None
        super().full_clean()
        if not self.is_bound or self.errors:
            return
        turn = self.instance
        if stored is not None:
            seen = self.cleaned_data.get("seen_revision")
            if seen is not None and seen != stored.revision:
                self.add_error(None, STALE % {"score": stored.score})
                return
            if stored.entry.competition_id != turn.entry.competition_id:
                self.add_error("entry", services.OTHER_COMPETITION)
                return
        if self.cleaned_data.get("confirm"):
            return
        moves = selectors.first_place_moves(
            turn.entry.competition,
            remove=[] if stored is None else [(stored.entry_id, stored.number)],
            put=(turn.entry_id, turn.number, turn.score),
        )
        if moves:
            text = "; ".join(str(move) for move in moves)
            self.add_error("confirm", services.FIRST_PLACE_MOVES % {"moves": text})


class GameNumberFilter(admin.SimpleListFilter):
    title = _("game")
    parameter_name = "game"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        numbers = Turn.objects.order_by("number").values_list("number", flat=True).distinct()
        return [(str(n), gettext("Game %(number)s") % {"number": n}) for n in numbers]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Turn]) -> QuerySet[Turn]:
        value = str(self.value() or "")
        if value.isdigit() and len(value) < 6:
            return queryset.filter(number=int(value))
        return queryset


@admin.register(Turn)
class TurnAdmin(TouchingAdmin):
    form = TurnAdminForm
    list_display = ["__str__", "event", "competition", "player", "number", "board", "score"]
    list_display_links = ["__str__"]
    list_select_related = ["entry__player", "entry__competition__event"]
    list_filter = [
        ("entry__competition__event", admin.RelatedOnlyFieldListFilter),
        ("entry__competition", admin.RelatedOnlyFieldListFilter),
        GameNumberFilter,
    ]
    search_fields = ["entry__player__name"]
    search_help_text = _("Search by player name.")
    autocomplete_fields = ["entry"]
    readonly_fields = ["score", "sub_turns", "revision", "entered_by", "entered_at", "updated_at"]
    fields = [
        "entry",
        "number",
        "board",
        ("c2", "c3", "c4", "c1"),
        "max_after",
        ("b2", "b3", "b4", "b1"),
        "score",
        "sub_turns",  # kept while they add up to the counts, else dropped (A-SJ-15)
        "confirm",
        "seen_revision",
        "revision",
        "entered_by",
        "entered_at",
        "updated_at",
    ]
    delete_confirmation_template = "shuffleboard/admin_delete_confirmation.html"
    delete_selected_confirmation_template = "shuffleboard/admin_delete_selected_confirmation.html"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Turn]:
        return (
            super()
            .get_queryset(request)
            .select_related("entry__player", "entry__competition__event")
        )

    @admin.display(description=_("event"), ordering="entry__competition__event__name")
    def event(self, obj: Turn) -> str:
        return obj.entry.competition.event.name

    @admin.display(description=_("competition"), ordering="entry__competition__name")
    def competition(self, obj: Turn) -> str:
        return obj.entry.competition.name

    @admin.display(description=_("player"), ordering="entry__player__name")
    def player(self, obj: Turn) -> str:
        return obj.entry.player.name

    def view_on_site(self, obj: Turn) -> str:
        competition = obj.entry.competition
        return reverse(
            "shuffleboard:player", args=[competition.event.slug, competition.slug, obj.entry_id]
        )

    def competition_of(self, obj: Turn) -> Competition:
        return obj.entry.competition

    # --- writes: all through the services -------------------------------------------------

    def save_model(self, request: HttpRequest, obj: Turn, form: Any, change: bool) -> None:
        stored = Turn.objects.filter(pk=obj.pk).first() if change and obj.pk else None
        try:
            saved = services.turn_admin_save(
                turn=stored,
                revision=form.cleaned_data.get("seen_revision"),
                entry=obj.entry,
                number=obj.number,
                board=obj.board,
                counts=obj.counts,
                bonus_counts=obj.bonus_counts,
                max_after=obj.max_after,
                by=request.user,  # type: ignore[arg-type]
                confirmed=True,  # the form asked for it (TurnAdminForm.full_clean)
            )
        except ServiceError as exc:  # changed by someone else between the check and the save
            setattr(request, FAILED_FLAG, True)
            self.message_user(request, exc.text, messages.ERROR)
            return
        obj.pk, obj.score, obj.revision = saved.pk, saved.score, saved.revision

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        if not getattr(request, FAILED_FLAG, False):
            super().save_related(request, form, formsets, change)

    def log_addition(self, request: HttpRequest, obj: Any, message: Any) -> Any:
        if not getattr(request, FAILED_FLAG, False):
            return super().log_addition(request, obj, message)
        return None

    def log_change(self, request: HttpRequest, obj: Any, message: Any) -> Any:
        if not getattr(request, FAILED_FLAG, False):
            return super().log_change(request, obj, message)
        return None

    def _failed(self, request: HttpRequest) -> HttpResponse | None:
        if getattr(request, FAILED_FLAG, False):
            return HttpResponseRedirect(request.get_full_path())
        return None

    def response_add(
        self, request: HttpRequest, obj: Turn, post_url_continue: Any = None
    ) -> HttpResponse:
        return self._failed(request) or super().response_add(request, obj, post_url_continue)

    def response_change(self, request: HttpRequest, obj: Turn) -> HttpResponse:
        return self._failed(request) or super().response_change(request, obj)

    def delete_model(self, request: HttpRequest, obj: Turn) -> None:
        services.turn_admin_delete(turn=obj, by=request.user)  # type: ignore[arg-type]

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Turn]) -> None:
        for turn in list(queryset):
            services.turn_admin_delete(turn=turn, by=request.user)  # type: ignore[arg-type]

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> Any:
        """Django's own confirmation page, plus what the trail will say and any 1st-place move."""
        turns = list(objs)
        notes = [
            gettext("%(player)s, game %(number)s: %(score)s → removed")
            % {"player": t.entry.player.name, "number": t.number, "score": t.score}
            for t in turns
        ]
        by_competition: dict[int, list[Turn]] = {}
        for turn in turns:
            by_competition.setdefault(turn.entry.competition_id, []).append(turn)
        for group in by_competition.values():
            moves = selectors.first_place_moves(
                group[0].entry.competition, remove=[(t.entry_id, t.number) for t in group]
            )
            if moves:
                text = "; ".join(str(move) for move in moves)
                notes.append(
                    gettext("%(competition)s: this changes the final standings: %(moves)s.")
                    % {"competition": group[0].entry.competition.name, "moves": text}
                )
        setattr(request, NOTES_FLAG, notes)
        return super().get_deleted_objects(turns, request)
