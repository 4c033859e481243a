"""Results proposed and confirmed by players."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

OPEN = ("proposed", "conflict", "confirmed")


class Migration(migrations.Migration):
    dependencies = [
        ("events", "0009_round_clock_pause"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="ResultProposal",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("payload", models.JSONField(default=dict, verbose_name="result")),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("proposed", "proposed"),
                            ("conflict", "conflict"),
                            ("confirmed", "confirmed"),
                            ("accepted", "accepted"),
                            ("rejected", "rejected"),
                            ("withdrawn", "replaced by its player"),
                        ],
                        default="proposed",
                        max_length=12,
                        verbose_name="status",
                    ),
                ),
                ("revision", models.PositiveIntegerField(default=0, editable=False)),
                (
                    "created_at",
                    models.DateTimeField(auto_now_add=True, verbose_name="proposed at"),
                ),
                (
                    "decided_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="decided at"),
                ),
                ("note", models.CharField(blank=True, max_length=200, verbose_name="note")),
                (
                    "submission",
                    models.CharField(blank=True, max_length=64, verbose_name="submission key"),
                ),
                (
                    "competition",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="result_proposals",
                        to="events.competition",
                        verbose_name="competition",
                    ),
                ),
                (
                    "confirmed_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="events.entry",
                        verbose_name="confirmed by",
                    ),
                ),
                (
                    "decided_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="decided by",
                    ),
                ),
                (
                    "entry",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="result_proposals",
                        to="events.entry",
                        verbose_name="proposed by",
                    ),
                ),
                (
                    "game",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="result_proposals",
                        to="events.game",
                        verbose_name="game",
                    ),
                ),
            ],
            options={
                "verbose_name": "result proposal",
                "verbose_name_plural": "result proposals",
                "ordering": ["-created_at", "-pk"],
                "indexes": [
                    models.Index(fields=["competition", "status"], name="proposal_by_status")
                ],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(
                            status__in=[
                                "proposed",
                                "conflict",
                                "confirmed",
                                "accepted",
                                "rejected",
                                "withdrawn",
                            ]
                        ),
                        name="proposal_status_known",
                        violation_error_message="Unknown proposal status.",
                    ),
                    models.UniqueConstraint(
                        condition=models.Q(status__in=OPEN),
                        fields=("game", "entry"),
                        name="proposal_one_open_per_player",
                        violation_error_message=(
                            "This player already has a result waiting for this game."
                        ),
                    ),
                    models.UniqueConstraint(
                        condition=models.Q(status="accepted"),
                        fields=("game",),
                        name="proposal_one_accepted_per_game",
                        violation_error_message="A result of this game was already accepted.",
                    ),
                    models.UniqueConstraint(
                        condition=~models.Q(submission=""),
                        fields=("submission",),
                        name="proposal_submission_unique",
                        violation_error_message="This result was already received.",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(confirmed_by__isnull=True)
                        | ~models.Q(confirmed_by=models.F("entry")),
                        name="proposal_confirmed_by_another",
                        violation_error_message=(
                            "A second player confirms a result, not its proposer."
                        ),
                    ),
                    models.CheckConstraint(
                        condition=models.Q(status__in=OPEN, decided_at__isnull=True)
                        | (~models.Q(status__in=OPEN) & models.Q(decided_at__isnull=False)),
                        name="proposal_decided_when_closed",
                        violation_error_message="A decided proposal has a decision time.",
                    ),
                ],
            },
        ),
    ]
