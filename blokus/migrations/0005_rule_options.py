"""Blokus rule options: a player reinstated after a drop-out comes back."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("blokus", "0004_seat_checks"),
    ]

    operations = [
        migrations.AddField(
            model_name="historicalsessionplayer",
            name="back_from_round",
            field=models.PositiveSmallIntegerField(
                blank=True, null=True, verbose_name="back from round"
            ),
        ),
        migrations.AddField(
            model_name="historicalsessionplayer",
            name="dropped_by_withdrawal",
            field=models.BooleanField(default=False, verbose_name="dropped out by withdrawal"),
        ),
        migrations.AddField(
            model_name="sessionplayer",
            name="back_from_round",
            field=models.PositiveSmallIntegerField(
                blank=True, null=True, verbose_name="back from round"
            ),
        ),
        migrations.AddField(
            model_name="sessionplayer",
            name="dropped_by_withdrawal",
            field=models.BooleanField(default=False, verbose_name="dropped out by withdrawal"),
        ),
        migrations.AddConstraint(
            model_name="sessionplayer",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("back_from_round__isnull", True),
                    ("back_from_round__gt", models.F("dropped_after_round")),
                    _connector="OR",
                ),
                name="blokus_back_after_drop_out",
                violation_error_message="A player comes back only in a round after dropping out.",
            ),
        ),
    ]
