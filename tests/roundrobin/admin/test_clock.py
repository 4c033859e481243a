"""Tests of roundrobin/admin/clock.py: the admin of turns, links, reports and leave."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth.models import Permission
from django.urls import reverse

from roundrobin.models import (
    Leave,
    PlayerToken,
)
from roundrobin.services.leave import leave_take
from tests.support.factories import UserFactory
from tests.support.roundrobin import (
    START,
    admin_url,
    open_turn,
    started_duel,
)

H = dt.timedelta(hours=1)


def test_turn_mover_is_read_only_and_leaves_are_listed_read_only(client, event):
    competition, game, white, _black = started_duel(
        event, slug="adm", leave_days=10, turns="alternating"
    )
    leave_take(entry=white, start=START + H, days=2, now=START + H)
    root = UserFactory(username="rr-root", is_staff=True, is_superuser=True)
    client.force_login(root)
    turn = open_turn(game)
    assert turn.mover == 1
    change = reverse("admin:roundrobin_turn_change", args=[turn.pk])
    page = client.get(change).content.decode()
    assert 'name="mover"' not in page  # shown, not editable
    assert client.get(reverse("admin:roundrobin_turn_changelist")).status_code == 200

    leave = Leave.objects.get()
    assert client.get(reverse("admin:roundrobin_leave_changelist")).status_code == 200
    page = client.get(reverse("admin:roundrobin_leave_change", args=[leave.pk]))
    assert page.status_code == 200
    assert 'name="days"' not in page.content.decode()  # read-only: the service moved deadlines
    assert client.get(reverse("admin:roundrobin_leave_add")).status_code == 403
    # a forged post changes nothing
    client.post(reverse("admin:roundrobin_leave_change", args=[leave.pk]), {"days": "40"})
    client.post(reverse("admin:roundrobin_leave_delete", args=[leave.pk]), {"post": "yes"})
    leave.refresh_from_db()
    assert leave.days == 2


def test_the_clock_admin_pages_and_history(client, started):
    from roundrobin.models import PlayerToken, Turn

    admin = UserFactory(username="clock-root", is_staff=True, is_superuser=True)
    client.force_login(admin)
    for model in ("turn", "playertoken", "resultreport"):
        assert client.get(reverse(f"admin:roundrobin_{model}_changelist")).status_code == 200
    turn = Turn.objects.first()
    page = client.get(reverse("admin:roundrobin_turn_change", args=[turn.pk]))
    assert page.status_code == 200
    assert client.get(reverse("admin:roundrobin_turn_history", args=[turn.pk])).status_code == 200
    old = PlayerToken.objects.first().token
    client.post(
        reverse("admin:roundrobin_playertoken_changelist"),
        {"action": "renew", "_selected_action": [PlayerToken.objects.first().pk]},
    )
    assert PlayerToken.objects.first().token != old


def test_an_open_turn_cannot_be_closed_in_admin_only_its_deadline_changed(client, started):
    from roundrobin.models import Turn

    admin = UserFactory(username="clock-root", is_staff=True, is_superuser=True)
    client.force_login(admin)
    turn = Turn.objects.order_by("pk").first()
    address = reverse("admin:roundrobin_turn_change", args=[turn.pk])
    page = client.get(address).content.decode()
    assert 'name="closed_at_0"' not in page and 'name="first_missed"' not in page
    assert "cannot be closed here" in page and 'name="deadline_0"' in page
    response = client.post(
        address,
        {
            "game": turn.game_id,
            "number": 1,
            "opened_at_0": "2026-03-01",
            "opened_at_1": "13:00:00",  # Stockholm time: START
            "deadline_0": "2026-03-04",
            "deadline_1": "13:00:00",
            "first_move": "",
            "second_move": "",
            "closed_at_0": "2026-03-01",
            "closed_at_1": "14:00:00",
            "first_missed": "on",
            "second_missed": "on",
        },
    )
    assert response.status_code == 302
    turn.refresh_from_db()
    assert turn.closed_at is None and not turn.first_missed and not turn.second_missed
    assert turn.deadline == START + dt.timedelta(days=3)
    closed = Turn.objects.order_by("pk").first()
    Turn.objects.filter(pk=closed.pk).update(closed_at=START + dt.timedelta(hours=1))
    assert 'name="closed_at_0"' in client.get(address).content.decode()  # closed: editable


def test_turns_are_not_added_in_admin(client, started):
    admin = UserFactory(username="clock-root-2", is_staff=True, is_superuser=True)
    client.force_login(admin)
    assert client.get(reverse("admin:roundrobin_turn_add")).status_code == 403
    changelist = client.get(reverse("admin:roundrobin_turn_changelist")).content.decode()
    assert reverse("admin:roundrobin_turn_add") not in changelist


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
