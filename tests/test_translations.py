"""The translation catalogues are complete, correct and compiled.

Without system gettext: Babel reads the .po files and the source (``scripts/catalogues.py`` holds
the shared helpers). For each catalogue ``locale/<lang>/LC_MESSAGES/<domain>.po``:

- it parses, its header names its language and the language's plural rule;
- no entry is empty or fuzzy;
- every placeholder of the English (``%(name)s``, ``%s``, ``{name}``) is in the translation, in
  every plural form, and no other;
- no translation is the English text itself, unless its words are in
  :data:`tests.support.translations.SAME_AS_ENGLISH`;
- the committed .mo is what compiling the .po gives (a .po changed without compiling fails);
- every string marked in the source (Python, templates, JavaScript) is in the catalogue.

How to fix a failure: mark the string, run ``make messages`` (extract and compile), translate it
in ``locale/<lang>/LC_MESSAGES/django.po`` (``djangojs.po`` for JavaScript), then run
``.venv/bin/python scripts/catalogues.py compile``.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from tests.support.translations import (
    PYTHON_FORMAT,
    SAME_AS_ENGLISH,
    SAME_AS_ENGLISH_EVERYWHERE,
    WORD,
    cat,
)

ROOT = Path(__file__).resolve().parent.parent
FIX = (
    "mark the string, run `make messages`, translate it in "
    "locale/<lang>/LC_MESSAGES/<domain>.po, then run: "
    ".venv/bin/python scripts/catalogues.py compile"
)
LANGUAGES: tuple[str, ...] = cat.LANGUAGES
CATALOGUES: list[Path] = cat.catalogues()
IDS = [cat.label(po) for po in CATALOGUES]

# The plural rule of each language (CLDR / gettext): one form for 1, another for the rest.
PLURAL_FORMS = {
    "sv": "nplurals=2; plural=(n != 1);",
    "et": "nplurals=2; plural=(n != 1);",
    "nl": "nplurals=2; plural=(n != 1);",
}

# Messages with this many letters or fewer (placeholders left out) may stay as they are: "K", "G".
FEW_LETTERS = 3

BRACE_FORMAT = re.compile(r"(?<!\{)\{(\w*)(?:[!:][^{}]*)?\}(?!\})")


def _language(po: Path) -> str:
    return po.parent.parent.name


@cache
def _read(po: Path):
    return cat.read(po)


def _header(po: Path, name: str) -> str:
    match = re.search(rf'^"{name}: (.*?)\\n"$', po.read_text(encoding="utf-8"), re.MULTILINE)
    return match.group(1).strip() if match else ""


def _forms(value) -> list[str]:
    return list(value) if isinstance(value, tuple | list) else [value]


def _where(message) -> str:
    return ", ".join(f"{file}:{line}" for file, line in message.locations[:2]) or "no location"


def placeholders(text: str, python_format: bool) -> tuple[tuple[str, ...], ...]:
    """The placeholders of ``text``, sorted: python-format (named, and unnamed ones counted) when
    the message is python-format, and brace ones ``{name}`` always."""
    found: list[str] = []
    if python_format:
        for match in PYTHON_FORMAT.finditer(text):
            if match["type"] == "%":
                continue
            found.append(
                f"%({match['name']}){match['type']}" if match["name"] else "%" + match["type"]
            )
    braces = [f"{{{name}}}" for name in BRACE_FORMAT.findall(text)]
    return (tuple(sorted(found)), tuple(sorted(braces)))


def _letters(text: str) -> int:
    text = PYTHON_FORMAT.sub("", text)
    text = BRACE_FORMAT.sub("", text)
    return sum(ch.isalpha() for ch in text)


# --- the catalogues exist ----------------------------------------------------------------------


def test_every_language_has_a_catalogue() -> None:
    missing = [
        f"locale/{lang}/LC_MESSAGES/django.po"
        for lang in LANGUAGES
        if not (cat.LOCALE / lang / "LC_MESSAGES" / "django.po").exists()
    ]
    assert not missing, f"missing catalogues {missing}: run `make messages`"


# --- each catalogue ----------------------------------------------------------------------------


@pytest.mark.parametrize("po", CATALOGUES, ids=IDS)
def test_header_names_the_language_and_its_plural_rule(po: Path) -> None:
    lang = _language(po)
    _read(po)  # parses (abort_invalid: a broken entry raises)
    assert _header(po, "Language") == lang, f"{po}: the header's Language is not {lang!r}"
    assert lang in PLURAL_FORMS, f"{po}: no plural rule known for {lang!r} (PLURAL_FORMS)"
    found = _header(po, "Plural-Forms").replace(" ", "").rstrip(";")
    expected = PLURAL_FORMS[lang].replace(" ", "").rstrip(";")
    assert found == expected, f"{po}: Plural-Forms is {found!r}, {lang} needs {expected!r}"
    assert "charset=UTF-8" in _header(po, "Content-Type"), f"{po}: not UTF-8"


@pytest.mark.parametrize("po", CATALOGUES, ids=IDS)
def test_no_entry_is_empty_or_fuzzy(po: Path) -> None:
    problems = []
    for message in cat.messages_of(_read(po)):
        if message.fuzzy:
            problems.append(f"fuzzy: {_forms(message.id)[0]!r} ({_where(message)})")
        elif cat.is_empty(message):
            problems.append(f"empty: {_forms(message.id)[0]!r} ({_where(message)})")
    assert not problems, (
        f"{cat.label(po)}: {len(problems)} of {sum(1 for _ in cat.messages_of(_read(po)))} "
        f"entries are not translated (translate them in {po.relative_to(ROOT)}, remove the "
        "fuzzy flag once checked, then run: .venv/bin/python scripts/catalogues.py compile):\n  "
        + "\n  ".join(problems[:60])
        + (f"\n  … and {len(problems) - 60} more" if len(problems) > 60 else "")
    )


@pytest.mark.parametrize("po", CATALOGUES, ids=IDS)
def test_placeholders_are_kept(po: Path) -> None:
    problems = []
    for message in cat.messages_of(_read(po)):
        python_format = "python-format" in message.flags or "javascript-format" in message.flags
        ids = _forms(message.id)
        singular = placeholders(ids[0], python_format)
        general = placeholders(ids[-1], python_format)
        for index, string in enumerate(_forms(message.string)):
            if not string:
                continue
            found = placeholders(string, python_format)
            # A plural form has the general (plural) form's placeholders; one may drop the
            # count as the English singular does ("one game" / "%(n)s games").
            if found != general and not (len(ids) > 1 and found == singular):
                problems.append(
                    f"{ids[0]!r} form {index}: {string!r} has {found}, the English {general} "
                    f"({_where(message)})"
                )
    assert not problems, f"{cat.label(po)}: placeholders changed:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("po", CATALOGUES, ids=IDS)
def test_no_translation_is_the_english_left_as_it_was(po: Path) -> None:
    lang = _language(po)
    allowed = SAME_AS_ENGLISH_EVERYWHERE | SAME_AS_ENGLISH.get(lang, set())
    problems = []
    for message in cat.messages_of(_read(po)):
        ids, strings = _forms(message.id), _forms(message.string)
        for english, string in zip(ids, strings, strict=False):
            if string != english or _letters(english) <= FEW_LETTERS:
                continue
            words = {w.lower() for w in WORD.findall(PYTHON_FORMAT.sub(" ", english))}
            if words <= allowed:
                continue
            problems.append(f"{english!r} ({_where(message)})")
    assert not problems, (
        f"{cat.label(po)}: translated as the English itself (translate them, or add the words to "
        f"SAME_AS_ENGLISH[{lang!r}] in tests/test_translations.py when {lang} spells them the "
        "same):\n  " + "\n  ".join(problems)
    )


@pytest.mark.parametrize("po", CATALOGUES, ids=IDS)
def test_compiled_catalogue_is_the_po_compiled(po: Path) -> None:
    catalog = _read(po)
    data = cat.compile_po(catalog)
    assert data == cat.compile_po(catalog), "compiling is not deterministic"
    reason = cat.stale(po, catalog)
    assert not reason, (
        f"{cat.label(po)}: {reason}. run: .venv/bin/python scripts/catalogues.py compile"
    )


def test_a_po_changed_without_compiling_is_caught(tmp_path: Path) -> None:
    po = tmp_path / "sv" / "LC_MESSAGES" / "django.po"
    po.parent.mkdir(parents=True)
    po.write_text(
        'msgid ""\nmsgstr ""\n"Language: sv\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
        '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
        'msgid "Round"\nmsgstr "Omgång"\n\n'
        'msgid "%(n)s game"\nmsgid_plural "%(n)s games"\nmsgstr[0] "%(n)s parti"\n'
        'msgstr[1] "%(n)s partier"\n\n'
        'msgid "Empty"\nmsgstr ""\n',
        encoding="utf-8",
    )
    assert "missing" in cat.stale(po)
    cat.mo_path(po).write_bytes(cat.compile_po(cat.read(po)))
    assert cat.stale(po) == ""
    messages, plural_forms = cat.mo_messages(cat.mo_path(po).read_bytes())
    assert messages == {
        "Round": "Omgång",
        ("%(n)s game", 0): "%(n)s parti",
        ("%(n)s game", 1): "%(n)s partier",
    }
    assert plural_forms == "nplurals=2; plural=(n != 1);"
    po.write_text(po.read_text(encoding="utf-8").replace("Omgång", "Rond"), encoding="utf-8")
    assert "differs from its .po in 1: 'Round'" in cat.stale(po)


# --- every marked string is in every catalogue ---------------------------------------------------


@cache
def _marked(domain: str) -> dict[tuple, list[str]]:
    return cat.marked_strings(domain)


def _show(key: tuple) -> str:
    context, msgid, plural = key
    shown = repr(msgid)
    if plural is not None:
        shown += f" / plural {plural!r}"
    if context is not None:
        shown += f" (context {context!r})"
    return shown


@pytest.mark.parametrize("domain", ["django", "djangojs"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_marked_string_is_in_the_catalogue(lang: str, domain: str) -> None:
    marked = _marked(domain)
    po = cat.LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"
    if not marked:
        return  # nothing marked in this domain (no JavaScript string yet): nothing to hold
    if not po.exists():
        pytest.fail(
            f"{len(marked)} strings are marked in the {domain} domain but "
            f"{po.relative_to(ROOT)} does not exist: run `make messages`, translate, compile"
        )
    have = cat.catalogue_keys(_read(po))
    missing = sorted(set(marked) - have, key=lambda key: (key[1], str(key[2]), str(key[0])))
    assert not missing, (
        f"{lang}/{domain}: {len(missing)} marked strings are not in {po.relative_to(ROOT)}; "
        f"{FIX}:\n  "
        + "\n  ".join(
            f"{_show(key)} in {', '.join(sorted(set(marked[key]))[:3])}" for key in missing
        )
    )


def test_extraction_finds_the_strings_makemessages_found() -> None:
    """The Babel extraction (what the test above relies on) reads the same files as makemessages:
    most of a catalogue's msgids are found in the source (a catalogue has a few more only while
    strings were changed since makemessages ran)."""
    marked = set(_marked("django"))
    have = cat.catalogue_keys(_read(cat.LOCALE / "sv" / "LC_MESSAGES" / "django.po"))
    assert len(have & marked) >= 0.9 * len(have), (
        f"only {len(have & marked)} of the catalogue's {len(have)} msgids are found in the source"
    )
