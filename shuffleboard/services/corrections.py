"""Corrections: one write path for every change of a game already entered (A-SJ-12).

The desk's correction and removal, admin's add, change and delete, and an undo all go through
``_write``: the 1st-place warning (A-SJ-13), the write, the correction trail
(``events.services.correction_record``, undo data in its payload) and the version bump, in one
transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext, gettext_lazy as _, gettext_noop

from events.common.words import Words
from events.errors import Invalid, Stale, refuse
from events.models import Competition, Correction, Entry
from events.services import correction_record
from events.versions import versions_bump
from shuffleboard import rules, selectors
from shuffleboard.models import Turn
from shuffleboard.services import notices
from shuffleboard.services.common import (
    NO_BONUS,
    NUMBER_OUT_OF_RANGE,
    SubTurns,
    already_entered,
    ensure_sjoelen,
    ensure_writable,
    highest_number,
    rows_json,
    season_nights_after,
    touch_classed,
    validated,
)

STALE_TURN = _(
    "Someone else changed game %(number)s of %(player)s meanwhile. It now stands at "
    "%(counts)s = %(score)s; check it and correct it again if needed."
)
GAME_GONE = _("Game %(number)s was removed meanwhile.")
SLOT_TAKEN = _("Game %(number)s of this player was entered meanwhile.")
CHANGED_SINCE = _("Game %(number)s changed again since; correct it instead.")
NOTHING_TO_UNDO = _("There is nothing to put back.")
BROKEN_BEFORE = _("The game before this correction broke the rules (%(problem)s); it stays.")
OTHER_COMPETITION = _("A game stays in its competition: remove it and enter it there.")
FIRST_PLACE_MOVES = _(
    "This changes the final standings: %(moves)s. Confirm to correct it anyway; "
    "the board rota does not change."
)
KEEP = "keep"  # admin's change: keep the stored sub-turn rows while they still add up
DESK, ADMIN, UNDO = (
    Correction.Source.DESK.value,
    Correction.Source.ADMIN.value,
    Correction.Source.UNDO.value,
)


def _locked_turn(turn: Turn, revision: int, *, source: str = DESK) -> Turn:
    locked = (
        Turn.objects.select_for_update()
        .select_related("entry__player", "entry__competition")
        .filter(pk=turn.pk)
        .first()
    )
    if locked is None:
        raise refuse(GAME_GONE, error_class=Stale, code="stale", number=turn.number)
    if source == DESK:
        ensure_writable(locked.entry.competition)
    else:
        ensure_sjoelen(locked.entry.competition)
    if locked.revision != revision:
        raise refuse(
            STALE_TURN,
            error_class=Stale,
            number=locked.number,
            player=locked.entry.player.name,
            counts=rules.board_text(locked.counts),
            score=locked.score,
        )
    return locked


def _state(turn: Turn) -> dict[str, Any]:
    """What the trail keeps of a game, enough to put it back (the correction's undo data)."""
    return {
        "entry": turn.entry_id,
        "number": turn.number,
        "board": turn.board,
        "counts": list(turn.counts),
        "bonus_counts": list(turn.bonus_counts),
        "max_after": turn.max_after,
        "score": turn.score,
        "sub_turns": turn.sub_turns,
    }


def _put(turn: Turn, state: dict[str, Any]) -> None:
    turn.entry_id, turn.number, turn.board = state["entry"], state["number"], state["board"]
    turn.c1, turn.c2, turn.c3, turn.c4 = state["counts"]
    turn.b1, turn.b2, turn.b3, turn.b4 = state["bonus_counts"]
    turn.max_after, turn.score = state["max_after"], state["score"]
    # Rows that no longer add up (or a trail written before sub-turns were kept): none.
    turn.sub_turns = rows_json(rules.stored_sub_turns(state.get("sub_turns"), state["counts"]))


def _texts(before: dict[str, Any] | None, after: dict[str, Any] | None) -> tuple[str, str]:
    """ "112" → "121" for the trail; the counts (and board) too when the score alone would not
    show what changed."""
    if before is None or after is None:
        return (
            "–" if before is None else str(before["score"]),
            gettext("removed") if after is None else str(after["score"]),
        )

    def text(state: dict[str, Any], counts: bool, board: bool) -> str:
        parts = [str(state["score"])]
        if counts:
            parts.append(f"({rules.board_text(state['counts'])})")
            if any(state["bonus_counts"]):
                parts.append(
                    gettext("bonus %(counts)s")
                    % {"counts": rules.board_text(state["bonus_counts"])}
                )
        if board:
            parts.append(gettext("board %(board)s") % {"board": state["board"] or "–"})
        return " ".join(parts)

    same_score = before["score"] == after["score"]
    counts = same_score and (
        before["counts"] != after["counts"] or before["bonus_counts"] != after["bonus_counts"]
    )
    board = same_score and before["board"] != after["board"]
    old, new = text(before, counts, board), text(after, counts, board)
    if old == new and before.get("sub_turns") != after.get("sub_turns"):
        old, new = _rows_text(before.get("sub_turns")), _rows_text(after.get("sub_turns"))
    return old, new


def _rows_text(rows: Any) -> str:
    """ "sub-turns 2→5 3→4 4→3 1→4 | 2→1 …" or "totals only", for the trail."""
    if not rows:
        return gettext("totals only")
    return gettext("sub-turns %(rows)s") % {
        "rows": " | ".join(rules.board_text(row) for row in rows)
    }


def _warn(
    competition: Competition, before: dict[str, Any] | None, after: dict[str, Any] | None
) -> None:
    """A correction that moves 1st place in final standings needs a confirmation (A-SJ-13).
    A title play-off game (numbered above the games, A-SJ-16) is not in the standings."""
    games = competition.options.games
    if all(state is None or state["number"] > games for state in (before, after)):
        return
    moves = selectors.first_place_moves(
        competition,
        remove=() if before is None else [(before["entry"], before["number"])],
        put=None if after is None else (after["entry"], after["number"], after["score"]),
    )
    if moves:
        raise refuse(
            FIRST_PLACE_MOVES,
            code="confirm_first_place",
            moves="; ".join(str(move) for move in moves),
        )


def _write(
    *,
    competition: Competition,
    turn: Turn | None,
    after: dict[str, Any] | None,
    source: str,
    by: User | None,
    confirmed: bool,
    reverts: Correction | None = None,
) -> Turn | None:
    """Change, add or remove one game (``turn`` locked, or None to add; ``after`` the checked
    new state, or None to remove), write it to the trail and bump the versions. Call inside a
    transaction."""
    before = None if turn is None else _state(turn)
    if not confirmed:
        _warn(competition, before, after)
    entry_id = (after or before or {})["entry"]
    number = (after or before or {})["number"]
    if after is None:
        assert turn is not None
        turn.delete()
        saved, revision = None, None
    else:
        if turn is None:
            turn = Turn(revision=0)
        _put(turn, after)
        turn.revision += 1  # the row is locked (or new), so a plain increment is safe
        turn.entered_by = by if by is not None and by.is_authenticated else None
        try:
            with transaction.atomic():
                turn.save()
        except IntegrityError as exc:
            raise refuse(SLOT_TAKEN, error_class=Stale, code="stale", number=number) from exc
        saved, revision = turn, turn.revision
    entry = Entry.objects.select_related("player").get(pk=entry_id)
    before_text, after_text = _texts(before, after)
    note: str | Words = ""
    if (
        before is not None
        and after is not None
        and (before["entry"] != after["entry"] or before["number"] != after["number"])
    ):
        was = Entry.objects.select_related("player").get(pk=before["entry"])
        note = Words(
            gettext_noop("was game %(number)s of %(player)s"),
            number=before["number"],
            player=was.player.name,
        )
    correction_record(
        competition=competition,
        entry=entry,
        item=Words(gettext_noop("Game %(number)s"), number=number),
        before=before_text,
        after=after_text,
        note=note,
        source=source,
        by=by,
        payload={
            "turn": None if saved is None else saved.pk,
            "number": number,
            "revision": revision,
            "before": before,
            "after": after,
        },
        reverts=reverts,
    )
    moved = {state["entry"] for state in (before, after) if state is not None}
    # The season's later nights draw this night's averages on their players' pages.
    later = season_nights_after(competition, moved)
    if competition.is_finished:
        touch_classed(competition, also=later)
    else:
        versions_bump(competitions=Q(pk=competition.pk) | later)
        # A game added, moved or removed moves the player's next game: tell them again.
        notices.next_told(moved)
    notices.webhooks_told(competition, moved, saved, correction=before is not None)
    return saved


def _new_state(
    turn: Turn | None,
    competition: Competition,
    *,
    entry: Entry | None = None,
    number: int | None = None,
    board: int | None = None,
    counts: Sequence[int],
    bonus_counts: Sequence[int],
    max_after: int | None,
    sub_turns: SubTurns | str = None,
) -> dict[str, Any]:
    rows: SubTurns = None
    if isinstance(sub_turns, str):
        # Admin edits the totals only: the stored rows stay while they still add up (A-SJ-15).
        stored = turn.sub_turns if turn is not None else None
        rows = rules.stored_sub_turns(stored, validated(competition, counts, NO_BONUS, None).counts)
    else:
        rows = sub_turns
    result = validated(competition, counts, bonus_counts, max_after, rows)
    return {
        "entry": entry.pk if entry is not None else turn.entry_id if turn else None,
        "number": number if number is not None else turn.number if turn else None,
        "board": board if turn is None or entry is not None else turn.board,
        "counts": list(result.counts),
        "bonus_counts": list(result.bonus_counts),
        "max_after": result.max_after,
        "score": result.score,
        "sub_turns": rows_json(result.sub_turns),
    }


@transaction.atomic
def turn_correct(
    *,
    turn: Turn,
    revision: int,
    counts: Sequence[int],
    bonus_counts: Sequence[int] = NO_BONUS,
    max_after: int | None = None,
    entered_by: User | None = None,
    confirmed: bool = False,
    sub_turns: SubTurns = None,
) -> Turn:
    """Correct a saved game at the desk; the trail keeps what it was (undo). ``sub_turns``:
    the rows as corrected, or None when the correction gives the totals only (A-SJ-15)."""
    turn = _locked_turn(turn, revision)
    competition = turn.entry.competition
    after = _new_state(
        turn,
        competition,
        counts=counts,
        bonus_counts=bonus_counts,
        max_after=max_after,
        sub_turns=sub_turns,
    )
    saved = _write(
        competition=competition,
        turn=turn,
        after=after,
        source=DESK,
        by=entered_by,
        confirmed=confirmed,
    )
    assert saved is not None
    return saved


@transaction.atomic
def turn_delete(
    *, turn: Turn, revision: int, by: User | None = None, confirmed: bool = False
) -> None:
    """Remove a game entered for the wrong player or number (the trail keeps it: undo)."""
    turn = _locked_turn(turn, revision)
    _write(
        competition=turn.entry.competition,
        turn=turn,
        after=None,
        source=DESK,
        by=by,
        confirmed=confirmed,
    )


@transaction.atomic
def turn_admin_save(
    *,
    turn: Turn | None,
    revision: int | None,
    entry: Entry,
    number: int,
    board: int | None,
    counts: Sequence[int],
    bonus_counts: Sequence[int] = NO_BONUS,
    max_after: int | None = None,
    by: User | None = None,
    confirmed: bool = False,
) -> Turn:
    """Admin's add (``turn`` None) or change of a game, also in a finished competition: the
    same check as the desk, recorded in the trail, versions bumped. A game stays in its
    competition (another player of it, another number)."""
    entry = Entry.objects.select_related("player", "competition").get(pk=entry.pk)
    competition = entry.competition
    ensure_sjoelen(competition)
    games = highest_number(competition)
    if not isinstance(number, int) or not 1 <= number <= games:
        raise refuse(
            NUMBER_OUT_OF_RANGE, error_class=Invalid, code="game_number", games=games, number=number
        )
    if turn is not None:
        turn = _locked_turn(turn, turn.revision if revision is None else revision, source=ADMIN)
        if turn.entry.competition_id != competition.pk:
            raise refuse(OTHER_COMPETITION, code="other_competition")
    clash = Turn.objects.filter(entry=entry, number=number)
    if turn is not None:
        clash = clash.exclude(pk=turn.pk)
    existing = clash.first()
    if existing is not None:
        raise already_entered(number, entry, existing.score)
    after = _new_state(
        turn,
        competition,
        entry=entry,
        number=number,
        board=board,
        counts=counts,
        bonus_counts=bonus_counts,
        max_after=max_after,
        sub_turns=KEEP,
    )
    saved = _write(
        competition=competition,
        turn=turn,
        after=after,
        source=ADMIN,
        by=by,
        confirmed=confirmed,
    )
    assert saved is not None
    if competition.status == Competition.Status.REGISTRATION:
        Competition.objects.filter(pk=competition.pk).update(status=Competition.Status.RUNNING)
    return saved


@transaction.atomic
def turn_admin_delete(*, turn: Turn, by: User | None = None) -> None:
    """Admin's delete (after Django's own confirmation page, which shows the warning)."""
    turn = _locked_turn(turn, turn.revision, source=ADMIN)
    _write(
        competition=turn.entry.competition,
        turn=turn,
        after=None,
        source=ADMIN,
        by=by,
        confirmed=True,
    )


@transaction.atomic
def undo_correction(correction: Correction, user: User) -> None:
    """Put back the game a correction replaced (``GameFormat.undo_correction``); refused with
    ``Stale`` when the game changed again since. The undo is itself a correction."""
    payload = correction.payload
    competition = Competition.objects.get(pk=correction.competition_id)
    ensure_writable(competition)
    before, after = payload.get("before"), payload.get("after")
    if after is None:  # it was removed: the slot must still be free
        if before is None:
            raise refuse(NOTHING_TO_UNDO, code="correction_no_undo")
        taken = Turn.objects.select_for_update().filter(
            entry_id=before["entry"], number=before["number"]
        )
        if taken.exists():
            raise refuse(CHANGED_SINCE, error_class=Stale, code="stale", number=before["number"])
        turn = None
    else:
        turn = (
            Turn.objects.select_for_update()
            .select_related("entry__competition")
            .filter(pk=payload.get("turn"))
            .first()
        )
        if turn is None or turn.revision != payload.get("revision"):
            raise refuse(CHANGED_SINCE, error_class=Stale, code="stale", number=after["number"])
    if before is not None:
        if not Entry.objects.filter(pk=before["entry"], competition=competition).exists():
            raise refuse(CHANGED_SINCE, error_class=Stale, code="stale", number=before["number"])
        problem = rules.stored_game_problem(
            before["counts"],
            bonus_counts=before["bonus_counts"],
            max_after=before["max_after"],
            score=before["score"],
            bonus=competition.options.bonus_disc,
        )
        if problem:  # it needed attention (A-SJ-14): never put a broken row back
            raise refuse(BROKEN_BEFORE, code="correction_no_undo", problem=problem)
    _write(
        competition=competition,
        turn=turn,
        after=before,
        source=UNDO,
        by=user,
        confirmed=True,
        reverts=correction,
    )
