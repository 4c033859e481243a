"""The overlays' contract, asked of the registry: a format with a part answers, one without
gets the shared answers."""

import pytest

from events.embed import contract, selectors
from events.formats.registry import formats_taking_part, part
from tests.support.factories import CompetitionFactory

pytestmark = pytest.mark.django_db


class Ours:
    def stream_tables(self, competition):
        return [contract.StreamTable(key="t1", label="Final, table 1", players=("A", "B"))]

    def stream_ticker(self, competition):
        return [contract.TickerLine(place="1", name="A", value="3")]

    def stream_clock(self, competition):
        return "blokus/_clock.html"


def test_the_protocols_are_checked_at_runtime():
    assert isinstance(Ours(), contract.StreamTables)
    assert isinstance(Ours(), contract.StreamTicker)
    assert isinstance(Ours(), contract.StreamClock)
    assert not isinstance(object(), contract.StreamTables)


def test_the_registry_says_who_takes_part_and_the_others_get_the_shared_answers():
    clocks = {game_format.key for game_format, _part in formats_taking_part(contract.StreamClock)}
    for game_format, _part in formats_taking_part(contract.StreamTicker):
        assert game_format.key  # none today: the shared ticker serves every format
    competition = CompetitionFactory(format="shuffleboard", settings={})
    if part("shuffleboard", contract.StreamClock) is None:
        assert selectors.clock_template(competition) == ""
    assert "blokus" in clocks
    blokus = CompetitionFactory(format="blokus")
    assert selectors.clock_template(blokus) == "blokus/_clock.html"
