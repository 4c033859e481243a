"""Tests of roundrobin/selectors/players.py: the players' pages, ratings, withdrawals and links."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.support.print_items import links_of, pdf_of
from tests.support.roundrobin import (
    started_with,
    token_of,
)


@pytest.fixture
def duel(event):
    competition, entries = started_with(event, "pv", 2)
    return competition, entries


def test_the_links_page_is_for_the_organiser(client, desk_client, outsider, duel):
    competition, (a, b) = duel
    address = reverse("roundrobin:links", args=[competition.event.slug, competition.slug])
    assert Client().get(address).status_code == 302
    page = desk_client.get(address, follow=True)  # the print kit's slips
    assert any(token_of(a) in link for link in links_of(pdf_of(page)))
    client.force_login(outsider)
    assert client.get(address).status_code == 403
