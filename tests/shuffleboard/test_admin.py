"""Sjoelen games edited in admin: the same check as the desk (``Turn.clean``), versions bumped."""

from __future__ import annotations

import pytest
from django.urls import reverse

from events.models import Competition, Correction
from shuffleboard import rules, selectors, services
from shuffleboard.models import NUMBER_OUT_OF_RANGE, Turn
from tests.support.factories import UserFactory
from tests.support.shuffleboard import (
    PlayingEntryFactory,
    SjoelenFactory,
    competition_version,
    url,
)


def admin_data(entry, **changes):
    data = {"entry": entry.pk, "number": 1, "board": "", "c1": 5, "c2": 9, "c3": 5, "c4": 7}
    data.update({"max_after": "", "b1": 0, "b2": 0, "b3": 0, "b4": 0, "entered_by": ""})
    return {**data, **changes}


def test_admin_edits_obey_the_rules_and_bump_versions(client, playing):
    admin = UserFactory(is_staff=True, is_superuser=True)
    client.force_login(admin)
    entry = playing[0]
    add = reverse("admin:shuffleboard_turn_add")
    refused = client.post(add, admin_data(entry, c1=10, c2=10, c3=10, c4=1))
    assert refused.status_code == 200
    assert rules.TOO_MANY_DISCS.format(discs=30, total=31) in refused.content.decode()
    assert not Turn.objects.exists()
    wrong_number = client.post(add, admin_data(entry, number=11))
    assert str(NUMBER_OUT_OF_RANGE % {"games": 10}) in wrong_number.content.decode()

    version = Competition.objects.get(pk=entry.competition_id).version
    assert client.post(add, admin_data(entry)).status_code == 302
    turn = Turn.objects.get()
    assert turn.score == 116
    assert Competition.objects.get(pk=entry.competition_id).version == version + 1

    change = reverse("admin:shuffleboard_turn_change", args=[turn.pk])
    assert client.post(change, admin_data(entry, c4=9, c2=7, c1=7, c3=7)).status_code == 302
    turn.refresh_from_db()
    assert (turn.score, turn.revision) == (148, 2)
    assert client.get(reverse("admin:shuffleboard_turn_changelist")).status_code == 200


def test_admin_drops_the_148_sub_turn_without_the_bonus_rule_and_refuses_bonus_discs(
    client, playing
):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    entry = playing[0]
    add = reverse("admin:shuffleboard_turn_add")
    maximum = admin_data(entry, c1=7, c2=7, c3=7, c4=9, max_after=2)
    refused = client.post(add, {**maximum, "b4": 1})
    assert rules.BONUS_OFF in refused.content.decode()
    assert client.post(add, maximum).status_code == 302
    assert (Turn.objects.get().max_after, Turn.objects.get().score) == (None, 148)


def test_admin_scores_bonus_discs_with_the_bonus_rule(client, event):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    competition = SjoelenFactory(
        event=event, settings={"games": 5, "boards": 1, "bonus_disc": True}
    )
    entry = PlayingEntryFactory(competition=competition)
    data = admin_data(entry, c1=7, c2=7, c3=7, c4=9, max_after=1, b4=2)
    assert client.post(reverse("admin:shuffleboard_turn_add"), data).status_code == 302
    assert Turn.objects.get().score == 156


@pytest.fixture
def admin_client(db, client):
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    return client


def turn_admin_data(turn, **changes):
    data = {"entry": turn.entry_id, "number": turn.number, "board": turn.board or ""}
    data.update({f"c{v}": getattr(turn, f"c{v}") for v in (1, 2, 3, 4)})
    data.update({f"b{v}": 0 for v in (1, 2, 3, 4)})
    data.update({"max_after": "", "seen_revision": turn.revision})
    return {**data, **changes}


def test_an_admin_change_is_checked_beside_the_field_and_recorded(admin_client, played):
    competition = played[0].competition
    turn = Turn.objects.get(entry=played[0], number=1)
    change = reverse("admin:shuffleboard_turn_change", args=[turn.pk])
    page = admin_client.get(change).content.decode()
    assert "Game 1 of Õie Sööt" in page
    refused = admin_client.post(change, turn_admin_data(turn, c1=20, c4=20))
    html = refused.content.decode()
    assert refused.status_code == 200
    assert "There are only 30 discs, but these counts add up to 54." in html
    assert "Constraint" not in html and "sjoelen_turn" not in html
    assert 'class="form-row errors' in html or "errorlist" in html
    assert Turn.objects.get(pk=turn.pk).score == 116
    before = competition_version(competition)
    assert (
        admin_client.post(change, turn_admin_data(turn, c1=0, c2=0, c3=0, c4=30)).status_code == 302
    )
    turn.refresh_from_db()
    assert (turn.score, turn.revision) == (120, 2)
    correction = Correction.objects.get()
    assert (correction.source, correction.before, correction.after) == ("admin", "116", "120")
    assert correction.corrected_by.username == "root"
    assert competition_version(competition) == before + 1
    # a page drawn before that change is stale: a form error, nothing saved
    stale = admin_client.post(change, turn_admin_data(turn, c4=29, seen_revision=1))
    assert stale.status_code == 200 and "changed this game meanwhile" in stale.content.decode()
    assert Turn.objects.get(pk=turn.pk).score == 120


def test_admin_add_and_delete_are_recorded(admin_client, played):
    entry = played[3]
    add = reverse("admin:shuffleboard_turn_add")
    data = {"entry": entry.pk, "number": 4, "board": "", "c1": 5, "c2": 9, "c3": 5, "c4": 7}
    data.update({"max_after": "", "b1": 0, "b2": 0, "b3": 0, "b4": 0})
    assert admin_client.post(add, data).status_code == 302
    turn = Turn.objects.get(entry=entry, number=4)
    added = Correction.objects.get()
    assert (added.before, added.after, added.source) == ("–", "116", "admin")
    delete = reverse("admin:shuffleboard_turn_delete", args=[turn.pk])
    confirm = admin_client.get(delete).content.decode()
    assert "Toomas Saar, game 4: 116 → removed" in confirm
    assert admin_client.post(delete, {"post": "yes"}).status_code == 302
    assert not Turn.objects.filter(pk=turn.pk).exists()
    removed = Correction.objects.order_by("-pk").first()
    assert (removed.before, removed.after) == ("116", "removed")


def test_admin_bulk_delete_records_each_game(admin_client, played):
    competition = played[0].competition
    before = competition_version(competition)
    turns = list(Turn.objects.filter(entry=played[0]))
    changelist = reverse("admin:shuffleboard_turn_changelist")
    data = {"action": "delete_selected", "_selected_action": [t.pk for t in turns]}
    confirm = admin_client.post(changelist, data).content.decode()
    assert "Õie Sööt, game 1: 116 → removed" in confirm
    admin_client.post(changelist, {**data, "post": "yes"})
    assert not Turn.objects.filter(entry=played[0]).exists()
    assert Correction.objects.filter(after="removed").count() == 2
    assert competition_version(competition) > before


def test_an_admin_change_of_first_place_in_a_finished_competition_needs_a_tick(admin_client, final):
    competition, anna, _ = final
    services.competition_finish(competition=competition)
    turn = Turn.objects.get(entry=anna, number=2)
    change = reverse("admin:shuffleboard_turn_change", args=[turn.pk])
    asked = admin_client.post(change, turn_admin_data(turn, c4=20)).content.decode()
    assert "Anna moves from 1st to 2nd" in asked
    assert Turn.objects.get(pk=turn.pk).score == 88
    assert admin_client.post(change, turn_admin_data(turn, c4=20, confirm="on")).status_code == 302
    assert Turn.objects.get(pk=turn.pk).score == 80
    # deleting Bert's game (Anna back to 1st) shows the warning on Django's confirmation page
    best = Turn.objects.get(entry=final[2], number=1)
    page = admin_client.get(reverse("admin:shuffleboard_turn_delete", args=[best.pk]))
    assert "this changes the final standings" in page.content.decode()


def test_the_admin_list_names_the_games_and_survives_hostile_filters(admin_client, played):
    changelist = reverse("admin:shuffleboard_turn_changelist")
    html = admin_client.get(changelist).content.decode()
    assert "LinCon 2026" in html and "Õie Sööt" in html and "Sjoelen" in html
    assert "Sjoelen games" in html or "sjoelen games" in html.lower()
    hostile = ["\x00", "-1", "abc", "9" * 30, "1'--"]
    for value in hostile:
        for name in (
            "game",
            "entry__competition__id__exact",
            "entry__competition__event__id__exact",
        ):
            answer = admin_client.get(changelist, {name: value}).status_code
            assert answer in ((400,) if "\x00" in value else (200, 302))  # a NUL: refused
        assert admin_client.get(changelist, {"q": value}).status_code == (
            400 if "\x00" in value else 200
        )
    assert "Jüri" in admin_client.get(changelist, {"q": "Jüri"}).content.decode()
    turn = Turn.objects.get(entry=played[0], number=1)
    response = admin_client.get(reverse("admin:shuffleboard_turn_change", args=[turn.pk]))
    assert url("player", played[0].competition, played[0].pk) in response.content.decode()


@pytest.mark.parametrize(
    "changes",
    [
        {"c1": ""},
        {"c1": "-5"},
        {"c1": "abc"},
        {"c1": "99999999"},
        {"c1": "\x00"},
        {"b4": "2"},
        {"max_after": "9"},
        {"number": "0"},
        {"number": "11"},
        {"number": "2"},  # already entered
        {"entry": "999999"},
        {"entry": "abc"},
        {"entry": "9" * 30},
        {"board": "-1"},
        {"seen_revision": "x"},
    ],
)
def test_hostile_admin_values_never_save_an_impossible_game(admin_client, played, changes):
    turn = Turn.objects.get(entry=played[0], number=1)
    change = reverse("admin:shuffleboard_turn_change", args=[turn.pk])
    response = admin_client.post(change, turn_admin_data(turn, **changes))
    assert response.status_code in (200, 302, 400)  # 400: Django refuses a NUL byte itself
    assert "Constraint" not in response.content.decode()
    stored = Turn.objects.get(pk=turn.pk)
    assert stored.attention is None and selectors.game_rows(played[0].competition)
    assert all(row.attention is None for row in selectors.game_rows(played[0].competition))
    assert stored.number == 1 and stored.score == 116
    assert admin_client.get(url("standings", played[0].competition)).status_code == 200
