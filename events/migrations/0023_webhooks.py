# Webhooks: the Webhook table and the outbox's webhook channel.

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("events", "0022_notifications"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Webhook",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("url", models.CharField(max_length=500, verbose_name="address")),
                ("secret", models.CharField(max_length=100, verbose_name="signing secret")),
                ("on_result", models.BooleanField(default=False, verbose_name="result confirmed")),
                ("on_round", models.BooleanField(default=False, verbose_name="round seated")),
                (
                    "on_standings",
                    models.BooleanField(default=False, verbose_name="standings changed"),
                ),
                (
                    "on_registration",
                    models.BooleanField(default=False, verbose_name="registration changed"),
                ),
                ("active", models.BooleanField(default=True, verbose_name="active")),
                (
                    "disabled_reason",
                    models.CharField(blank=True, max_length=200, verbose_name="why disabled"),
                ),
                (
                    "created_at",
                    models.DateTimeField(
                        default=django.utils.timezone.now, verbose_name="created at"
                    ),
                ),
                (
                    "created_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="created by",
                    ),
                ),
                (
                    "event",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="webhooks",
                        to="events.event",
                        verbose_name="event",
                    ),
                ),
            ],
            options={
                "verbose_name": "webhook",
                "verbose_name_plural": "webhooks",
                "ordering": ["created_at", "pk"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("event", "url"), name="webhook_url_once_per_event"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("on_result", True),
                            ("on_round", True),
                            ("on_standings", True),
                            ("on_registration", True),
                            _connector="OR",
                        ),
                        name="webhook_some_topic",
                        violation_error_message="Choose at least one thing to be told of.",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("url__startswith", "https://"),
                            ("url__startswith", "http://"),
                            _connector="OR",
                        ),
                        name="webhook_url_http",
                        violation_error_message="The address must start with https://.",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("secret__startswith", "whsec_")),
                        name="webhook_secret_shape",
                        violation_error_message="The signing secret is not valid.",
                    ),
                ],
            },
        ),
        migrations.AlterField(
            model_name="outboxmessage",
            name="channel",
            field=models.CharField(
                choices=[
                    ("email", "e-mail"),
                    ("push", "browser notification"),
                    ("webhook", "webhook"),
                ],
                default="email",
                max_length=20,
                verbose_name="channel",
            ),
        ),
        migrations.AddField(
            model_name="outboxmessage",
            name="webhook",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="deliveries",
                to="events.webhook",
            ),
        ),
        migrations.AddField(
            model_name="outboxmessage",
            name="response_status",
            field=models.PositiveSmallIntegerField(
                blank=True, null=True, verbose_name="HTTP status"
            ),
        ),
    ]
