"""Calls for help: an event with a Blokus round seated at two tables, its organiser, a
scorekeeper and a stranger, and the addresses of the help pages."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.urls import reverse

from events.help.models import HelpCall
from events.models import Competition, Entry, EventRole, Round
from tests.support.blokus import seated_round, set_up
from tests.support.factories import CompetitionFactory, EventFactory, UserFactory


@dataclass
class HelpWorld:
    competition: Competition
    round: Round
    organiser: User
    scorekeeper: User
    stranger: User

    @property
    def event(self):
        return self.competition.event

    def seated(self, table: int) -> list[Entry]:
        game = self.round.games.get(number=table)
        return [seat.entry for seat in game.seats.select_related("entry__player")]


def help_world(*, players: int = 8, slug: str = "help-cup") -> HelpWorld:
    """A Blokus competition whose first round is drawn (``players`` / 4 tables)."""
    organiser = UserFactory(username=f"{slug}-organiser")
    scorekeeper = UserFactory(username=f"{slug}-keeper")
    stranger = UserFactory(username=f"{slug}-stranger")
    event = EventFactory(slug=slug, organisers=[organiser])
    EventRole.objects.create(event=event, user=scorekeeper, role=EventRole.Role.SCOREKEEPER)
    competition = CompetitionFactory(event=event, slug="blokus", name="Blokus")
    sessions = set_up(competition)
    round_ = seated_round(competition, sessions[0], players)
    competition.refresh_from_db()
    return HelpWorld(competition, round_, organiser, scorekeeper, stranger)


def table_url(competition: Competition, table: int) -> str:
    return reverse("events:help_table", args=[competition.event.slug, competition.slug, table])


def player_url(entry: Entry) -> str:
    competition = entry.competition
    return reverse("events:help_player", args=[competition.event.slug, competition.slug, entry.pk])


def call_page(call: HelpCall) -> str:
    return reverse("events:help_call", args=[call.competition.event.slug, call.key])


def queue_url(event) -> str:
    return reverse("events:help_queue", args=[event.slug])
