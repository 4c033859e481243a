"""``{% live_section "id" %}…{% endlive_section %}``: the part of a public page that polls.

It renders ``<section id="id" hx-get="<this address>" hx-swap="outerHTML" hx-trigger="<poll>">``
around its content (or, on a projector paired at the desk, around what the desk chose instead:
``screen_shows``, a template of ``events.screens``; ``screen_paused`` marks a held cycle); the
view (``events.live.pages``) answers the poll with the same section, so the page follows the
competition without a reload, and stops polling once ``poll`` is empty.
An optional second argument adds CSS classes: ``{% live_section "standings-live" "card" %}``.
"""

from __future__ import annotations

from django import template
from django.template.base import FilterExpression, Parser, Token
from django.template.context import Context
from django.utils.html import format_html
from django.utils.safestring import mark_safe

register = template.Library()


class LiveSectionNode(template.Node):
    def __init__(
        self, section_id: FilterExpression, css: FilterExpression | None, body: template.NodeList
    ) -> None:
        self.section_id = section_id
        self.css = css
        self.body = body

    def render(self, context: Context) -> str:
        request = context.get("request")
        poll = context.get("poll") or ""
        css = self.css.resolve(context) if self.css else ""
        instead = context.get("screen_shows") or ""
        body = (
            context.template.engine.get_template(instead).render(context)
            if instead and context.template is not None
            else self.body.render(context)
        )
        return format_html(
            '<section id="{}"{} hx-get="{}" hx-swap="outerHTML"{}{}>{}</section>',
            self.section_id.resolve(context),
            format_html(' class="{}"', css) if css else "",
            request.get_full_path() if request is not None else "",
            format_html(' hx-trigger="{}"', poll) if poll else "",
            mark_safe(" data-screen-paused") if context.get("screen_paused") else "",
            body,
        )


@register.tag("live_section")
def live_section(parser: Parser, token: Token) -> LiveSectionNode:
    bits = token.split_contents()
    if len(bits) not in (2, 3):
        raise template.TemplateSyntaxError('Usage: {% live_section "id" ["css classes"] %}')
    body = parser.parse(("endlive_section",))
    parser.delete_first_token()
    css = parser.compile_filter(bits[2]) if len(bits) == 3 else None
    return LiveSectionNode(parser.compile_filter(bits[1]), css, body)
