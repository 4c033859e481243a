import pkgutil
from importlib import import_module
from importlib.util import find_spec

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


def rooms_with(module: str) -> list[str]:
    """The capability rooms of ``events`` (its subpackages) that have ``module``, e.g. "models"."""
    import events

    found = []
    for room in pkgutil.iter_modules(events.__path__):
        name = f"events.{room.name}.{module}"
        if room.ispkg and room.name != module and find_spec(name) is not None:
            found.append(name)
    return found


class EventsConfig(AppConfig):
    name = "events"
    verbose_name = _("Events")

    def import_models(self) -> None:
        """The core's models, then each capability room's ``models.py`` (LAYOUT.md: a room has
        the inside of a format app): all of them are models of this one app, ``events``."""
        super().import_models()
        for name in rooms_with("models"):
            import_module(name)

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in
        from django.db.models.signals import post_delete, post_migrate

        from events import versions
        from events.accounts.services import logged_in
        from events.seat_checks import reinstall_checks
        from events.series.services import member_deleted

        for name in rooms_with("admin"):  # the rooms' admins register themselves
            import_module(name)
        from events.outbox.webhooks import standings_bumped

        # SQLite drops a table's triggers when a migration rebuilds it: put the formats' seat
        # checks back after every migrate (events/seat_checks.py).
        post_migrate.connect(reinstall_checks, sender=self, dispatch_uid="events_seat_checks")
        # A competition leaves a series by cascade too (its event deleted in the admin): the
        # series' page must follow that as well as a membership removed at the desk.
        post_delete.connect(
            member_deleted, sender="events.SeriesCompetition", dispatch_uid="series_member_deleted"
        )
        # The language a person logs in with is the language of the mails they are sent later.
        user_logged_in.connect(logged_in, dispatch_uid="accounts_language")
        # Webhooks: "standings changed" follows every version bump of a competition.
        versions.competitions_bumped.connect(standings_bumped, dispatch_uid="webhooks_standings")
