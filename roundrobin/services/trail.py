"""The correction trail of round-robin results: what a game held, in words and for undo.

A result replaced by another (the desk, admin through ``correct_seats``, an undo) writes one
``events.Correction`` through ``events.services.correction_record``: item "Table 2, Jansen –
Bakker", before/after "1-0 → ½-½" (with the ending when it was not played out, "0-1 (White lost
on time)"), no entry (the item names both players; a player's page finds it by the game in the
payload), and a payload with the game and both states, which ``undo`` puts back.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from django.utils.translation import gettext_noop

from events.common.words import Words
from events.models import Competition, Correction, Entry, Game, Seat
from events.services import correction_record
from roundrobin.models import Ending, GameDetail
from roundrobin.selectors import RESULT_LABELS, points_label


def _fraction(value: Any) -> Fraction | None:
    if value is None:
        return None
    try:
        return Fraction(str(value))
    except (TypeError, ValueError, ZeroDivisionError):
        return None


def trail_state(detail: GameDetail, seats: list[Seat]) -> dict[str, Any] | None:
    """What a game holds now, as JSON for the payload; None when it has no result yet."""
    if not detail.has_result:
        return None
    return {
        "points": [None if seat.points is None else str(seat.points) for seat in seats],
        "ending": detail.ending,
        "rated": detail.rated,
    }


def result_words(state: dict[str, Any] | None) -> Words | str:
    """ "1-0", "½-½", "0-1 (White lost on time)", "1-1" for seats that hold no result; the
    words in the reader's language (events.common.words)."""
    if not state:
        return Words(gettext_noop("no result"))
    first, second = (_fraction(value) for value in state["points"])
    words = RESULT_LABELS.get((first, second)) or (
        f"{points_label(first) or '?'}-{points_label(second) or '?'}"
    )
    ending = state.get("ending", "")
    if ending and ending != Ending.PLAYED and ending in Ending.values:
        return Words(
            gettext_noop("%(result)s (%(ending)s)"), result=words, ending=Ending(ending).label
        )
    return words


def game_item(game: Game) -> str:
    """ "Table 2, Jansen – Bakker" (a tiebreak game: "Table 2, tiebreak, Jansen – Bakker")."""
    return str(game_item_words(game))


def game_item_words(game: Game) -> Words:
    """``game_item`` as words for the trail (shown in the reader's language)."""
    session = game.round.session
    names = list(
        Seat.objects.filter(game=game)
        .order_by("position")
        .values_list("entry__player__name", flat=True)
    )
    players = " – ".join(names)
    if game.round.number > 1:
        return Words(
            gettext_noop("Table %(table)s, tiebreak, %(players)s"),
            table=session.number,
            players=players,
        )
    return Words(
        gettext_noop("Table %(table)s, %(players)s"), table=session.number, players=players
    )


def game_item_of(game_id: int) -> str:
    """``game_item`` of a game by its id."""
    game = Game.objects.select_related("round__session").get(pk=game_id)
    return game_item(game)


def trail_record(
    *,
    competition: Competition,
    game: Game,
    before: dict[str, Any],
    after: dict[str, Any] | None,
    source: str,
    by: Any = None,
    reverts: Correction | None = None,
) -> Correction | None:
    """One correction of ``game``'s result (nothing when the words did not change)."""
    return correction_record(
        competition=competition,
        item=game_item_words(game),
        before=result_words(before),
        after=result_words(after),
        source=source,
        by=by,
        payload={"game": game.pk, "before": before, "after": after},
        reverts=reverts,
        told=game_entries(game),  # both players hear it, when they chose notifications
    )


def game_entries(game: Game) -> list[Entry]:
    """The game's two players (one query)."""
    return [s.entry for s in Seat.objects.filter(game=game).select_related("entry")]
