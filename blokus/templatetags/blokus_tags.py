"""Display helpers for Blokus pages, and the panels the shared competition pages include."""

from __future__ import annotations

import html
from typing import Any

from django import template
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, gettext_lazy as _

from blokus import selectors
from blokus.selectors.corrections import qp_text
from events.common.rendering import shown as shown_in
from events.services.proposals import table_code

register = template.Library()

COLOUR_NAMES = {
    "blue": _("blue"),
    "yellow": _("yellow"),
    "red": _("red"),
    "green": _("green"),
}


@register.filter
def qp(value) -> str:
    """Qualifying points as people write them: 3, 2½, ½."""
    if value is None or value == "":
        return ""
    return qp_text(value)


@register.filter
def colour_name(value: str) -> str:
    return str(COLOUR_NAMES.get(value, value))


def shown_name(player: Any, public: Any) -> str:
    """The player's name as a page shows it: on a public page (``public`` true in the context)
    the public name (``Player.public_name``, as the person chose), else the full name."""
    return player.public_name if public else player.name


@register.simple_tag(takes_context=True)
def player_name(context: template.Context, player: Any) -> str:
    """``{% player_name entry.player %}``: ``shown_name`` for a partial the desk and the public
    pages share (the public views put ``public`` in the context); escaped as ``{{ }}`` is."""
    return shown_name(player, context.get("public"))


@register.filter
def signed(value) -> str:
    if value is None:
        return ""
    return f"+{value}" if value > 0 else str(value)


@register.filter
def clock_text(seconds: int) -> str:
    minutes, secs = divmod(max(0, int(seconds)), 60)
    return f"{minutes}:{secs:02d}"


@register.inclusion_tag("blokus/_panel.html", takes_context=True)
def blokus_panel(context, competition, desk: bool = False) -> dict:
    """Links to the Blokus pages (one query); the clock box fetches the clock itself on load."""
    return {
        "competition": competition,
        "event": competition.event,
        "desk": desk,
        "sessions": selectors.session_summaries(competition),
        "clock": None,
        "request": context.get("request"),
    }


@register.simple_tag
def player_url_base(event, competition) -> str:
    """The address of a player's page up to the entry id (``…/player/``): reversed once per
    list, then ``entry.pk|player_url:base`` per row, instead of a ``{% url %}`` per seat."""
    if not (getattr(event, "slug", "") and getattr(competition, "slug", "")):
        return ""  # a list without games needs no links (and may lack the two)
    return reverse("blokus:player", args=[event.slug, competition.slug, 0])[: -len("0/")]


@register.filter
def player_url(entry_id: int, base: str) -> str:
    """What ``{% url 'blokus:player' … entry_id %}`` gives, from ``player_url_base``."""
    return f"{base}{int(entry_id)}/"


@register.simple_tag(takes_context=True)
def seat_rows(context: template.Context, seats: list, players: str) -> str:
    """A table card's seat rows, exactly as the template loop they replaced wrote them (the
    loop is kept in tests/test_render_speedups.py, which checks it): one call per card
    instead of some twelve template nodes per seat (a session page of 64 players shows 64
    cards). On a public page (``public`` in the context) the names are the public names."""
    mine = context.get("mine")
    public = context.get("public")
    out_word = gettext("out")
    out = f' <span class="tag">{shown_in(out_word, context)}</span>'
    parts = []
    for s in seats:
        pk = s.entry.pk
        classes = ("dropped" if s.dropped else "") + (" mine" if pk == mine else "")
        score = "" if s.score is None else shown_in(signed(s.score), context)
        parts.append(
            f'\n        <tr class="{classes}" data-player="{shown_in(pk, context)}">\n'
            f'          <td class="colour"><span class="swatch c-{shown_in(s.colour, context)}">'
            f"</span> {shown_in(colour_name(s.colour), context)}</td>\n"
            f'          <td><a href="{shown_in(player_url(pk, players), context)}">'
            f"{shown_in(shown_name(s.entry.player, public), context)}</a>"
            f"{out if s.dropped else ''}</td>\n"
            f'          <td class="num">{score}</td>\n'
            f'          <td class="num">{shown_in(qp(s.points), context)}</td>\n'
            "        </tr>\n      "
        )
    return mark_safe("".join(parts))  # every value above is rendered (escaped) as {{ }} does


@register.simple_tag(takes_context=True)
def standings_rows(context: template.Context, rows: list, players: str) -> str:
    """A session's standings rows, exactly as the template loop they replaced wrote them (the
    loop is kept in tests/test_render_speedups.py, which checks it): one call per table
    instead of some ten template nodes per row. On a public page (``public`` in the context)
    the names are the public names."""
    public = context.get("public")
    dropped = gettext("dropped out")
    dropped_tag = f' <span class="tag">{shown_in(dropped, context)}</span>'
    parts = []
    for r in rows:
        pk = r.entry.pk
        row_class = ' class="dropped"' if r.dropped else ""
        parts.append(
            f'\n    <tr{row_class} data-player="{shown_in(pk, context)}">'
            f'<td class="place">{shown_in(r.place, context)}</td>'
            f'<td><a href="{shown_in(player_url(pk, players), context)}">'
            f"{shown_in(shown_name(r.entry.player, public), context)}</a>"
            f"{dropped_tag if r.dropped else ''}</td>"
            f'<td class="num">{shown_in(qp(r.points), context)}</td>'
            f'<td class="num">{shown_in(signed(r.total), context)}</td>'
            f'<td class="num">{shown_in(r.games, context)}</td></tr>\n  '
        )
    return mark_safe("".join(parts))  # every value above is rendered (escaped) as {{ }} does


def _game_url_base(name: str, event: Any, competition: Any) -> tuple[str, str]:
    """``{% url name event.slug competition.slug game_id %}`` cut at the game id: (before,
    after), so that each card's address is a join, not a reverse."""
    if not (getattr(event, "slug", "") and getattr(competition, "slug", "")):
        return "", ""
    address = reverse(name, args=[event.slug, competition.slug, 0])
    cut = address.rindex("/0/") + 1
    return address[:cut], address[cut + 1 :]


@register.simple_tag(takes_context=True)
def table_cards(context: template.Context, games: list, players: str) -> str:
    """The table cards of ``games`` (a round, a final), exactly as the template loop they
    replaced wrote them (kept in tests/test_render_speedups.py, which checks it): one call per
    list instead of some twenty template nodes per card. Reads ``corrected``, ``propose``,
    ``desk``, ``mine``, ``event`` and ``competition`` from the context, as the loop did, and
    ``public`` (the seat rows show the public names: see ``shown_name``)."""
    corrected = context.get("corrected") or ()
    propose = context.get("propose")
    desk = context.get("desk")
    event, competition = context.get("event"), context.get("competition")
    from_players = bool(getattr(getattr(competition, "options", None), "results_from_players", 0))

    def shown(value: Any) -> str:
        return shown_in(value, context)

    # The words outside the f-strings below: gettext calls inside an f-string are invisible to
    # the message extraction (`make messages`), which would drop them from the catalogues.
    words = {
        "colour": shown(gettext("Colour")),
        "player": shown(gettext("Player")),
        "game_score": shown(gettext("game score")),
        "score": shown(gettext("Score")),
        "qp_title": shown(gettext("qualifying points")),
        "qp": shown(gettext("QP")),
        "result_in": shown(gettext("result in")),
        "corrected": shown(gettext("corrected")),
        "send": shown(gettext("Send our result")),
        "table_code": shown(gettext("Table code")),
    }
    head = (
        f"<thead><tr><th>{words['colour']}</th><th>{words['player']}</th>"
        f'<th class="num" title="{words["game_score"]}">{words["score"]}</th>'
        f'<th class="num" title="{words["qp_title"]}">{words["qp"]}'
        "</th></tr></thead>"
    )
    result_in = f'<span class="tag">{words["result_in"]}</span>'
    corrected_tag = f' <span class="tag corrected">{words["corrected"]}</span>'
    attention = shown(gettext("needs attention"))
    propose_at = _game_url_base("blokus:propose", event, competition) if propose else ("", "")
    desk_at = _game_url_base("blokus:game_result", event, competition) if desk else ("", "")
    parts = []
    for g in games:
        game = g.game
        title = gettext("Table %(number)s") % {"number": shown(game.number)}
        bar = (
            f"<h3>{title}</h3>{result_in if g.is_finished else ''}"
            f"{corrected_tag if game.pk in corrected else ''}"
        )
        if g.needs_attention:
            bar += (
                f' <span class="tag attention" data-problem="{shown(g.problem)}">{attention}</span>'
            )
        send = ""
        if propose and not g.is_finished:
            address = html.escape(f"{propose_at[0]}{game.pk}{propose_at[1]}")
            send = (
                f'<p class="stack-actions"><a class="button" data-propose href="{address}">'
                f"{words['send']}</a></p>"
            )
        enter = ""
        if desk:
            address = html.escape(f"{desk_at[0]}{game.pk}{desk_at[1]}")
            label = shown(gettext("Correct result") if g.is_finished else gettext("Enter result"))
            code = ""
            if from_players and not g.is_finished:
                code = (
                    f' <span class="small muted">{words["table_code"]} '
                    f"<strong data-table-code>{shown(table_code(game))}</strong></span>"
                )
            primary = "" if g.is_finished else " primary"
            enter = (
                f'<p class="stack-actions"><a class="button{primary}" href="{address}">'
                f"{label}</a>{code}</p>"
            )
        parts.append(
            f'\n  <li class="card" id="table-{shown(game.number)}">\n'
            f'    <div class="bar">{bar}</div>\n'
            '    <table class="list seats">\n'
            f"      {head}\n"
            "      <tbody>\n"
            f"      {seat_rows(context, g.seats, players)}\n"
            "      </tbody>\n"
            "    </table>\n"
            f"    {send}\n"
            f"    {enter}\n"
            "  </li>\n"
        )
    return mark_safe("".join(parts))  # every value above is rendered (escaped) as {{ }} does
