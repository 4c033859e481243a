"""``{% seating_report view %}`` renders the report of a round drawn apart, nothing otherwise."""

from __future__ import annotations

import pytest
from django.template import Context, Template

from blokus import selectors, services
from tests.support.seating import apart

pytestmark = pytest.mark.django_db

TEMPLATE = Template("{% load blokus_seating %}{% seating_report view %}")


def test_the_report_renders_for_a_round_drawn_apart_only(event):
    competition, session = apart(event, mode="first_round", rounds=1)
    assert TEMPLATE.render(Context({"view": selectors.session_view(session)})).strip() == ""
    services.round_draw(session=session, seed=1)
    html = TEMPLATE.render(Context({"view": selectors.session_view(session)}))
    assert 'id="seating-report"' in html and "drawn apart" in html
