"""The contract's checks (the checklist of docs/architecture.md): what a format misses of it."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from events.formats.declaration import GameFormat


def contract_problems(game_format: GameFormat) -> list[str]:
    """What ``game_format`` misses of the contract, one sentence each (empty: it plugs in).
    The tests run it on every registered format and on a new one built in a temporary app."""
    from django.apps import apps
    from django.template import TemplateDoesNotExist
    from django.template.loader import get_template

    from events.formats.declaration import KEY_MAX_LENGTH

    problems = []
    key = game_format.key
    if len(key) > KEY_MAX_LENGTH:
        problems.append(f"{key}: the key is longer than {KEY_MAX_LENGTH} characters")
    if not apps.is_installed(key) or apps.get_app_config(key.rsplit(".", 1)[-1]).name != key:
        problems.append(f"{key}: the key is not the label of an installed app")
    try:
        hooks = game_format.hooks
    except (ImportError, TypeError) as exc:
        problems.append(f"{key}: no hooks: {exc}")
    else:
        for work in hooks.periodic():
            if not work.name.startswith(f"{key}:") or work.every.total_seconds() < 1:
                problems.append(
                    f"{key}: the periodic work {work.name!r} is not named '{key}:…' "
                    "or comes round more than once a second"
                )
    if not dataclasses.is_dataclass(game_format.settings_class):
        problems.append(f"{key}: the settings class is not a dataclass")
    try:
        form = game_format.form_class()
    except ImportError:
        problems.append(f"{key}: no settings form {game_format.settings_form}")
    else:
        fields = {f.name for f in dataclasses.fields(game_format.settings_class)}
        missing = sorted(fields - set(form.base_fields))
        if missing:
            problems.append(f"{key}: the settings form has no field for {missing}")
    modules = {}
    for module in (game_format.rules_module, game_format.urls):
        try:
            modules[module] = import_module(module)
        except ImportError:
            problems.append(f"{key}: no module {module}")
    urls = modules.get(game_format.urls)
    if urls is not None:
        names = {getattr(p, "name", None) for p in _patterns(getattr(urls, "urlpatterns", []))}
        if getattr(urls, "app_name", None) != key:
            problems.append(f"{key}: {game_format.urls} has no app_name {key!r}")
        for name in ("home", "desk_home", "screen"):
            if name not in names:
                problems.append(f"{key}: {game_format.urls} names no {name!r} page")
    for template in (game_format.public_panel, game_format.desk_panel):
        try:
            get_template(template)
        except TemplateDoesNotExist:
            problems.append(f"{key}: no template {template}")
    return problems


def _patterns(patterns: Sequence[Any]) -> list[Any]:
    found = []
    for pattern in patterns:
        found.append(pattern)
        found += _patterns(getattr(pattern, "url_patterns", []))
    return found
