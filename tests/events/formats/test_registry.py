"""The format registry (``events.formats.registry``): a capability is asked of the formats that
implement it."""

from __future__ import annotations

from events.formats import (
    all_formats,
    formats_taking_part,
    part,
)
from tests.support.capabilities import CAPABILITIES


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
