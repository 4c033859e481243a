"""``{% live_section %}`` (``events.templatetags.live``): the part of a public page that polls its
own address until the page says to stop."""

from __future__ import annotations

import pytest
from django.template import Context, Template, TemplateSyntaxError
from django.test import RequestFactory


def render(text: str, **context) -> str:
    return Template("{% load live %}" + text).render(Context(context))


def test_the_section_polls_the_pages_own_address_with_its_classes():
    request = RequestFactory().get("/e/night/sjoelen/?lang=en")
    html = render(
        '{% live_section "standings-live" "card" %}<p>{{ x }}</p>{% endlive_section %}',
        request=request,
        poll="every 10s",
        x="rows",
    )
    assert html == (
        '<section id="standings-live" class="card" hx-get="/e/night/sjoelen/?lang=en"'
        ' hx-swap="outerHTML" hx-trigger="every 10s"><p>rows</p></section>'
    )


def test_a_finished_page_stops_polling():
    html = render('{% live_section "s" %}done{% endlive_section %}', poll="")
    assert html == '<section id="s" hx-get="" hx-swap="outerHTML">done</section>'
    assert "hx-trigger" not in html


def test_a_section_without_an_id_is_a_syntax_error():
    with pytest.raises(TemplateSyntaxError):
        Template("{% load live %}{% live_section %}x{% endlive_section %}")
