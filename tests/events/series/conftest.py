"""The season of the series tests: three sjoelen nights in one series (tests/support/series.py)."""

from __future__ import annotations

import pytest

from tests.support.series import season_of


@pytest.fixture
def season(organiser):
    return season_of(organiser)
