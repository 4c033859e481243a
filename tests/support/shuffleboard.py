"""Sjoelen competitions, entries and turns (factories), a field in play, and the desk's
addresses and form data."""

from __future__ import annotations

import re

import factory
import pytest
from django.urls import reverse
from django.utils import timezone

from events.models import Competition, Entry, Player, ResultProposal
from events.outbox import notify
from events.outbox.models import OutboxMessage
from events.services import proposals as shared
from shuffleboard import proposals, rules, services
from shuffleboard.format import SJOELEN
from shuffleboard.models import Turn
from shuffleboard.rules import InvalidResult
from shuffleboard.services import notices
from tests.support.factories import CompetitionFactory, EntryFactory, PlayerFactory


class SjoelenFactory(CompetitionFactory):
    name = factory.Sequence(lambda n: f"Sjoelen {n}")
    slug = factory.Sequence(lambda n: f"sjoelen-{n}")
    format = SJOELEN.key
    settings = factory.LazyFunction(lambda: {"games": 10, "boards": 4, "bonus_disc": False})


class PlayingEntryFactory(EntryFactory):
    """A checked-in entry of a sjoelen competition."""

    competition = factory.SubFactory(SjoelenFactory)
    checked_in_at = factory.LazyFunction(timezone.now)


class TurnFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Turn

    entry = factory.SubFactory(PlayingEntryFactory)
    number = factory.Sequence(lambda n: n % 10 + 1)
    c1, c2, c3, c4 = 5, 9, 5, 7
    score = factory.LazyAttribute(lambda t: rules.turn_score((t.c1, t.c2, t.c3, t.c4)))


def sjoelen_in(event):
    """The sjoelen competition of ``event`` (name "Sjoelen", slug "sjoelen")."""
    return SjoelenFactory(event=event, name="Sjoelen", slug="sjoelen")


def four_playing(competition) -> list:
    """Four checked-in players, in check-in order."""
    names = ["Õie Sööt", "Jüri Tamm", "Mari Kask", "Toomas Saar"]
    return [
        PlayingEntryFactory(competition=competition, player=PlayerFactory(name=name))
        for name in names
    ]


def scores_entered(playing: list) -> list:
    """Two games for the first two of ``four_playing``: 116 + 148 and 148 + 116 (tied), 20 for
    the third."""
    a, b, c, _ = playing
    services.turn_record(entry=a, number=1, counts=(5, 9, 5, 7), board=1)
    services.turn_record(entry=a, number=2, counts=(7, 7, 7, 9), board=2)
    services.turn_record(entry=b, number=1, counts=(7, 7, 7, 9), board=2)
    services.turn_record(entry=b, number=2, counts=(5, 9, 5, 7), board=3)
    services.turn_record(entry=c, number=1, counts=(1, 1, 1, 1), board=3)
    return playing


Counts = tuple[int, int, int, int]


def sjoelen_night(
    scores: dict[str, list[Counts | tuple[Counts, int]]], *, event=None, **fields
) -> tuple[Competition, list[Entry]]:
    """A sjoelen competition (``fields`` for the factory) with a checked-in player for each name
    of ``scores``, in that order; then each player's games entered from game 1 on, a game being
    its counts or (counts, board). Gives the competition and the entries."""
    competition = (
        SjoelenFactory(**fields) if event is None else SjoelenFactory(event=event, **fields)
    )
    entries = [
        PlayingEntryFactory(competition=competition, player=PlayerFactory(name=name))
        for name in scores
    ]
    for entry, games in zip(entries, scores.values(), strict=True):
        for number, game in enumerate(games, start=1):
            counts, board = (game, None) if isinstance(game[0], int) else game
            if board is None:
                services.turn_record(entry=entry, number=number, counts=counts)
            else:
                services.turn_record(entry=entry, number=number, counts=counts, board=board)
    return competition, entries


# A field of ``players`` in play, for the projector screen's constant-queries test
# (tests/test_projector_screens.py builds every format's field through this name).
def screen_field(event, players: int):
    competition = SjoelenFactory(event=event, slug=f"sjoelen-{players}")
    entries = [
        PlayingEntryFactory(competition=competition, player=PlayerFactory(name=f"S{n:02d}"))
        for n in range(players)
    ]
    for n, entry in enumerate(entries):
        services.turn_record(entry=entry, number=1, counts=(n % 6, 5, 4, 3), board=1)
    return competition


# A competition of ``players`` for the read API's tests of every format
# (tests.support.api builds every format's through this name).
def api_world(event, players: int):
    """A sjoelen competition: ``players`` checked in, one game each."""
    competition = SjoelenFactory(event=event, name="Sjoelen", slug="sjoelen")
    for n in range(players):
        entry = PlayingEntryFactory(
            competition=competition, player=PlayerFactory(name=f"Sjoel {n:02d}")
        )
        services.turn_record(entry=entry, number=1, counts=(n % 8, 5, 5, 5), board=1 + n % 4)
    return competition


HTMX = {"HX-Request": "true"}


def url(name, competition, *args):
    return reverse(f"shuffleboard:{name}", args=[competition.event.slug, competition.slug, *args])


def gates(c1, c2, c3, c4, **extra):
    return {"gate1": c1, "gate2": c2, "gate3": c3, "gate4": c4, **extra}


def sub_turns(*rows, **extra):
    """Rows of counts in gate-value order (1, 2, 3, 4) -> the sub-turn form fields."""
    data = {}
    for number, row in enumerate(rows, start=1):
        for value, count in zip((1, 2, 3, 4), row, strict=True):
            data[f"s{number}_gate{value}"] = count
    return {**data, **extra}


def turn_on(competition: Competition, on: bool = True) -> None:
    """Results from players switched on (or off) for ``competition``."""
    competition.settings = {**competition.settings, "results_from_players": on}
    competition.save(update_fields=["settings"])


def board_url(competition, name="propose", *args):
    """An address of board 1's page of results from players."""
    return reverse(
        f"shuffleboard:{name}", args=[competition.event.slug, competition.slug, 1, *args]
    )


def post_game(client, competition, entry, **extra):
    """A player at board 1 sends game 1 of ``entry`` (116: 5, 9, 5, 7) as a proposal."""
    data = {
        "entry": entry.pk,
        "code": proposals.board_code(competition, 1),
        "number": 1,
        "gate1": 5,
        "gate2": 9,
        "gate3": 5,
        "gate4": 7,
        "submission": "s1",
        **extra,
    }
    return client.post(board_url(competition), data)


def raises(message: str):
    """pytest.raises for an InvalidResult whose message is exactly ``message``."""
    return pytest.raises(InvalidResult, match=f"^{re.escape(message)}$")


def competition_version(competition):
    return Competition.objects.values_list("version", flat=True).get(pk=competition.pk)


# A player who chose to be shown by first name and initial: the full name, the public one, the
# surname the public pages never show.
FULL, SHORT, SURNAME = "Åsa Öberg", "Åsa Ö.", "Öberg"


def proposal_payload(entry, counts=(5, 9, 5, 7), number=1, board_no=1) -> dict:
    return {"player": entry.pk, "number": number, "board": board_no, "counts": list(counts)}


def submit_proposal(competition, sender, payload, **kw):
    return shared.proposal_submit(
        competition=competition,
        entry=sender,
        code=kw.pop("code", proposals.board_code(competition, payload["board"])),
        payload=payload,
        **kw,
    )


ProposalStatus = ResultProposal.Status


def show_short(entry) -> None:
    Player.objects.filter(pk=entry.player_id).update(name_shown="short")
    entry.player.refresh_from_db()


def shows_public(html: str) -> None:
    assert SHORT in html
    assert SURNAME not in html


SUB_TURN_ROWS = [(4, 6, 3, 5), (1, 2, 2, 2), (0, 1, 0, 0)]  # adds up to 5, 9, 5, 7 = 116


def listen(entry, language="en"):
    Player.objects.filter(pk=entry.player_id).update(
        email=f"p{entry.pk}@example.org", language=language
    )
    entry.player.refresh_from_db()
    notify.preference_set(
        player=entry.player, event=entry.competition.event, email=True, push=False
    )


def subjects(entry):
    return list(
        OutboxMessage.objects.filter(subject_key=notices.next_subject(entry.pk))
        .order_by("pk")
        .values_list("subject", "status")
    )
