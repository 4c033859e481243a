"""Clubs' test material: images as a browser would send them for a club's logo and the check of
what a stored logo may carry; a club's season of events and who came (for the season's tests)."""

from __future__ import annotations

import datetime as dt
import io
import re
import struct

from django.urls import reverse
from PIL import ExifTags, Image, ImageCms

from events.clubs import invitations
from events.clubs.logo import LOGO_SIDE
from events.models import Entry, HostClub
from events.outbox.models import OutboxMessage
from events.series.models import Series
from tests.support.factories import (
    CompetitionFactory,
    EntryFactory,
    EventFactory,
    PlayerFactory,
)


def encoded(image: Image.Image, fmt: str, **params) -> bytes:
    out = io.BytesIO()
    image.save(out, format=fmt, **params)
    return out.getvalue()


def halves(size: tuple[int, int] = (120, 60)) -> Image.Image:
    """Red on the left, blue on the right: which way up it is shows."""
    image = Image.new("RGB", size, (255, 0, 0))
    image.paste((0, 0, 255), (size[0] // 2, 0, size[0], size[1]))
    return image


def phone_jpeg() -> bytes:
    """A photo as a phone writes it: sideways pixels, an orientation to turn them by, where it
    was taken (GPS), the phone's make, a colour profile."""
    exif = Image.Exif()
    exif[ExifTags.Base.Orientation] = 6  # turn 90° clockwise to show
    exif[ExifTags.Base.Make] = "PhoneMaker"
    exif[ExifTags.Base.Model] = "Secret Model"
    exif[ExifTags.IFD.GPSInfo] = {
        ExifTags.GPS.GPSLatitudeRef: "N",
        ExifTags.GPS.GPSLatitude: (59.0, 51.0, 30.0),
        ExifTags.GPS.GPSLongitudeRef: "E",
        ExifTags.GPS.GPSLongitude: (17.0, 38.0, 10.0),
    }
    icc = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    return encoded(halves(), "JPEG", exif=exif, icc_profile=icc, quality=95)


def chunk_types(png: bytes) -> list[bytes]:
    kinds, at = [], 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kinds.append(png[at + 4 : at + 8])
        at += 12 + length
    return kinds


def opened(png: bytes) -> Image.Image:
    """The stored logo, checked for what it must never carry."""
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert set(chunk_types(png)) <= {b"IHDR", b"IDAT", b"IEND"}, chunk_types(png)
    image = Image.open(io.BytesIO(png))
    image.load()
    assert image.format == "PNG" and image.mode == "RGBA"
    assert "exif" not in image.info and "icc_profile" not in image.info
    assert not image.getexif()
    assert not image.text  # type: ignore[attr-defined]
    assert max(image.size) <= LOGO_SIDE
    return image


SVG = b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"/>'


NOW = dt.datetime(2026, 6, 20, 12, 0, tzinfo=dt.UTC)


CHECKED = dt.datetime(2026, 3, 7, 18, 0, tzinfo=dt.UTC)


def season_event(
    club: HostClub, slug: str, name: str, starts: dt.date, ends: dt.date | None = None
):
    return EventFactory(host=club, slug=slug, name=name, starts_on=starts, ends_on=ends or starts)


def season_came(competition, player, *, withdrawn: bool = False) -> Entry:
    return EntryFactory(
        competition=competition,
        player=player,
        checked_in_at=CHECKED,
        withdrawn_at=CHECKED + dt.timedelta(hours=1) if withdrawn else None,
    )


def season_world(club: HostClub, other: HostClub) -> dict:
    """The season of the club "club" told in tests/events/clubs/views/test_season.py, and a night
    of the club "other" on the same day."""
    old = season_event(club, "old-night", "Old night", dt.date(2025, 11, 20))
    spring = season_event(club, "spring-cup", "Spring cup", dt.date(2026, 3, 7))
    summer = season_event(club, "summer-open", "Summer open", dt.date(2026, 6, 12))
    new_year = season_event(
        club, "new-year", "New Year sjoelen", dt.date(2026, 12, 31), dt.date(2027, 1, 1)
    )
    old_c = CompetitionFactory(event=old)
    spring_a = CompetitionFactory(event=spring, slug="a")
    spring_b = CompetitionFactory(event=spring, slug="b")
    summer_c = CompetitionFactory(event=summer)
    sjoelen = CompetitionFactory(event=new_year, format="shuffleboard", settings={})

    anna, bert, cleo, dirk = (
        PlayerFactory(host=club, name=name) for name in ("Anna", "Bert", "Cleo", "Dirk")
    )
    eva = PlayerFactory(host=club, name="Eva", club="=1+1")
    season_came(old_c, anna)
    season_came(spring_a, anna)
    season_came(spring_b, anna)
    season_came(spring_a, bert)
    EntryFactory(competition=spring_b, player=dirk)  # entered, never checked in
    season_came(summer_c, anna)
    season_came(summer_c, eva)
    EntryFactory(competition=summer_c, player=bert)  # entered, never checked in
    season_came(summer_c, cleo, withdrawn=True)
    season_came(sjoelen, anna)
    season_came(sjoelen, bert)
    season_came(sjoelen, cleo)

    theirs = season_event(other, "other-night", "Other night", dt.date(2026, 3, 7))
    season_came(CompetitionFactory(event=theirs), PlayerFactory(host=other, name="Zed"))
    Series.objects.create(host=club, slug="club-league", name="Club league", format="blokus")
    Series.objects.create(host=other, slug="their-league", name="Their league", format="blokus")
    return {"events": [old, spring, summer, new_year]}


def send_invitation(club, by, address, role):
    """An invitation to ``club`` sent by ``by`` (the service, no request)."""
    return invitations.invitation_send(club=club, by=by, email=address, role=role)


def invite(client, club, address, role="organiser"):
    """An invitation sent through the desk's form."""
    return client.post(
        reverse("events:club_invite", args=[club.slug]), {"email": address, "role": role}
    )


def invitation_link(address: str) -> str:
    """The path of the invitation in the last mail to ``address``."""
    message = OutboxMessage.objects.filter(to=address).order_by("-pk").first()
    return re.search(r"https?://[^/\s]+(/invitations/\S+/)", message.body).group(1)
