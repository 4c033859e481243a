"""The contract's checks (``events.formats.checks``): every registered format keeps the contract,
and a fourth format written by the book in a temporary app costs one app; take one piece away
and the check names it."""

from __future__ import annotations

import dataclasses
import datetime as dt

from django.template import engines

from events.formats import (
    FormatHooks,
    PeriodicWork,
    all_formats,
    part,
)
from tests.support.capabilities import CAPABILITIES


def test_every_registered_format_keeps_the_contract():
    from events.formats import GameFormat, contract_problems

    assert all_formats()
    for game_format in all_formats():
        assert contract_problems(game_format) == [], game_format.key
    assert len(dataclasses.fields(GameFormat)) <= 8


# The temporary format's name: one no real app will take (the docs' example, crokinole, may
# well be installed one day).
TOY = "toyformat_contract"


TOY_FILES = {
    "__init__.py": "",
    "apps.py": f"""
from django.apps import AppConfig


class ToyConfig(AppConfig):
    name = "{TOY}"
    default_auto_field = "django.db.models.BigAutoField"
""",
    "rules.py": '"""Pure: the score of a round."""\n\n\ndef score(discs):\n    return sum(discs)\n',
    "forms.py": """
from django import forms


class ToySettingsForm(forms.Form):
    rounds = forms.IntegerField(min_value=1, initial=4)
""",
    "urls.py": f"""
from django.http import HttpResponse
from django.urls import path

app_name = "{TOY}"
COMPETITION = "<slug:event_slug>/<slug:competition_slug>/{TOY}/"


def page(request, **kwargs):
    return HttpResponse("{TOY}")


urlpatterns = [
    path("e/" + COMPETITION, page, name="home"),
    path("e/" + COMPETITION + "screen/", page, name="screen"),
    path("desk/" + COMPETITION, page, name="desk_home"),
]
""",
    f"templates/{TOY}/_competition_public.html": "<p>toy</p>\n",
    f"templates/{TOY}/_competition_desk.html": "<p>toy desk</p>\n",
}


@dataclasses.dataclass(frozen=True)
class ToySettings:
    rounds: int = 4


class TickingHooks(FormatHooks):
    def periodic(self) -> tuple[PeriodicWork, ...]:
        return (PeriodicWork("tick", dt.timedelta(milliseconds=10), lambda now: "tick"),)


def test_a_fourth_format_costs_one_app(tmp_path, monkeypatch, settings):
    """A format written by the book in a temporary app: nothing outside it changes but
    INSTALLED_APPS, and it keeps the contract with the hooks' defaults; take one piece away
    and the check names it."""
    from events.formats import FormatHooks, GameFormat, contract_problems

    for name, text in TOY_FILES.items():
        path = tmp_path / TOY / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text.lstrip())
    monkeypatch.syspath_prepend(str(tmp_path))
    settings.INSTALLED_APPS = [*settings.INSTALLED_APPS, f"{TOY}.apps.ToyConfig"]
    toy = GameFormat(
        key=TOY,
        label="Toy format",
        url_segment=TOY,
        settings_class=ToySettings,
        settings_form=f"{TOY}.forms.ToySettingsForm",
    )
    assert isinstance(toy.hooks, FormatHooks)
    assert contract_problems(toy) == []
    # the hooks' defaults work: no demo, every entry taken, no seat hook, no undo
    assert toy.hooks.demo(None) is None and toy.hooks.entry_check(None) is None
    assert not toy.hooks.corrects_seats() and not toy.hooks.undoes_corrections()
    assert toy.hooks.periodic() == ()  # no periodic work: nothing that time alone changes
    # a format takes part in no capability it does not implement, and every page copes
    assert [c for c in CAPABILITIES if part(toy, c) is not None] == []
    assert toy.head == "" and toy.default_settings() == {"rounds": 4}

    (tmp_path / TOY / "templates" / TOY / "_competition_desk.html").unlink()
    for engine in engines.all():  # the cached template loader would still find it
        for loader in engine.engine.template_loaders:  # type: ignore[attr-defined]
            loader.reset()
    assert contract_problems(toy) == [f"{TOY}: no template {TOY}/_competition_desk.html"]
    long_key = dataclasses.replace(toy, key="k" * 21)
    assert f"{'k' * 21}: the key is longer than 20 characters" in contract_problems(long_key)
    ticking = dataclasses.replace(toy, hooks_class=f"{__name__}.TickingHooks")
    ticking_problem = (
        f"{TOY}: the periodic work 'tick' is not named '{TOY}:…' "
        "or comes round more than once a second"
    )
    assert ticking_problem in contract_problems(ticking)
    broken = dataclasses.replace(toy, key=f"{TOY}_missing")
    assert f"{TOY}_missing: the key is not the label of an installed app" in contract_problems(
        broken
    )
