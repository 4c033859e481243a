"""Building a player record (``events.services.players``): the person key."""

from __future__ import annotations

from events import services


def test_the_person_key_is_folded_name_bar_folded_club_and_cannot_be_faked():
    from events.models import person_key

    assert services.person_key(" Õie  SÖÖT ", "Tallinn") == "oie soot|tallinn"
    assert person_key("Anna|Berg", "") != person_key("Anna", "Berg|")
    assert person_key("A\\", "|B") != person_key("A\\|", "B")
