"""Sjoelen rule options: classes A, B, C by average as a grouping of the standings, the class
carried from a player's previous finished competition (A-SJ-17)."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from events.models import Competition
from events.services import competition_touch
from shuffleboard import rules, services
from shuffleboard.forms import SjoelenSettingsForm
from shuffleboard.selectors import standings_with_options
from tests.support.factories import EventFactory, PlayerFactory
from tests.support.shuffleboard import PlayingEntryFactory, SjoelenFactory, url

# --- rules ---------------------------------------------------------------------------------


def test_class_of_uses_the_limits_from_and_including():
    assert [rules.class_of(x, a=120, b=100) for x in (148, 120, Fraction(239, 2), 100, 99, 0)] == [
        "A", "A", "B", "B", "C", "C",
    ]  # fmt: skip
    assert rules.class_of(None, a=120, b=100) == "C"
    for a, b in ((100, 100), (100, 120), (100, -1), (100.5, 50)):
        with pytest.raises(rules.InvalidResult):
            rules.class_of(50, a=a, b=b)


@given(st.fractions(0, 148), st.fractions(0, 148), st.integers(1, 148), st.integers(0, 147))
def test_a_higher_average_never_gets_a_lower_class(x, y, a, b):
    if b >= a:
        return
    low, high = sorted((x, y))
    assert rules.class_of(high, a=a, b=b) <= rules.class_of(low, a=a, b=b)  # "A" < "B" < "C"


@given(
    st.dictionaries(st.integers(0, 30), st.lists(st.integers(0, 148), max_size=4), max_size=12),
    st.data(),
)
def test_class_groups_split_the_ranking_and_place_within_each_class(games, data):
    ranked = rules.rank(games)
    classes = {p: data.draw(st.sampled_from(rules.CLASSES)) for p in games}
    groups = rules.class_groups(ranked, classes)
    assert sorted(p for _, rows in groups for *_, p in rows) == sorted(games)
    assert [name for name, _ in groups] == [c for c in rules.CLASSES if c in classes.values()]
    overall = dict((p, place) for place, p in ranked)
    for name, rows in groups:
        assert all(classes[p] == name for *_, p in rows)
        assert [p for *_, p in rows] == [p for _, p in ranked if classes[p] == name]
        assert rows[0][0] == 1
        for (place, _, p), (next_place, _, q) in zip(rows, rows[1:], strict=False):
            assert (place == next_place) == (overall[p] == overall[q])


def test_the_settings_form_checks_the_class_limits():
    form = SjoelenSettingsForm(
        {"games": 10, "boards": 4, "classes": "on", "class_a": 100, "class_b": 100}
    )
    assert not form.is_valid() and "class_b" in form.errors
    form = SjoelenSettingsForm({"games": 10, "boards": 4})
    assert form.is_valid(), form.errors
    data = form.cleaned_data
    assert (data["classes"], data["class_a"], data["class_b"]) == (False, 120, 100)


# --- through the pages ---------------------------------------------------------------------


def _play(entry, counts, games=2):
    for number in range(1, games + 1):
        services.turn_record(entry=entry, number=number, counts=counts)


def test_classes_group_the_standings_and_carry_over_from_the_last_finished_competition(
    client, organiser, django_assert_max_num_queries
):
    epp, tonu, urmas = (PlayerFactory(name=n) for n in ("Epp Saks", "Tõnu Oja", "Urmas Pärn"))
    last_year = EventFactory(
        slug="club-2025", starts_on=dt.date(2025, 5, 5), organisers=[organiser]
    )
    old = SjoelenFactory(event=last_year, slug="sjoelen", settings={"games": 2, "boards": 1})
    _play(PlayingEntryFactory(competition=old, player=epp), (7, 7, 7, 9))  # 148 average: A
    _play(PlayingEntryFactory(competition=old, player=tonu), (1, 1, 1, 1))  # 20: C
    Competition.objects.filter(pk=old.pk).update(status=Competition.Status.FINISHED)
    # A later competition that is not finished (and one of another format) carries nothing.
    unfinished = SjoelenFactory(event=last_year, slug="later", settings={"games": 2, "boards": 1})
    _play(PlayingEntryFactory(competition=unfinished, player=tonu), (7, 7, 7, 9))

    event = EventFactory(slug="club-2026", starts_on=dt.date(2026, 5, 5), organisers=[organiser])
    now = SjoelenFactory(
        event=event,
        slug="sjoelen",
        settings={"games": 2, "boards": 2, "classes": True, "class_a": 120, "class_b": 100},
    )
    e, t, u = (PlayingEntryFactory(competition=now, player=p) for p in (epp, tonu, urmas))
    _play(e, (1, 1, 1, 1))  # 20 here, but carries A
    _play(t, (7, 7, 7, 9))  # 148 here, but carries C
    _play(u, (5, 5, 5, 6))  # 104, a newcomer: B by this competition

    shown = standings_with_options(now)
    groups = [
        (g.name, [(p, row.name, carried) for p, _, row, carried in g.rows]) for g in shown.classes
    ]
    assert groups == [
        ("A", [(1, "Epp Saks", True)]),
        ("B", [(1, "Urmas Pärn", False)]),
        ("C", [(1, "Tõnu Oja", True)]),
    ]  # fmt: skip
    with django_assert_max_num_queries(14):
        page = client.get(url("standings", now)).content.decode()
    assert 'id="class-A"' in page and 'id="class-C"' in page and 'id="standings"' not in page
    player = client.get(url("player", now, e.pk)).content.decode()
    assert 'id="player-class"' in player and "<strong>A</strong>" in player

    # Off (the default): one table, no classes.
    Competition.objects.filter(pk=now.pk).update(settings={"games": 2, "boards": 2})
    competition_touch(now)  # a raw update: the page's cached body goes with the version
    page = client.get(url("standings", now)).content.decode()
    assert 'id="standings"' in page and "class-A" not in page


def test_finishing_a_competition_refreshes_the_pages_that_carry_its_classes(organiser):
    old = SjoelenFactory(settings={"games": 1, "boards": 1})
    PlayingEntryFactory(competition=old)
    classed = SjoelenFactory(settings={"games": 1, "boards": 1, "classes": True})
    plain = SjoelenFactory(settings={"games": 1, "boards": 1})
    before = {c.pk: c.version for c in (classed, plain)}
    services.competition_finish(competition=old)
    after = {c.pk: c.version for c in Competition.objects.filter(pk__in=before)}
    assert after[classed.pk] == before[classed.pk] + 1 and after[plain.pk] == before[plain.pk]
