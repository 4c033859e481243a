"""The time-zone list: one zone per place and UTC, not ~600 names with the old
aliases; an event whose stored zone is an alias keeps it when edited."""

from __future__ import annotations

from events.models import time_zone_choices


def test_the_list_has_one_zone_per_place_and_no_aliases():
    names = [name for name, _label in time_zone_choices()]
    assert 350 < len(names) < 450
    assert {"Europe/Stockholm", "Europe/Tallinn", "Europe/Amsterdam", "UTC"} <= set(names)
    assert not {"US/Eastern", "Europe/Kiev", "Etc/GMT+1", "GB", "Zulu"} & set(names)
    assert names == sorted(names)
