"""The accounts from before sign-up were made by a site admin, who vouched for their addresses:
each gets its address as allauth's verified primary one, so that its login goes on as before.
An address two accounts share goes to the older one (allauth keeps addresses unique)."""

from django.db import migrations


def addresses_verified(apps, schema_editor):
    User = apps.get_model("auth", "User")
    EmailAddress = apps.get_model("account", "EmailAddress")
    taken = {address.lower() for address in EmailAddress.objects.values_list("email", flat=True)}
    for user in User.objects.exclude(email="").order_by("pk"):
        address = user.email.strip()
        if not address or address.lower() in taken:
            continue
        if EmailAddress.objects.filter(user=user).exists():
            continue
        EmailAddress.objects.create(user=user, email=address, verified=True, primary=True)
        taken.add(address.lower())


class Migration(migrations.Migration):
    dependencies = [
        ("events", "0031_accounts_and_invitations"),
        ("account", "0009_emailaddress_unique_primary_email"),
    ]

    operations = [migrations.RunPython(addresses_verified, migrations.RunPython.noop)]
