"""Writes of a club's logo: one set (checked and re-encoded by ``events.clubs.logo``), one
removed. Only the club's owners do either; the events' public pages show the logo, so they are
re-rendered after each change."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from events.clubs.logo import (
    LOGO_SIDE,
    MAX_SIDE,
    MAX_UPLOAD,
    MIN_SIDE,
    LogoError,
    logo_png,
    logo_version,
)
from events.clubs.services import ensure_owner
from events.errors import Invalid
from events.models import HostClub
from events.versions import versions_bump

ACCEPTED = "PNG, JPEG, WebP, GIF"

# What the owner reads for each refusal of ``events.clubs.logo`` (its ``LogoError.code``).
MESSAGES: dict[str, Promise] = {
    "too_large": _(
        "The file is larger than %(megabytes)s MB. A logo needs no more than %(side)s pixels a "
        "side: save a smaller copy and upload that."
    ),
    "not_image": _("This file is not an image. Upload a picture as %(accepted)s."),
    "wrong_type": _(
        "Images of this kind (an SVG drawing, for instance) are not accepted. Save the logo as "
        "%(accepted)s and upload that."
    ),
    "too_small": _(
        "The image is smaller than %(min_side)s pixels on a side: it would be a blur. Upload a "
        "larger one."
    ),
    "too_big": _(
        "The image is larger than %(max_side)s pixels on a side. Save a smaller copy (a logo "
        "needs no more than %(side)s) and upload that."
    ),
    "broken": _(
        "The image cannot be read: the file may be damaged or cut short. Save it again and "
        "upload it once more."
    ),
}


def logo_message(code: str) -> str:
    """The owner's words for a refused logo (``code``: a ``LogoError`` code)."""
    return str(MESSAGES.get(code, MESSAGES["broken"])) % {
        "megabytes": MAX_UPLOAD // (1024 * 1024),
        "side": LOGO_SIDE,
        "min_side": MIN_SIDE,
        "max_side": MAX_SIDE,
        "accepted": ACCEPTED,
    }


def _store(club: HostClub, by: Any, png: bytes) -> HostClub:
    club = HostClub.objects.select_for_update().defer("logo").get(pk=club.pk)
    ensure_owner(club, by)
    version = logo_version(png) if png else ""
    if club.logo_version == version:
        return club
    club.logo = png
    club.logo_version = version
    club._history_user = by  # type: ignore[attr-defined]
    club.save(update_fields=["logo", "logo_version"])
    # The band on the events' pages and screens links to the logo's address, which changed.
    versions_bump(events=Q(host=club), competitions=Q(event__host=club))
    return club


def club_logo_set(*, club: HostClub, by: Any, data: bytes) -> HostClub:
    """The club's logo from an upload's bytes; ``Invalid`` (its ``code`` a ``LogoError`` code,
    the message under ``logo``) when they are refused."""
    # Before the image is decoded, so that nobody else's upload costs the server any work;
    # again in the transaction, which is what counts.
    ensure_owner(club, by)
    try:
        png = logo_png(data)
    except LogoError as exc:
        raise Invalid({"logo": [logo_message(exc.code)]}, code=exc.code) from None
    with transaction.atomic():
        return _store(club, by, png)


@transaction.atomic
def club_logo_remove(*, club: HostClub, by: Any) -> HostClub:
    """The club without a logo (nothing changes when it has none)."""
    return _store(club, by, b"")
