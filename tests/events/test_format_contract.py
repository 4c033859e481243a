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
import re
from pathlib import Path

from django.apps import apps
from django.utils import translation

from events.formats import (
    all_formats,
)

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
