from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EventsConfig(AppConfig):
    name = "events"
    verbose_name = _("Events")

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from events.seat_checks import reinstall_checks

        # SQLite drops a table's triggers when a migration rebuilds it: put the formats' seat
        # checks back after every migrate (events/seat_checks.py).
        post_migrate.connect(reinstall_checks, sender=self, dispatch_uid="events_seat_checks")
