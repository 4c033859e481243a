"""Sjoelen sub-turn rows, title play-off and classes (A-SJ-15, A-SJ-02, A-SJ-17).

Only the sub-turn rows need a column: a nullable JSON column with no default, which both
SQLite and PostgreSQL add in place (no table rebuild, so the seat-check triggers stay). The
title play-off and the classes are derived from the stored games (see shuffleboard/rules.py).
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("shuffleboard", "0003_seat_checks"),
    ]

    operations = [
        migrations.AddField(
            model_name="historicalturn",
            name="sub_turns",
            field=models.JSONField(blank=True, editable=False, null=True, verbose_name="sub-turns"),
        ),
        migrations.AddField(
            model_name="turn",
            name="sub_turns",
            field=models.JSONField(blank=True, editable=False, null=True, verbose_name="sub-turns"),
        ),
    ]
