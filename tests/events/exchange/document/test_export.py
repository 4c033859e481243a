"""The event file and a player's history: a player is shared by every event they play in, so
their history holds edits made at other events' desks. The file keeps those rows (the player's
ratings over time) but names only the exported event's organisers in them."""

from __future__ import annotations

import json

from django.test import Client
from django.urls import reverse

from events.exchange import document as exchange
from events.models import Event, Player
from events.services import editing
from tests.support.factories import CompetitionFactory, EntryFactory, EventFactory, UserFactory


def edit_player(client: Client, event: Event, player: Player, **changes) -> None:
    player.refresh_from_db()
    data = {
        "signature": editing.signature(player, editing.PLAYER_FIELDS),
        "name": player.name,
        "club": player.club,
        "email": player.email,
        "rating": player.rating,
        "language": player.language,
        **changes,
    }
    response = client.post(reverse("events:player_edit", args=[event.slug, player.pk]), data)
    assert response.status_code == 302


def test_a_players_history_names_only_the_exported_events_organisers(
    desk_client, event, entries, organiser
):
    player = entries[0].player
    elsewhere = UserFactory(username="brenda-elsewhere", two_factor=True)
    other = EventFactory(slug="other-cup", organisers=[elsewhere])
    EntryFactory(competition=CompetitionFactory(event=other, slug="other"), player=player)
    other_desk = Client()
    other_desk.force_login(elsewhere)
    edit_player(other_desk, other, player, email="private@example.org")
    edit_player(desk_client, event, player, club="Tartu")

    response = desk_client.get(reverse("events:event_export", args=[event.slug]))
    assert response.status_code == 200
    text = response.content.decode()
    assert "brenda-elsewhere" not in text
    document = json.loads(text)
    file_id = next(
        row["id"] for row in document["tables"]["events.player"] if row["name"] == player.name
    )
    rows = [row for row in document["history"]["events.player"] if row["id"] == file_id]
    # every row of the player's history is there, in order; only the users are left out
    assert len(rows) == player.history.count() == 3  # created, edited elsewhere, edited here
    assert [row["history_user"] for row in rows] == [None, None, organiser.username]
    assert rows[1]["email"] == "private@example.org"  # the player's own data, as before

    # the file imports; so does an old file that named every user
    assert exchange.import_event(document, slug="copy-one").event.slug == "copy-one"
    rows[1]["history_user"] = elsewhere.username
    assert exchange.import_event(document, slug="copy-two").event.slug == "copy-two"


def test_the_events_own_rows_still_name_who_changed_them(desk_client, event, entries, organiser):
    edit_player(desk_client, event, entries[1].player, club="Uppsala")
    document = exchange.export_event(event)
    assert organiser.username in {
        row["history_user"] for row in document["history"]["events.player"]
    }
    assert document["organisers"][0]["username"] == organiser.username
