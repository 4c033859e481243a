from __future__ import annotations

import datetime as dt

import factory
from django.contrib.auth import get_user_model

from events.models import (
    Competition,
    Entry,
    Event,
    Game,
    HostClub,
    Player,
    Round,
    Seat,
    Session,
    person_key,
)


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("pw-for-tests-only")

    @factory.post_generation
    def two_factor(self, create, extracted, **kwargs):
        """``UserFactory(two_factor=True)``: an authenticator app set up (tests.support.totp).
        Site staff have one unless ``two_factor=False``: they need it for the admin."""
        if create and (extracted or (extracted is None and self.is_staff)):
            from tests.support.totp import turn_on

            turn_on(self)


class HostClubFactory(factory.django.DjangoModelFactory):
    """One club unless a test asks for another (``HostClubFactory(slug="b")``): the events and
    players a test makes share a register, and their owners start events and series in it, as
    on an install upgraded from before clubs (``event_owners_may_start``)."""

    class Meta:
        model = HostClub
        django_get_or_create = ("slug",)

    name = factory.LazyAttribute(lambda o: o.slug.replace("-", " ").title())
    slug = "club"
    event_owners_may_start = True
    country = "SE"
    time_zone = "Europe/Stockholm"


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    host = factory.SubFactory(HostClubFactory)
    name = factory.Sequence(lambda n: f"Player {n:03d}")
    club = "Test Club"
    rating = 1500
    # Tests may reuse a name in another competition: the register then records a homonym
    # (Player.person_key and homonym are unique together).
    homonym = factory.LazyAttribute(
        lambda o: Player.objects.filter(host=o.host, person_key=person_key(o.name, o.club)).count()
    )


class EventFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Event
        skip_postgeneration_save = True

    host = factory.SubFactory(HostClubFactory)
    name = factory.Sequence(lambda n: f"Event {n}")
    slug = factory.Sequence(lambda n: f"event-{n}")
    starts_on = dt.date(2026, 5, 5)
    ends_on = dt.date(2026, 5, 8)
    time_zone = "Europe/Stockholm"

    @factory.post_generation
    def organisers(self, create, extracted, **kwargs):
        if create and extracted:
            # As the roles migration does: the first organiser named owns the event.
            self.organisers.add(extracted[0], through_defaults={"role": "owner"})
            self.organisers.add(*extracted[1:])


class CompetitionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Competition

    event = factory.SubFactory(EventFactory)
    name = factory.Sequence(lambda n: f"Competition {n}")
    slug = factory.Sequence(lambda n: f"competition-{n}")
    format = "blokus"
    settings = factory.LazyFunction(
        lambda: {
            "qualifying_sessions": 2,
            "capacity": 12,
            "rounds_per_session": 4,
            "round_minutes": 15,
            "official_bonus": False,
        }
    )


class EntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Entry

    competition = factory.SubFactory(CompetitionFactory)
    player = factory.SubFactory(PlayerFactory)


class SessionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Session

    competition = factory.SubFactory(CompetitionFactory)
    number = factory.Sequence(lambda n: n + 1)
    kind = Session.Kind.QUALIFYING


class RoundFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Round

    session = factory.SubFactory(SessionFactory)
    number = factory.Sequence(lambda n: n + 1)


class GameFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Game

    round = factory.SubFactory(RoundFactory)
    number = factory.Sequence(lambda n: n + 1)


class SeatFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Seat

    game = factory.SubFactory(GameFactory)
    entry = factory.SubFactory(
        EntryFactory, competition=factory.SelfAttribute("..game.round.session.competition")
    )
    # A seat its format allows (the formats' database seat checks): the first, with its colour.
    position = 1
    colour = factory.LazyAttribute(
        lambda o: {"blokus": "blue", "roundrobin": "white"}.get(
            o.game.round.session.competition.format, ""
        )
    )


def stand_in_demo(game_format, organiser) -> Competition:
    """A small competition of a format that has no demo (``FormatHooks.demo`` gives None):
    its own event, organised by ``organiser``, four players and one finished game on the shared
    rows (two tables of two), so that the tests of "every format's demo" run it too."""
    event = EventFactory(
        name=f"{game_format.label} night",
        slug=f"{game_format.url_segment}-night",
        organisers=[organiser],
    )
    competition = CompetitionFactory(
        event=event,
        name=str(game_format.label),
        slug=game_format.url_segment,
        format=game_format.key,
        settings=game_format.default_settings(),
    )
    entries = EntryFactory.create_batch(4, competition=competition)
    game_round = RoundFactory(session=SessionFactory(competition=competition, number=1), number=1)
    for table, pair in enumerate((entries[:2], entries[2:]), start=1):
        game = GameFactory(round=game_round, number=table, status="finished")
        for position, (entry, score) in enumerate(zip(pair, (30, 20), strict=True), start=1):
            SeatFactory(game=game, entry=entry, position=position, score=score, points=2 - position)
    return competition
