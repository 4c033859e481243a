"""Round robin: alternating turns (A-RR-01's alternative).

Turn.mover (nullable: existing turns stay simultaneous) and two checks on it. The turn table is
not named by the seat-check triggers, so SQLite's rebuild for the checks needs no trigger drop.
"""

import django.db.models.expressions
import django.db.models.functions.math
from django.db import migrations, models

MOVER = dict(
    blank=True,
    choices=[(1, "White"), (2, "Black")],
    help_text="Alternating turns only; empty: both players move in this turn.",
    null=True,
    verbose_name="to move",
)


class Migration(migrations.Migration):
    dependencies = [
        ("roundrobin", "0006_report_message_half"),
    ]

    operations = [
        migrations.AddField(
            model_name="historicalturn",
            name="mover",
            field=models.PositiveSmallIntegerField(**MOVER),
        ),
        migrations.AddField(
            model_name="turn",
            name="mover",
            field=models.PositiveSmallIntegerField(**MOVER),
        ),
        migrations.AddConstraint(
            model_name="turn",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("mover__isnull", True),
                    (
                        "mover",
                        django.db.models.expressions.CombinedExpression(
                            models.Value(2),
                            "-",
                            django.db.models.functions.math.Mod(models.F("number"), 2),
                        ),
                    ),
                    _connector="OR",
                ),
                name="rr_turn_mover_by_parity",
                violation_error_message=(
                    "With alternating turns White moves in odd turns and Black in even ones."
                ),
            ),
        ),
        migrations.AddConstraint(
            model_name="turn",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("mover__isnull", True),
                    models.Q(
                        ("mover", 1), ("second_missed", False), ("second_moved_at__isnull", True)
                    ),
                    models.Q(
                        ("first_missed", False), ("first_moved_at__isnull", True), ("mover", 2)
                    ),
                    _connector="OR",
                ),
                name="rr_turn_only_mover_moves",
                violation_error_message=(
                    "With alternating turns only the player to move moves or misses."
                ),
            ),
        ),
    ]
