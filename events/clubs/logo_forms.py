"""The club's logo form on its settings page: a file to upload, or the logo removed."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.utils.translation import gettext_lazy as _

from events.clubs.logo import MAX_UPLOAD
from events.clubs.logo_services import logo_message

ACCEPT = "image/png,image/jpeg,image/webp,image/gif"


class LogoForm(forms.Form):
    logo = forms.FileField(
        label=_("Logo"),
        required=False,
        widget=forms.FileInput(attrs={"accept": ACCEPT}),
    )
    remove = forms.BooleanField(required=False)

    def clean_logo(self) -> UploadedFile | None:
        upload = self.cleaned_data.get("logo")
        # The size Django counted while receiving it: a file too large is never read into
        # memory to be decoded.
        if upload is not None and upload.size is not None and upload.size > MAX_UPLOAD:
            raise ValidationError(logo_message("too_large"), code="too_large")
        return upload

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if not cleaned.get("remove") and not cleaned.get("logo") and not self.errors:
            raise ValidationError(_("Choose a picture to upload."), code="no_file")
        return cleaned

    def logo_bytes(self) -> bytes:
        upload = self.cleaned_data["logo"]
        upload.seek(0)
        return bytes(upload.read(MAX_UPLOAD + 1))
