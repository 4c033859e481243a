"""Sjoelen games edited in admin: the same check as the desk (``Turn.clean``), versions bumped."""

from __future__ import annotations

from django.urls import reverse

from events.models import Competition
from shuffleboard import rules
from shuffleboard.models import NUMBER_OUT_OF_RANGE, Turn
from tests.support.factories import UserFactory
from tests.support.shuffleboard import PlayingEntryFactory, SjoelenFactory


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
