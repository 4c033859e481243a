"""Countries and their time zones, as the tz database lists them (tzdata's ``iso3166.tab`` and
``zone.tab``): static data of the installed package, the same in every process."""

from __future__ import annotations

import gettext
import unicodedata
import zoneinfo
from functools import cache
from importlib import resources


def _tab(name: str) -> list[list[str]]:
    try:
        text = resources.files("tzdata").joinpath(f"zoneinfo/{name}").read_text(encoding="utf-8")
    except (ModuleNotFoundError, OSError):  # no tzdata package: no country data
        return []
    return [line.split("\t") for line in text.splitlines() if line and not line.startswith("#")]


@cache
def countries() -> tuple[tuple[str, str], ...]:
    """(ISO 3166 code, English name) of every country the tz database knows, by name."""
    rows = [(row[0], row[1]) for row in _tab("iso3166.tab") if len(row) >= 2]
    return tuple(sorted(rows, key=lambda row: row[1]))


@cache
def zones_by_country() -> dict[str, tuple[str, ...]]:
    """Each country's zones (``zone.tab``), those this machine can load only."""
    available = zoneinfo.available_timezones()
    found: dict[str, list[str]] = {}
    for row in _tab("zone.tab"):
        if len(row) >= 3 and row[2] in available:
            found.setdefault(row[0], []).append(row[2])
    return {code: tuple(zones) for code, zones in found.items()}


def zones_of(country: str) -> tuple[str, ...]:
    return zones_by_country().get(country.upper(), ())


def country_name(code: str, language: str = "en") -> str:
    """The country's name in ``language`` (pycountry's translations of ISO 3166), else in
    English as the tz database has it."""
    english = _iso_names().get(code.upper()) or dict(countries()).get(code.upper(), code)
    return _translations(language).gettext(english) if language != "en" else english


@cache
def _iso_names() -> dict[str, str]:
    """ISO 3166's English names (pycountry's), which its translations are keyed on; the tz
    database's own names are shorter ("Britain (UK)") and have no translations."""
    try:
        import pycountry
    except ModuleNotFoundError:
        return {}
    return {country.alpha_2: country.name for country in pycountry.countries}


@cache
def _translations(language: str) -> gettext.NullTranslations:
    try:
        import pycountry
    except ModuleNotFoundError:
        return gettext.NullTranslations()
    return gettext.translation(
        "iso3166-1", pycountry.LOCALES_DIR, languages=[language], fallback=True
    )


def countries_in(language: str) -> list[tuple[str, str]]:
    """(code, name) of every country, named and sorted in ``language``."""
    named = [(code, country_name(code, language)) for code, _english in countries()]
    # Accents aside ("Åland" beside "Aland"): close enough to each language's alphabet for a
    # list one types into.
    return sorted(named, key=lambda row: _plain(row[1]))


def _plain(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))
