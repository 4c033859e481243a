"""Round robin: adjudicated tables (A-RR-15) and leave days (L-RR).

Only new columns with a default (``GameDetail.adjudicated``) and new tables (``Leave``): no
table that a seat check names is rebuilt.
"""

import django.db.models.deletion
import simple_history.models
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("roundrobin", "0007_alternating_turns"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="gamedetail",
            name="adjudicated",
            field=models.BooleanField(default=False, verbose_name="adjudicated"),
        ),
        migrations.AddField(
            model_name="historicalgamedetail",
            name="adjudicated",
            field=models.BooleanField(default=False, verbose_name="adjudicated"),
        ),
        migrations.CreateModel(
            name="HistoricalLeave",
            fields=[
                (
                    "id",
                    models.BigIntegerField(
                        auto_created=True, blank=True, db_index=True, verbose_name="ID"
                    ),
                ),
                ("starts_at", models.DateTimeField(verbose_name="starts at")),
                ("ends_at", models.DateTimeField(verbose_name="ends at")),
                ("days", models.PositiveSmallIntegerField(verbose_name="days")),
                ("created_at", models.DateTimeField(verbose_name="announced at")),
                (
                    "by_desk",
                    models.BooleanField(default=False, verbose_name="entered by the desk"),
                ),
                ("history_id", models.AutoField(primary_key=True, serialize=False)),
                ("history_date", models.DateTimeField(db_index=True)),
                ("history_change_reason", models.CharField(max_length=100, null=True)),
                (
                    "history_type",
                    models.CharField(
                        choices=[("+", "Created"), ("~", "Changed"), ("-", "Deleted")],
                        max_length=1,
                    ),
                ),
                (
                    "entry",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="events.entry",
                        verbose_name="entry",
                    ),
                ),
                (
                    "history_user",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name": "historical round-robin leave",
                "verbose_name_plural": "historical round-robin leaves",
                "ordering": ("-history_date", "-history_id"),
                "get_latest_by": ("history_date", "history_id"),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name="Leave",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("starts_at", models.DateTimeField(verbose_name="starts at")),
                ("ends_at", models.DateTimeField(verbose_name="ends at")),
                ("days", models.PositiveSmallIntegerField(verbose_name="days")),
                ("created_at", models.DateTimeField(verbose_name="announced at")),
                (
                    "by_desk",
                    models.BooleanField(default=False, verbose_name="entered by the desk"),
                ),
                (
                    "entry",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="rr_leaves",
                        to="events.entry",
                        verbose_name="entry",
                    ),
                ),
            ],
            options={
                "verbose_name": "round-robin leave",
                "verbose_name_plural": "round-robin leaves",
                "ordering": ["entry", "starts_at"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(
                            ("days__gte", 1), ("ends_at__gt", models.F("starts_at"))
                        ),
                        name="rr_leave_days_positive",
                        violation_error_message="A leave is at least one whole day.",
                    )
                ],
            },
        ),
    ]
