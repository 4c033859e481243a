"""The club's mails to its owners (the outbox, in the club's language)."""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from events.common.siteurl import absolute_url
from events.models import ClubRole, HostClub
from events.outbox.queue import drain_after_commit, enqueue


def club_approved_mail(club: HostClub) -> None:
    """Tell the club's owners that the site's staff approved it."""
    owners = ClubRole.objects.filter(club=club, role=ClubRole.Role.OWNER).select_related("user")
    keys = []
    with translation.override(club.language):
        subject = _("%(club)s is approved") % {"club": club.name}
        body = _("The site's staff approved %(club)s: start its first event at %(url)s") % {
            "club": club.name,
            "url": absolute_url(reverse("events:club_desk", args=[club.slug])),
        }
        for role in owners:
            if not role.user.email:
                continue
            key = f"club-approved:{club.pk}:{role.user_id}"
            if enqueue(
                key=key,
                to=role.user.email,
                subject=f"[{settings.SITE_NAME}] {subject}",
                body=body + "\n",
                language=club.language,
            ):
                keys.append(key)
    drain_after_commit(keys)
