"""The registry of game formats: a format key -> its rules module and settings form.

The shared ``events`` app knows formats only through this table, so a format app can be
added without touching the rest of ``events``.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from types import ModuleType
from typing import Any

from django import forms
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _

from events.models import Format


@dataclass(frozen=True)
class FormatSpec:
    key: str
    rules_module: str
    settings_form: str
    # While a competition runs, withdrawing a player changes its games, so the format's own
    # page (URL name taking event_slug, competition_slug, entry_id) does it instead of the desk's.
    running_withdraw_url: str = ""

    @property
    def label(self) -> str:
        return Format(self.key).label

    def rules(self) -> ModuleType:
        return import_module(self.rules_module)

    def form_class(self) -> type[forms.Form]:
        return import_string(self.settings_form)


FORMATS: dict[str, FormatSpec] = {
    Format.BLOKUS: FormatSpec(Format.BLOKUS, "blokus.rules", "blokus.forms.BlokusSettingsForm"),
    Format.SHUFFLEBOARD: FormatSpec(
        Format.SHUFFLEBOARD, "shuffleboard.rules", "shuffleboard.forms.ShuffleboardSettingsForm"
    ),
    Format.ROUNDROBIN: FormatSpec(
        Format.ROUNDROBIN,
        "roundrobin.rules",
        "roundrobin.forms.RoundRobinSettingsForm",
        running_withdraw_url="roundrobin:withdraw",
    ),
}


def get_format(key: str) -> FormatSpec:
    return FORMATS[key]


def default_settings(key: str) -> dict[str, Any]:
    form = get_format(key).form_class()()
    return {name: field.initial for name, field in form.fields.items()}


def settings_errors(key: str, values: dict[str, Any]) -> list[str]:
    """Readable problems with a competition's stored settings; empty when they are valid."""
    if key not in FORMATS:
        return [_("Unknown format %(key)r.") % {"key": key}]
    if not isinstance(values, dict):
        return [_("Settings must be a mapping of names to values.")]
    form = get_format(key).form_class()(data=values)
    if form.is_valid():
        unknown = sorted(set(values) - set(form.fields))
        return [_("Unknown setting %(name)r.") % {"name": name} for name in unknown]
    return [f"{name}: {' '.join(errs)}" for name, errs in form.errors.items()]


def clean_settings(key: str, values: dict[str, Any]) -> dict[str, Any]:
    """Validated settings in their JSON form (defaults filled in)."""
    form = get_format(key).form_class()(data={**default_settings(key), **values})
    if not form.is_valid():
        raise ValueError(form.errors)
    return {name: _jsonable(value) for name, value in form.cleaned_data.items()}


def _jsonable(value: Any) -> Any:
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value
