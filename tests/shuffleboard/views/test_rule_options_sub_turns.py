"""Sjoelen rule options: the sub-turn rows are stored, shown on the player's page and correctable
(A-SJ-15)."""

from __future__ import annotations

from hypothesis import given, strategies as st

from events.exchange import document as exchange
from events.models import Correction
from shuffleboard import export, rules, services
from shuffleboard.models import Turn
from tests.support.shuffleboard import HTMX, gates, sub_turns, url

ROWS = [(4, 6, 3, 5), (1, 2, 2, 2), (0, 1, 0, 0)]  # adds up to 5, 9, 5, 7 = 116


# --- rules ---------------------------------------------------------------------------------


@st.composite
def rows_of_a_turn(draw):
    """One to three valid sub-turn rows: each lands at most the discs still in hand."""
    rows, left = [], rules.DISCS
    for _ in range(draw(st.integers(1, rules.SUB_TURNS))):
        row = [0, 0, 0, 0]
        for _ in range(draw(st.integers(0, left))):
            row[draw(st.integers(0, 3))] += 1
        left -= sum(row)
        rows.append(tuple(row))
        if left == 0:
            break
    return rows


@given(rows_of_a_turn())
def test_check_game_keeps_the_rows_and_stored_sub_turns_reads_them_back(rows):
    game = rules.check_game(sub_turns=rows)
    assert game.sub_turns == tuple(rows)
    assert game.counts == rules.sub_turns_total(rows)
    assert rules.stored_sub_turns([list(r) for r in rows], game.counts) == tuple(rows)


@given(rows_of_a_turn(), st.integers(0, 3))
def test_stored_rows_that_do_not_add_up_are_not_shown(rows, gate):
    counts = list(rules.sub_turns_total(rows))
    if sum(counts) < rules.DISCS:
        counts[gate] += 1
        assert rules.stored_sub_turns(rows, counts) is None


def test_stored_sub_turns_never_raises_on_junk():
    for junk in (None, [], "abc", [[1, 2]], [[-1, 0, 0, 0]], [["a", 0, 0, 0]], {"a": 1}, 5):
        assert rules.stored_sub_turns(junk, (0, 0, 0, 0)) is None
    assert rules.check_game((5, 9, 5, 7)).sub_turns is None


# --- services and pages, end to end --------------------------------------------------------


def test_sub_turns_entered_at_the_desk_are_stored_shown_and_corrected(
    desk_client, client, playing, organiser
):
    entry = playing[0]
    competition = entry.competition
    response = desk_client.post(
        url("turn_record", competition),
        sub_turns(*ROWS, entry=entry.pk, number=1),
        headers=HTMX,
    )
    assert response.status_code == 200
    turn = Turn.objects.get(entry=entry, number=1)
    assert (turn.score, turn.sub_turns) == (116, [list(r) for r in ROWS])

    page = client.get(url("player", competition, entry.pk)).content.decode()
    assert page.count('class="sub-turn') == 3
    # sub-turn 1 in board order 2, 3, 4, 1: 6, 3, 5, 4
    assert (
        '<td class="num">6</td><td class="num">3</td><td class="num">5</td><td class="num">4</td>'
        in page
    )

    # The correction form starts from the rows; a changed row is a correction with its trail.
    form = desk_client.get(url("turn", competition, turn.pk)).content.decode()
    assert 'name="s3_gate2" value="1"' in form
    fixed = [ROWS[0], ROWS[1], (0, 0, 0, 1)]  # the last disc went into the 4-gate: 5, 8, 5, 8
    response = desk_client.post(
        url("turn", competition, turn.pk), sub_turns(*fixed, revision=turn.revision)
    )
    assert response.status_code == 302
    turn.refresh_from_db()
    assert (turn.counts, turn.score, turn.sub_turns) == (
        (5, 8, 5, 8),
        118,
        [list(r) for r in fixed],
    )
    correction = Correction.objects.get()
    assert (correction.before, correction.after) == ("116", "118")
    assert correction.payload["before"]["sub_turns"] == [list(r) for r in ROWS]

    # A stale form (the old revision) is refused and changes nothing.
    response = desk_client.post(url("turn", competition, turn.pk), sub_turns(*ROWS, revision=1))
    assert response.status_code == 400
    turn.refresh_from_db()
    assert turn.score == 118

    # Same score, other rows: the trail says what changed; the undo puts the rows back.
    moved = [(4, 6, 3, 5), (1, 2, 2, 3), (0, 0, 0, 0)]
    services.turn_correct(
        turn=turn,
        revision=turn.revision,
        counts=(5, 8, 5, 8),
        sub_turns=moved,
        entered_by=organiser,
    )
    last = Correction.objects.order_by("-pk").first()
    assert last.before.startswith("sub-turns") and last.after.startswith("sub-turns")
    services.undo_correction(last, organiser)
    turn.refresh_from_db()
    assert turn.sub_turns == [list(r) for r in fixed]

    # Corrected by totals only: the rows are dropped (they no longer describe the game).
    desk_client.post(url("turn", competition, turn.pk), gates(5, 9, 5, 7, revision=turn.revision))
    turn.refresh_from_db()
    assert (turn.score, turn.sub_turns) == (116, None)
    page = client.get(url("player", competition, entry.pk)).content.decode()
    assert 'class="sub-turn' not in page


def test_admin_keeps_the_rows_while_they_add_up_and_old_trails_undo(playing, organiser):
    entry = playing[0]
    turn = services.turn_record(entry=entry, number=1, counts=(5, 9, 5, 7), sub_turns=ROWS)
    saved = services.turn_admin_save(
        turn=turn, revision=turn.revision, entry=entry, number=2, board=None, counts=(5, 9, 5, 7),
        by=organiser, confirmed=True,
    )  # fmt: skip
    assert saved.sub_turns == [list(r) for r in ROWS]
    saved = services.turn_admin_save(
        turn=saved, revision=saved.revision, entry=entry, number=2, board=None,
        counts=(5, 9, 5, 8), by=organiser, confirmed=True,
    )  # fmt: skip
    assert saved.sub_turns is None
    # A trail written before sub-turns were kept has no "sub_turns": the undo still works.
    last = Correction.objects.order_by("-pk").first()
    del last.payload["before"]["sub_turns"]
    last.save()
    services.undo_correction(last, organiser)
    saved.refresh_from_db()
    assert (saved.counts, saved.sub_turns) == ((5, 9, 5, 7), None)


def test_the_player_page_with_sub_turns_keeps_its_query_count(
    client, playing, django_assert_max_num_queries
):
    entry = playing[0]
    for number in range(1, 11):
        services.turn_record(entry=entry, number=number, counts=(5, 9, 5, 7), sub_turns=ROWS)
    with django_assert_max_num_queries(12):
        response = client.get(url("player", entry.competition, entry.pk))
    assert response.content.decode().count('class="sub-turn') == 30


def test_sub_turns_travel_in_the_backup_and_old_backups_import(playing):
    entry = playing[0]
    services.turn_record(entry=entry, number=1, counts=(5, 9, 5, 7), sub_turns=ROWS)
    services.turn_record(entry=entry, number=2, counts=(5, 9, 5, 7))
    document = exchange.export_event(entry.competition.event)
    exchange.import_event(document, slug="copy")
    copied = Turn.objects.filter(entry__competition__event__slug="copy").order_by("number")
    assert [t.sub_turns for t in copied] == [[list(r) for r in ROWS], None]
    for rows in document["tables"].values():  # a backup from before sub-turns were kept
        for row in rows:
            row.pop("sub_turns", None)
    exchange.import_event(document, slug="old")
    old = Turn.objects.filter(entry__competition__event__slug="old")
    assert [t.sub_turns for t in old] == [None, None]
    sheet = export.results(entry.competition)
    assert sheet.rows[0][-1] == "6 3 5 4 | 2 2 2 1 | 1 0 0 0" and sheet.rows[1][-1] == ""
