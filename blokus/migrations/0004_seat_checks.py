"""What one Blokus seat may state, checked by the database (events/seat_checks.py).

The values are inlined (a migration is frozen history); tests/blokus/test_seat_checks.py
checks that they are still the rules' (blokus.rules).
"""

from django.db import migrations
from django.utils.translation import gettext_noop

from events.seat_checks import SeatValuesCheck

COLOURS = ("blue", "yellow", "red", "green")  # rules.COLOURS
PLAYERS_PER_GAME = 4  # rules.PLAYERS_PER_GAME: positions 1..4
TOTAL_SQUARES = 89  # rules.TOTAL_SQUARES: a score of -89..-1 with squares left
# Every piece placed: 0 or +5 (monomino last) by the seed rule, +15 or +20 by the official one.
ALL_PLACED_SCORES = (0, 5, 15, 20)
# Qualifying points: 1 per opponent with a lower score, 1/2 per equal one: 0..3 in halves.
HALF_POINTS = tuple(range(0, 2 * (PLAYERS_PER_GAME - 1) + 1))  # points times two

POSITIONS = ", ".join(str(p) for p in range(1, PLAYERS_PER_GAME + 1))
COLOUR_LIST = ", ".join(f"'{c}'" for c in COLOURS)
SCORES = ", ".join(str(s) for s in ALL_PLACED_SCORES)
POINTS = ", ".join(f"{h // 2}.{5 if h % 2 else 0}" for h in HALF_POINTS)

ALLOWED = (
    f"{{seat}}.position IN ({POSITIONS})"
    f" AND {{seat}}.colour IN ({COLOUR_LIST})"
    f" AND ({{seat}}.score IS NULL OR ({{seat}}.score = CAST({{seat}}.score AS INTEGER)"
    f" AND ({{seat}}.score BETWEEN -{TOTAL_SQUARES} AND -1 OR {{seat}}.score IN ({SCORES}))))"
    f" AND ({{seat}}.points IS NULL OR {{seat}}.points IN ({POINTS}))"
)
MESSAGE = gettext_noop(
    "A Blokus seat is one of positions 1 to 4 with the colour blue, yellow, red or green; "
    "its game score is -89 to -1, 0, +5, +15 or +20, and its qualifying points are 0 to 3 "
    "in halves."
)


class Migration(migrations.Migration):
    dependencies = [
        ("blokus", "0003_admin_names_constraint_messages"),
        ("events", "0005_player_person_key"),
    ]

    operations = [
        SeatValuesCheck(key="blokus", allowed=ALLOWED, message=MESSAGE),
    ]
