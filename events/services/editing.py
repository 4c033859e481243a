"""Desk edits: an event's details, a competition's name, a player's register entry, and the
removal of a mistaken registration. Every write is one service call in one transaction.

Stale edits are refused, never overwritten: a form carries the ``signature`` of the values it
was drawn from (a hash of the editable fields), and the service compares it, under a row lock,
with the row as it is now (``Stale``, code ``stale_edit``). The versions that public pages key
on are bumped by every result, so they would refuse edits for no reason; the signature changes
only when someone else changed these very fields.

Who may edit a player: the register is shared by every event, so an organiser (or owner) edits
a player only from the desk of an event the player is entered in. A rating is edited only
while the player has no rated game (``rated_games == 0``: a starting rating from a national
list, say); after that it comes from the games, and an admin corrects it. A name and club that
another register row has already is a form error (``player_exists``), whoever saved first.

History: every model here has django-simple-history records (the request's user is recorded by
its middleware); ``history_of`` turns them into who / when / what changed for the desk.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Model, ProtectedError, Q, RestrictedError
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy

from events.errors import Conflict, Invalid, Refused, Stale, refuse
from events.models import Competition, Entry, Event, Player, person_key
from events.outbox import webhooks
from events.services import clean_text, competition_touch, games_changed
from events.versions import versions_bump

EVENT_FIELDS: tuple[str, ...] = (
    "name",
    "venue",
    "info",
    "starts_on",
    "ends_on",
    "time_zone",
    "language",
    "is_public",
)
COMPETITION_FIELDS: tuple[str, ...] = ("name",)
# "language": the player's preferred language for e-mails and pages (blank: the event's).
PLAYER_FIELDS: tuple[str, ...] = ("name", "club", "email", "rating", "language")

STALE_EDIT = gettext_lazy(
    "Someone else changed this while you were editing: the form now shows what is stored. "
    "Your values are beside it; apply them again if they still hold."
)
RATING_FROM_GAMES = gettext_lazy(
    "%(player)s has played rated games, so their rating comes from those games; "
    "an admin can correct it."
)
PLAYER_EXISTS = gettext_lazy(
    "Another player in the register already has this name and club (%(player)s)."
)
HAS_PLAYED = gettext_lazy(
    "%(player)s already has a seat or a result in %(competition)s, so the registration stays; "
    "withdraw them instead."
)
COMPETITION_FINISHED = gettext_lazy("%(competition)s is finished; its entries cannot change.")


def signature(obj: Model, fields: Iterable[str]) -> str:
    """A short hash of ``obj``'s values of ``fields``: what a form was drawn from."""
    values = {name: getattr(obj, name) for name in fields}
    text = json.dumps(values, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def _ensure_fresh(obj: Model, fields: Iterable[str], expected: str) -> None:
    if expected != signature(obj, fields):
        raise refuse(STALE_EDIT, error_class=Stale, code="stale_edit")


def _apply(obj: Model, fields: Iterable[str], values: Mapping[str, Any]) -> list[str]:
    """Set the given values; the names of the fields that changed."""
    changed = []
    for name in fields:
        if name in values and getattr(obj, name) != values[name]:
            setattr(obj, name, values[name])
            changed.append(name)
    return changed


def _bump_event(event_id: int) -> None:
    # The event's name and place show on every public page of its competitions too.
    versions_bump(competitions=Q(event_id=event_id), events=Q(pk=event_id))


@transaction.atomic
def event_edit(*, event: Event, expected: str, values: Mapping[str, Any]) -> Event:
    """Change an event's details (not its address: QR codes and links are printed)."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    _ensure_fresh(event, EVENT_FIELDS, expected)
    cleaned = {k: clean_text(v) if isinstance(v, str) else v for k, v in values.items()}
    changed = _apply(event, EVENT_FIELDS, cleaned)
    if not changed:
        return event
    event.full_clean(exclude=["slug"])
    event.save(update_fields=changed)
    _bump_event(event.pk)
    if "starts_on" in changed:  # the order of games across events (the Blokus rating)
        games_changed(Competition.objects.filter(event=event))
    return event


@transaction.atomic
def competition_edit(
    *, competition: Competition, expected: str, values: Mapping[str, Any]
) -> Competition:
    """Change a competition's name (its address, format and status stay)."""
    competition = (
        Competition.objects.select_for_update(of=("self",))
        .select_related("event")
        .get(pk=competition.pk)
    )
    _ensure_fresh(competition, COMPETITION_FIELDS, expected)
    changed = _apply(
        competition, COMPETITION_FIELDS, {"name": clean_text(str(values.get("name", "")))}
    )
    if not changed:
        return competition
    competition.full_clean(exclude=["slug", "settings"])
    competition.save(update_fields=changed)
    competition_touch(competition)
    return competition


def player_of_event(event: Event, player_id: int) -> Player:
    """A player entered in one of ``event``'s competitions; 404 for anyone else (one query)."""
    return get_object_or_404(
        Player.objects.filter(host_id=event.host_id, entries__competition__event=event).distinct(),
        pk=player_id,
    )


@transaction.atomic
def player_edit(
    *, event: Event, player: Player, expected: str, values: Mapping[str, Any]
) -> Player:
    """Change a player's register entry from the desk of an event they are entered in."""
    player = Player.objects.select_for_update().get(pk=player_of_event(event, player.pk).pk)
    _ensure_fresh(player, PLAYER_FIELDS, expected)
    cleaned = dict(values)
    for name in ("name", "club"):
        if name in cleaned:
            cleaned[name] = clean_text(str(cleaned[name]))
    if "email" in cleaned:
        cleaned["email"] = str(cleaned["email"]).strip()
    if "rating" in cleaned and cleaned["rating"] != player.rating and player.rated_games:
        raise refuse(
            RATING_FROM_GAMES, error_class=Refused, code="rating_from_games", player=player
        )
    changed = _apply(player, PLAYER_FIELDS, cleaned)
    if not changed:
        return player
    player.person_key = person_key(player.name, player.club)
    clash = (
        Player.objects.filter(
            host_id=player.host_id, person_key=player.person_key, homonym=player.homonym
        )
        .exclude(pk=player.pk)
        .first()
    )
    if clash is not None:
        raise refuse(PLAYER_EXISTS, error_class=Conflict, code="player_exists", player=clash)
    try:
        player.full_clean(exclude=["search_text", "person_key"], validate_constraints=False)
    except ValidationError as exc:
        raise Invalid(exc.messages, code="invalid_player") from exc
    try:
        with transaction.atomic():
            player.save(update_fields=changed)
    except IntegrityError as exc:  # another desk gave someone this name a moment ago
        raise refuse(
            PLAYER_EXISTS, error_class=Conflict, code="player_exists", player=player
        ) from exc
    # Every competition showing the player's name re-renders.
    versions_bump(competitions=Q(pk__in=Competition.objects.filter(entries__player=player)))
    return player


@transaction.atomic
def entry_remove(*, entry: Entry) -> Player:
    """Remove a registration made by mistake, before the player has a seat or a result (a
    withdrawal is what applies after that). The register keeps the player."""
    # The competition first, then the entry: the order every entry service locks in.
    competition = Competition.objects.select_for_update().get(pk=entry.competition_id)
    entry = Entry.objects.select_for_update(of=("self",)).select_related("player").get(pk=entry.pk)
    if competition.is_finished:
        raise refuse(
            COMPETITION_FINISHED,
            error_class=Refused,
            code="competition_finished",
            competition=competition.name,
        )
    has_played = refuse(
        HAS_PLAYED,
        error_class=Refused,
        code="has_played",
        player=entry.player,
        competition=competition.name,
    )
    if entry.seats.exists():
        raise has_played
    entry_id = entry.pk
    try:  # a format's result rows (a sjoelen game) protect the entry
        with transaction.atomic():
            entry.delete()
    except (ProtectedError, RestrictedError) as exc:
        raise has_played from exc
    competition_touch(competition)
    webhooks.registration_changed(competition, entry_id, "removed")
    return entry.player


# --- history ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Change:
    field: str
    old: Any
    new: Any


@dataclass(frozen=True)
class HistoryRow:
    when: datetime
    who: str
    kind: str  # "+" created, "~" changed, "-" deleted
    changes: list[Change]
    rated: bool = False  # the rating moved by rated games (RATED), not by anyone's edit


HISTORY_LENGTH = 20
# The change reason of a history record that rated games wrote (a player's rating moved by a
# result, not by a person: shown as such, with no user).
RATED = "rated games"


def history_of(obj: Model, fields: Iterable[str], limit: int = HISTORY_LENGTH) -> list[HistoryRow]:
    """The latest changes of ``obj`` to ``fields``, newest first, with who made them (one
    query; a save that changed none of ``fields`` is left out)."""
    fields = list(fields)
    model = type(obj)
    labels = {
        name: str(getattr(model._meta.get_field(name), "verbose_name", name)) for name in fields
    }
    records = list(
        obj.history.select_related("history_user").order_by(  # type: ignore[attr-defined]
            "-history_date", "-history_id"
        )[: limit * 3 + 1]
    )
    rows = []
    olders = [*records[1:], None] if records else []
    for newer, older in zip(records, olders, strict=True):
        if older is None:
            if newer.history_type != "+":
                break  # older records were cut off: no base to compare with
            changes = [Change(labels[f], "", getattr(newer, f)) for f in fields]
        else:
            delta = newer.diff_against(older, included_fields=fields)
            changes = [Change(labels[c.field], c.old, c.new) for c in delta.changes]
            if not changes and newer.history_type == "~":
                continue
        user = newer.history_user
        rows.append(
            HistoryRow(
                when=newer.history_date,
                who=user.get_username() if user is not None else "",
                kind=newer.history_type,
                changes=changes,
                rated=newer.history_change_reason == RATED,
            )
        )
        if len(rows) == limit:
            break
    return rows
