"""A club's logo: what an upload becomes (events.clubs.logo), who may set it, and how its public
address answers (events.clubs.views.logo)."""

from __future__ import annotations

import io
import os
import struct
import time
import zlib

import pytest
from django.contrib import messages
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from hypothesis import HealthCheck, given, settings, strategies as st
from PIL import ExifTags, Image, ImageCms, PngImagePlugin

from events.clubs.logo import LOGO_SIDE, MAX_UPLOAD, LogoError, logo_png, logo_version
from events.clubs.logo_services import logo_message
from events.models import ClubRole, Event
from tests.support.factories import EventFactory, HostClubFactory, UserFactory

# --- images made here, each in the shape a browser would send ---------------------------------


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


def png_chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def png_bomb(width: int = 20_000, height: int = 20_000) -> bytes:
    """A real PNG of 1-bit zeros, some 50 kB, that would be 400 million pixels decoded."""
    compressor = zlib.compressobj(9)
    rows = bytes(1 + (width + 7) // 8) * 500
    idat = b"".join(compressor.compress(rows) for _ in range(height // 500)) + compressor.flush()
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + png_chunk(b"IHDR", header)
        + png_chunk(b"IDAT", idat)
        + png_chunk(b"IEND", b"")
    )


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


# --- what an upload becomes --------------------------------------------------------------------


def test_a_phone_photo_is_turned_upright_and_loses_its_metadata():
    jpeg = phone_jpeg()
    before = Image.open(io.BytesIO(jpeg))
    assert before.getexif().get_ifd(ExifTags.IFD.GPSInfo)  # the test's photo has a location
    assert before.info.get("icc_profile")

    logo = opened(logo_png(jpeg))

    assert logo.size == (60, 120)  # 120×60 turned a quarter: never enlarged
    red, blue = logo.getpixel((30, 10)), logo.getpixel((30, 110))
    assert red[0] > 200 and red[2] < 60, red  # the left half now on top
    assert blue[2] > 200 and blue[0] < 60, blue
    assert b"PhoneMaker" not in logo_png(jpeg) and b"GPS" not in logo_png(jpeg)


def test_a_png_keeps_its_transparency_and_loses_its_text_and_profile():
    image = Image.new("RGBA", (600, 300), (0, 128, 0, 255))
    image.paste((0, 0, 0, 0), (0, 0, 300, 300))
    info = PngImagePlugin.PngInfo()
    info.add_text("Author", "Someone Private")
    info.add_itxt("Comment", "where I live")
    icc = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    png = encoded(image, "PNG", pnginfo=info, icc_profile=icc, exif=Image.Exif())

    stored = logo_png(png)
    logo = opened(stored)

    assert logo.size == (256, 128)
    assert logo.getpixel((10, 64))[3] == 0 and logo.getpixel((240, 64)) == (0, 128, 0, 255)
    assert b"Someone Private" not in stored and b"where I live" not in stored


@pytest.mark.parametrize(
    ("fmt", "mode", "size", "expected"),
    [
        ("WEBP", "RGBA", (400, 200), (256, 128)),
        ("GIF", "P", (90, 300), (77, 256)),
        ("PNG", "L", (40, 50), (40, 50)),
        ("JPEG", "CMYK", (512, 512), (256, 256)),
    ],
)
def test_each_accepted_kind_becomes_a_png_that_fits(fmt, mode, size, expected):
    assert opened(logo_png(encoded(Image.new(mode, size), fmt))).size == expected


def test_an_animation_keeps_its_first_frame():
    frames = [Image.new("RGB", (64, 64), colour) for colour in ("red", "blue", "green")]
    gif = encoded(frames[0], "GIF", save_all=True, append_images=frames[1:], duration=100)
    assert opened(logo_png(gif)).getpixel((5, 5))[:3] == (255, 0, 0)


TRUNCATED = encoded(Image.effect_noise((200, 200), 64).convert("RGB"), "PNG")[:600]
SVG = b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"/>'


@pytest.mark.parametrize(
    ("data", "code"),
    [
        pytest.param(encoded(Image.new("RGB", (20, 20)), "PNG"), "too_small", id="20x20"),
        pytest.param(encoded(Image.new("RGB", (300, 31)), "PNG"), "too_small", id="300x31"),
        pytest.param(encoded(Image.new("1", (7000, 10)), "PNG"), "too_big", id="7000x10"),
        pytest.param(png_bomb(7000, 7000), "too_big", id="7000x7000"),
        pytest.param(SVG, "wrong_type", id="svg"),
        pytest.param(
            b"<svg xmlns='http://www.w3.org/2000/svg'></svg>", "wrong_type", id="bare-svg"
        ),
        pytest.param(encoded(Image.new("RGB", (64, 64)), "BMP"), "wrong_type", id="bmp"),
        pytest.param(encoded(Image.new("RGB", (64, 64)), "TIFF"), "wrong_type", id="tiff"),
        pytest.param(os.urandom(4096), "not_image", id="random"),
        pytest.param(b"", "not_image", id="empty"),
        pytest.param(b"hello.png", "not_image", id="text"),
        pytest.param(TRUNCATED, "broken", id="truncated"),
        pytest.param(b"\x89PNG" + bytes(MAX_UPLOAD), "too_large", id="over-2-MB"),
    ],
)
def test_refused_uploads(data, code):
    with pytest.raises(LogoError) as refused:
        logo_png(data)
    assert refused.value.code == code
    assert logo_message(code)  # each has its words


def test_a_decompression_bomb_is_refused_before_it_is_decoded():
    bomb = png_bomb()
    assert len(bomb) < 200_000
    started = time.perf_counter()
    with pytest.raises(LogoError) as refused:
        logo_png(bomb)
    assert refused.value.code == "too_big"
    assert time.perf_counter() - started < 0.5


def test_the_version_is_a_short_hash_of_the_bytes():
    assert logo_version(b"a") == logo_version(b"a") != logo_version(b"b")
    assert len(logo_version(b"a")) == 12 and int(logo_version(b"a"), 16) >= 0


WRITERS = {"PNG": None, "WEBP": None, "GIF": None, "JPEG": ("RGB", "L")}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    width=st.integers(32, 400),
    height=st.integers(32, 400),
    mode=st.sampled_from(["RGB", "RGBA", "L", "P"]),
    fmt=st.sampled_from(sorted(WRITERS)),
    colour=st.integers(0, 255),
)
def test_any_small_image_fits_in_aspect(width, height, mode, fmt, colour):
    image = Image.new(mode, (width, height), colour if mode in ("L", "P") else (colour,) * 4)
    if WRITERS[fmt] and mode not in WRITERS[fmt]:
        image = image.convert("RGB")
    logo = opened(logo_png(encoded(image, fmt)))

    scale = min(1.0, LOGO_SIDE / max(width, height))
    assert abs(logo.width - width * scale) <= 1 and abs(logo.height - height * scale) <= 1
    assert max(logo.size) == min(LOGO_SIDE, max(width, height))


# --- who may set it, and what the site then serves ---------------------------------------------


def upload(data: bytes, name: str = "logo.png", content_type: str = "image/png"):
    return SimpleUploadedFile(name, data, content_type=content_type)


@pytest.fixture
def club(db):
    return HostClubFactory(slug="tlk", name="Tabletop Linköping")


@pytest.fixture
def owner(club):
    user = UserFactory(username="olga")
    ClubRole.objects.create(club=club, user=user, role=ClubRole.Role.OWNER)
    return user


@pytest.fixture
def owner_client(client, owner):
    client.force_login(owner)
    return client


def post_logo(client, club, **data):
    return client.post(reverse("events:club_logo_upload", args=[club.slug]), data)


def flashed(response) -> list[tuple[int, str]]:
    """The message this answer added (those of earlier answers wait in the cookie, unread)."""
    return [(m.level, str(m)) for m in get_messages(response.wsgi_request)][-1:]


SETTINGS = "events:club_settings"


def test_an_owner_uploads_a_logo_and_the_events_pages_follow(owner_client, club, owner):
    event = EventFactory(host=club)
    version_before = event.version

    response = post_logo(owner_client, club, logo=upload(phone_jpeg(), "me.jpg", "image/jpeg"))

    assert response.status_code == 303
    assert response["Location"] == reverse(SETTINGS, args=[club.slug])
    assert [level for level, _text in flashed(response)] == [messages.SUCCESS]
    club.refresh_from_db()
    stored = bytes(club.logo)
    assert club.logo_version == logo_version(stored)
    assert opened(stored).size == (60, 120)
    assert Event.objects.get(pk=event.pk).version > version_before
    assert club.history.first().history_user == owner

    page = owner_client.get(reverse(SETTINGS, args=[club.slug]))
    assert page.status_code == 200
    logo_url = reverse("events:club_logo", args=[club.slug, club.logo_version])
    assert logo_url.encode() in page.content
    assert b'enctype="multipart/form-data"' in page.content


def test_the_same_logo_again_changes_nothing(owner_client, club):
    png = encoded(halves((64, 64)), "PNG")
    post_logo(owner_client, club, logo=upload(png))
    count = club.history.count()
    post_logo(owner_client, club, logo=upload(png))
    assert club.history.count() == count


def test_a_refused_upload_says_why_and_keeps_the_logo(owner_client, club):
    post_logo(owner_client, club, logo=upload(encoded(halves((64, 64)), "PNG")))
    club.refresh_from_db()
    kept = club.logo_version

    response = post_logo(owner_client, club, logo=upload(SVG, "logo.png", "image/png"))

    assert response.status_code == 303
    assert flashed(response) == [(messages.ERROR, logo_message("wrong_type"))]
    club.refresh_from_db()
    assert club.logo_version == kept


def test_a_file_over_the_limit_is_refused_by_its_size(owner_client, club):
    response = post_logo(owner_client, club, logo=upload(bytes(MAX_UPLOAD + 1)))
    assert flashed(response) == [(messages.ERROR, logo_message("too_large"))]


def test_a_post_without_a_file_is_refused(owner_client, club):
    response = post_logo(owner_client, club)
    assert response.status_code == 303
    assert [level for level, _text in flashed(response)] == [messages.ERROR]


def test_an_owner_removes_the_logo(owner_client, club):
    post_logo(owner_client, club, logo=upload(encoded(halves((64, 64)), "PNG")))
    club.refresh_from_db()
    old = reverse("events:club_logo", args=[club.slug, club.logo_version])

    response = post_logo(owner_client, club, remove="1")

    assert response.status_code == 303
    assert [level for level, _text in flashed(response)] == [messages.SUCCESS]
    club.refresh_from_db()
    assert bytes(club.logo) == b"" and club.logo_version == ""
    assert owner_client.get(old).status_code == 404


@pytest.mark.parametrize("who", ["organiser", "owner_elsewhere", "scorekeeper"])
def test_only_the_clubs_owners_set_its_logo(client, club, who):
    user = UserFactory()
    if who == "owner_elsewhere":
        other = HostClubFactory(slug="other-club")
        ClubRole.objects.create(club=other, user=user, role=ClubRole.Role.OWNER)
    else:
        ClubRole.objects.create(club=club, user=user, role=who)
    client.force_login(user)

    png = encoded(halves((64, 64)), "PNG")
    assert post_logo(client, club, logo=upload(png)).status_code == 403
    assert post_logo(client, club, remove="1").status_code == 403
    club.refresh_from_db()
    assert club.logo_version == ""


def test_anonymous_uploads_go_to_the_login(client, club):
    response = post_logo(client, club, logo=upload(encoded(halves((64, 64)), "PNG")))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))
    club.refresh_from_db()
    assert club.logo_version == ""


def test_the_upload_address_takes_posts_only(owner_client, club):
    address = reverse("events:club_logo_upload", args=[club.slug])
    assert owner_client.get(address).status_code == 405


@pytest.fixture
def with_logo(club, owner):
    from events.clubs.logo_services import club_logo_set

    return club_logo_set(club=club, by=owner, data=encoded(halves((300, 100)), "PNG"))


def test_the_logo_is_served_for_a_year(client, with_logo, django_assert_max_num_queries):
    club = with_logo
    address = reverse("events:club_logo", args=[club.slug, club.logo_version])

    with django_assert_max_num_queries(1) as queries:
        response = client.get(address)
    print([q["sql"] for q in queries.captured_queries])

    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    assert response["X-Content-Type-Options"] == "nosniff"
    cache = {part.strip() for part in response["Cache-Control"].split(",")}
    assert cache == {"public", "max-age=31536000", "immutable"}
    assert response["ETag"] == f'"{club.logo_version}"'
    assert logo_version(response.content) == club.logo_version
    assert opened(response.content).size == (256, 85)

    again = client.get(address, headers={"If-None-Match": response["ETag"]})
    assert again.status_code == 304 and again.content == b""
    assert client.head(address).status_code == 200
    assert client.post(address).status_code == 405


def test_no_logo_where_there_is_none(client, with_logo):
    club = with_logo
    logo = reverse("events:club_logo", args=[club.slug, club.logo_version])
    assert client.get(logo).status_code == 200
    assert client.get(logo.replace(club.logo_version, "0" * 12)).status_code == 404
    assert client.get(logo.replace(club.slug, "no-such-club")).status_code == 404
    bare = HostClubFactory(slug="bare")
    assert client.get(reverse("events:club_logo", args=[bare.slug, "x"])).status_code == 404
    assert client.get(f"/c/{bare.slug}/logo-.png").status_code == 404
