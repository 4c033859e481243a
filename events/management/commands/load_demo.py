"""Demo events for trying the app locally: one event per format, players, and two logins."""

from __future__ import annotations

import datetime as dt
from importlib import import_module

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from events import services
from events.models import Event, Format

ORGANISER = ("organiser", "desk-demo-2026")
ADMIN = ("admin", "admin-demo-2026")

SWEDISH = [
    ("Anna Lindqvist", "Linköpings Spelförening"),
    ("Erik Johansson", "Linköpings Spelförening"),
    ("Maja Åkesson", "LinCon"),
    ("Oskar Nyström", "LinCon"),
    ("Linnea Öberg", "Norrköping BK"),
    ("Karl Svensson", "Norrköping BK"),
    ("Ebba Håkansson", ""),
    ("Viktor Ek", "Uppsala Spelklubb"),
    ("Sara Björk", "Uppsala Spelklubb"),
    ("Johan Lundgren", ""),
    ("Elin Sjöberg", "LinCon"),
    ("Gustav Dahl", "Linköpings Spelförening"),
    ("Ida Forsberg", "Göteborgs Brädspelare"),
    ("Nils Wallin", "Göteborgs Brädspelare"),
    ("Astrid Berg", ""),
    ("Felix Holm", "LinCon"),
    ("Wilma Strand", "Norrköping BK"),
    ("Hugo Sandberg", ""),
    ("Alva Ekström", "Uppsala Spelklubb"),
    ("Leo Nordin", "LinCon"),
    ("Freja Lund", ""),
    ("Axel Engström", "Linköpings Spelförening"),
    ("Klara Falk", "Göteborgs Brädspelare"),
    ("Albin Hedlund", ""),
]
ESTONIAN = [
    ("Õie Sööt", "Tallinna Lauamänguklubi"),
    ("Jüri Tamm", "Tallinna Lauamänguklubi"),
    ("Mari Kask", "Tartu Sjoelen"),
    ("Toomas Saar", "Tartu Sjoelen"),
    ("Liis Mägi", ""),
    ("Andres Põld", "Pärnu Mängurid"),
    ("Kadri Lepik", "Pärnu Mängurid"),
    ("Märt Kuusk", ""),
    ("Triin Rebane", "Tallinna Lauamänguklubi"),
    ("Priit Koppel", "Tartu Sjoelen"),
    ("Helen Vaher", ""),
    ("Rein Ilves", "Pärnu Mängurid"),
    ("Kristi Orav", "Tartu Sjoelen"),
    ("Siim Luik", ""),
    ("Anu Kivi", "Tallinna Lauamänguklubi"),
    ("Ülle Järv", "Pärnu Mängurid"),
]
DUTCH = [
    ("Daan de Vries", "Schaakclub Utrecht", 2105),
    ("Sanne Jansen", "Schaakclub Utrecht", 1980),
    ("Bram van Dijk", "Dammen Leiden", 1875),
    ("Eva Bakker", "Dammen Leiden", 1820),
    ("Jeroen Visser", "", 1760),
    ("Lotte Smit", "CC Groningen", 1745),
    ("Thijs Meijer", "CC Groningen", 1690),
    ("Femke de Boer", "", 1655),
    ("Ruben Mulder", "Schaakclub Utrecht", 1610),
    ("Iris de Groot", "Dammen Leiden", 1580),
    ("Sven Bos", "", 1540),
    ("Noor Vos", "CC Groningen", 1500),
    ("Lars Peters", "", 1500),
    ("Anouk Hendriks", "Schaakclub Utrecht", 1470),
    ("Joris van Leeuwen", "", 1430),
    ("Fleur Dekker", "Dammen Leiden", 1395),
]


class Command(BaseCommand):
    help = (
        "Create demo events (one per format) with players, an organiser login "
        f"({ORGANISER[0]}) and an admin login ({ADMIN[0]}). Does nothing if the demo is there. "
        "Refuses to run when DEBUG is off, because the logins have known passwords."
    )

    def handle(self, *args, **options) -> None:
        if not settings.DEBUG:
            raise CommandError(
                "load_demo creates logins with known passwords; run it with DEBUG=1."
            )
        if Event.objects.filter(slug="lincon-2026").exists():
            self.stdout.write("The demo is already loaded.")
        else:
            with transaction.atomic():
                self._load()
            self.stdout.write(self.style.SUCCESS("Demo events loaded."))
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

        today = dt.date.today()
        lincon = services.event_create(
            name="LinCon 2026",
            venue="Linköping, Campus Valla",
            info="Registration in room P42.",
            starts_on=today,
            ends_on=today + dt.timedelta(days=3),
            time_zone="Europe/Stockholm",
            organiser=organiser,
        )
        blokus = services.competition_create(
            event=lincon, name="Blokus tournament", format=Format.BLOKUS
        )
        self._enter(blokus, [(n, c, None) for n, c in SWEDISH], checked_in=14)

        tallinn = services.event_create(
            name="Sjoelen club night Tallinn",
            venue="Tallinn, Kalamaja community hall",
            starts_on=today,
            ends_on=today,
            time_zone="Europe/Tallinn",
            organiser=organiser,
        )
        sjoelen = services.competition_create(
            event=tallinn, name="Sjoelen, 10 games", format=Format.SHUFFLEBOARD
        )
        self._enter(sjoelen, [(n, c, None) for n, c in ESTONIAN], checked_in=12)

        league = services.event_create(
            name="Correspondence league 2026",
            venue="Online",
            starts_on=today,
            ends_on=today + dt.timedelta(days=120),
            time_zone="Europe/Amsterdam",
            organiser=organiser,
        )
        rr = services.competition_create(
            event=league, name="Open round robin", format=Format.ROUNDROBIN
        )
        self._enter(rr, DUTCH, checked_in=16)

    def _enter(self, competition, people, *, checked_in: int) -> None:
        for index, (name, club, rating) in enumerate(people):
            entry = services.player_register_new(
                competition=competition, name=name, club=club, rating=rating
            )
            if index < checked_in:
                services.entry_check_in(entry=entry)
        import_module(f"{competition.format}.demo").load(competition)
