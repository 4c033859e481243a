"""The Blokus rating drawn game by game: the rating (μ − 3σ, the value the list ranks by) and
the skill estimate μ with the band μ ± 3σ the model gives, so a player sees the rating climb as
the band narrows. One chart for the whole history (the rating list's drill-down) and one for a
competition's games (the player's page there); both start from the rating before the first game."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.formats import date_format
from django.utils.translation import gettext as _

from blokus import rules
from blokus.models import RatingStep
from blokus.rules.rating import CONSERVATIVE_SIGMAS
from events.charts.chart import Chart, axis_number, desc_id, localised, title_id
from events.charts.draw import Series, line_chart


def rating_chart(
    steps: Sequence[RatingStep], labels: Sequence[str], *, key: str, description: str
) -> Chart:
    """``labels``: one per step, the table's first column (which game)."""
    if not steps:
        return Chart(key, _("Rating over time"), description, "", [], [])
    first = steps[0]
    states = [(first.mu_before, first.sigma_before)] + [(s.mu_after, s.sigma_after) for s in steps]
    spread = CONSERVATIVE_SIGMAS
    rating = [(float(i), rules.conservative(mu, sigma)) for i, (mu, sigma) in enumerate(states)]
    skill = [(float(i), mu) for i, (mu, _sigma) in enumerate(states)]
    band = [
        (float(i), mu - spread * sigma, mu + spread * sigma) for i, (mu, sigma) in enumerate(states)
    ]
    names = [_("Start"), *labels]
    # Game numbers under the axis (the drawing thins them to fit); the table names each game.
    x_labels = [(0.0, _("Start"))] + [(float(i), str(i)) for i in range(1, len(states))]
    svg = line_chart(
        [
            Series(_("Rating (μ − 3σ)"), rating),
            Series(_("Skill (μ) ± 3σ"), skill, band=band, dashed=True),
        ],
        x_labels=x_labels,
        y_label=_("Rating"),
        title_id=title_id(key),
        desc_id=desc_id(key),
        y_format=axis_number,
    )
    rows = [
        [
            name,
            localised(round(value, 1), 1),
            localised(round(mu, 1), 1),
            localised(round(sigma, 1), 1),
        ]
        for name, (_x, value), (mu, sigma) in zip(names, rating, states, strict=True)
    ]
    headings = [_("Game"), _("Rating (μ − 3σ)"), _("Skill (μ)"), _("Uncertainty (σ)")]
    return Chart(key, _("Rating over time"), description, svg, headings, rows)


def history_chart(steps: Sequence[RatingStep]) -> Chart:
    """Every rated game of a player (steps with their game, round, session, competition and
    event loaded, oldest first)."""
    labels = []
    for step in steps:
        competition = step.game.round.session.competition
        day = date_format(competition.event.starts_on, "SHORT_DATE_FORMAT")
        labels.append(f"{day} · {competition.event.name} · {step.game.round} · {step.game}")
    description = _(
        "The rating after each game since the first, with the skill estimate μ and its band "
        "μ ± 3σ: the rating is the band's lower edge, so it rises as the band narrows."
    )
    return rating_chart(steps, labels, key="rating", description=description)


def competition_chart(steps: Sequence[RatingStep]) -> Chart:
    """A player's games in one competition (steps with their game, round and session loaded)."""
    labels = [f"{s.game.round.session} · {s.game.round} · {s.game}" for s in steps]
    description = _(
        "The rating before this competition and after each of its games, with the skill "
        "estimate μ and its band μ ± 3σ: the rating is the band's lower edge."
    )
    return rating_chart(steps, labels, key="rating", description=description)
