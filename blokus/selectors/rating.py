"""The Blokus rating's reads: the rating list, optionally narrowed to the players
of a series, and one player's history, each in one query (the series is found by its own).

The rating is what ``blokus.services.rating`` stored: a player's latest step holds their
current mu, sigma and conservative value (mu - 3 sigma, the value shown and ranked by).
Names are the public ones (``Player.public_name``): these pages are public.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.db.models import Count, Exists, OuterRef, Subquery

from blokus import rules
from blokus.format import BLOKUS
from blokus.models import RatingStep
from events.models import Entry, Player
from events.series.models import Series

SLUG = re.compile(r"[-a-zA-Z0-9_]{1,60}")


@dataclass(frozen=True)
class RatingLine:
    """One player in the rating list; ``place`` is shared by equal values (1, 1, 3)."""

    place: int
    player: Player
    value: float  # the conservative value, mu - 3 sigma
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True)
class HistoryStep:
    """One game of a player's rating history (``step.game`` with its round, session,
    competition and event loaded)."""

    step: RatingStep

    @property
    def before(self) -> float:
        return rules.conservative(self.step.mu_before, self.step.sigma_before)

    @property
    def after(self) -> float:
        return self.step.conservative_after

    @property
    def change(self) -> float:
        """The change as shown: between the values rounded to one decimal, so the three
        numbers on the page add up."""
        return round(self.after, 1) - round(self.before, 1)


@dataclass(frozen=True)
class History:
    player: Player
    steps: list[HistoryStep]  # oldest first

    @property
    def current(self) -> HistoryStep:
        return self.steps[-1]


def blokus_series(slug: str) -> Series | None:
    """The Blokus series with this address, or None for anything else (one query; none for a
    value that cannot be an address)."""
    if not SLUG.fullmatch(slug):
        return None
    return Series.objects.filter(slug=slug, format=BLOKUS.key).first()


def listed_series() -> list[Series]:
    """The listed Blokus series, for the list's filter (one query)."""
    return list(Series.objects.filter(format=BLOKUS.key, is_public=True).order_by("name"))


def rating_list(series: Series | None = None) -> list[RatingLine]:
    """Everyone with a rated game, best first (conservative value, then mu), or only the
    players with an entry in a competition of ``series``. One query."""
    steps = RatingStep.objects.filter(player=OuterRef("pk"))
    latest = steps.order_by("-order_key")
    players = (
        Player.objects.filter(Exists(steps))
        .annotate(
            rating_value=Subquery(latest.values("conservative_after")[:1]),
            rating_mu=Subquery(latest.values("mu_after")[:1]),
            rating_sigma=Subquery(latest.values("sigma_after")[:1]),
            rating_games=Subquery(
                steps.order_by().values("player").annotate(n=Count("pk")).values("n")
            ),
        )
        .only("name", "name_shown")
        .order_by("-rating_value", "-rating_mu", "pk")
    )
    if series is not None:
        members = Entry.objects.filter(competition__series_memberships__series=series)
        players = players.filter(pk__in=members.values("player_id"))
    lines: list[RatingLine] = []
    for index, player in enumerate(players, start=1):
        shared = lines and lines[-1].value == player.rating_value
        lines.append(
            RatingLine(
                place=lines[-1].place if shared else index,
                player=player,
                value=player.rating_value,
                mu=player.rating_mu,
                sigma=player.rating_sigma,
                games=player.rating_games,
            )
        )
    return lines


def player_history(player_id: int) -> History | None:
    """A player's rating, game by game, oldest first; None for a player without a rated
    game (or no such player). One query."""
    steps = list(
        RatingStep.objects.filter(player_id=player_id)
        .select_related("player", "game__round__session__competition__event")
        .order_by("order_key")
    )
    if not steps:
        return None
    return History(player=steps[0].player, steps=[HistoryStep(step) for step in steps])


def competition_steps(competition_id: int, player_id: int) -> list[RatingStep]:
    """A player's rating steps at the tables of one competition, in the order of play (one
    query). Only these: a competition's page is cached per its own version, and these rows are
    what a recompute bumps it for (``blokus.services.rating``)."""
    return list(
        RatingStep.objects.filter(
            player_id=player_id, game__round__session__competition_id=competition_id
        )
        .select_related("game__round__session")
        .order_by("order_key", "pk")
    )
