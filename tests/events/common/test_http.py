"""Numbers from URLs (events/common/http.py): anything but a 64-bit integer is a 404."""

from __future__ import annotations

import pytest
from django.http import Http404

from events.common.http import int_or_404


@pytest.mark.parametrize(("value", "number"), [("7", 7), (7, 7), ("-3", -3), (" 12 ", 12)])
def test_a_number_is_read(value, number):
    assert int_or_404(value) == number


@pytest.mark.parametrize(
    "value", [None, "", "seven", "1.5", "0x10", [], str(2**63), str(-(2**63) - 1), "9" * 40]
)
def test_anything_else_is_a_404(value):
    with pytest.raises(Http404):
        int_or_404(value)


def test_the_64_bit_edges_are_numbers():
    assert int_or_404(str(2**63 - 1)) == 2**63 - 1
    assert int_or_404(str(-(2**63))) == -(2**63)
