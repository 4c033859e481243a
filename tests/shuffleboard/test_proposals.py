"""Sjoelen games entered by players at the board: shuffleboard/proposals.py through
the shared events/services/proposals.py, and the board page and the desk's list through real
requests."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse

from events.errors import Conflict, Forbidden, NotFound, Refused
from events.models import Correction, ResultProposal
from events.services import AlreadySubmitted, proposals as shared
from shuffleboard import proposals
from shuffleboard.models import Turn
from tests.support.shuffleboard import board_url, post_game, turn_on

Status = ResultProposal.Status


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def board(sjoelen, playing):
    turn_on(sjoelen)
    return sjoelen, playing


def game(entry, counts=(5, 9, 5, 7), number=1, board_no=1) -> dict:
    return {"player": entry.pk, "number": number, "board": board_no, "counts": list(counts)}


def submit(competition, sender, payload, **kw):
    return shared.proposal_submit(
        competition=competition,
        entry=sender,
        code=kw.pop("code", proposals.board_code(competition, payload["board"])),
        payload=payload,
        **kw,
    )


# --- services ---


def test_the_board_code_differs_per_board_and_competition(board):
    competition, _ = board
    code = proposals.board_code(competition, 1)
    assert len(code) == 5 and set(code) <= set(shared.CODE_ALPHABET)
    assert code != proposals.board_code(competition, 2)
    assert code != proposals.board_code(competition.pk + 1, 1)


def test_a_game_proposed_then_confirmed_by_another_player_is_entered(board):
    competition, (a, b, *_rest) = board
    proposal = submit(competition, a, game(a))
    assert proposal.status == Status.PROPOSED
    assert not Turn.objects.exists()
    with pytest.raises(Refused):
        shared.proposal_confirm(
            proposal=proposal, entry=a, code=proposals.board_code(competition, 1), revision=0
        )
    done = shared.proposal_confirm(
        proposal=proposal, entry=b, code=proposals.board_code(competition, 1), revision=0
    )
    assert done.status == Status.ACCEPTED and done.confirmed_by == b
    turn = Turn.objects.get(entry=a, number=1)
    assert turn.score == 116 and turn.board == 1
    trail = Correction.objects.filter(competition=competition, entry=a)
    assert any("confirmed by" in c.note for c in trail)


def test_a_different_version_is_a_conflict_for_the_desk(board, organiser):
    competition, (a, b, *_rest) = board
    first = submit(competition, a, game(a))
    second = submit(competition, b, game(a, counts=(7, 7, 7, 9)))
    first.refresh_from_db()
    assert first.status == second.status == Status.CONFLICT
    shared.proposal_reject(proposal=first, revision=first.revision, by=organiser)
    second.refresh_from_db()
    assert second.status == Status.PROPOSED
    shared.proposal_accept(proposal=second, revision=second.revision, by=organiser)
    assert Turn.objects.get(entry=a, number=1).score == 148


def test_wrong_board_code_and_strangers_are_refused(board):
    competition, (a, b, *_rest) = board
    with pytest.raises(Forbidden):
        submit(competition, a, game(a), code="XXXXX")
    with pytest.raises(Forbidden):  # another player cannot start someone's game
        submit(competition, b, game(a))
    assert not ResultProposal.objects.exists()


def test_setting_off_and_games_entered_are_refused(board):
    competition, (a, *_rest) = board
    submit(competition, a, game(a, number=2))
    Turn.objects.create(entry=a, number=1, c1=0, c2=0, c3=0, c4=0, score=0)
    with pytest.raises(Conflict):
        submit(competition, a, game(a))
    turn_on(competition, False)
    with pytest.raises(NotFound):
        submit(competition, a, game(a, number=3))


def test_a_replayed_submission_key_creates_nothing(board):
    competition, (a, *_rest) = board
    submit(competition, a, game(a), submission="k" * 32)
    with pytest.raises(AlreadySubmitted):
        submit(competition, a, game(a, counts=(1, 1, 1, 1)), submission="k" * 32)
    assert ResultProposal.objects.count() == 1


# --- pages ---


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


def test_the_desk_accepts_an_edited_game(board, desk_client):
    competition, (a, *_rest) = board
    proposal = submit(competition, a, game(a))
    response = desk_client.post(
        reverse(
            "events:proposal_accept", args=[competition.event.slug, competition.slug, proposal.pk]
        ),
        {
            "revision": proposal.revision,
            "edit": "1",
            "edit-gate1": 7,
            "edit-gate2": 7,
            "edit-gate3": 7,
            "edit-gate4": 9,
        },
    )
    assert response.status_code == 302
    assert Turn.objects.get(entry=a, number=1).score == 148


def test_setting_off_gives_404(sjoelen, playing, client):
    assert client.get(board_url(sjoelen)).status_code == 404
    turn_on(sjoelen)
    too_far = reverse("shuffleboard:propose", args=[sjoelen.event.slug, sjoelen.slug, 99])
    assert client.get(too_far).status_code == 404


def test_the_desk_sees_the_board_code(board, desk_client):
    competition, _ = board
    entry = reverse("shuffleboard:entry", args=[competition.event.slug, competition.slug])
    page = desk_client.get(f"{entry}?board=1").content.decode()
    assert proposals.board_code(competition, 1) in page
    turn_on(competition, False)
    page = desk_client.get(f"{entry}?board=1").content.decode()
    assert proposals.board_code(competition, 1) not in page


def test_a_conflict_reaches_the_desk_side_by_side(board, desk_client):
    competition, (a, b, *_rest) = board
    first = submit(competition, a, game(a))
    second = submit(competition, b, game(a, counts=(7, 7, 7, 9)))
    other = submit(competition, b, game(b, number=2))  # another game: not part of it
    page = desk_client.get(
        reverse("events:proposals", args=[competition.event.slug, competition.slug])
    ).content.decode()
    conflicts = page.split('id="conflicts"')[1].split('id="waiting"')[0]
    assert f"proposal-{first.pk}" in conflicts and f"proposal-{second.pk}" in conflicts
    assert f"proposal-{other.pk}" not in conflicts and "<mark>" in conflicts


def test_score_cards_carry_the_code_and_the_rota_links_the_board_page(board, client, desk_client):
    competition, _ = board
    args = [competition.event.slug, competition.slug]
    cards = desk_client.get(reverse("shuffleboard:cards", args=args)).content.decode()
    assert proposals.board_code(competition, 1) in cards
    rota = client.get(reverse("shuffleboard:rota", args=args)).content.decode()
    assert board_url(competition) in rota and proposals.board_code(competition, 1) not in rota


def test_hostile_confirmations_are_refused_without_a_500(board, client):
    competition, (a, *_rest) = board
    proposal = submit(competition, a, game(a))
    for data in (
        {"entry": "x", "code": "", "revision": "-1"},
        {"entry": a.pk, "code": proposals.board_code(competition, 1), "revision": 99},
        {"entry": 999999, "code": "\x00", "revision": "0"},
    ):
        response = client.post(board_url(competition, "propose_confirm", proposal.pk), data)
        assert response.status_code in (400, 403, 409)
    assert client.post(board_url(competition, "propose_confirm", 999999), {}).status_code == 404
    proposal.refresh_from_db()
    assert proposal.status == Status.PROPOSED


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
