"""Tests of roundrobin/admin/clock.py: the admin of turns, links, reports and leave."""

from __future__ import annotations

import datetime as dt

from django.urls import reverse

from roundrobin.models import Leave
from roundrobin.services.leave import leave_take
from tests.support.factories import UserFactory
from tests.support.roundrobin import START, open_turn, started_duel

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
