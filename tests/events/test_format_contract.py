"""The format contract (docs: DESIGN.md, "Formats plug in through one contract"): the shared
``events`` app knows a format only through its registration (``events.formats``), never by name.

The guard reads the code of ``events/`` (not its tests, not its migrations) and the templates
under ``templates/events/``, and fails on any mention of a registered format: its key (the app's
name, ``blokus``), URL segment (``sjoelen``), name for people, or the names its models take on
the shared ones (the round robin's ``rr_token``), all read from the registry. In Python it reads
identifiers, imports and string literals; comments and docstrings are prose (an example such as
"a Blokus hand" couples nothing) and are not read. Templates are read whole.

Not read:
- ``events/migrations/``: frozen history; 0001 recorded the format choices of its day (the
  choices are a callable since, read from the registry).
- the project's settings (INSTALLED_APPS) and the format apps themselves, which register.
"""

from __future__ import annotations

import ast
import dataclasses
import datetime as dt
import re
from pathlib import Path

from django.apps import apps
from django.template import engines
from django.utils import translation

from events import language
from events.api.contract import ReadApi
from events.calendar.contract import CalendarItems
from events.exchange.contract import Exports
from events.formats import (
    FormatHooks,
    PeriodicWork,
    Proposals,
    all_formats,
    formats_taking_part,
    part,
)
from events.series.contract import SeriesResults
from events.signups.contract import PrivateLinks, SignUpSessions

# What a capability asks of a format (a protocol in its room's contract.py).
CAPABILITIES = [
    ReadApi,
    CalendarItems,
    Exports,
    Proposals,
    SeriesResults,
    SignUpSessions,
    PrivateLinks,
]

ROOT = Path(__file__).resolve().parents[2]
EVENTS = ROOT / "events"
TEMPLATES = ROOT / "templates" / "events"


def format_words() -> set[str]:
    """What names a registered format: its key, URL segment and name for people (in English),
    and the names its models give themselves on the shared ones (``entry.rr_token``,
    ``seat.blokus_hand``)."""
    words = set()
    for game_format in all_formats():
        with translation.override("en"):
            words |= {game_format.key, game_format.url_segment, str(game_format.label)}
        config = apps.get_app_config(game_format.key.rsplit(".", 1)[-1])
        for model in config.get_models():
            for field in model._meta.get_fields():
                if field.is_relation and field.concrete and field.related_model is not None:
                    if field.related_model._meta.app_label == config.label:
                        continue
                    words |= {field.remote_field.get_accessor_name() or "+"}
                    words |= {field.related_query_name()}
    return {word for word in words if not word.endswith("+")}


NAMES = re.compile(
    r"\b(?:"
    + "|".join(
        r"[ _-]?".join(re.escape(part) for part in word.split())
        for word in sorted(format_words(), key=len, reverse=True)
    )
    + ")",
    re.I,
)

# (file relative to the project, the literal that mentions a format) -> why it may.
ALLOWED: dict[tuple[str, str], str] = {
    (
        "events/desk/forms.py",
        "E.g. “Blokus tournament”. You can add more competitions later.",
    ): "help text: an example of a competition's name for people, not a reference to the app",
}


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the string constants that are docstrings (module, class, function)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def python_mentions(source: str) -> list[str]:
    """The identifiers, imported modules and (non-docstring) string literals of ``source``
    that name a format."""
    tree = ast.parse(source)
    skip = _docstrings(tree)
    words: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            words.append(node.value)
        elif isinstance(node, ast.Name):
            words.append(node.id)
        elif isinstance(node, ast.Attribute):
            words.append(node.attr)
        elif isinstance(node, ast.ImportFrom):
            words.append(node.module or "")
            words.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            words.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.keyword) and node.arg:
            words.append(node.arg)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            words.append(node.name)
        elif isinstance(node, ast.arg):
            words.append(node.arg)
    return [word for word in words if NAMES.search(word)]


def _sources() -> list[Path]:
    return sorted(
        path
        for path in EVENTS.rglob("*.py")
        if "migrations" not in path.relative_to(EVENTS).parts
        and "tests" not in path.relative_to(EVENTS).parts
    )


def test_the_guard_sees_code_and_ignores_prose():
    assert python_mentions("from blokus.models import Hand\n")
    assert python_mentions("x = reverse('roundrobin:private')\n")
    assert python_mentions("Entry.objects.filter(rr_token__token=t)\n")
    assert python_mentions("def f(entry):\n    return entry.shuffleboard_turns.all()\n")
    assert not python_mentions('"""A Blokus hand."""\n# the sjoelen rota\nx = 1\n')
    assert not python_mentions("def f():\n    '''For a round robin.'''\n    return 'errors'\n")


def test_events_names_no_format():
    sources = _sources()
    assert EVENTS / "language.py" in sources and EVENTS / "formats" / "registry.py" in sources
    found: dict[tuple[str, str], str] = {}
    for path in sources:
        relative = str(path.relative_to(ROOT))
        for word in python_mentions(path.read_text(encoding="utf-8")):
            found[(relative, word)] = ""
    for path in sorted(TEMPLATES.rglob("*")):
        if path.is_file():
            for match in NAMES.finditer(path.read_text(encoding="utf-8")):
                found[(str(path.relative_to(ROOT)), match.group(0))] = ""
    unexpected = sorted(set(found) - set(ALLOWED))
    assert not unexpected, f"events names a format (use the GameFormat registry): {unexpected}"
    stale = sorted(set(ALLOWED) - set(found))
    assert not stale, f"allowed mentions no longer there (drop them from ALLOWED): {stale}"


def test_a_player_page_is_read_from_the_registry():
    """The language middleware's player pages are the registered formats' ``player_pages``."""
    declared = {
        view_name: (keyword, lookup)
        for game_format in all_formats()
        for view_name, keyword, lookup in game_format.player_pages
    }
    assert declared  # at least one installed format has a player's page
    assert language.player_pages() == declared


# --- the contract's checks, and a fourth format that costs one app ------------------------------


def test_every_registered_format_keeps_the_contract():
    from events.formats import GameFormat, contract_problems

    assert all_formats()
    for game_format in all_formats():
        assert contract_problems(game_format) == [], game_format.key
    assert len(dataclasses.fields(GameFormat)) <= 8


def test_a_capability_is_asked_of_the_formats_that_implement_it():
    """``part`` answers a format's hooks exactly when they implement the capability's protocol,
    ``formats_taking_part`` lists those formats, and a key no longer installed takes part in
    nothing (its stored competitions still show)."""
    for capability in CAPABILITIES:
        taking = [f.key for f, hooks in formats_taking_part(capability)]
        assert taking == [f.key for f in all_formats() if isinstance(f.hooks, capability)]
        for game_format in all_formats():
            found = part(game_format, capability)
            assert found is (game_format.hooks if game_format.key in taking else None)
            assert part(game_format.key, capability) is found
        assert part("no_such_format", capability) is None


# The temporary format's name: one no real app will take (the docs' example, crokinole, may
# well be installed one day).
TOY = "toyformat_contract"
TOY_FILES = {
    "__init__.py": "",
    "apps.py": f"""
from django.apps import AppConfig


class ToyConfig(AppConfig):
    name = "{TOY}"
    default_auto_field = "django.db.models.BigAutoField"
""",
    "rules.py": '"""Pure: the score of a round."""\n\n\ndef score(discs):\n    return sum(discs)\n',
    "forms.py": """
from django import forms


class ToySettingsForm(forms.Form):
    rounds = forms.IntegerField(min_value=1, initial=4)
""",
    "urls.py": f"""
from django.http import HttpResponse
from django.urls import path

app_name = "{TOY}"
COMPETITION = "<slug:event_slug>/<slug:competition_slug>/{TOY}/"


def page(request, **kwargs):
    return HttpResponse("{TOY}")


urlpatterns = [
    path("e/" + COMPETITION, page, name="home"),
    path("e/" + COMPETITION + "screen/", page, name="screen"),
    path("desk/" + COMPETITION, page, name="desk_home"),
]
""",
    f"templates/{TOY}/_competition_public.html": "<p>toy</p>\n",
    f"templates/{TOY}/_competition_desk.html": "<p>toy desk</p>\n",
}


@dataclasses.dataclass(frozen=True)
class ToySettings:
    rounds: int = 4


class TickingHooks(FormatHooks):
    def periodic(self) -> tuple[PeriodicWork, ...]:
        return (PeriodicWork("tick", dt.timedelta(milliseconds=10), lambda now: "tick"),)


def test_a_fourth_format_costs_one_app(tmp_path, monkeypatch, settings):
    """A format written by the book in a temporary app: nothing outside it changes but
    INSTALLED_APPS, and it keeps the contract with the hooks' defaults; take one piece away
    and the check names it."""
    from events.formats import FormatHooks, GameFormat, contract_problems, part

    for name, text in TOY_FILES.items():
        path = tmp_path / TOY / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text.lstrip())
    monkeypatch.syspath_prepend(str(tmp_path))
    settings.INSTALLED_APPS = [*settings.INSTALLED_APPS, f"{TOY}.apps.ToyConfig"]
    toy = GameFormat(
        key=TOY,
        label="Toy format",
        url_segment=TOY,
        settings_class=ToySettings,
        settings_form=f"{TOY}.forms.ToySettingsForm",
    )
    assert isinstance(toy.hooks, FormatHooks)
    assert contract_problems(toy) == []
    # the hooks' defaults work: no demo, every entry taken, no seat hook, no undo
    assert toy.hooks.demo(None) is None and toy.hooks.entry_check(None) is None
    assert not toy.hooks.corrects_seats() and not toy.hooks.undoes_corrections()
    assert toy.hooks.periodic() == ()  # no periodic work: nothing that time alone changes
    # a format takes part in no capability it does not implement, and every page copes
    assert [c for c in CAPABILITIES if part(toy, c) is not None] == []
    assert toy.head == "" and toy.default_settings() == {"rounds": 4}

    (tmp_path / TOY / "templates" / TOY / "_competition_desk.html").unlink()
    for engine in engines.all():  # the cached template loader would still find it
        for loader in engine.engine.template_loaders:  # type: ignore[attr-defined]
            loader.reset()
    assert contract_problems(toy) == [f"{TOY}: no template {TOY}/_competition_desk.html"]
    long_key = dataclasses.replace(toy, key="k" * 21)
    assert f"{'k' * 21}: the key is longer than 20 characters" in contract_problems(long_key)
    ticking = dataclasses.replace(toy, hooks_class=f"{__name__}.TickingHooks")
    ticking_problem = (
        f"{TOY}: the periodic work 'tick' is not named '{TOY}:…' "
        "or comes round more than once a second"
    )
    assert ticking_problem in contract_problems(ticking)
    broken = dataclasses.replace(toy, key=f"{TOY}_missing")
    assert f"{TOY}_missing: the key is not the label of an installed app" in contract_problems(
        broken
    )
