"""A format's declaration (``events.formats.declaration``): what follows from its key by
convention, its hooks, and where its public and desk pages live."""

from __future__ import annotations

import dataclasses

import pytest
from django.http import HttpResponse
from django.urls import URLPattern, URLResolver, path

from events.formats import FormatHooks, GameFormat, get_format
from events.formats.declaration import desk_prefix, format_urls, public_prefix


@dataclasses.dataclass(frozen=True)
class Settings:
    rounds: int = 4


TOY = GameFormat(
    key="toy",
    label="Toy",
    url_segment="toys",
    settings_class=Settings,
    settings_form="django.forms.Form",
)


def test_the_conventions_follow_from_the_key():
    assert (TOY.rules_module, TOY.urls) == ("toy.rules", "toy.urls")
    assert (TOY.public_panel, TOY.desk_panel) == (
        "toy/_competition_public.html",
        "toy/_competition_desk.html",
    )
    assert (TOY.public_home, TOY.desk_home, TOY.screen) == (
        "toy:home",
        "toy:desk_home",
        "toy:screen",
    )
    assert TOY.head == ""  # no toy/_head.html: no tags to add
    assert TOY.default_settings() == {"rounds": 4}
    assert isinstance(TOY.hooks, FormatHooks) and TOY.hooks is TOY.hooks  # one per format


def test_hooks_that_are_not_format_hooks_are_refused():
    wrong = dataclasses.replace(TOY, hooks_class="collections.OrderedDict")
    with pytest.raises(TypeError, match="is not a FormatHooks"):
        _ = wrong.hooks


def test_a_registered_formats_rules_and_form_are_its_own():
    sjoelen = get_format("shuffleboard")
    assert sjoelen.rules().__name__ == "shuffleboard.rules"
    assert sjoelen.form_class().__module__.startswith("shuffleboard.")


def test_a_formats_pages_live_under_its_segment_with_the_start_pages_named_again():
    assert public_prefix(TOY) == "e/<slug:event_slug>/<slug:competition_slug>/toys/"
    assert desk_prefix(TOY) == "desk/<slug:event_slug>/<slug:competition_slug>/toys/"

    def view(request, **kwargs):
        return HttpResponse("")

    patterns = format_urls(
        TOY,
        public=[path("", view, name="standings"), path("rota/", view, name="rota")],
        desk=[path("", view, name="desk")],
        home="standings",
        desk_home="desk",
    )
    public, desk = patterns
    assert isinstance(public, URLResolver) and isinstance(desk, URLResolver)
    assert str(public.pattern) == public_prefix(TOY)
    public_names = [p.name for p in public.url_patterns if isinstance(p, URLPattern)]
    desk_names = [p.name for p in desk.url_patterns if isinstance(p, URLPattern)]
    assert public_names == ["standings", "rota", "home"]
    assert desk_names == ["desk", "desk_home"]
    home = public.url_patterns[-1]
    assert str(home.pattern) == "" and home.callback is view
