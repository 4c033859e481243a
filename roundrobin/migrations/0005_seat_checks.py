"""What one round-robin seat may state, checked by the database (events/seat_checks.py).

The values are inlined (a migration is frozen history); tests/roundrobin/test_seat_checks.py
checks that they are still the rules' (roundrobin.rule_values).
"""

from django.db import migrations
from django.utils.translation import gettext_noop

from events.seat_checks import SeatValuesCheck

COLOURS = ("white", "black")  # rule_values.COLOURS: position 1 plays White, position 2 Black
POINTS = ("0", "0.5", "1")  # rule_values.WIN, DRAW, LOSS; a double forfeit is 0 for both

COLOUR_OF_POSITION = " ".join(
    f"WHEN {position} THEN '{colour}'" for position, colour in enumerate(COLOURS, start=1)
)
ALLOWED = (
    f"{{seat}}.colour = CASE {{seat}}.position {COLOUR_OF_POSITION} END"
    " AND {seat}.score IS NULL"
    f" AND ({{seat}}.points IS NULL OR {{seat}}.points IN ({', '.join(POINTS)}))"
)
MESSAGE = gettext_noop(
    "A round-robin seat is the first of its game (White) or the second (Black); it has no "
    "score, and its points are 1, ½ or 0."
)


class Migration(migrations.Migration):
    dependencies = [
        ("events", "0005_player_person_key"),
        ("roundrobin", "0004_admin_names_history_constraint_messages"),
    ]

    operations = [
        SeatValuesCheck(key="roundrobin", allowed=ALLOWED, message=MESSAGE),
    ]
