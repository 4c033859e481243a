"""Corrections of round-robin results: the admin hook (``correct_seats``), stored data that holds
no result, the trail, undo, the warning before rewriting what was drawn from a result."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse

from events import services as event_services
from events.errors import Conflict, Invalid
from events.models import Correction, Game, Player, Seat
from roundrobin import selectors, services
from roundrobin.models import RatingChange, TiebreakStage
from tests.support.factories import UserFactory
from tests.support.roundrobin import START, enter_players, game_between, make_competition, play

H = dt.timedelta(hours=1)


def seats_of(game):
    return list(Seat.objects.filter(game=game).order_by("position"))


def values(game, white, black, colours=("white", "black")):
    first, second = seats_of(game)
    return {
        first.pk: {"score": None, "points": white, "colour": colours[0]},
        second.pk: {"score": None, "points": black, "colour": colours[1]},
    }


def points_of(game):
    return [seat.points for seat in seats_of(game)]


# --- the admin hook -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("white", "black", "colours", "code", "field"),
    [
        ("1", "1", ("white", "black"), "bad_result", "points"),
        ("0.5", "0", ("white", "black"), "bad_result", "points"),
        ("1", None, ("white", "black"), "bad_result", "points"),
        ("2", "-1", ("white", "black"), "bad_result", "points"),
        ("1", "0", ("purple", "black"), "bad_colour", "colour"),
        ("1", "0", ("black", "white"), "bad_colour", "colour"),
        (None, None, ("white", "black"), "result_required", "points"),
    ],
)
def test_correct_seats_refuses_what_is_no_result(
    started, sixteen, white, black, colours, code, field
):
    game = play(started, sixteen[0], sixteen[1])
    before = points_of(game)
    with pytest.raises(Invalid) as refused:
        services.seats_correct(game=game, values=values(game, white, black, colours))
    assert refused.value.code == code
    assert field in refused.value.error_dict
    assert points_of(game) == before
    assert not Correction.objects.exists()


def test_correct_seats_applies_a_result_and_recomputes_everything(started, sixteen):
    game = play(started, sixteen[0], sixteen[1])
    white_entry = seats_of(game)[0].entry
    version = type(started).objects.get(pk=started.pk).version
    rating_before = Player.objects.get(pk=white_entry.player_id).rating
    white_won = seats_of(game)[0].points == 1
    user = UserFactory(username="admin-user", is_staff=True)
    new = ("0", "1") if white_won else ("1", "0")
    services.seats_correct(game=game, values=values(game, *new), by=user)
    assert [str(p) for p in points_of(game)] == [str(float(n)) + "0" for n in new]
    rating_after = Player.objects.get(pk=white_entry.player_id).rating
    assert (rating_after < rating_before) == white_won
    assert RatingChange.objects.filter(game=game).count() == 2
    game.refresh_from_db()
    assert game.revision == 2
    correction = Correction.objects.get()
    assert correction.source == "admin" and correction.corrected_by == user
    assert correction.before == ("1-0" if white_won else "0-1")
    assert correction.after == ("0-1" if white_won else "1-0")
    assert correction.item.startswith("Table 1, ") and " – " in correction.item
    assert type(started).objects.get(pk=started.pk).version > version


def test_correct_seats_can_finish_an_open_game_and_records_no_correction(started, sixteen):
    game = game_between(sixteen[0], sixteen[1])
    services.seats_correct(game=game, values=values(game, "0.5", "0.5"))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.rr_detail.ending == "played_out"
    assert not Correction.objects.exists()


def test_correct_seats_0_0_is_a_double_forfeit(started, sixteen):
    game = play(started, sixteen[0], sixteen[1])
    services.seats_correct(game=game, values=values(game, "0", "0"))
    game.refresh_from_db()
    assert game.rr_detail.ending == "double_forfeit" and not game.rr_detail.rated
    assert not RatingChange.objects.filter(game=game).exists()


def test_the_game_admin_shows_an_impossible_result_as_a_form_error(client, started, sixteen):
    """Through the shared Game admin's seat inline, which calls the format's hook."""
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    game = play(started, sixteen[0], sixteen[1])
    address = reverse("admin:events_game_change", args=[game.pk])
    page = client.get(address)
    assert page.status_code == 200
    form = page.context["adminform"].form
    data = {name: value for name, value in form.initial.items() if value is not None}
    data = {k: (v.pk if hasattr(v, "pk") else v) for k, v in data.items()}
    formset = page.context["inline_admin_formsets"][0].formset
    prefix = formset.prefix
    data.update(
        {
            f"{prefix}-TOTAL_FORMS": "2",
            f"{prefix}-INITIAL_FORMS": "2",
            f"{prefix}-MIN_NUM_FORMS": "0",
            f"{prefix}-MAX_NUM_FORMS": "1000",
        }
    )
    for index, seat in enumerate(seats_of(game)):
        data.update(
            {
                f"{prefix}-{index}-id": seat.pk,
                f"{prefix}-{index}-game": game.pk,
                f"{prefix}-{index}-position": seat.position,
                f"{prefix}-{index}-entry": seat.entry_id,
                f"{prefix}-{index}-colour": "purple" if index == 0 else seat.colour,
                f"{prefix}-{index}-score": "",
                f"{prefix}-{index}-points": "1.00",
            }
        )
    before = points_of(game)
    refused = client.post(address, data)
    assert refused.status_code == 200
    assert "errorlist" in refused.content.decode()
    assert points_of(game) == before
    # Every page still answers.
    for url in pages(started, sixteen[0]):
        assert client.get(url).status_code == 200

    # A valid correction through the same form recomputes the ratings.
    white_won = before[0] == 1
    for index, seat in enumerate(seats_of(game)):
        data[f"{prefix}-{index}-colour"] = seat.colour
        data[f"{prefix}-{index}-points"] = (
            ("0" if index == 0 else "1") if white_won else ("1" if index == 0 else "0")
        )
    changes_before = list(RatingChange.objects.filter(game=game).values_list("change", flat=True))
    warned = client.post(address, data)  # ratings were applied from it: a warning first
    assert warned.status_code == 200
    assert "rating" in warned.content.decode() and not Correction.objects.exists()
    saved = client.post(address, {**data, "confirm_correction": "on"})
    assert saved.status_code == 302, re.findall(r"errorlist.*?</ul>", saved.content.decode())
    assert points_of(game) != before
    changes_after = list(RatingChange.objects.filter(game=game).values_list("change", flat=True))
    assert changes_after != changes_before
    assert Correction.objects.get().source == "admin"


# --- stored data that holds no result -------------------------------------------------------


def pages(competition, entry):
    args = [competition.event.slug, competition.slug]
    return [
        reverse("roundrobin:tables", args=args),
        reverse("roundrobin:player", args=[*args, entry.pk]),
        reverse("roundrobin:ratings", args=args),
        competition.get_absolute_url(),
    ]


def test_pages_and_the_recompute_action_survive_seats_that_hold_no_result(
    client, desk_client, started, sixteen
):
    game = play(started, sixteen[0], sixteen[1])
    # A raw SQL "fix": 1-1 is no result (each seat alone is one the database allows).
    Seat.objects.filter(game=game).update(points=1)
    for url in pages(started, sixteen[0]):
        response = client.get(url)
        assert response.status_code == 200, url
    tables = client.get(pages(started, sixteen[0])[0]).content.decode()
    assert "needs attention" in tables
    player = client.get(pages(started, sixteen[0])[1]).content.decode()
    assert "needs attention" in player
    table = selectors.table_or_404(started, 1)
    assert [view.pk for view in table.attention] == [game.pk]
    row = next(r for r in table.rows if r.entry.pk == sixteen[0].pk)
    assert row.points == 0 and row.played == 0  # not counted
    desk = desk_client.get(
        reverse("roundrobin:desk_table", args=[started.event.slug, started.slug, 1])
    )
    assert desk.status_code == 200
    assert "needs attention" in desk.content.decode()
    assert reverse("admin:events_game_change", args=[game.pk]) in desk.content.decode()

    admin = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(admin)
    response = client.post(
        reverse("admin:roundrobin_gamedetail_changelist"),
        {"action": "recompute", "_selected_action": [game.pk]},
        follow=True,
    )
    assert response.status_code == 200
    assert "need attention" in response.content.decode()
    assert not RatingChange.objects.filter(game=game).exists()


# --- the trail and undo ---------------------------------------------------------------------


def test_a_desk_correction_is_recorded_shown_and_undone(
    client, desk_client, organiser, started, sixteen
):
    game = play(started, sixteen[0], sixteen[1])
    game.refresh_from_db()
    ratings = {p.pk: p.rating for p in Player.objects.all()}
    services.game_result_record(
        competition=started,
        game_id=game.pk,
        result="1/2-1/2",
        revision=game.revision,
        by=organiser,
        confirmed=True,
    )
    correction = Correction.objects.get()
    assert correction.after == "½-½" and correction.source == "desk"
    assert correction.corrected_by == organiser and correction.payload["game"] == game.pk
    player_page = client.get(pages(started, sixteen[0])[1]).content.decode()
    assert "corrected" in player_page and organiser.username not in player_page
    desk = desk_client.get(
        reverse("roundrobin:desk_table", args=[started.event.slug, started.slug, 1])
    ).content.decode()
    assert reverse("events:correction_undo", args=[correction.pk]) in desk

    event_services.correction_undo(correction=correction, by=organiser)
    assert sorted(str(p) for p in points_of(game)) == ["0.00", "1.00"]
    assert {p.pk: p.rating for p in Player.objects.all()} == ratings
    undo = Correction.objects.get(reverts=correction)
    assert undo.source == "undo" and undo.before == "½-½"
    with pytest.raises(Conflict):
        event_services.correction_undo(correction=correction, by=organiser)


def test_undo_is_refused_when_the_game_changed_again(organiser, started, sixteen):
    game = play(started, sixteen[0], sixteen[1])
    game.refresh_from_db()
    services.game_result_record(
        competition=started,
        game_id=game.pk,
        result="1/2-1/2",
        revision=game.revision,
        confirmed=True,
    )
    first = Correction.objects.get()
    game.refresh_from_db()
    white_won_now = "0-1"
    services.game_result_record(
        competition=started,
        game_id=game.pk,
        result=white_won_now,
        revision=game.revision,
        confirmed=True,
    )
    with pytest.raises(Conflict) as refused:
        event_services.correction_undo(correction=first, by=organiser)
    assert refused.value.code == "correction_outdated"


# --- warn before rewriting history ----------------------------------------------------------


@pytest.fixture
def trio(event):
    competition = make_competition(event, slug="trio", max_table_size=3)
    entries = enter_players(competition, 3)
    services.competition_start(competition=competition, seed=7, now=START)
    competition.refresh_from_db()
    return competition, entries


def test_a_correction_that_removes_a_tiebreak_is_previewed_and_needs_confirmation(
    desk_client, trio
):
    competition, (a, b, c) = trio
    game = play(competition, a, b, at=START + H)
    play(competition, b, c, at=START + 2 * H)
    play(competition, c, a, at=START + 3 * H)  # 1-1-1: a mini round robin for place 1
    assert TiebreakStage.objects.filter(table__competition=competition).count() == 1
    game.refresh_from_db()
    white = Seat.objects.get(game=game, position=1).entry_id
    result = "0-1" if white == a.pk else "1-0"  # b beats a instead: b 2, c 1, a 0
    preview = services.preview_of_posted(competition, game.pk, result)
    assert preview is not None and preview.needs_confirmation
    assert any("no longer needed" in line for line in preview.stages)
    assert any(b.player.name in line for line in preview.places)
    assert preview.ratings
    # Nothing was written by the preview.
    assert not Correction.objects.exists()

    url = reverse(
        "roundrobin:game_result", args=[competition.event.slug, competition.slug, game.pk]
    )
    data = {"result": result, "revision": game.revision}
    warned = desk_client.post(url, data, headers={"HX-Request": "true"})
    assert warned.status_code == 200
    text = warned.content.decode()
    assert "Correct it anyway" in text and "no longer needed" in text
    assert not Correction.objects.exists()
    done = desk_client.post(url, {**data, "confirm": "1"}, headers={"HX-Request": "true"})
    assert done.status_code == 200
    assert Correction.objects.get().source == "desk"
    # None of the mini round robin was played: it is removed (played stages would stay).
    assert not TiebreakStage.objects.filter(table__competition=competition).exists()


def test_correct_seats_asks_for_confirmation_when_told_to(trio):
    competition, (a, b, c) = trio
    play(competition, a, b, at=START + H)
    game = game_between(a, b)
    with pytest.raises(Conflict) as refused:
        services.seats_correct(game=game, values=values(game, "0.5", "0.5"), confirmed=False)
    assert refused.value.code == "confirm_correction"
