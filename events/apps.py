from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EventsConfig(AppConfig):
    name = "events"
    verbose_name = _("Events")

    def ready(self) -> None:
        from django.db.models.signals import post_delete, post_migrate

        from events import versions
        from events.seat_checks import reinstall_checks
        from events.series.services import member_deleted
        from events.services.webhooks import standings_bumped

        # SQLite drops a table's triggers when a migration rebuilds it: put the formats' seat
        # checks back after every migrate (events/seat_checks.py).
        post_migrate.connect(reinstall_checks, sender=self, dispatch_uid="events_seat_checks")
        # A competition leaves a series by cascade too (its event deleted in the admin): the
        # series' page must follow that as well as a membership removed at the desk.
        post_delete.connect(
            member_deleted, sender="events.SeriesCompetition", dispatch_uid="series_member_deleted"
        )
        # Webhooks (issue 32): "standings changed" follows every version bump of a competition.
        if standings_bumped not in versions.BUMP_LISTENERS:
            versions.BUMP_LISTENERS.append(standings_bumped)
