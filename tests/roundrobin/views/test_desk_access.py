"""Who may use each desk page of the round robin: the table of record. Whoever adds a desk page
decides here who may use it; the permissions matrix (``tests/test_permissions_matrix.py``)
checks every role against what the views declare, so this table is what keeps a declaration
from changing unnoticed."""

from __future__ import annotations

from events.permissions import MANAGE, SCOREKEEPER
from tests.support.desk_urls import declared_access

ACCESS = {
    "roundrobin:desk": SCOREKEEPER,
    "roundrobin:desk_home": SCOREKEEPER,  # the same page under the name every format has
    "roundrobin:desk_table": SCOREKEEPER,
    "roundrobin:game_result": SCOREKEEPER,
    "roundrobin:start": MANAGE,
    "roundrobin:withdraw": MANAGE,
    "roundrobin:links": MANAGE,
    "roundrobin:adjudicate": MANAGE,
    "roundrobin:desk_leave": MANAGE,
}


def test_every_desk_page_is_in_the_table_as_its_view_declares():
    assert declared_access("roundrobin") == ACCESS
