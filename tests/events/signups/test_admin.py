"""Sign-ups in the admin (events/signups/admin.py): read only, and the desk's merge of possible
duplicates as an action."""

from __future__ import annotations

import pytest
from django.urls import reverse

from events.signups.models import SignUp
from events.signups.services import lifecycle as signups
from tests.support.factories import PlayerFactory
from tests.support.signups import open_window

pytestmark = pytest.mark.django_db


def test_the_chosen_duplicates_are_merged_and_the_rest_left_alone(admin_client, competition):
    window = open_window(competition, cap=3)
    known = PlayerFactory(host_id=competition.event.host_id, name="Anna Berg", club="Tartu")
    duplicate = signups.signup_submit(
        window=window, name="Anna Berg", email="anna@example.org", club="Tartu"
    )
    plain = signups.signup_submit(window=window, name="Bo", email="bo@example.org")
    answer = admin_client.post(
        reverse("admin:events_signup_changelist"),
        {"action": "merge_duplicates", "_selected_action": [duplicate.pk, plain.pk]},
        follow=True,
    )
    assert "1 sign-up merged." in answer.content.decode()
    duplicate.refresh_from_db()
    assert duplicate.register_person == known and duplicate.possible_duplicate is None
    assert SignUp.objects.get(pk=plain.pk).register_person is None


def test_sign_ups_and_windows_are_read_only_here(admin_client, competition):
    window = open_window(competition)
    sign_up = signups.signup_submit(window=window, name="Bo", email="bo@example.org")
    assert admin_client.get(reverse("admin:events_signup_add")).status_code == 403
    assert admin_client.get(reverse("admin:events_signupwindow_add")).status_code == 403
    delete = reverse("admin:events_signup_delete", args=[sign_up.pk])
    assert admin_client.post(delete, {"post": "yes"}).status_code == 403
    assert SignUp.objects.filter(pk=sign_up.pk).exists()
