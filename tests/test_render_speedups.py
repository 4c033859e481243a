"""The render shortcuts of the heavy live pages write exactly what the template code they
replaced wrote (issue 15: faster first renders, same HTML)."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.urls import reverse
from hypothesis import given, strategies as st

from blokus.templatetags import blokus_tags
from roundrobin.selectors.tables import Cell
from roundrobin.templatetags import roundrobin_tags
from shuffleboard import rules, selectors as shuffleboard_selectors

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
        got = shuffleboard_selectors._problem(bonus, score, counts, bonus_counts, max_after)
        assert got == expected
