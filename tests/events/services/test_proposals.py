"""Results from players: the services of events/services/proposals.py with Blokus, and
the
public and desk pages, through real requests."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from events.errors import Conflict, Forbidden, NotFound, Refused, Stale
from events.models import Competition, Correction, Game, ResultProposal
from events.services import AlreadySubmitted, proposals
from tests.support.blokus import record, refused, seated_round, small
from tests.support.print_items import pdf_of
from tests.support.printing import text_of

Status = ResultProposal.Status


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()
    yield
    cache.clear()


def turn_on(competition: Competition, on: bool = True) -> None:
    competition.settings = {**competition.settings, "results_from_players": on}
    competition.save(update_fields=["settings"])


@pytest.fixture
def table(event):
    """Eight players seated, round 1 drawn, phone entry on: (competition, game A, game B)."""
    competition = small(event)
    turn_on(competition)
    session = competition.sessions.get()
    round_ = seated_round(competition, session, 8)
    a, b = round_.games.order_by("number")
    return competition, a, b


def seats_of(game: Game):
    return list(game.seats.select_related("entry__player").order_by("position"))


def payload(game: Game, squares: list[int]) -> dict:
    return {"hands": [[s.pk, n, int(n == 0)] for s, n in zip(seats_of(game), squares, strict=True)]}


def submit(game: Game, who: int, squares: list[int], **kw):
    seat = seats_of(game)[who]
    return proposals.proposal_submit(
        game=game,
        entry=seat.entry,
        code=kw.pop("code", proposals.table_code(game)),
        payload=payload(game, squares),
        **kw,
    )


# --- the table code ---


def test_the_table_code_is_short_unambiguous_and_differs_per_table(table):
    _competition, a, b = table
    code = proposals.table_code(a)
    assert len(code) == 5 and set(code) <= set(proposals.CODE_ALPHABET)
    assert not set(code) & set("0O1IL2Z5S8B")
    assert code != proposals.table_code(b)
    assert proposals.normalise_code(f" {code.lower()} ") == code


def test_wrong_codes_are_refused_then_locked(table):
    _competition, a, _b = table
    for _n in range(proposals.WRONG_CODES_ALLOWED):
        with refused("wrong_code", Forbidden):
            submit(a, 0, [0, 1, 2, 3], code="XXXXX")
    with refused("code_locked", Forbidden):  # even the right code, for a while
        submit(a, 0, [0, 1, 2, 3])
    assert not ResultProposal.objects.exists()


# --- proposing and confirming ---


def test_a_second_player_confirming_puts_the_result_in(table):
    competition, a, _b = table
    first = submit(a, 0, [0, 1, 2, 3])
    assert first.status == Status.PROPOSED
    a.refresh_from_db()
    assert not a.is_finished
    second = proposals.proposal_confirm(
        proposal=first,
        entry=seats_of(a)[2].entry,
        code=proposals.table_code(a),
        revision=first.revision,
    )
    assert second.status == Status.ACCEPTED and second.confirmed_by_id == seats_of(a)[2].entry_id
    a.refresh_from_db()
    assert a.is_finished
    assert [s.score for s in seats_of(a)] == [5, -1, -2, -3]
    trail = Correction.objects.get(competition=competition)
    assert trail.entry_id == seats_of(a)[0].entry_id and trail.source == "desk"
    assert seats_of(a)[2].entry.player.name in trail.note


def test_the_same_result_sent_by_a_second_player_confirms_it(table):
    _competition, a, _b = table
    submit(a, 0, [0, 1, 2, 3])
    second = submit(a, 1, [0, 1, 2, 3])
    assert second.status == Status.ACCEPTED
    assert ResultProposal.objects.count() == 1


def test_the_proposer_cannot_confirm_their_own_result(table):
    _competition, a, _b = table
    first = submit(a, 0, [0, 1, 2, 3])
    with refused("own_proposal", Refused):
        proposals.proposal_confirm(
            proposal=first,
            entry=seats_of(a)[0].entry,
            code=proposals.table_code(a),
            revision=first.revision,
        )


def test_a_different_result_is_a_conflict_and_a_resend_replaces_ones_own(table):
    _competition, a, _b = table
    first = submit(a, 0, [0, 1, 2, 3])
    again = submit(a, 0, [0, 1, 2, 4])  # the proposer fixes a typo: theirs is replaced
    first.refresh_from_db()
    assert first.status == Status.WITHDRAWN and again.status == Status.PROPOSED
    other = submit(a, 1, [0, 1, 2, 3])
    again.refresh_from_db()
    assert other.status == again.status == Status.CONFLICT
    a.refresh_from_db()
    assert not a.is_finished


def test_players_not_at_the_table_and_other_refusals(table):
    competition, a, b = table
    with refused("not_at_table", Forbidden):
        proposals.proposal_submit(
            game=a,
            entry=seats_of(b)[0].entry,
            code=proposals.table_code(a),
            payload=payload(a, [0, 1, 2, 3]),
        )
    with refused(
        "monomino_with_squares"
    ):  # the rules' check, as at the desk: monomino with squares
        proposals.proposal_submit(
            game=a,
            entry=seats_of(a)[0].entry,
            code=proposals.table_code(a),
            payload={"hands": [[s.pk, 3, 1] for s in seats_of(a)]},
        )
    with refused("bad_payload"):
        proposals.proposal_submit(
            game=a,
            entry=seats_of(a)[0].entry,
            code=proposals.table_code(a),
            payload={"hands": "all zero"},
        )
    record(a, [0, 1, 2, 3])
    with refused("has_result", Conflict):
        submit(a, 0, [0, 1, 2, 3])
    turn_on(competition, False)
    with refused("proposals_off", NotFound):
        submit(b, 0, [0, 1, 2, 3])
    assert not ResultProposal.objects.exists()


def test_a_replayed_submission_key_creates_nothing(table):
    _competition, a, _b = table
    submit(a, 0, [0, 1, 2, 3], submission="key-1")
    with pytest.raises(AlreadySubmitted):
        submit(a, 0, [0, 1, 2, 3], submission="key-1")
    assert ResultProposal.objects.count() == 1


# --- the desk ---


def test_the_desk_accepts_an_edited_result_and_rejects_the_rest(table, organiser):
    competition, a, _b = table
    first = submit(a, 0, [0, 1, 2, 3])
    other = submit(a, 1, [0, 1, 2, 4])
    first.refresh_from_db()
    with refused("proposal_stale", Stale):
        proposals.proposal_accept(proposal=first, revision=first.revision - 1, by=organiser)
    proposals.proposal_accept(
        proposal=first, revision=first.revision, by=organiser, payload=payload(a, [0, 1, 2, 5])
    )
    first.refresh_from_db()
    other.refresh_from_db()
    assert first.status == Status.ACCEPTED and first.decided_by == organiser
    assert other.status == Status.REJECTED
    a.refresh_from_db()
    assert [s.score for s in seats_of(a)] == [5, -1, -2, -5]
    assert "edited" in Correction.objects.get(competition=competition).note
    with refused("proposal_decided", Stale):
        proposals.proposal_accept(proposal=first, revision=first.revision, by=organiser)


def test_rejecting_one_side_of_a_conflict_leaves_the_other_proposed(table, organiser):
    _competition, a, _b = table
    first = submit(a, 0, [0, 1, 2, 3])
    other = submit(a, 1, [0, 1, 2, 4])
    other.refresh_from_db()
    proposals.proposal_reject(proposal=other, revision=other.revision, by=organiser)
    first.refresh_from_db()
    assert first.status == Status.PROPOSED


def test_the_database_refuses_two_open_proposals_of_one_player(table):
    competition, a, _b = table
    entry = seats_of(a)[0].entry
    ResultProposal.objects.create(competition=competition, game=a, entry=entry)
    with pytest.raises(IntegrityError), transaction.atomic():
        ResultProposal.objects.create(competition=competition, game=a, entry=entry)
    with pytest.raises(IntegrityError), transaction.atomic():
        ResultProposal.objects.create(
            competition=competition, game=a, entry=seats_of(a)[1].entry, status="accepted"
        )  # closed without a decision time
    with pytest.raises(IntegrityError), transaction.atomic():
        ResultProposal.objects.create(
            competition=competition,
            game=a,
            entry=seats_of(a)[1].entry,
            confirmed_by=seats_of(a)[1].entry,
        )  # confirmed by its own proposer
    ResultProposal.objects.create(
        competition=competition,
        game=a,
        entry=entry,
        confirmed_by=seats_of(a)[2].entry,
        status="accepted",
        decided_at=timezone.now(),
    )


# --- pages ---


def propose_url(competition, game) -> str:
    return reverse("blokus:propose", args=[competition.event.slug, competition.slug, game.pk])


def form_data(game: Game, who: int, squares: list[int], **extra) -> dict:
    data = {
        "entry": seats_of(game)[who].entry_id,
        "code": proposals.table_code(game).lower(),
        "revision": game.revision,
        "submission": extra.pop("submission", ""),
    }
    for s, n in zip(seats_of(game), squares, strict=True):
        data[f"squares_{s.pk}"] = n
        if n == 0:
            data[f"monomino_{s.pk}"] = "on"
    return {**data, **extra}


def confirmation(competition, game: Game, proposal: ResultProposal, who: int) -> tuple[str, dict]:
    """The address and form of the seat ``who`` confirming ``proposal`` from their phone."""
    address = reverse(
        "blokus:propose_confirm",
        args=[competition.event.slug, competition.slug, game.pk, proposal.pk],
    )
    data = {
        "entry": seats_of(game)[who].entry_id,
        "code": proposals.table_code(game),
        "revision": proposal.revision,
        "submission": "c1",
    }
    return address, data


def test_two_phones_put_a_result_in_through_the_pages(client, table, django_assert_max_num_queries):
    competition, a, _b = table
    url = propose_url(competition, a)
    with django_assert_max_num_queries(7):
        page = client.get(url)
    assert page.status_code == 200 and b"data-me-select" in page.content
    response = client.post(url, form_data(a, 0, [0, 1, 2, 3], submission="p1"))
    assert response.status_code == 302
    first = ResultProposal.objects.get()
    page = client.get(url)
    assert f"proposal-{first.pk}".encode() in page.content
    confirm, data = confirmation(competition, a, first, 3)
    assert client.post(confirm, data).status_code == 302
    a.refresh_from_db()
    assert a.is_finished
    again = client.post(confirm, data)  # a replay: nothing more, answered like the first
    assert again.status_code == 302
    assert ResultProposal.objects.get().status == Status.ACCEPTED
    assert b"result-in" in client.get(url).content


def test_the_page_keeps_input_and_shows_errors(client, table):
    competition, a, _b = table
    url = propose_url(competition, a)
    response = client.post(url, form_data(a, 0, [0, 1, 2, 3], code="nope"))
    assert response.status_code == 403
    assert response.context["player"].errors["code"]
    assert b'value="nope"' in response.content
    response = client.post(url, form_data(a, 0, [0, 1, 2, 3], entry="x", **{"squares_0": "z"}))
    assert response.status_code == 400
    assert not ResultProposal.objects.exists()


def test_the_pages_are_404_with_the_setting_off(client, table):
    competition, a, _b = table
    turn_on(competition, False)
    assert client.get(propose_url(competition, a)).status_code == 404


def test_the_desk_sees_a_conflict_side_by_side_and_decides(
    desk_client, table, django_assert_max_num_queries
):
    competition, a, b = table
    first = submit(a, 0, [0, 1, 2, 3])
    submit(a, 1, [0, 1, 2, 4])
    submit(b, 0, [0, 1, 2, 3])
    url = reverse("events:proposals", args=[competition.event.slug, competition.slug])
    with django_assert_max_num_queries(8):  # 7, and the help badge's count
        page = desk_client.get(url)
    assert page.status_code == 200
    assert len(page.context["conflicts"]) == 1 and len(page.context["conflicts"][0]) == 2
    assert page.content.count(b'class="differs"') == 2  # the one seat they disagree on, twice
    assert len(page.context["waiting"]) == 1
    submit(b, 1, [0, 1, 2, 4])
    with django_assert_max_num_queries(8):  # as many for more proposals and games
        page = desk_client.get(url)
    assert len(page.context["conflicts"]) == 2
    first.refresh_from_db()
    accept = reverse(
        "events:proposal_accept", args=[competition.event.slug, competition.slug, first.pk]
    )
    stale = desk_client.post(accept, {"revision": first.revision - 1})
    assert stale.status_code == 409
    bad = desk_client.post(
        accept, {"revision": first.revision, "edit": "1", f"edit-squares_{seats_of(a)[0].pk}": "x"}
    )
    assert bad.status_code == 400
    assert desk_client.post(accept, {"revision": first.revision}).status_code == 302
    a.refresh_from_db()
    assert a.is_finished
    assert desk_client.post(accept, {"revision": first.revision}).status_code == 409
    hostile = desk_client.post(accept, {"revision": "1e99"})
    assert hostile.status_code == 404


def test_the_table_cards_and_the_desk_show_the_code_and_the_waiting_results(desk_client, table):
    competition, a, _b = table
    slugs = [competition.event.slug, competition.slug]
    cards = desk_client.get(reverse("blokus:round_cards", args=[*slugs, a.round_id]), follow=True)
    assert proposals.table_code(a) in text_of(pdf_of(cards))
    submit(a, 0, [0, 1, 2, 3])
    session = desk_client.get(reverse("blokus:desk_session", args=[*slugs, 1]))
    assert b'id="proposals-link"' in session.content
    assert proposals.table_code(a).encode() in session.content
    player = desk_client.get(reverse("blokus:player", args=[*slugs, seats_of(a)[0].entry_id]))
    assert b"data-propose" in player.content
    turn_on(competition, False)
    cards = desk_client.get(reverse("blokus:round_cards", args=[*slugs, a.round_id]), follow=True)
    assert proposals.table_code(a) not in text_of(pdf_of(cards))
    session = desk_client.get(reverse("blokus:desk_session", args=[*slugs, 1]))
    assert b'id="proposals-link"' not in session.content


def test_phones_put_a_result_in_with_the_cache_down(client, table, settings):
    """Redis unreachable: the pages, a wrong code and the two phones' result all still work."""
    settings.CACHES = {
        "default": {
            "BACKEND": "events.common.cache.OptionalRedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",  # nothing listens there
        }
    }
    settings.LIVE_VERSIONS_IN_CACHE = True
    competition, a, _b = table
    url = propose_url(competition, a)
    assert client.get(url).status_code == 200
    wrong = client.post(url, form_data(a, 0, [0, 1, 2, 3], code="ZZZZ", submission="w1"))
    assert wrong.status_code == 403 and not ResultProposal.objects.exists()
    assert client.post(url, form_data(a, 0, [0, 1, 2, 3], submission="p1")).status_code == 302
    first = ResultProposal.objects.get()
    confirm, data = confirmation(competition, a, first, 2)
    assert client.post(confirm, data).status_code == 302
    a.refresh_from_db()
    assert a.is_finished
    assert b"result-in" in client.get(url).content
    standings = reverse("blokus:session", args=[competition.event.slug, competition.slug, 1])
    assert client.get(standings).status_code == 200


def test_wrong_codes_lock_the_table_with_the_cache_down(client, table, settings):
    """The lock holds without Redis (it counted in the cache, which answered 0)."""
    settings.CACHES = {
        "default": {
            "BACKEND": "events.common.cache.OptionalRedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",  # nothing listens there
        }
    }
    competition, a, b = table
    url = propose_url(competition, a)
    for n in range(proposals.WRONG_CODES_ALLOWED):
        wrong = client.post(url, form_data(a, 0, [0, 1, 2, 3], code="ZZZZZ", submission=f"w{n}"))
        assert wrong.status_code == 403 and b"table card" in wrong.content
    right = client.post(url, form_data(a, 0, [0, 1, 2, 3], submission="right"))
    assert right.status_code == 403 and b"Too many wrong table codes" in right.content
    assert not ResultProposal.objects.exists()
    other = client.post(propose_url(competition, b), form_data(b, 0, [0, 1, 2, 3], submission="b"))
    assert other.status_code == 302  # another table is not locked
