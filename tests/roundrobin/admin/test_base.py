"""Tests of roundrobin/admin/base.py: readable lists, filters, history pages and refused deletes."""

from __future__ import annotations

import pytest
from django.urls import reverse

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
from tests.support.roundrobin import START, admin_url, enter_players, make_competition

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
