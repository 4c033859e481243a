"""The qualification (``blokus.selectors.qualification``): ties go to the recorded lot, and the
final's preview reads in a constant number of queries; and no read of the package imports a
write."""

from __future__ import annotations

import ast
from decimal import Decimal
from pathlib import Path

from blokus import selectors, services
from blokus.models import QualificationLot
from tests.support.blokus import register


def test_qualification_ties_go_to_the_recorded_lot(competition, sessions):
    register(competition, sessions[0], 4)
    services.session_seat(session=sessions[0])
    round_ = services.round_draw(session=sessions[0], seed=1)
    game = round_.games.get()
    services.game_result_record(
        game=game,
        revision=0,
        hands=[services.HandInput(s.pk, 4) for s in game.seats.all()],
    )
    rows = selectors.qualification_rows(competition)
    assert all(r.tied for r in rows) and {r.points for r in rows} == {Decimal("1.5")}
    QualificationLot.objects.create(
        competition=competition, seed=9, order=[r.entry.pk for r in reversed(rows)]
    )
    again = selectors.qualification_rows(competition)
    assert [r.entry.pk for r in again] == [r.entry.pk for r in reversed(rows)]


def test_the_preview_reads_in_a_constant_number_of_queries(
    desk_client, eight_played, django_assert_max_num_queries
):
    competition, *_rest = eight_played
    competition.refresh_from_db()
    with django_assert_max_num_queries(6):
        plan = selectors.final_plan(competition)
    assert len(plan.finalists) == 4


def test_selectors_never_import_services():
    """Reads never call writes: services may use selectors, not the other way round."""
    sources = sorted(Path(selectors.__file__).parent.glob("*.py"))
    assert sources
    for source in sources:
        tree = ast.parse(source.read_text())
        for node in ast.walk(tree):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            names += (
                [a.name for a in node.names]
                if isinstance(node, ast.Import | ast.ImportFrom)
                else []
            )
            assert not any("services" in name for name in names), source
