"""The round robin's admin: readable rows, filters, search, history pages, refused deletes,
constraint messages in words."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from events.models import Game
from roundrobin import services
from roundrobin.models import (
    GameDetail,
    PlayerToken,
    RatingChange,
    RatingSnapshot,
    ResultReport,
    TiebreakStage,
    Turn,
    Withdrawal,
)
from tests.support.factories import UserFactory
from tests.support.roundrobin import START, enter_players, make_competition, play

MODELS = [
    GameDetail,
    PlayerToken,
    RatingChange,
    RatingSnapshot,
    ResultReport,
    TiebreakStage,
    Turn,
    Withdrawal,
]


@pytest.fixture
def root(client, db):
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    return client


@pytest.fixture
def played(started, sixteen):
    play(started, sixteen[0], sixteen[1])
    services.entry_withdraw(entry=sixteen[15], now=START + dt.timedelta(hours=2))
    services.result_report(entry=sixteen[2], game_id=_game(sixteen[2], sixteen[3]).pk, result="1-0")
    return started


def _game(a, b):
    return Game.objects.filter(seats__entry=a).filter(seats__entry=b).get(round__number=1)


def admin_url(model, view, *args):
    return reverse(f"admin:roundrobin_{model._meta.model_name}_{view}", args=args)


def test_every_model_has_one_clear_name():
    for model in MODELS:
        assert str(model._meta.verbose_name).startswith("round-robin "), model


@pytest.mark.parametrize(
    "model", [m for m in MODELS if m is not TiebreakStage], ids=lambda m: m.__name__
)
def test_lists_name_event_competition_and_players(root, played, sixteen, model):
    response = root.get(admin_url(model, "changelist"))
    assert response.status_code == 200
    html = response.content.decode()
    assert played.name in html
    assert played.event.name in html
    assert "P16 league" in html or "P01 league" in html or "P03 league" in html
    # the filters by event and competition, and a search by player name
    event = root.get(admin_url(model, "changelist") + f"?event={played.event.pk}")
    assert event.status_code == 200
    assert root.get(admin_url(model, "changelist") + "?q=P01").status_code == 200
    row = model.objects.first()
    change = root.get(admin_url(model, "change", row.pk))
    assert change.status_code == 200
    assert root.get(admin_url(model, "history", row.pk)).status_code == 200
    text = str(row)
    assert played.name in text and str(row.pk) != text


def test_lists_take_constant_queries(root, played, django_assert_max_num_queries):
    for model in (GameDetail, Turn, RatingChange):
        with django_assert_max_num_queries(20):
            assert root.get(admin_url(model, "changelist")).status_code == 200


def test_the_private_link_history_answers_for_staff_with_and_without_rights(
    client, played, sixteen
):
    token = PlayerToken.objects.first()
    staff = UserFactory(username="helper", is_staff=True)
    client.force_login(staff)
    assert client.get(admin_url(PlayerToken, "history", token.pk)).status_code == 403
    staff.user_permissions.add(Permission.objects.get(codename="view_playertoken"))
    response = client.get(admin_url(PlayerToken, "history", token.pk))
    assert response.status_code == 200
    assert token.token not in response.content.decode()


def test_view_on_site_opens_the_public_page(root, played):
    detail = GameDetail.objects.select_related("game__round__session").first()
    response = root.get(admin_url(GameDetail, "change", detail.pk))
    assert (
        reverse("roundrobin:tables", args=[played.event.slug, played.slug])
        in (response.content.decode())
        or "/r/" in response.content.decode()
    )


@pytest.mark.parametrize("model", [GameDetail, Turn, Withdrawal, RatingSnapshot])
def test_deleting_rows_that_results_hold_is_refused_in_words(root, played, sixteen, model):
    row = model.objects.exclude(ending="").first() if model is GameDetail else model.objects.first()
    count = model.objects.count()
    page = root.get(admin_url(model, "delete", row.pk))
    assert page.status_code == 200
    assert "protected" in page.content.decode() or "would require" in page.content.decode()
    root.post(admin_url(model, "delete", row.pk), {"post": "yes"})
    assert model.objects.count() == count
    bulk = root.post(
        admin_url(model, "changelist"),
        {"action": "delete_selected", "_selected_action": [row.pk], "post": "yes"},
    )
    assert bulk.status_code == 200
    assert model.objects.count() == count


def test_rating_changes_cannot_be_deleted_and_keep_history(root, played):
    change = RatingChange.objects.first()
    assert root.get(admin_url(RatingChange, "delete", change.pk)).status_code == 403
    assert change.history.count() == 1


def test_an_open_game_detail_can_still_be_deleted_page_opens(root, played):
    open_detail = GameDetail.objects.filter(ending="").first()
    assert root.get(admin_url(GameDetail, "delete", open_detail.pk)).status_code == 200


def test_constraint_messages_are_words(root, event):
    competition = make_competition(event, slug="words", max_table_size=3)
    enter_players(competition, 3)
    services.competition_start(competition=competition, seed=3, now=START)
    turn = Turn.objects.first()
    response = root.post(
        admin_url(Turn, "change", turn.pk),
        {
            "game": turn.game_id,
            "number": 1,
            "opened_at_0": "2026-03-01",
            "opened_at_1": "12:00:00",
            "deadline_0": "2026-03-01",
            "deadline_1": "11:00:00",
            "first_move": "",
            "second_move": "",
        },
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "is violated" not in html and "rr_turn" not in html
    assert "The deadline must be after the turn opened." in html


def test_tiebreak_stages_are_named_and_not_deleted(root, event):
    competition = make_competition(event, slug="trio", max_table_size=3)
    a, b, c = enter_players(competition, 3)
    services.competition_start(competition=competition, seed=7, now=START)
    competition.refresh_from_db()
    play(competition, a, b)
    play(competition, b, c)
    play(competition, c, a)
    stage = TiebreakStage.objects.get()
    listing = root.get(admin_url(TiebreakStage, "changelist")).content.decode()
    assert competition.name in listing and "Mini round robin" in listing
    assert "place 1" in str(stage)
    page = root.get(admin_url(TiebreakStage, "delete", stage.pk)).content.decode()
    assert "correct a result instead" in page
    root.post(admin_url(TiebreakStage, "delete", stage.pk), {"post": "yes"})
    assert TiebreakStage.objects.count() == 1
