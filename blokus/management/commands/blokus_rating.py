"""``manage.py blokus_rating``: recompute the Blokus rating of every game from the first on."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand

from blokus import services


class Command(BaseCommand):
    help = (
        "Recompute the Blokus rating of every game, from the first one on. Every result entered "
        "or corrected already recomputes from its game on; run this after an event's dates "
        "changed, a played table was deleted, or events were imported."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        steps = services.rating_recompute()
        seconds = time.perf_counter() - started
        self.stdout.write(f"Blokus rating: {steps} rating steps written in {seconds:.2f} s.")
