"""Form parts every app's forms share (Django only)."""

from __future__ import annotations

import secrets
from typing import Any

from django import forms
from django.core.validators import RegexValidator


class SubmissionTokenField(forms.CharField):
    """A hidden one-time token: each new form gets a fresh one, and the service acting on the
    form records it (``events.services.submission_use``) so that a second post of the same
    form creates nothing. Optional, so a client without it still works (unprotected)."""

    widget = forms.HiddenInput

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("max_length", 64)
        kwargs.setdefault("validators", [RegexValidator(r"^[A-Za-z0-9_-]*$")])
        kwargs.setdefault("initial", lambda: secrets.token_urlsafe(24))
        super().__init__(**kwargs)
