"""The round clock's pauses and added time (blokus.services.clock).

SQLite rebuilds ``events_round`` for these columns and constraints, and a rebuild cannot
rename the new table while another table's trigger names it: the seat checks' triggers
(events/seat_checks.py) are dropped first here and put back by ``reinstall_checks`` after
``migrate`` (post_migrate). PostgreSQL alters the table in place and keeps them.
"""

from django.db import migrations, models


def drop_seat_check_triggers(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "sqlite":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'seat_check_%'"
        )
        names = [row[0] for row in cursor.fetchall()]
    for name in names:
        schema_editor.execute(f'DROP TRIGGER IF EXISTS "{name}"', params=None)


class Migration(migrations.Migration):
    dependencies = [
        ("events", "0008_event_player_language"),
    ]

    operations = [
        migrations.RunPython(drop_seat_check_triggers, migrations.RunPython.noop, elidable=True),
        migrations.AddField(
            model_name="historicalround",
            name="extra_seconds",
            field=models.IntegerField(default=0, verbose_name="seconds added to the clock"),
        ),
        migrations.AddField(
            model_name="historicalround",
            name="paused_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="clock paused at"),
        ),
        migrations.AddField(
            model_name="historicalround",
            name="paused_seconds",
            field=models.PositiveIntegerField(default=0, verbose_name="seconds paused"),
        ),
        migrations.AddField(
            model_name="round",
            name="extra_seconds",
            field=models.IntegerField(default=0, verbose_name="seconds added to the clock"),
        ),
        migrations.AddField(
            model_name="round",
            name="paused_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="clock paused at"),
        ),
        migrations.AddField(
            model_name="round",
            name="paused_seconds",
            field=models.PositiveIntegerField(default=0, verbose_name="seconds paused"),
        ),
        migrations.AddConstraint(
            model_name="round",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("paused_at__isnull", True),
                    models.Q(
                        ("paused_at__gte", models.F("started_at")), ("started_at__isnull", False)
                    ),
                    _connector="OR",
                ),
                name="round_paused_after_start",
                violation_error_message="A clock can only be paused after it was started.",
            ),
        ),
        migrations.AddConstraint(
            model_name="round",
            constraint=models.CheckConstraint(
                condition=models.Q(("paused_seconds__gte", 0)),
                name="round_paused_seconds_not_negative",
                violation_error_message="A clock cannot have been paused for less than nothing.",
            ),
        ),
        migrations.AddConstraint(
            model_name="round",
            constraint=models.CheckConstraint(
                condition=models.Q(("extra_seconds__gte", -86400), ("extra_seconds__lte", 86400)),
                name="round_extra_seconds_within_a_day",
                violation_error_message="A round's clock changes by at most a day.",
            ),
        ),
    ]
