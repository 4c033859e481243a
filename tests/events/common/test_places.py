"""Countries and their time zones from the tz database (events/common/places.py)."""

from __future__ import annotations

from events.common.places import countries, countries_in, country_name, zones_of


def test_countries_are_coded_named_and_sorted_by_name():
    found = dict(countries())
    assert found["SE"] == "Sweden" and found["EE"] == "Estonia"
    names = [name for _code, name in countries()]
    assert names == sorted(names)
    assert len(found) > 200


def test_a_countrys_zones_load_and_its_code_is_read_in_either_case():
    assert zones_of("SE") == ("Europe/Stockholm",)
    assert zones_of("nl") == ("Europe/Amsterdam",)
    assert "America/New_York" in zones_of("US") and len(zones_of("US")) > 10
    assert zones_of("XX") == ()


def test_a_country_is_named_in_the_language_asked_and_in_english_otherwise():
    assert country_name("SE") == "Sweden"
    assert country_name("se", "sv") == "Sverige"
    assert country_name("DE", "nl") == "Duitsland"
    assert country_name("ZZ") == "ZZ"  # unknown: the code itself


def test_the_list_in_a_language_is_sorted_with_accents_aside():
    swedish = countries_in("sv")
    names = [name for _code, name in swedish]
    assert ("SE", "Sverige") in swedish
    # "Österrike" sorts as "osterrike", among the O's, not after "Zimbabwe".
    assert names.index("Österrike") < names.index("Zimbabwe")
    assert names.index("Åland") < names.index("Belgien")
