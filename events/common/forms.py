"""Form parts every app's forms share (Django only)."""

from __future__ import annotations

import dataclasses
import secrets
from typing import Any, ClassVar

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


class SettingsForm(forms.Form):
    """A format's settings form (``GameFormat.settings_form``). Its fields are named after the
    fields of ``settings_class`` (a dataclass whose defaults are the format's defaults): each
    takes its default as initial value, and an optional field sent empty takes its default
    (settings stored before the option existed, an old backup, a client that leaves it out)."""

    settings_class: ClassVar[type[Any]]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        defaults = self.defaults()
        for name, field in self.fields.items():
            if name in defaults:
                field.initial = defaults[name]

    @classmethod
    def defaults(cls) -> dict[str, Any]:
        instance = cls.settings_class()
        return {f.name: getattr(instance, f.name) for f in dataclasses.fields(instance)}

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        defaults = self.defaults()
        for name, field in self.fields.items():
            if not field.required and name in defaults and name in data:
                if data[name] is None or data[name] == "":
                    data[name] = defaults[name]
        return data
