from __future__ import annotations

from django.urls import reverse

from events.models import Competition, Entry
from shuffleboard import demo
from shuffleboard.models import Turn
from tests.factories import UserFactory
from tests.shuffleboard.factories import SjoelenFactory


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
    assert "There are only 30 discs" in refused.content.decode()
    assert not Turn.objects.exists()
    wrong_number = client.post(add, admin_data(entry, number=11))
    assert "from 1 to 10" in wrong_number.content.decode()

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


def test_the_demo_is_a_40_player_10_game_competition_in_progress(event):
    competition = SjoelenFactory(event=event)
    demo.load(competition)
    competition.refresh_from_db()
    assert competition.status == Competition.Status.RUNNING
    assert competition.settings["games"] == 10
    entries = Entry.objects.filter(competition=competition)
    assert entries.count() == 40
    assert all(e.checked_in_at for e in entries)
    assert Turn.objects.filter(entry__competition=competition).count() == 40 * 3 + 20
    scores = list(Turn.objects.order_by("pk").values_list("score", flat=True))
    other = SjoelenFactory(event=event)
    demo.load(other)
    again = Turn.objects.filter(entry__competition=other).order_by("pk")
    assert list(again.values_list("score", flat=True)) == scores
