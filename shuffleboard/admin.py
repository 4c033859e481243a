"""Admin for sjoelen games: edits obey the rules (``Turn.clean``) and bump the versions."""

from __future__ import annotations

from django.contrib import admin

from events.admin import TouchingAdmin
from events.models import Competition
from shuffleboard.models import Turn


@admin.register(Turn)
class TurnAdmin(TouchingAdmin):
    list_display = ["__str__", "entry", "number", "board", "c2", "c3", "c4", "c1", "score"]
    list_select_related = ["entry__player", "entry__competition__event"]
    list_filter = ["entry__competition"]
    search_fields = ["entry__player__name", "entry__competition__name"]
    raw_id_fields = ["entry", "entered_by"]
    readonly_fields = ["score", "revision", "entered_at", "updated_at"]
    fields = [
        "entry",
        "number",
        "board",
        ("c2", "c3", "c4", "c1"),
        "max_after",
        ("b2", "b3", "b4", "b1"),
        "score",
        "revision",
        "entered_by",
        "entered_at",
        "updated_at",
    ]

    def competition_of(self, obj: Turn) -> Competition:
        return obj.entry.competition

    def save_model(self, request, obj: Turn, form, change) -> None:
        if change:
            obj.revision += 1  # a desk form drawn before this edit is now stale
        super().save_model(request, obj, form, change)
