"""The Blokus rating: each player's rating before and after each game."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("blokus", "0005_rule_options"),
        ("events", "0020_public_name_choice"),
    ]

    operations = [
        migrations.CreateModel(
            name="RatingStep",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("order_key", models.CharField(max_length=64, verbose_name="order of play")),
                ("mu_before", models.FloatField(verbose_name="mu before")),
                ("sigma_before", models.FloatField(verbose_name="sigma before")),
                ("mu_after", models.FloatField(verbose_name="mu after")),
                ("sigma_after", models.FloatField(verbose_name="sigma after")),
                ("conservative_after", models.FloatField(verbose_name="rating after")),
                (
                    "game",
                    models.ForeignKey(
                        db_constraint=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="blokus_rating_steps",
                        to="events.game",
                        verbose_name="game",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        db_constraint=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="blokus_rating_steps",
                        to="events.player",
                        verbose_name="player",
                    ),
                ),
            ],
            options={
                "verbose_name": "Blokus rating step",
                "verbose_name_plural": "Blokus rating steps",
                "ordering": ["order_key", "pk"],
                "indexes": [
                    models.Index(fields=["player", "order_key"], name="blokus_rating_player_order"),
                    models.Index(fields=["order_key"], name="blokus_rating_order"),
                ],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("player", "game"),
                        name="blokus_rating_step_once",
                        violation_error_message="This player already has a rating step for this game.",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("sigma_before__gt", 0), ("sigma_after__gt", 0)),
                        name="blokus_rating_sigma_positive",
                        violation_error_message="A rating's uncertainty is above 0.",
                    ),
                ],
            },
        ),
    ]
