"""The screens in the admin: to look at, and to forget one (pairing happens at the desk)."""

from django.contrib import admin
from django.http import HttpRequest

from events.screens.models import Screen


@admin.register(Screen)
class ScreenAdmin(admin.ModelAdmin):
    list_display = ("name", "event", "shows", "paused", "changed_at")
    list_filter = ("shows",)
    search_fields = ("name", "event__name")
    # Every choice goes through the desk's services, which bump the screen's version.
    readonly_fields = (
        "event",
        "name",
        "token",
        "competition",
        "shows",
        "round",
        "follows_round",
        "announcement",
        "paused",
        "created_at",
        "changed_at",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
