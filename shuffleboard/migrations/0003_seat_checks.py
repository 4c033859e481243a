"""A sjoelen competition stores no seats, checked by the database (events/seat_checks.py).

A sjoelen game has no opponents: its results are ``shuffleboard.Turn`` rows (whose own
database checks hold the counts, 30 discs at most, the score the counts give, 0..156), never
``events.Seat`` rows. So every seat in a game of a sjoelen competition is refused, as is moving
a game with seats into one, or turning a competition with seats into a sjoelen one.
"""

from django.db import migrations
from django.utils.translation import gettext_noop

from events.seat_checks import SeatValuesCheck

ALLOWED = "1 = 0"  # no seat at all
MESSAGE = gettext_noop(
    "A sjoelen competition has no seats: each player's games are entered as sjoelen games."
)


class Migration(migrations.Migration):
    dependencies = [
        ("events", "0005_player_person_key"),
        ("shuffleboard", "0002_constraint_messages"),
    ]

    operations = [
        SeatValuesCheck(key="shuffleboard", allowed=ALLOWED, message=MESSAGE),
    ]
