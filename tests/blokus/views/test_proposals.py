"""The players' result page of a table (``blokus.views.proposals``): anonymous, through real
requests; a seated player sends with the table code, another confirms."""

from __future__ import annotations

import pytest
from django.urls import reverse

from events.models import Game, ResultProposal
from events.services import proposals as shared
from tests.support.blokus import seated_round, small


@pytest.fixture
def table(event):
    competition = small(event, results_from_players=True)
    game = seated_round(competition, competition.sessions.get(), 4).games.get()
    return competition, game


def page(competition, game, name="propose", *args):
    return reverse(
        f"blokus:{name}", args=[competition.event.slug, competition.slug, game.pk, *args]
    )


def form(game, entry, code, squares=(0, 1, 2, 3)):
    data = {"entry": entry.pk, "code": code, "revision": game.revision, "submission": "s1"}
    for seat, n in zip(game.seats.order_by("position"), squares, strict=True):
        data[f"squares_{seat.pk}"] = n
        if n == 0:
            data[f"monomino_{seat.pk}"] = "on"
    return data


def test_the_page_offers_the_tables_players_and_is_404_with_the_setting_off(client, event, table):
    competition, game = table
    html = client.get(page(competition, game)).content.decode()
    first = game.seats.get(position=1).entry
    assert first.player.public_name in html and "Table code" in html
    off = small(event, slug="off")
    other = seated_round(off, off.sessions.get(), 4, prefix="Q").games.get()
    assert client.get(page(off, other)).status_code == 404


def test_a_player_sends_and_another_confirms_then_the_result_is_in(client, table):
    competition, game = table
    first, second = (s.entry for s in game.seats.order_by("position")[:2])
    code = shared.table_code(game)
    sent = client.post(page(competition, game), form(game, first, code))
    assert sent.status_code == 302
    proposal = ResultProposal.objects.get()
    assert proposal.status == ResultProposal.Status.PROPOSED
    confirm = {"entry": second.pk, "code": code, "revision": proposal.revision}
    done = client.post(page(competition, game, "propose_confirm", proposal.pk), confirm)
    assert done.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_a_wrong_code_is_refused_beside_the_field(client, table):
    competition, game = table
    first = game.seats.get(position=1).entry
    response = client.post(page(competition, game), form(game, first, "WRONG"))
    assert response.status_code == 403
    assert "code" in response.context["player"].errors
    assert not ResultProposal.objects.exists()


def test_a_result_the_rules_refuse_keeps_the_form(client, table):
    competition, game = table
    first = game.seats.get(position=1).entry
    data = form(game, first, shared.table_code(game), squares=(3, 1, 2, 3))
    data[f"monomino_{game.seats.get(position=1).pk}"] = "on"  # with 3 squares left
    response = client.post(page(competition, game), data)
    assert response.status_code == 400
    assert not ResultProposal.objects.exists()
