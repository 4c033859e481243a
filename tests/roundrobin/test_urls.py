"""The addresses the round robin had before its pages moved under /roundrobin/: printed QR
codes and bookmarks lead to the same page by a permanent redirect."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.support.roundrobin import game_between


def new_address(name, competition, *args):
    return reverse(f"roundrobin:{name}", args=[competition.event.slug, competition.slug, *args])


def old_addresses(competition, entry_id, game_id):
    public = f"/e/{competition.event.slug}/{competition.slug}/"
    desk = f"/desk/{competition.event.slug}/{competition.slug}/"
    return [
        (f"{public}tables/", new_address("tables", competition)),
        (f"{public}players/{entry_id}/", new_address("player", competition, entry_id)),
        (f"{public}ratings/", new_address("ratings", competition)),
        (f"{desk}tables/", new_address("desk", competition)),
        (f"{desk}tables/start/", new_address("start", competition)),
        (f"{desk}tables/2/", new_address("desk_table", competition, 2)),
        (f"{desk}games/{game_id}/result/", new_address("game_result", competition, game_id)),
        (f"{desk}withdraw/{entry_id}/", new_address("withdraw", competition, entry_id)),
        (f"{desk}links/", new_address("links", competition)),
    ]


def test_the_new_addresses_carry_the_format_segment(started):
    base = f"/e/{started.event.slug}/{started.slug}/roundrobin/"
    assert new_address("tables", started) == f"{base}tables/"
    desk = f"/desk/{started.event.slug}/{started.slug}/roundrobin/"
    assert new_address("desk_table", started, 1) == f"{desk}tables/1/"


@pytest.mark.parametrize("method", ["get", "head"])
def test_every_old_address_redirects_permanently(client, started, sixteen, method):
    game = game_between(sixteen[0], sixteen[1])
    for old, new in old_addresses(started, sixteen[0].pk, game.pk):
        response = getattr(client, method)(old)
        assert response.status_code == 301, old
        assert response["Location"] == new


def test_the_redirect_keeps_the_query_string(client, started):
    response = client.get(f"/e/{started.event.slug}/{started.slug}/tables/?from=qr&table=2")
    assert response.status_code == 301
    assert response["Location"] == new_address("tables", started) + "?from=qr&table=2"


def test_a_printed_qr_code_still_reaches_the_live_page(client, started, sixteen):
    old = f"/e/{started.event.slug}/{started.slug}/players/{sixteen[3].pk}/"
    response = client.get(old, follow=True)
    assert response.status_code == 200
    assert response.redirect_chain == [(new_address("player", started, sixteen[3].pk), 301)]
    assert sixteen[3].player.name in response.content.decode()


def test_a_form_posted_to_an_old_address_is_sent_on_with_its_method(desk_client, started, sixteen):
    game = game_between(sixteen[0], sixteen[1])
    old = f"/desk/{started.event.slug}/{started.slug}/games/{game.pk}/result/"
    response = desk_client.post(old, {"result": "1-0", "revision": 0})
    assert response.status_code == 308
    assert response["Location"] == reverse(
        "roundrobin:game_result", args=[started.event.slug, started.slug, game.pk]
    )
