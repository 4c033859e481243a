"""The translation catalogues (locale/<lang>/LC_MESSAGES/<domain>.po), without system gettext.

    .venv/bin/python scripts/catalogues.py compile   # every .po -> its .mo (Babel), with counts
    .venv/bin/python scripts/catalogues.py check     # exit 1 on empty or fuzzy entries, stale .mo
    .venv/bin/python scripts/catalogues.py extract   # makemessages for sv, et, nl (needs xgettext)

`make messages` runs extract and compile. The compiled .mo files are committed, so `make run` and
`make test` need neither gettext nor this script; tests/test_translations.py fails when a .po was
changed without compiling it.

The helpers below (``catalogues``, ``compile_po``, ``mo_messages``, ``marked_strings``, ...) are
what the tests use too: one definition of "compiled", "stale" and "marked in the source".
"""

from __future__ import annotations

import argparse
import copy
import gettext
import io
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"
# The languages we translate into (English is the source language, settings.LANGUAGES).
LANGUAGES = ("sv", "et", "nl")
# Folders makemessages leaves out (its --ignore list; hidden folders such as .venv, and
# STATIC_ROOT, are left out by makemessages itself). Everything else with .py, .html or .txt
# files is the "django" domain, .js files the "djangojs" domain.
IGNORE = ("tests", "bench", "scripts", "deploy", "docs", "var", "locale", "node_modules", "vendor")
DJANGO_EXTENSIONS = (".py", ".html", ".txt")
JS_EXTENSIONS = (".js",)

# The keywords makemessages gives xgettext (Python: its defaults plus Django's), as Babel specs.
PYTHON_KEYWORDS: dict[str, object] = {
    "_": None,
    "gettext": None,
    "gettext_lazy": None,
    "gettext_noop": None,
    "ngettext": (1, 2),
    "ngettext_lazy": (1, 2),
    "pgettext": ((1, "c"), 2),
    "pgettext_lazy": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
    "npgettext_lazy": ((1, "c"), 2, 3),
}
JS_KEYWORDS: dict[str, object] = {
    "_": None,
    "gettext": None,
    "gettext_noop": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
}


# --- reading and compiling -------------------------------------------------------------------


def catalogues(root: Path = ROOT) -> list[Path]:
    """Every catalogue: locale/<lang>/LC_MESSAGES/<domain>.po, sorted."""
    return sorted((root / "locale").glob("*/LC_MESSAGES/*.po"))


def read(path: Path) -> Catalog:
    """The .po file parsed by Babel (obsolete ``#~`` entries left out)."""
    with path.open("rb") as handle:
        return read_po(handle, ignore_obsolete=True, abort_invalid=True)


def compile_po(catalog: Catalog) -> bytes:
    """The .mo of ``catalog``: every translated, non-fuzzy message, as msgfmt compiles it (a
    plural with an empty form is left out too; Babel's write_mo would fill it with the English).
    write_mo sorts the messages, so the same .po and Babel version always give the same bytes."""
    catalog = copy.deepcopy(catalog)
    for message in list(messages_of(catalog)):
        if is_empty(message):
            catalog.delete(message.id, message.context)
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def mo_messages(data: bytes) -> tuple[dict[object, str], str]:
    """What gettext reads from a .mo: (its messages without the header, its Plural-Forms)."""
    translations = gettext.GNUTranslations(io.BytesIO(data))
    messages: dict[object, str] = dict(translations._catalog)  # type: ignore[attr-defined]
    header = messages.pop("", "")
    plural_forms = next(
        (
            line.split(":", 1)[1].strip()
            for line in header.splitlines()
            if line.lower().startswith("plural-forms:")
        ),
        "",
    )
    return messages, plural_forms


def messages_of(catalog: Catalog) -> Iterator[Message]:
    """The catalogue's messages, the header left out."""
    return (message for message in catalog if message.id)


def is_empty(message: Message) -> bool:
    strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
    return not all(strings)


@dataclass
class Counts:
    messages: int = 0
    translated: int = 0
    empty: int = 0
    fuzzy: int = 0


def counts(catalog: Catalog) -> Counts:
    found = Counts()
    for message in messages_of(catalog):
        found.messages += 1
        if message.fuzzy:
            found.fuzzy += 1
        elif is_empty(message):
            found.empty += 1
        else:
            found.translated += 1
    return found


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def mo_path(po: Path) -> Path:
    return po.with_suffix(".mo")


def label(po: Path) -> str:
    """``sv/django``: the catalogue's language and domain."""
    return f"{po.parent.parent.name}/{po.stem}"


def stale(po: Path, catalog: Catalog | None = None) -> str:
    """Why the committed .mo is not what compiling ``po`` gives ("" when it is)."""
    mo = mo_path(po)
    if not mo.exists():
        return f"{_shown(mo)} is missing"
    expected, expected_plural = mo_messages(compile_po(catalog or read(po)))
    try:
        found, found_plural = mo_messages(mo.read_bytes())
    except OSError as error:
        return f"{_shown(mo)} does not parse ({error})"
    if found_plural != expected_plural:
        return f"{_shown(mo)} has Plural-Forms {found_plural!r}, the .po {expected_plural!r}"
    if found != expected:
        changed = sorted(
            str(key)
            for key in expected.keys() | found.keys()
            if expected.get(key) != found.get(key)
        )
        shown = ", ".join(repr(key) for key in changed[:5])
        more = f" and {len(changed) - 5} more" if len(changed) > 5 else ""
        return f"{_shown(mo)} differs from its .po in {len(changed)}: {shown}{more}"
    return ""


# --- the strings marked in the source, without xgettext --------------------------------------


def source_files(extensions: tuple[str, ...], root: Path = ROOT) -> list[Path]:
    """The files makemessages reads for a domain, sorted: hidden and IGNORE'd folders left out."""
    found: list[Path] = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in IGNORE)
        found.extend(Path(folder) / name for name in files if name.endswith(extensions))
    return sorted(found)


def _extract(method: str, source: bytes, keywords: dict[str, object]) -> Iterator[tuple]:
    for _lineno, message, _comments, context in extract(
        method,
        io.BytesIO(source),
        keywords=keywords,  # type: ignore[arg-type]
    ):
        if isinstance(message, tuple):
            yield (context, message[0], message[1])
        else:
            yield (context, message, None)


def marked_strings(domain: str = "django", root: Path = ROOT) -> dict[tuple, list[str]]:
    """(context, msgid, msgid_plural) of every string marked in the source -> where
    (``path:line``-less, the files). Python files are read by Babel's Python extractor with
    makemessages' keywords, templates first go through Django's ``templatize`` (what
    makemessages does before xgettext), JavaScript files through Babel's JS extractor."""
    found: dict[tuple, list[str]] = {}
    if domain == "djangojs":
        files = source_files(JS_EXTENSIONS, root)
    else:
        files = source_files(DJANGO_EXTENSIONS, root)
    if files and domain == "django":
        _django_ready()
    for path in files:
        where = str(path.relative_to(root))
        if domain == "djangojs":
            messages = _extract("javascript", path.read_bytes(), JS_KEYWORDS)
        elif path.suffix == ".py":
            messages = _extract("python", path.read_bytes(), PYTHON_KEYWORDS)
        else:
            from django.utils.translation.template import templatize

            text = templatize(path.read_text(encoding="utf-8"), origin=where)
            # Python's tokenizer (unlike xgettext) minds the indentation of the blanked-out
            # template text around the gettext() calls; the calls' strings hold no newline.
            text = "\n".join(line.lstrip() for line in text.splitlines())
            messages = _extract("python", text.encode("utf-8"), PYTHON_KEYWORDS)
        for key in messages:
            found.setdefault(key, []).append(where)
    return found


def catalogue_keys(catalog: Catalog) -> set[tuple]:
    """(context, msgid, msgid_plural) of every message of a catalogue."""
    keys = set()
    for message in messages_of(catalog):
        if isinstance(message.id, tuple | list):
            keys.add((message.context, message.id[0], message.id[1]))
        else:
            keys.add((message.context, message.id, None))
    return keys


def _django_ready() -> None:
    """templatize needs settings (it reads none we change): set them up when nobody has."""
    from django.conf import settings

    if not settings.configured:
        sys.path.insert(0, str(ROOT))
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        import django

        django.setup()


# --- the commands ----------------------------------------------------------------------------


def command_compile(_args: argparse.Namespace) -> int:
    paths = catalogues()
    if not paths:
        print("No catalogues under locale/*/LC_MESSAGES/.")
        return 1
    for po in paths:
        catalog = read(po)
        data = compile_po(catalog)
        mo = mo_path(po)
        unchanged = mo.exists() and mo.read_bytes() == data
        if not unchanged:
            mo.write_bytes(data)
        found = counts(catalog)
        print(
            f"{label(po):16} {found.messages:5} messages: {found.translated:5} translated, "
            f"{found.empty:4} empty, {found.fuzzy:4} fuzzy -> "
            f"{mo.relative_to(ROOT)} {'unchanged' if unchanged else 'written'}"
        )
    return 0


def command_check(_args: argparse.Namespace) -> int:
    problems: list[str] = []
    for po in catalogues():
        try:
            catalog = read(po)
        except Exception as error:  # noqa: BLE001 - any parse error is reported as one
            problems.append(f"{label(po)}: does not parse: {error}")
            continue
        found = counts(catalog)
        for message in messages_of(catalog):
            what = "fuzzy" if message.fuzzy else "empty" if is_empty(message) else ""
            if what:
                msgid = message.id[0] if isinstance(message.id, tuple | list) else message.id
                lines = ", ".join(f"{file}:{line}" for file, line in message.locations[:1])
                problems.append(f"{label(po)}: {what}: {msgid!r} ({lines})")
        reason = stale(po, catalog)
        if reason:
            problems.append(
                f"{label(po)}: {reason}; run: .venv/bin/python scripts/catalogues.py compile"
            )
        print(
            f"{label(po):16} {found.messages:5} messages: {found.translated:5} translated, "
            f"{found.empty:4} empty, {found.fuzzy:4} fuzzy, .mo "
            f"{'stale' if reason else 'up to date'}"
        )
    if problems:
        print(f"\n{len(problems)} problems:")
        for problem in problems:
            print(f"  {problem}")
        return 1
    print("All catalogues complete and compiled.")
    return 0


def command_extract(_args: argparse.Namespace) -> int:
    if not shutil.which("xgettext") or not shutil.which("msgmerge"):
        print(
            "extract runs Django's makemessages, which needs GNU gettext (xgettext, msgmerge): "
            "install it (Debian: apt-get install gettext). compile and check need only Babel."
        )
        return 2
    languages = [arg for lang in LANGUAGES for arg in ("-l", lang)]
    ignores = [f"--ignore={folder}" for folder in IGNORE]
    env = {**os.environ, "DEBUG": os.environ.get("DEBUG", "1")}
    manage = [sys.executable, "manage.py", "makemessages", *languages, *ignores, "--no-obsolete"]
    subprocess.run([*manage, "-d", "django"], cwd=ROOT, env=env, check=True)
    if source_files(JS_EXTENSIONS):
        subprocess.run([*manage, "-d", "djangojs"], cwd=ROOT, env=env, check=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="scripts/catalogues.py",
        description="The translation catalogues under locale/, compiled and checked with Babel "
        "(no system gettext needed; extract runs makemessages, which does need it).",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, run, text in (
        (
            "compile",
            command_compile,
            "compile every locale/*/LC_MESSAGES/*.po to its .mo (deterministic; fuzzy and "
            "empty entries are left out) and print the counts per catalogue",
        ),
        (
            "check",
            command_check,
            "exit 1 with a list when a .po has empty or fuzzy entries, does not parse, or its "
            ".mo is missing or not what compiling it gives",
        ),
        (
            "extract",
            command_extract,
            f"run makemessages for {', '.join(LANGUAGES)} (domains django and djangojs, "
            f"leaving out {', '.join(IGNORE)}); needs GNU gettext",
        ),
    ):
        commands.add_parser(name, help=text, description=text).set_defaults(run=run)
    args = parser.parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    sys.exit(main())
