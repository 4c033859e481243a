"""Admin cannot store what the pages cannot show: a tiebreak stage's players,
a rating snapshot's table, and struck/adjudicated on a game in progress are checked by the
model and the database, shown read-only in admin (they follow from the draw and the desk's
services), and the pages answer 200 even for a row they cannot place."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse

from events.models import Game, Round, Seat
from roundrobin.models import GameDetail, RatingSnapshot, TiebreakStage
from tests.support.factories import UserFactory
from tests.support.roundrobin import play


def violates(make) -> bool:
    try:
        with transaction.atomic():
            make()
    except IntegrityError:
        return True
    return False


def _stage(started, players_key: str) -> TiebreakStage:
    table = Game.objects.filter(round__session__competition=started).first().round.session
    number = Round.objects.filter(session=table).count() + 10
    round_ = Round.objects.create(session=table, number=number, seed=1)
    return TiebreakStage(
        round=round_, table=table, kind="decider", attempt=1, place=1, players_key=players_key
    )


def _table_players(started) -> list[int]:
    table = Game.objects.filter(round__session__competition=started).first().round.session
    return sorted(
        set(Seat.objects.filter(game__round__session=table).values_list("entry_id", flat=True))
    )


@pytest.mark.parametrize("key", ["purple", "74;75", "7475", "1,", ",1,2", "1, 2", "２,３"])
def test_the_database_refuses_a_players_key_that_is_not_ids(started, key):
    assert violates(_stage(started, key).save)


def test_the_model_wants_the_tables_own_players_in_order(started):
    ids = _table_players(started)
    with pytest.raises(ValidationError, match="ascending"):
        _stage(started, f"{ids[1]},{ids[0]}").full_clean()
    with pytest.raises(ValidationError, match="plays at its table"):
        _stage(started, f"{ids[0]},999999").full_clean()
    _stage(started, f"{ids[0]},{ids[1]}").full_clean()


def test_adjudicated_or_struck_needs_a_game_that_is_over(started):
    detail = GameDetail.objects.filter(game__round__session__competition=started).first()
    assert not detail.is_over
    for field in ("adjudicated", "struck"):
        setattr(detail, field, True)
        with pytest.raises(ValidationError, match=r"ended|cancels"):
            detail.full_clean()
        assert violates(detail.save)
        setattr(detail, field, False)


@pytest.fixture
def root(client, db):
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    return client


def test_the_admin_shows_drawn_and_derived_fields_read_only(root, started, sixteen):
    play(started, sixteen[0], sixteen[1])
    snapshot = RatingSnapshot.objects.get(entry=sixteen[0])
    detail = GameDetail.objects.filter(game__round__session__competition=started).first()
    ids = _table_players(started)
    stage = _stage(started, f"{ids[0]},{ids[1]}")
    stage.save()
    forms = {
        reverse("admin:roundrobin_ratingsnapshot_change", args=[snapshot.pk]): "table",
        reverse("admin:roundrobin_tiebreakstage_change", args=[stage.pk]): "players_key",
        reverse("admin:roundrobin_gamedetail_change", args=[detail.pk]): "adjudicated",
    }
    for address, field in forms.items():
        page = root.get(address)
        assert page.status_code == 200
        assert f'name="{field}"' not in page.content.decode(), address
    # A post naming them anyway changes nothing.
    root.post(
        reverse("admin:roundrobin_ratingsnapshot_change", args=[snapshot.pk]),
        {"rating": snapshot.rating, "rated_games": 40, "table": 99},
    )
    snapshot.refresh_from_db()
    assert snapshot.table != 99
    assert root.get(reverse("admin:roundrobin_tiebreakstage_add")).status_code == 403
    assert root.get(reverse("admin:roundrobin_ratingsnapshot_add")).status_code == 403


def test_pages_answer_for_a_snapshot_whose_table_is_wrong(client, organiser, started, sixteen):
    """Old rows (or a raw edit) naming a table the entry does not play at: no 500."""
    play(started, sixteen[0], sixteen[1])
    RatingSnapshot.objects.filter(entry=sixteen[0]).update(table=99)
    event, slug = started.event.slug, started.slug
    urls = [
        reverse("roundrobin:tables", args=[event, slug]),
        reverse("roundrobin:screen", args=[event, slug]),
        reverse("roundrobin:ratings", args=[event, slug]),
        started.get_absolute_url(),
        *(reverse("roundrobin:player", args=[event, slug, e.pk]) for e in sixteen[:3]),
    ]
    for url in urls:
        assert client.get(url).status_code == 200, url
    client.force_login(organiser)
    desk = [
        reverse("roundrobin:desk", args=[event, slug]),
        reverse("roundrobin:withdraw", args=[event, slug, sixteen[0].pk]),
        started.get_desk_url(),
    ]
    for url in desk:
        assert client.get(url).status_code in (200, 302), url
