# "This is me" on a public player page: a push subscription for one event that
# receives only public notices. Written by hand (events.outbox.models.PushSubscription).

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("events", "0023_webhooks"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="pushsubscription",
            name="push_endpoint_once_per_player",
        ),
        migrations.AddField(
            model_name="pushsubscription",
            name="event",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="events.event",
            ),
        ),
        migrations.AddField(
            model_name="pushsubscription",
            name="public",
            field=models.BooleanField(default=False, verbose_name="from a public page"),
        ),
        migrations.AddConstraint(
            model_name="pushsubscription",
            constraint=models.UniqueConstraint(
                condition=models.Q(("public", False)),
                fields=("player", "endpoint"),
                name="push_endpoint_once_per_player",
            ),
        ),
        migrations.AddConstraint(
            model_name="pushsubscription",
            constraint=models.UniqueConstraint(
                condition=models.Q(("public", True)),
                fields=("player", "endpoint", "event"),
                name="push_public_once_per_event",
            ),
        ),
        migrations.AddConstraint(
            model_name="pushsubscription",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("event__isnull", True), ("public", False)),
                    models.Q(("event__isnull", False), ("public", True)),
                    _connector="OR",
                ),
                name="push_public_has_event",
                violation_error_message="A subscription from a public page is for one event.",
            ),
        ),
    ]
