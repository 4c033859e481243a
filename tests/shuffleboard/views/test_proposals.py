"""The board page where players enter their games (``shuffleboard.views.proposals``): propose,
confirm, refusals and the wrong-code lock, through real requests."""

from __future__ import annotations

from django.urls import reverse

from events.models import ResultProposal
from events.services import proposals as shared
from shuffleboard import proposals
from shuffleboard.models import Turn
from tests.support.shuffleboard import (
    FULL,
    SHORT,
    ProposalStatus,
    board_url,
    post_game,
    proposal_payload,
    shows_public,
    submit_proposal,
    turn_on,
    url,
)


def test_pages_propose_confirm_and_the_desk_sees_it(
    board, client, desk_client, django_assert_max_num_queries
):
    competition, (a, b, c, _d) = board
    with django_assert_max_num_queries(8):
        assert client.get(board_url(competition)).status_code == 200
    assert post_game(client, competition, a).status_code == 302
    proposal = ResultProposal.objects.get()
    page = client.get(board_url(competition)).content.decode()
    assert f"proposal-{proposal.pk}" in page and "116" in page
    desk = desk_client.get(
        reverse("events:proposals", args=[competition.event.slug, competition.slug])
    )
    assert desk.status_code == 200 and f"proposal-{proposal.pk}" in desk.content.decode()
    confirm = client.post(
        board_url(competition, "propose_confirm", proposal.pk),
        {
            "entry": c.pk,
            "code": proposals.board_code(competition, 1),
            "revision": proposal.revision,
            "submission": "c1",
        },
    )
    assert confirm.status_code == 302
    assert Turn.objects.get(entry=a, number=1).score == 116


def test_pages_refuse_a_wrong_code_and_replays(board, client):
    competition, (a, *_rest) = board
    response = post_game(client, competition, a, code="XXXXX")
    assert response.status_code == 403 and b"board&#x27;s code" in response.content
    assert post_game(client, competition, a, submission="same").status_code == 302
    post_game(client, competition, a, submission="same", gate1=1)
    assert ResultProposal.objects.count() == 1
    bad = post_game(client, competition, a, gate1="x", submission="bad")
    assert bad.status_code == 400


def test_setting_off_gives_404(sjoelen, playing, client):
    assert client.get(board_url(sjoelen)).status_code == 404
    turn_on(sjoelen)
    too_far = reverse("shuffleboard:propose", args=[sjoelen.event.slug, sjoelen.slug, 99])
    assert client.get(too_far).status_code == 404


def test_hostile_confirmations_are_refused_without_a_500(board, client):
    competition, (a, *_rest) = board
    proposal = submit_proposal(competition, a, proposal_payload(a))
    for data in (
        {"entry": "x", "code": "", "revision": "-1"},
        {"entry": a.pk, "code": proposals.board_code(competition, 1), "revision": 99},
        {"entry": 999999, "code": "\x00", "revision": "0"},
    ):
        response = client.post(board_url(competition, "propose_confirm", proposal.pk), data)
        assert response.status_code in (400, 403, 409)
    assert client.post(board_url(competition, "propose_confirm", 999999), {}).status_code == 404
    proposal.refresh_from_db()
    assert proposal.status == ProposalStatus.PROPOSED


def test_wrong_board_codes_lock_the_board_with_the_cache_down(board, client, settings):
    """The lock holds without Redis (it counted in the cache, which answered 0)."""
    settings.CACHES = {
        "default": {
            "BACKEND": "events.common.cache.OptionalRedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",  # nothing listens there
        }
    }
    competition, (a, *_rest) = board
    for n in range(shared.WRONG_CODES_ALLOWED):
        wrong = post_game(client, competition, a, code="ZZZZZ", submission=f"w{n}")
        assert wrong.status_code == 403
    right = post_game(client, competition, a, submission="right")
    assert right.status_code == 403 and b"Too many" in right.content
    assert not ResultProposal.objects.exists()


def test_the_board_page_names_the_sender_by_the_public_name(client, desk_client, asa):
    competition, a, _b = asa
    competition.settings = {**competition.settings, "results_from_players": True}
    competition.save(update_fields=["settings"])
    board_url = url("propose", competition, 1)
    response = client.post(
        board_url,
        {
            "entry": a.pk,
            "code": proposals.board_code(competition, 1),
            "number": 3,
            "gate1": 5,
            "gate2": 9,
            "gate3": 5,
            "gate4": 7,
            "submission": "s1",
        },
    )
    assert response.status_code == 302
    proposal = ResultProposal.objects.get()
    page = client.get(board_url).content.decode()
    assert f"proposal-{proposal.pk}" in page and f"<strong>{SHORT}</strong>" in page
    shows_public(page)
    desk = desk_client.get(
        reverse("events:proposals", args=[competition.event.slug, competition.slug])
    ).content.decode()
    assert f"proposal-{proposal.pk}" in desk and FULL in desk
    assert proposal.payload["name"] == FULL  # stored for the desk: the full name
