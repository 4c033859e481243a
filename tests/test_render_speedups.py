"""The render shortcuts of the heavy live pages write exactly what the template code they
replaced wrote (faster first renders, same HTML)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from django.template import Context, Template
from django.urls import reverse
from hypothesis import given, strategies as st

from blokus.templatetags import blokus_tags
from roundrobin.selectors.table_views import Cell
from roundrobin.templatetags import roundrobin_tags
from shuffleboard import rules
from shuffleboard.selectors import standings as shuffleboard_standings

OLD_CELLS = Template(
    '{% for cell in row.cells %}<td class="cell{% if cell.is_self %} self{% endif %}'
    '{% if cell.open %} open{% endif %}"{% if cell.title %} title="{{ cell.title }}"{% endif %}>'
    "{% if cell.struck %}<s>{{ cell.text }}</s>{% else %}{{ cell.text }}{% endif %}</td>"
    "{% endfor %}"
)
NEW_CELLS = Template("{% load roundrobin_tags %}{{ row.cells|crosstable_cells }}")

CELLS = [
    Cell("×", is_self=True),
    Cell(""),
    Cell("·", "in progress", open=True),
    Cell("?", "needs attention", open=True),
    Cell("½", "played"),
    Cell("–", "cancelled", struck=True),
    Cell("+", 'forfeit "<won>" & kept', struck=True),
    Cell("<b>1</b>", "a 'title'"),
]


@pytest.mark.parametrize("cells", [CELLS, [], CELLS[:1], list(reversed(CELLS))])
def test_the_crosstable_cells_filter_writes_what_the_template_loop_wrote(cells):
    context = {"row": {"cells": cells}}
    assert NEW_CELLS.render(Context(context)) == OLD_CELLS.render(Context(context))


def test_the_crosstable_cells_filter_escapes_text_and_title():
    html = roundrobin_tags.crosstable_cells([Cell("<i>", 'say "hi"')])
    assert html == '<td class="cell" title="say &quot;hi&quot;">&lt;i&gt;</td>'


class Named:
    def __init__(self, slug: str) -> None:
        self.slug = slug


@pytest.mark.parametrize(
    ("tags", "name"), [(blokus_tags, "blokus:player"), (roundrobin_tags, "roundrobin:player")]
)
@pytest.mark.parametrize("entry_id", [1, 7, 1234, 987654])
def test_a_player_link_from_the_base_is_the_reversed_address(tags, name, entry_id):
    event, competition = Named("lincon-2026"), Named("main-event")
    base = tags.player_url_base(event, competition)
    expected = reverse(name, args=[event.slug, competition.slug, entry_id])
    assert tags.player_url(entry_id, base) == expected


def test_a_list_without_event_or_competition_gets_no_base():
    assert blokus_tags.player_url_base("", None) == ""
    assert roundrobin_tags.player_url_base(Named("e"), "") == ""


counts = st.tuples(*[st.integers(-2, 32)] * 4)
maybe_counts = st.tuples(*[st.one_of(st.none(), st.integers(-1, 8))] * 4)


@given(
    bonus=st.booleans(),
    score=st.integers(-5, 160),
    counts=counts,
    bonus_counts=maybe_counts,
    max_after=st.one_of(st.none(), st.integers(0, 4)),
)
def test_the_remembered_sjoelen_check_is_the_rules_check(
    bonus, score, counts, bonus_counts, max_after
):
    expected = rules.stored_game_problem(
        counts, bonus_counts=bonus_counts, max_after=max_after, score=score, bonus=bonus
    )
    for _ in range(2):  # first computed, then remembered
        got = shuffleboard_standings._problem(bonus, score, counts, bonus_counts, max_after)
        assert got == expected


# --- the round robin's crosstable rows and its fast loader, on a generated league ------------

OLD_ROWS = Template(
    "{% load roundrobin_tags %}{% player_url_base event competition as players %}"
    "{% for row in table.rows %}\n"
    '    <tr class="{% if row.struck %}struck-row{% elif row.withdrawn %}withdrawn-row{% endif %}'
    '{% if row.place and row.place <= 3 and table.is_final %} podium{% endif %}" '
    'data-entry="{{ row.entry.pk }}" data-player="{{ row.entry.pk }}">\n'
    '      <td class="place">{{ row.place_label }}</td>\n'
    '      <th scope="row" class="name"><span class="idx">{{ row.index }}</span> '
    '<a href="{{ row.entry.pk|player_url:players }}" title="{{ row.name }}">{{ row.name }}</a>'
    "</th>\n"
    "      {{ row.cells|crosstable_cells }}\n"
    '      <td class="pts">{% if row.struck %}<span class="muted">–</span>{% else %}'
    "<strong>{{ row.points_label }}</strong>{% endif %}</td>\n"
    '      <td class="games muted">{{ row.played }}</td>\n'
    "    </tr>\n  {% endfor %}"
)
OLD_HEADS = Template(
    '{% for row in table.rows %}<th scope="col" title="{{ row.name }}">{{ row.index }}</th>'
    "{% endfor %}"
)
NEW_HEADS = Template("{% load roundrobin_tags %}{% crosstable_heads table %}")
NEW_ROWS = Template(
    "{% load roundrobin_tags %}{% player_url_base event competition as players %}"
    "{% crosstable_rows table players %}"
)


@pytest.fixture
def generated_league(event):
    """Three tables (16 players), every kind of cell: wins, a draw, a struck withdrawal, a
    finished table with its podium, a name that needs escaping."""
    from roundrobin import services
    from tests.support.roundrobin import START, enter_players, make_competition, play

    competition = make_competition(event, slug="generated")
    entries = enter_players(competition, 16)
    first = entries[0].player
    first.name = "<Anna & 'Bo' \"Ö\">"
    first.save(update_fields=["name"])
    services.competition_start(competition=competition, seed=11, now=START)
    tables = {}
    for entry in entries:
        tables.setdefault(entry.rr_snapshot.table, []).append(entry)
    one = tables[1]
    for i, a in enumerate(one):  # table 1 plays out: final, with a podium
        for b in one[i + 1 :]:
            play(competition, a, b, draw=(i + len(one)) % 3 == 0)
    two = tables[2]
    play(competition, two[0], two[1])
    play(competition, two[1], two[2], draw=True)
    services.entry_withdraw(entry=two[-1])
    competition.refresh_from_db()
    return competition


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "sv", "et", "nl"])
def test_the_crosstable_tags_write_what_the_template_loops_wrote(generated_league, language):
    from django.utils import translation

    from roundrobin.selectors.tables import tables_for_competition

    competition = generated_league
    written = []
    with translation.override(language):
        tables = tables_for_competition(competition)
        assert any(table.is_final for table in tables)
        assert any(row.struck or row.withdrawn for table in tables for row in table.rows)
        for table in tables:
            context = {"table": table, "event": competition.event, "competition": competition}
            old = OLD_ROWS.render(Context(context))
            assert NEW_ROWS.render(Context(context)) == old
            heads = OLD_HEADS.render(Context(context))
            assert NEW_HEADS.render(Context(context)) == heads
            assert old.count("<tr") == len(table.rows)
            written.append(old)
    assert "&lt;Anna &amp; &#x27;Bo&#x27; &quot;Ö&quot;&gt;" in "".join(written)


def _fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


@pytest.mark.django_db
def test_the_fast_loader_loads_every_field_select_related_loads(generated_league):
    """``game_views`` makes model instances from values: the same fields, the same relations
    as ``select_related`` (and Django's own instances) give."""
    from events.models import Entry, Game
    from roundrobin.selectors.loading import game_views
    from roundrobin.selectors.table_views import one_to_one

    competition = generated_league
    games = {
        g.pk: g
        for g in Game.objects.filter(round__session__competition=competition).select_related(
            "round__session", "round__rr_stage", "rr_detail"
        )
    }
    entries = {
        e.pk: e
        for e in Entry.objects.filter(competition=competition).select_related(
            "player", "rr_snapshot", "rr_withdrawal"
        )
    }
    views = game_views(competition)
    assert len(views) == len(games) > 0
    for session, view in views:
        game = games[view.pk]
        assert _fields(view.game) == _fields(game)
        assert _fields(view.game.round) == _fields(game.round)
        assert _fields(session) == _fields(game.round.session)
        assert _fields(view.detail) == _fields(game.rr_detail)
        assert view.detail.game is view.game
        stage = one_to_one(game.round, "rr_stage")
        assert (view.stage and _fields(view.stage)) == (stage and _fields(stage))
        for mine in (view.white, view.black):
            theirs = entries[mine.pk]
            assert _fields(mine) == _fields(theirs)
            assert _fields(mine.player) == _fields(theirs.player)
            assert _fields(mine.rr_snapshot) == _fields(theirs.rr_snapshot)
            withdrawal = one_to_one(theirs, "rr_withdrawal")
            got = one_to_one(mine, "rr_withdrawal")
            assert (got and _fields(got)) == (withdrawal and _fields(withdrawal))
            assert not mine._state.adding and mine._state.db == theirs._state.db


# --- Blokus: a table card's seat rows --------------------------------------------------------

OLD_SEATS = Template(
    "{% load i18n blokus_tags %}{% player_url_base event competition as players %}"
    "{% for s in g.seats %}\n"
    '        <tr class="{% if s.dropped %}dropped{% endif %}{% if s.entry.pk == mine %} mine'
    '{% endif %}" data-player="{{ s.entry.pk }}">\n'
    '          <td class="colour"><span class="swatch c-{{ s.colour }}"></span> '
    "{{ s.colour|colour_name }}</td>\n"
    '          <td><a href="{{ s.entry.pk|player_url:players }}">{{ s.entry.player.name }}</a>'
    '{% if s.dropped %} <span class="tag">{% translate "out" %}</span>{% endif %}</td>\n'
    '          <td class="num">{% if s.score is not None %}{{ s.score|signed }}{% endif %}</td>\n'
    '          <td class="num">{{ s.points|qp }}</td>\n'
    "        </tr>\n      {% endfor %}"
)
NEW_SEATS = Template(
    "{% load i18n blokus_tags %}{% player_url_base event competition as players %}"
    "{% seat_rows g.seats players %}"
)


def _seat(pk, name, colour, score, points, dropped=False):
    from types import SimpleNamespace

    entry = SimpleNamespace(pk=pk, player=SimpleNamespace(name=name))
    return SimpleNamespace(entry=entry, colour=colour, score=score, points=points, dropped=dropped)


SEATS = [
    _seat(1, "Ann", "blue", 12, Decimal("3")),
    _seat(22, "<Bo & 'Cy'>", "yellow", -7, Decimal("1.5"), dropped=True),
    _seat(333, 'Dee "D"', "red", 0, Decimal("0.5")),
    _seat(4444, "Åsa", "green", None, None),
    _seat(5, "Eve", "purple", 15, Decimal("0")),
]


@pytest.mark.parametrize("language", ["en", "sv", "et", "nl"])
@pytest.mark.parametrize("mine", [None, 22, 4444])
@pytest.mark.parametrize("seats", [SEATS, SEATS[:1], [], list(reversed(SEATS))])
def test_the_seat_rows_tag_writes_what_the_template_loop_wrote(language, mine, seats):
    from django.utils import translation

    context = {
        "g": {"seats": seats},
        "event": Named("lincon-2026"),
        "competition": Named("blokus"),
    }
    if mine is not None:
        context["mine"] = mine
    with translation.override(language):
        old = OLD_SEATS.render(Context(context))
        assert NEW_SEATS.render(Context(context)) == old
    assert old.count("<tr") == len(seats)


# --- sjoelen: the standings rows -------------------------------------------------------------

OLD_STANDINGS = Template(
    "{% for row in standings.rows %}\n"
    '      <tr{% if row.withdrawn %} class="withdrawn"{% endif %} '
    'data-player="{{ row.entry_id }}">\n'
    '        <td class="place">{{ row.place }}{% if row.shared %}={% endif %}</td>\n'
    '        <td><a href="{{ players_url }}{{ row.entry_id }}/">{{ row.name }}</a></td>\n'
    '        <td class="num">{{ row.games_played }}</td>\n'
    '        <td class="num"><strong>{{ row.total }}</strong></td>\n'
    '        <td class="num">{{ row.average_text }}</td>\n'
    '        <td class="num">{{ row.best|default_if_none:"–" }}</td>\n'
    "      </tr>\n    {% endfor %}"
)
NEW_STANDINGS = Template(
    "{% load shuffleboard_tags %}{% standings_rows standings.rows players_url %}"
)


def _standing(entry_id, name, place, shared, played, total, average, best, withdrawn=False):
    from types import SimpleNamespace

    return SimpleNamespace(
        entry_id=entry_id,
        name=name,
        place=place,
        shared=shared,
        games_played=played,
        total=total,
        average_text=average,
        best=best,
        withdrawn=withdrawn,
    )


STANDINGS = [
    _standing(7, "Ann", 1, False, 20, 2412, "120.6", 148),
    _standing(12, "<Bo & 'Cy'>", 2, True, 19, 2201, "115.8", 140),
    _standing(1234, 'Dee "D"', 2, True, 19, 2201, "115.8", 139, withdrawn=True),
    _standing(5, "Åsa", 4, False, 0, 0, "–", None),
]


@pytest.mark.parametrize("language", ["en", "nl"])
@pytest.mark.parametrize("rows", [STANDINGS, [], STANDINGS[3:]])
def test_the_standings_rows_tag_writes_what_the_template_loop_wrote(language, rows):
    from django.utils import translation

    context = {"standings": {"rows": rows}, "players_url": "/e/x/y/players/"}
    with translation.override(language):
        old = OLD_STANDINGS.render(Context(context))
        assert NEW_STANDINGS.render(Context(context)) == old
    assert old.count("<tr") == len(rows)


# --- the public tables page loads only the fields it shows -----------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "sv", "et", "nl"])
def test_the_tables_page_with_only_its_fields_writes_what_all_fields_wrote(
    generated_league, language, rf, django_assert_num_queries
):
    """``tables_for_competition(page=True)`` (``PAGE_FIELDS``, the rest deferred) renders the
    page byte for byte as the full instances do, and its render reads no deferred field (one
    would cost a query)."""
    from django.template.loader import render_to_string
    from django.utils import translation

    from events.live.pages import poll_for
    from roundrobin.selectors.tables import tables_for_competition

    competition = generated_league
    request = rf.get("/")
    base = {"event": competition.event, "competition": competition}
    base["poll"] = poll_for(competition)
    written = {}
    with translation.override(language):
        for page in (False, True):
            tables = tables_for_competition(competition, page=page)
            with django_assert_num_queries(0):
                written[page] = render_to_string(
                    "roundrobin/tables.html#live", {**base, "tables": tables}, request
                )
    assert written[True] == written[False]
    html = written[True]
    assert html.count("<tr") > 16 and "podium" in html
    assert "struck-row" in html or "withdrawn-row" in html


def test_a_shared_cell_writes_its_td_once_and_the_same_each_time():
    cell = Cell("½", "played", struck=True)
    first = roundrobin_tags.crosstable_cells([cell, cell])
    assert cell.html == '<td class="cell" title="played"><s>½</s></td>'
    assert roundrobin_tags.crosstable_cells([cell]) + cell.html == first


# --- Blokus: a session's standings rows ------------------------------------------------------

OLD_BLOKUS_STANDINGS = Template(
    "{% load i18n blokus_tags %}{% player_url_base event competition as players %}"
    "{% for r in rows %}\n"
    '    <tr{% if r.dropped %} class="dropped"{% endif %} data-player="{{ r.entry.pk }}">'
    '<td class="place">{{ r.place }}</td><td><a href="{{ r.entry.pk|player_url:players }}">'
    '{{ r.entry.player.name }}</a>{% if r.dropped %} <span class="tag">'
    '{% translate "dropped out" %}</span>{% endif %}</td><td class="num">{{ r.points|qp }}'
    '</td><td class="num">{{ r.total|signed }}</td><td class="num">{{ r.games }}</td></tr>\n'
    "  {% endfor %}"
)
NEW_BLOKUS_STANDINGS = Template(
    "{% load i18n blokus_tags %}{% player_url_base event competition as players %}"
    "{% standings_rows rows players %}"
)


def _blokus_row(pk, name, place, points, total, games, dropped=False):
    from types import SimpleNamespace

    entry = SimpleNamespace(pk=pk, player=SimpleNamespace(name=name))
    return SimpleNamespace(
        entry=entry, place=place, points=points, total=total, games=games, dropped=dropped
    )


BLOKUS_ROWS = [
    _blokus_row(1, "Ann", 1, Fraction(7, 2), 31, 4),
    _blokus_row(22, "<Bo & 'Cy'>", 2, Fraction(3), -4, 4, dropped=True),
    _blokus_row(333, 'Dee "D"', 2, Decimal("0.5"), 0, 3),
    _blokus_row(4444, "Åsa", 4, Fraction(0), -60, 0),
    _blokus_row(5, "Eve", 5, None, None, 0),
]


@pytest.mark.parametrize("language", ["en", "sv", "et", "nl"])
@pytest.mark.parametrize("rows", [BLOKUS_ROWS, BLOKUS_ROWS[:1], [], list(reversed(BLOKUS_ROWS))])
def test_the_blokus_standings_tag_writes_what_the_template_loop_wrote(language, rows):
    from django.utils import translation

    context = {"rows": rows, "event": Named("lincon-2026"), "competition": Named("blokus")}
    with translation.override(language):
        old = OLD_BLOKUS_STANDINGS.render(Context(context))
        assert NEW_BLOKUS_STANDINGS.render(Context(context)) == old
    assert old.count("<tr") == len(rows)


# --- Blokus: the table cards ------------------------------------------------------------------

# templates/blokus/_tables.html as it was, with its loop over the cards.
OLD_CARDS = Template((Path(__file__).parent / "files" / "blokus_tables_loop.html").read_text())
NEW_CARDS = Template(
    "{% load blokus_tags %}{% player_url_base event competition as players %}"
    '<ol class="tables">\n{% table_cards games players %}\n</ol>\n'
)


class _Options:
    def __init__(self, results_from_players: bool) -> None:
        self.results_from_players = results_from_players


class _Competition(Named):
    def __init__(self, slug: str, results_from_players: bool) -> None:
        super().__init__(slug)
        self.options = _Options(results_from_players)


def _card(pk, number, finished, attention=None, seats=SEATS):
    from types import SimpleNamespace

    return SimpleNamespace(
        game=SimpleNamespace(pk=pk, number=number),
        is_finished=finished,
        needs_attention=attention is not None,
        problem=attention,
        seats=seats,
    )


CARDS = [
    _card(101, 1, True),
    _card(102, 2, False, seats=SEATS[:3]),
    _card(103, 12, True, attention='Scores <do not> add up & "more"'),
    _card(104, 1234, False, seats=[]),
]


@pytest.mark.parametrize("language", ["en", "sv", "et", "nl"])
@pytest.mark.parametrize(
    ("propose", "desk", "from_players"),
    [(False, False, False), (True, False, True), (False, True, True), (False, True, False)],
)
@pytest.mark.parametrize("corrected", [None, {102, 103}])
def test_the_table_cards_tag_writes_what_the_template_loop_wrote(
    language, propose, desk, from_players, corrected
):
    from django.utils import translation

    context = {
        "games": CARDS,
        "event": Named("lincon-2026"),
        "competition": _Competition("blokus", from_players),
        "propose": propose,
        "desk": desk,
        "mine": 22,
    }
    if corrected is not None:
        context["corrected"] = corrected
    with translation.override(language):
        old = OLD_CARDS.render(Context(context))
        assert NEW_CARDS.render(Context(context)) == old
    assert old.count('<li class="card"') == len(CARDS)
    assert ("data-table-code" in old) == (desk and from_players)
    assert ("data-propose" in old) == propose
