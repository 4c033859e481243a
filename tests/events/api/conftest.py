"""The read API's tests: every test starts with no address remembered by the rate limit."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from events.api import limits


@pytest.fixture(autouse=True)
def fresh_rate_limit() -> Iterator[None]:
    limits.forget()
    yield
    limits.forget()
