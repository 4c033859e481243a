"""Seating the final from the desk: hidden until it makes sense, a preview of who qualifies and
the draw of seats, a confirmation that seats exactly that, and a stale check."""

from __future__ import annotations

from blokus import selectors, services
from events.models import Competition, Game, Seat
from tests.support.blokus import record, refused, register, small, url


def _seats(competition: Competition) -> list[tuple[int, str]]:
    return list(
        Seat.objects.filter(
            game__round__session__competition=competition, game__round__session__kind="final"
        )
        .order_by("position")
        .values_list("entry_id", "colour")
    )


def test_the_seat_button_is_hidden_until_every_session_is_played(desk_client, event):
    competition = small(event)
    session = competition.sessions.get()
    page = desk_client.get(url("desk", competition)).content.decode()
    assert "Seat the final…" not in page and "has not" in page
    # Asking for the preview anyway shows why, not a rule code, and seats nothing.
    preview = desk_client.get(url("final_seat", competition)).content.decode()
    assert 'id="final-preview"' not in preview and "A-BLK" not in preview
    register(competition, session, 3)
    services.session_not_held(session=session, reason="Three came.")
    page = desk_client.get(url("desk", competition)).content.decode()
    assert 'id="no-final"' in page and "there is no final." in page
    assert "Seat the final…" not in page and "A-BLK" not in page


def test_too_few_qualifiers_is_said_in_words(event):
    competition = small(event)
    session = competition.sessions.get()
    register(competition, session, 3)
    services.session_not_held(session=session, reason="Three came.")
    with refused("too_few_qualifiers"):
        services.final_seat(competition=competition)


def test_the_preview_shows_who_qualifies_and_the_draw_then_seats_exactly_that(
    desk_client, eight_played
):
    competition, _session, a, b = eight_played
    assert "Seat the final…" in desk_client.get(url("desk", competition)).content.decode()
    response = desk_client.get(url("final_seat", competition))
    page = response.content.decode()
    assert response.status_code == 200 and 'id="final-preview"' in page
    plan = response.context["final_preview"]
    assert {row.entry.pk for row in plan.finalists} == {a[0], a[1], b[0], b[1]}
    assert plan.lot_drawn_now and plan.lot_decides  # A1 and B1 are equal: the lot decides
    # Nothing was written by looking, and looking again shows the same draw.
    assert not _seats(competition) and not selectors.competition_lot(competition)
    again = desk_client.get(url("final_seat", competition)).context["final_preview"]
    assert [(r.entry.pk, c) for r, c in again.colours] == [(r.entry.pk, c) for r, c in plan.colours]
    for row, colour in plan.colours:
        assert row.entry.player.name in page and f"c-{colour}" in page
    confirmed = desk_client.post(url("final_seat", competition), {"version": plan.version})
    assert confirmed.status_code == 302
    assert _seats(competition) == [(r.entry.pk, c) for r, c in plan.colours]
    lot = selectors.competition_lot(competition)
    assert lot is not None and lot.seed == plan.lot_seed
    # A second confirmation (a double click) seats nothing more.
    twice = desk_client.post(url("final_seat", competition), {"version": plan.version})
    assert twice.status_code == 302 and len(_seats(competition)) == 4


def test_a_result_changed_after_the_preview_refuses_the_stale_confirmation(
    desk_client, eight_played
):
    competition, session, a, _b = eight_played
    plan = desk_client.get(url("final_seat", competition)).context["final_preview"]
    game = Game.objects.get(round__session=session, number=1)
    record(game, [9, 0, 1, 2])  # another desk corrects game 1: A2 now leads it
    stale = desk_client.post(url("final_seat", competition), {"version": plan.version})
    assert stale.status_code == 409 and not _seats(competition)
    page = stale.content.decode()
    assert 'data-code="final_stale"' in page and 'id="final-preview"' in page
    fresh = stale.context["final_preview"]
    assert fresh.version != plan.version
    assert (
        desk_client.post(url("final_seat", competition), {"version": fresh.version}).status_code
        == 302
    )
    assert len(_seats(competition)) == 4


def test_the_service_refuses_a_stale_version(eight_played):
    competition, *_rest = eight_played
    competition.refresh_from_db()
    with refused("final_stale"):
        services.final_seat(competition=competition, version=competition.version - 1)


def test_a_post_without_a_preview_only_shows_the_preview(desk_client, eight_played):
    competition, *_rest = eight_played
    response = desk_client.post(url("final_seat", competition))
    assert response.status_code == 200 and 'id="final-preview"' in response.content.decode()
    assert not _seats(competition)


def test_a_scorekeeper_is_not_offered_the_final(client, eight_played, django_user_model):
    competition, *_rest = eight_played
    keeper = django_user_model.objects.create(username="keeper")
    competition.event.organisers.add(keeper, through_defaults={"role": "scorekeeper"})
    client.force_login(keeper)
    page = client.get(url("desk", competition))
    assert page.status_code == 200 and "Seat the final…" not in page.content.decode()
    assert client.get(url("final_seat", competition)).status_code == 403
