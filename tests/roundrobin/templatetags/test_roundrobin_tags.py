"""Tests of roundrobin/templatetags/roundrobin_tags.py: the crosstable written in Python, the
name a page shows (full on the desk, public elsewhere) and the competition pages' panels."""

from __future__ import annotations

from django.template import Context, Template
from django.urls import reverse

from roundrobin import services
from roundrobin.selectors import tables as table_selectors
from roundrobin.selectors.table_views import Cell
from roundrobin.templatetags import roundrobin_tags as tags
from tests.support.roundrobin import (
    FULL,
    SHORT,
    START,
    asa_table,
    enter_players,
    make_competition,
    play,
)


def render(source, **context):
    return Template("{% load roundrobin_tags %}" + source).render(Context(context))


def test_cells_are_written_escaped_with_their_kind_as_classes():
    cells = [
        Cell("×", is_self=True),
        Cell("·", "in progress", open=True),
        Cell("<1>", 'a "title"', struck=True),
    ]
    assert tags.crosstable_cells(cells) == (
        '<td class="cell self">×</td>'
        '<td class="cell open" title="in progress">·</td>'
        '<td class="cell" title="a &quot;title&quot;"><s>&lt;1&gt;</s></td>'
    )
    # written once and kept on the cell
    assert cells[2].html == '<td class="cell" title="a &quot;title&quot;"><s>&lt;1&gt;</s></td>'


def test_the_desk_shows_the_full_name_and_every_other_page_the_public_one(event):
    competition, entries = asa_table(event, "tags")
    player = entries[0].player
    assert render("{% player_name p %}", p=player) == SHORT
    assert render("{% player_name p %}", p=player, desk=True) == FULL


def test_a_players_address_is_built_from_one_reversed_base(event):
    competition = make_competition(event, slug="links")
    (entry,) = enter_players(competition, 1)
    base = tags.player_url_base(event, competition)
    expected = reverse("roundrobin:player", args=[event.slug, competition.slug, entry.pk])
    assert tags.player_url(entry.pk, base) == expected
    assert tags.player_url_base(None, competition) == ""


def test_the_crosstable_rows_and_heads_name_players_as_the_page_wants(event):
    competition, (asa, b, c) = asa_table(event, "cross")
    play(competition, asa, b)
    play(competition, asa, c)
    play(competition, b, c)
    (table,) = table_selectors.tables_for_competition(competition)
    base = tags.player_url_base(event, competition)
    public = render(
        "{% crosstable_rows table base %}{% crosstable_heads table %}", table=table, base=base
    )
    desk = render(
        "{% crosstable_rows table base %}{% crosstable_heads table %}",
        table=table,
        base=base,
        desk=True,
    )
    assert SHORT in public and FULL not in public
    assert FULL in desk
    # a final table marks its podium; each row links to the player's page
    assert public.count('class=" podium"') == 3
    assert f'href="{tags.player_url(asa.pk, base)}"' in public
    assert public.count('<th scope="col"') == 3
    assert "<strong>2</strong>" in public  # Åsa's two points


def test_a_struck_player_is_a_struck_row_without_points(event):
    competition = make_competition(event, slug="struck")
    entries = enter_players(competition, 3)
    services.competition_start(competition=competition, seed=4, now=START)
    competition.refresh_from_db()
    services.entry_withdraw(entry=entries[2], now=START)
    (table,) = table_selectors.tables_for_competition(competition)
    html = render("{% crosstable_rows table '' %}", table=table)
    assert html.count('class="struck-row"') == 1
    assert '<span class="muted">–</span>' in html


def test_the_panels_carry_the_competitions_summary(event):
    competition = make_competition(event, slug="panel")
    entries = enter_players(competition, 2)
    services.competition_start(competition=competition, seed=4, now=START)
    competition.refresh_from_db()
    play(competition, entries[0], entries[1])
    for panel in (tags.roundrobin_public, tags.roundrobin_desk):
        context = panel(competition)
        summary = context["summary"]
        assert context["competition"] == competition
        assert (summary.tables, summary.games, summary.finished, summary.running) == (1, 1, 1, True)
