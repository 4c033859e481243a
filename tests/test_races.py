"""Two desks doing the same thing at the same moment: one person stays one row.

The races run on PostgreSQL with real separate connections: each thread gets its own
connection (closed when it ends), and a barrier starts them together. On SQLite they are
skipped: its single writer lock serializes the two transactions, so the race cannot happen
there. The double submission (the same form posted twice) runs on both.
"""

from __future__ import annotations

import functools
import os
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from events import services
from events.exchange import players as players_import
from events.models import Competition, Entry, Event, Player, SubmissionToken
from tests.support.factories import (
    CompetitionFactory,
    EventFactory,
    HostClubFactory,
    PlayerFactory,
    UserFactory,
)
from tests.support.races import postgres_only, refusal_codes, run_together

TRIALS = int(os.environ.get("RACE_TRIALS", "10"))  # RACE_TRIALS=100 for a longer run


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_the_same_new_player_from_two_desks_at_once_is_one_row_and_one_entry():
    for trial in range(TRIALS):
        competition = CompetitionFactory()
        name = f"Ängla Öst {trial}"

        def register(name: str = name, competition: Competition = competition) -> Any:
            return services.player_register_new(competition=competition, name=name, club="Kumla")

        codes = refusal_codes(run_together(register, register))
        assert codes == ["ok", "player_exists"], codes
        assert Player.objects.filter(name=name).count() == 1
        assert Entry.objects.filter(competition=competition).count() == 1


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_the_same_new_player_in_two_competitions_at_once_is_one_row():
    for trial in range(TRIALS):
        event = EventFactory()
        first, second = CompetitionFactory(event=event), CompetitionFactory(event=event)
        name = f"Bo Ek {trial}"
        results = run_together(
            functools.partial(services.player_create, host_id=event.host_id, name=name, club=""),
            functools.partial(
                services.player_create, host_id=event.host_id, name=name.upper(), club=""
            ),
        )
        assert refusal_codes(results) == ["ok", "player_exists"]
        assert Player.objects.filter(name__iexact=name).count() == 1
        assert first.pk != second.pk


CSV = "name,club,email,rating\nAnna Berg,Uppsala,,1600\nBo Ek,,bo@example.org,\nCé Dur,Lund,,\n"


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_the_same_csv_imported_twice_at_once_registers_every_row_once():
    PlayerFactory(name="Bo Ek", club="")  # one row reuses a known player
    for _trial in range(TRIALS):
        competition = CompetitionFactory()

        def import_csv(competition: Competition = competition) -> Any:
            return players_import.players_import_csv(competition=competition, data=CSV.encode())

        codes = refusal_codes(run_together(import_csv, import_csv))
        # The loser reads the file again against what the winner committed.
        assert codes == ["bad_csv", "ok"], codes
        assert Entry.objects.filter(competition=competition).count() == 3
    assert Player.objects.count() == 3


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_two_csv_imports_sharing_new_players_into_two_competitions_make_each_player_once():
    for trial in range(TRIALS):
        event = EventFactory()
        first, second = CompetitionFactory(event=event), CompetitionFactory(event=event)
        data = f"Dag Fors {trial},Kumla\nEva Gran {trial},Kumla\n".encode()
        results = run_together(
            functools.partial(players_import.players_import_csv, competition=first, data=data),
            functools.partial(players_import.players_import_csv, competition=second, data=data),
        )
        assert refusal_codes(results) == ["ok", "ok"]
        assert Player.objects.filter(name__endswith=f" {trial}").count() == 2
        assert Entry.objects.filter(competition=first).count() == 2
        assert Entry.objects.filter(competition=second).count() == 2


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_the_same_form_token_posted_twice_at_once_acts_once():
    for trial in range(TRIALS):
        competition = CompetitionFactory()
        token = f"race-token-{trial}"

        register = functools.partial(
            services.player_register_new,
            competition=competition,
            name="Fia Gren",
            club=f"K{trial}",
            submission=token,
        )
        codes = refusal_codes(run_together(register, register))
        assert codes == ["already_submitted", "ok"], codes
        assert Entry.objects.filter(competition=competition).count() == 1


# --- the double click, over HTTP (both databases) ------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_new_player_form_posted_twice_registers_once(client):
    organiser = UserFactory()
    competition = CompetitionFactory(event=EventFactory(organisers=[organiser]))
    client.force_login(organiser)
    page = client.get(competition.get_desk_url())
    token = page.context["new_player_form"]["submission"].initial
    assert token and f'value="{token}"' in page.content.decode()
    url = reverse("events:register_new", args=[competition.event.slug, competition.slug])
    data = {"name": "Gus Holm", "club": "Lund", "submission": token}
    first = client.post(url, data)
    second = client.post(url, data)
    assert first.status_code == second.status_code == 302
    assert second.url == competition.get_desk_url()
    assert Player.objects.filter(name="Gus Holm").count() == 1
    assert Entry.objects.filter(competition=competition).count() == 1
    assert SubmissionToken.objects.filter(token=token).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_csv_import_posted_twice_imports_once(client):
    organiser = UserFactory()
    competition = CompetitionFactory(event=EventFactory(organisers=[organiser]))
    client.force_login(organiser)
    url = reverse("events:csv_import", args=[competition.event.slug, competition.slug])
    upload = SimpleUploadedFile("players.csv", CSV.encode(), content_type="text/csv")
    confirm = client.post(url, {"file": upload}).context["confirm_form"]  # the preview
    data = {"payload": confirm["payload"].initial, "submission": confirm["submission"].initial}
    confirm_url = reverse(
        "events:csv_import_confirm", args=[competition.event.slug, competition.slug]
    )
    for _ in range(2):
        response = client.post(confirm_url, data)
        assert response.status_code == 302
        assert response.url == competition.get_desk_url()
    assert Entry.objects.filter(competition=competition).count() == 3
    assert Player.objects.count() == 3


@pytest.mark.django_db(transaction=True)
def test_a_new_event_form_posted_twice_makes_one_event(client):
    organiser = UserFactory()
    client.force_login(organiser)
    url = reverse("events:event_create")
    token = client.get(url).context["form"]["submission"].initial
    data = {
        "name": "Sjoel Open",
        "starts_on": "2026-12-01",
        "ends_on": "2026-12-01",
        "time_zone": "Europe/Amsterdam",
        "is_public": "on",
        "competition_name": "Blokus",
        "competition_format": "blokus",
        "submission": token,
    }
    first = client.post(url, data)
    second = client.post(url, data)
    assert first.status_code == second.status_code == 302
    assert second.url == first.url.split("?")[0]  # the desk, without "just created"
    assert Event.objects.count() == 1
    assert Competition.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_refused_form_keeps_its_token_usable(client):
    """A post that changed nothing (the player was already there) does not use up the token."""
    organiser = UserFactory()
    competition = CompetitionFactory(event=EventFactory(organisers=[organiser]))
    PlayerFactory(name="Ida Jarl", club="")
    client.force_login(organiser)
    url = reverse("events:register_new", args=[competition.event.slug, competition.slug])
    response = client.post(url, {"name": "Ida Jarl", "club": "", "submission": "tok-1"})
    assert response.status_code == 400
    assert not SubmissionToken.objects.exists()
    response = client.post(url, {"name": "Ida Jarl", "club": "Lund", "submission": "tok-1"})
    assert response.status_code == 302
    assert Entry.objects.filter(competition=competition).count() == 1


@pytest.mark.django_db
def test_the_admin_refuses_a_second_row_of_one_person_with_a_message_and_allows_a_homonym(
    admin_client,
):
    club = HostClubFactory()
    Player.objects.create(host=club, name="Bo Ek", club="Lund")
    url = reverse("admin:events_player_add")
    data = {
        "host": club.pk,
        "name": "BO EK",
        "club": "lund",
        "email": "",
        "rating": 1500,
        "rated_games": 0,
        "name_shown": "full",
    }
    response = admin_client.post(url, data, follow=True)  # the shared admin's refusal
    assert response.status_code == 200
    assert "homonym" in response.content.decode()
    assert Player.objects.count() == 1
    response = admin_client.post(url, {**data, "homonym": 1})
    assert response.status_code == 302
    assert Player.objects.count() == 2


@pytest.mark.django_db
def test_a_new_player_form_sent_twice_by_htmx_registers_once_and_gets_a_fresh_token(client):
    organiser = UserFactory()
    competition = CompetitionFactory(event=EventFactory(organisers=[organiser]))
    client.force_login(organiser)
    url = reverse("events:register_new", args=[competition.event.slug, competition.slug])
    data = {"name": "Jon Kask", "club": "", "submission": "htmx-token-1"}
    first = client.post(url, data, headers={"HX-Request": "true"})
    second = client.post(url, data, headers={"HX-Request": "true"})
    assert first.status_code == second.status_code == 200
    assert "entriesChanged" in second.headers["HX-Trigger"]
    fresh = first.context["new_player_form"]["submission"].initial
    assert fresh and fresh != "htmx-token-1" and f'value="{fresh}"' in first.content.decode()
    assert Entry.objects.filter(competition=competition).count() == 1


# --- other actions two desks can take at once ------------------------------------------------


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_the_same_blokus_result_from_two_desks_at_once_is_taken_once():
    import random

    from blokus import services as blokus_services
    from blokus.models import Hand
    from events.models import Correction, Seat
    from tests.support.blokus import hands_for, seated_round, set_up

    competition = CompetitionFactory(format="blokus")
    session = set_up(competition)[0]
    round_ = seated_round(competition, session, 12)
    games = list(round_.games.order_by("number"))
    for trial, game in enumerate(games):
        first = hands_for(game, random.Random(trial))
        second = hands_for(game, random.Random(trial + 100))
        results = run_together(
            functools.partial(
                blokus_services.game_result_record, game=game, revision=game.revision, hands=first
            ),
            functools.partial(
                blokus_services.game_result_record, game=game, revision=game.revision, hands=second
            ),
        )
        assert refusal_codes(results) == ["ok", "stale_result"]
        game.refresh_from_db()
        assert game.revision == 1
        seats = Seat.objects.filter(game=game)
        assert Hand.objects.filter(seat__game=game).count() == seats.count()
        assert not seats.filter(score__isnull=True).exists()
    assert not Correction.objects.exists()


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_session_registration_during_a_withdrawal_ends_as_one_of_the_two_orders():
    from blokus import services as blokus_services
    from blokus.models import SessionPlayer
    from tests.support.blokus import set_up

    competition = CompetitionFactory(format="blokus")
    session = set_up(competition)[0]
    outcomes = set()
    for trial in range(TRIALS):
        entry = Entry.objects.create(
            competition=competition, player=PlayerFactory(name=f"Kim Lo {trial}")
        )
        results = run_together(
            functools.partial(services.entry_withdraw, entry=entry),
            functools.partial(blokus_services.session_register, session=session, entry=entry),
        )
        withdraw_code, register_code = (refusal_codes([r])[0] for r in results)
        entry.refresh_from_db()
        registered = SessionPlayer.objects.filter(entry=entry).count()
        assert withdraw_code == "ok" and entry.withdrawn_at is not None
        # Registered first (then withdrawn), or refused because already withdrawn; never both
        # an error and a row, never two rows.
        assert (register_code, registered) in {("ok", 1), ("entry_withdrawn", 0)}, register_code
        outcomes.add(register_code)
    assert outcomes  # which order wins is up to the scheduler
