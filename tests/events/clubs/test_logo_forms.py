"""The logo form of a club's settings (events/clubs/logo_forms.py): a file or the removal, a
file too large refused by the size Django counted, the bytes read back."""

from __future__ import annotations

from django.core.files.uploadedfile import SimpleUploadedFile

from events.clubs.logo import MAX_UPLOAD
from events.clubs.logo_forms import LogoForm
from events.clubs.logo_services import logo_message


def _file(data: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile("logo.png", data, content_type="image/png")


def test_a_file_or_the_removal_is_needed():
    empty = LogoForm({}, {})
    assert not empty.is_valid() and empty.errors["__all__"] == ["Choose a picture to upload."]
    assert LogoForm({"remove": "on"}, {}).is_valid()


def test_a_file_is_read_back_as_its_bytes():
    form = LogoForm({}, {"logo": _file(b"\x89PNG some bytes")})
    assert form.is_valid() and form.logo_bytes() == b"\x89PNG some bytes"


def test_a_file_over_the_limit_is_refused_by_its_size_alone():
    form = LogoForm({}, {"logo": _file(b"x" * (MAX_UPLOAD + 1))})
    assert not form.is_valid()
    assert form.errors["logo"] == [logo_message("too_large")]
    assert "__all__" not in form.errors  # one message, not two
