"""Every event, series and register row of an install that already runs goes to one hosting
club, so that nothing changes for anyone: its owner is the first superuser, else the owner of
the oldest event; everyone who held a role at an event keeps it (at the event). Site staff
rename the club, or split its events into clubs of their own, afterwards (docs/deploy.md)."""

from django.conf import settings
from django.db import migrations

FIRST_CLUB = {"name": "Our club", "slug": "club"}


def forwards(apps, schema_editor):
    HostClub = apps.get_model("events", "HostClub")
    ClubRole = apps.get_model("events", "ClubRole")
    Event = apps.get_model("events", "Event")
    Series = apps.get_model("events", "Series")
    Player = apps.get_model("events", "Player")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    if not (Event.objects.exists() or Series.objects.exists() or Player.objects.exists()):
        return  # a new install: its first organiser creates the first club
    oldest = Event.objects.order_by("created_at", "pk").first()
    club = HostClub.objects.create(
        **FIRST_CLUB,
        language=oldest.language if oldest else "en",
        time_zone=oldest.time_zone if oldest else "Europe/Stockholm",
        country=_country_of(oldest.time_zone if oldest else ""),
        is_listed=True,
        # Its events' owners started events as they liked before clubs: they still may.
        event_owners_may_start=True,
    )
    Event.objects.update(host=club)
    Series.objects.update(host=club)
    Player.objects.update(host=club)
    owner = User.objects.filter(is_superuser=True, is_active=True).order_by("pk").first()
    if owner is None and oldest is not None:
        role = oldest.roles.filter(role="owner").order_by("pk").first()
        owner = role.user if role else None
    if owner is not None:
        ClubRole.objects.create(club=club, user=owner, role="owner")


def _country_of(zone: str) -> str:
    from events.common import places

    for code, zones in places.zones_by_country().items():
        if zone in zones:
            return code
    return "SE"


class Migration(migrations.Migration):
    dependencies = [("events", "0027_host_clubs")]
    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
