"""The round robin's panels on the shared competition pages (one query each)."""

from __future__ import annotations

from django import template

from events.models import Competition
from roundrobin import selectors

register = template.Library()


@register.inclusion_tag("roundrobin/_hook_public.html")
def roundrobin_public(competition: Competition) -> dict:
    return {"competition": competition, "summary": selectors.competition_summary(competition)}


@register.inclusion_tag("roundrobin/_hook_desk.html")
def roundrobin_desk(competition: Competition) -> dict:
    return {"competition": competition, "summary": selectors.competition_summary(competition)}
