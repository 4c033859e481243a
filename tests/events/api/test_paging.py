"""Opaque cursors (``events.api.paging``): what is written reads back; anything else is refused."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from events.api import paging
from events.api.caching import ApiError


@given(st.integers(min_value=0, max_value=2**63 - 1))
def test_a_cursor_reads_back(after):
    assert paging.decode(paging.encode("entries", after=after), "entries", "after") == {
        "after": after
    }


@given(st.text(max_size=300))
def test_any_other_text_is_none_or_a_400(text):
    try:
        found = paging.decode(text, "entries", "after")
    except ApiError as error:
        assert error.status == 400 and "cursor" in error.message
    else:
        assert found is None or set(found) == {"after"}


def test_pages_after_an_id_cover_every_row_once():
    rows = list(range(1, 24))
    seen, cursor = [], None
    while True:
        page, cursor = paging.after_id(rows, lambda r: r, cursor, "x", 5)
        seen += page
        if cursor is None:
            break
    assert seen == rows


@pytest.mark.parametrize("limit", [0, -1, paging.MAX_LIMIT + 1])
def test_a_limit_out_of_range_is_refused(limit):
    with pytest.raises(ApiError):
        paging.check_limit(limit)
