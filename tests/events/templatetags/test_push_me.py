"""The "also notify me on this phone" control (``events.templatetags.push_me``): drawn with the
page's event in its routes once push is set up, and nothing at all without it."""

from __future__ import annotations

from django.template import Context, Template
from django.test import RequestFactory
from django.urls import resolve, reverse

from tests.support.factories import EntryFactory
from tests.support.notify import PUBLIC, VAPID


def page(path: str) -> Context:
    request = RequestFactory().get(path)
    request.resolver_match = resolve(path)
    return Context({"request": request})


def render(text: str, context: Context) -> str:
    return Template("{% load push_me %}" + text).render(context)


def test_without_push_keys_nothing_is_drawn(db, settings):
    settings.VAPID_PRIVATE_KEY = settings.VAPID_PUBLIC_KEY = ""
    entry = EntryFactory()
    context = page(f"/e/{entry.competition.event.slug}/")
    context["entry"] = entry
    assert render("{% push_me entry %}{% push_me_head %}", context).strip() == ""


@VAPID
def test_the_control_names_the_pages_event_and_the_head_links_the_manifest(db):
    entry = EntryFactory()
    slug = entry.competition.event.slug
    context = page(f"/e/{slug}/")
    context["entry"] = entry
    html = render("{% push_me entry %}", context)
    push_url = reverse("events:public_push", args=[entry.pk]) + f"?event={slug}"
    assert f'data-push-url="{push_url}"' in html
    assert f'data-push-key="{PUBLIC}"' in html
    head = render("{% push_me_head %}", context)
    assert f'href="{reverse("events:manifest")}?start=/e/{slug}/"' in head
    assert "js/push_me.js" in head
