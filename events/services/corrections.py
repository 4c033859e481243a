"""The correction trail: every change of a result after the fact, and its undo."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError  # noqa: F401 (callers catch services.ValidationError)
from django.db import transaction
from django.utils.translation import gettext_lazy

from events.common.words import Words
from events.errors import Conflict, Refused, refuse
from events.models import (
    Competition,
    Correction,
    Entry,
)
from events.outbox import notify

CORRECTION_UNDONE = gettext_lazy("This correction has already been undone.")


CORRECTION_NO_UNDO = gettext_lazy("Corrections of this kind cannot be undone from the desk.")


def correction_record(
    *,
    competition: Competition,
    item: str | Words,
    before: str | Words,
    after: str | Words,
    source: str,
    by: User | None = None,
    entry: Entry | None = None,
    note: str | Words = "",
    payload: dict[str, Any] | None = None,
    reverts: Correction | None = None,
    told: Iterable[Entry] | None = None,
) -> Correction | None:
    """Write a correction to the trail, inside the caller's transaction (the caller bumps the
    version). Nothing is written when nothing changed. A text given as ``Words`` keeps its
    recipe too, so that each reader sees it in their language (``Correction.shown``).

    The players whose result it changed hear it when they chose notifications:
    ``told``, or else the correction's ``entry`` (``notify.correction_told``)."""
    texts = {"item": item, "before": before, "after": after, "note": note}
    if str(before) == str(after) and reverts is None:
        return None
    correction = Correction.objects.create(
        competition=competition,
        entry=entry,
        item=str(item)[:120],
        before=str(before)[:120],
        after=str(after)[:120],
        note=str(note)[:300],
        words={name: text.recipe for name, text in texts.items() if isinstance(text, Words)},
        source=source,
        corrected_by=by if by is not None and by.is_authenticated else None,
        payload=payload or {},
        reverts=reverts,
    )
    notify.correction_told(
        correction, list(told) if told is not None else [e for e in (entry,) if e is not None]
    )
    return correction


@transaction.atomic
def correction_undo(*, correction: Correction, by: User) -> None:
    """Put back what a correction replaced, through the format's own services."""
    correction = Correction.objects.select_for_update().get(pk=correction.pk)
    if Correction.objects.filter(reverts=correction).exists():
        raise refuse(CORRECTION_UNDONE, error_class=Conflict, code="correction_undone")
    game_format = correction.competition.game_format
    if not game_format.hooks.undoes_corrections() or not correction.payload:
        raise refuse(CORRECTION_NO_UNDO, error_class=Refused, code="correction_no_undo")
    game_format.hooks.undo_correction(correction, by)
