"""``manage.py load_demo`` (``events.management.commands.load_demo``), as the module's demo site
holds it (tests/conftest.py): the organiser owns the three clubs, each of two clubs has an
organiser of its own who sees nothing of the others, a series per format holds its demo
competition, and the admin login is a superuser. (Refusing without DEBUG and loading once are
in tests/test_project.py.)"""

from __future__ import annotations

from django.contrib.auth import get_user_model

from events.formats import FormatHooks, all_formats
from events.models import ClubRole
from events.series.models import SeriesCompetition


def test_the_demo_gives_each_login_its_clubs(demo_site, db):
    roles = set(ClubRole.objects.values_list("user__username", "club__slug", "role"))
    assert {
        ("organiser", club, "owner") for club in ("lincon", "kalamaja", "correspondentieclub")
    } <= roles
    assert {(user, club, role) for user, club, role in roles if user != "organiser"} == {
        ("lincon", "lincon", "organiser"),
        ("tallinn", "kalamaja", "organiser"),
    }
    assert get_user_model().objects.get(username="admin").is_superuser


def test_every_demo_competition_is_in_a_series_of_its_format(demo_site, db):
    members = list(SeriesCompetition.objects.select_related("series", "competition__event"))
    with_demo = {f.key for f in all_formats() if type(f.hooks).demo is not FormatHooks.demo}
    assert {m.series.format for m in members} == with_demo  # one series per format
    for member in members:
        competition = member.competition
        assert member.series.format == competition.format
        assert member.series.host_id == competition.event.host_id
        assert member.series.name.endswith(f"series {competition.event.starts_on:%Y}")
