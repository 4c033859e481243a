"""Demo events for trying the app locally: one event per format, players, and two logins."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from events import demo
from events.formats import all_formats
from events.models import ClubRole, Event
from events.series import services as series_services

ORGANISER, ADMIN, CLUB_ORGANISERS = demo.ORGANISER, demo.ADMIN, demo.CLUB_ORGANISERS


class Command(BaseCommand):
    help = (
        "Create three hosting clubs and their demo events (one per format, and one ahead "
        "taking sign-ups online) with players, a series per format holding its demo "
        f"competition, an organiser login ({ORGANISER[0]}, owner of the three clubs), an "
        f"organiser login for each of two clubs ({CLUB_ORGANISERS[0][0]}, "
        f"{CLUB_ORGANISERS[1][0]}) and an admin login ({ADMIN[0]}). Does nothing if the demo "
        "is there. "
        "Refuses to run when DEBUG is off, because the logins have known passwords."
    )

    def handle(self, *args, **options) -> None:
        if not settings.DEBUG:
            raise CommandError(
                "load_demo creates logins with known passwords; run it with DEBUG=1."
            )
        if Event.objects.filter(organisers__username=ORGANISER[0]).exists():
            loaded = "The demo is already loaded."
        else:
            with transaction.atomic():
                self._load()
            loaded = self.style.SUCCESS("Demo events loaded.")
        if options["verbosity"] >= 1:  # `make run` passes 0 and prints the logins itself
            self.stdout.write(loaded)
            self.stdout.write(
                f"Organiser login: {ORGANISER[0]} / {ORGANISER[1]}   "
                f"Admin login: {ADMIN[0]} / {ADMIN[1]}"
            )

    def _load(self) -> None:
        users = get_user_model()
        organiser = users.objects.filter(
            username=ORGANISER[0]
        ).first() or users.objects.create_user(username=ORGANISER[0], password=ORGANISER[1])
        if not users.objects.filter(username=ADMIN[0]).exists():
            users.objects.create_superuser(username=ADMIN[0], password=ADMIN[1], email="")
        clubs = demo.demo_clubs(organiser)
        # Each of two clubs has an organiser of its own, who sees nothing of the others.
        for (username, password), club in zip(CLUB_ORGANISERS, clubs, strict=False):
            user = users.objects.filter(username=username).first() or (
                users.objects.create_user(username=username, password=password)
            )
            ClubRole.objects.get_or_create(club=club, user=user, defaults={"role": "organiser"})
        for game_format in all_formats():
            competition = game_format.hooks.demo(organiser)
            if competition is not None:
                # A series per format holding its demo competition: a season that
                # later nights and years join at the desk.
                series = series_services.series_create(
                    by=organiser,
                    host=competition.event.host,
                    name=f"{game_format.label} series {competition.event.starts_on:%Y}",
                    format_key=game_format.key,
                    kind="placement",
                )
                series_services.series_join(
                    series=series, competition_id=competition.pk, by=organiser
                )
        # An event ahead, taking sign-ups online (any format: the sign-up is the same).
        demo.sign_up_event(organiser=organiser, format_key=all_formats()[0].key)
