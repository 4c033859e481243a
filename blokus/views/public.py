"""The players' pages: live (ETag, shared fragments per version, polling) through
``events.live.pages.competition_page``; the round clock beside them is fetched on its own."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from blokus import selectors
from blokus.format import BLOKUS
from blokus.selectors.rating import competition_steps
from blokus.views.charts import player_charts, session_charts
from blokus.views.rating_chart import competition_chart
from events.common.http import HtmxHttpRequest
from events.live.pages import Context, competition_page
from events.models import Competition, Session
from events.selectors import competition_by_slugs, corrections_of_entry

# The live fragments hold no time-dependent text: the clock box (``blokus/_clock.html``) sits
# outside them and loads itself from ``clock`` below, so the fragments are shared per version.
# Every page here is public: ``public`` makes the shared partials and tags (standings, table
# cards, the qualification and the final) show each player's public name (``Player.public_name``,
# as the person chose); the desk renders the same partials without it, with the full names.
PUBLIC: Context = {"public": True}


@competition_page("blokus/overview.html", game_format=BLOKUS)
def overview(request: HtmxHttpRequest, competition: Competition) -> Context:
    lot = selectors.competition_lot(competition)
    qualification = selectors.qualification_rows(competition, lot)
    return {
        **PUBLIC,
        "sessions": selectors.session_summaries(competition),
        "qualification": qualification,
        "final": selectors.final_view(competition, qualification),
        "lot": lot,
        "clock": selectors.running_clock(competition),
        "settings": competition.options,
    }


@competition_page("blokus/session.html", game_format=BLOKUS)
def session(request: HtmxHttpRequest, competition: Competition, number: int) -> Context:
    session = selectors.session_by_number(competition, number)
    return {
        **PUBLIC,
        "view": selectors.session_view(session),
        "clock": selectors.running_clock(competition),
        "charts": session_charts(session),
    }


@competition_page("blokus/player.html", game_format=BLOKUS)
def player(request: HtmxHttpRequest, competition: Competition, entry_id: int) -> Context:
    entry = selectors.entry_of(competition, entry_id)  # a withdrawn player's page is shown too
    games = selectors.player_games(competition, entry)
    qualifying = [
        g for g in games if g.session.kind == Session.Kind.QUALIFYING and g.game.is_finished
    ]
    corrections = corrections_of_entry(entry)
    final_place = None
    if any(g.session.kind == Session.Kind.FINAL for g in games):  # 5 queries, finalists only
        lot = selectors.competition_lot(competition)
        final = selectors.final_view(competition, selectors.qualification_rows(competition, lot))
        final_place = final.place_of(entry.pk) if final else None
    return {
        **PUBLIC,
        "final_place": final_place,
        "entry": entry,
        "games": games,
        "corrections": corrections,
        "corrected": selectors.corrected_games(corrections),
        "points": sum((g.mine.points or 0 for g in qualifying), 0),
        "total": sum((g.mine.score or 0 for g in qualifying), 0),
        "played": len(qualifying),
        "places": selectors.sessions_of_entry(entry),
        "clock": selectors.running_clock(competition),
        "rating_chart": competition_chart(competition_steps(competition.pk, entry.player_id)),
        "charts": player_charts(competition, entry),
    }


@require_safe
@never_cache
def clock(request: HtmxHttpRequest, event_slug: str, competition_slug: str) -> HttpResponse:
    """The running round's countdown, computed now on the server; never cached."""
    competition = competition_by_slugs(event_slug, competition_slug, format_key=BLOKUS.key)
    return render(
        request,
        "blokus/_clock.html#clock-body",
        {"clock": selectors.running_clock(competition), "competition": competition},
    )
