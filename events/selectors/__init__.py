"""Every read the shared pages need, each in a constant number of queries."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db.models import (
    Case,
    Count,
    Exists,
    IntegerField,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    When,
)
from django.db.models.functions import Now
from django.http import Http404
from django.shortcuts import get_object_or_404

from events.models import Competition, Correction, Entry, Event, Player, fold, short_name
from events.models.people import LEGACY_PSEUDONYM, PSEUDONYM_MARK, is_pseudonym
from events.signups.models import SignUpWindow

SEARCH_LIMIT = 20


def events_public() -> QuerySet[Event]:
    return Event.objects.filter(is_public=True).annotate(
        competition_count=Count("competitions", distinct=True)
    )


def events_for_organiser(user: User) -> QuerySet[Event]:
    """The events ``user`` holds a role at, there or at the hosting club (every event for a
    superuser)."""
    events = (
        Event.objects.all()
        if user.is_superuser
        else Event.objects.filter(Q(roles__user=user) | Q(host__roles__user=user)).distinct()
    )
    return events.annotate(
        competition_count=Count("competitions", distinct=True),
        entry_count=Count("competitions__entries", distinct=True),
    ).order_by("-starts_on", "name")


def event_by_slug(slug: str) -> Event:
    return get_object_or_404(Event, slug=slug)


def event_with_competitions(slug: str) -> Event:
    """The event and its competitions with their active entry counts and whether each takes
    sign-ups online now or later (two queries)."""
    competitions = Competition.objects.annotate(
        entry_count=Count("entries", filter=Q(entries__withdrawn_at__isnull=True)),
        # A window not closed yet (a body cached before it closed may show the link a while
        # longer: the sign-up page then says it is closed).
        takes_sign_ups=Exists(
            SignUpWindow.objects.filter(competition=OuterRef("pk"), closes_at__gt=Now())
        ),
    ).order_by("created_at", "pk")
    return get_object_or_404(
        # The hosting club for its band (not its logo's bytes: the page links to the logo).
        Event.objects.select_related("host")
        .defer("host__logo")
        .prefetch_related(Prefetch("competitions", queryset=competitions)),
        slug=slug,
    )


def competition_by_slugs(
    event_slug: str, competition_slug: str, *, format_key: str | None = None
) -> Competition:
    """The competition at this address; 404 if there is none (or it is of another format)."""
    competition = get_object_or_404(
        Competition.objects.select_related("event__host").defer("event__host__logo"),
        event__slug=event_slug,
        slug=competition_slug,
    )
    if format_key is not None and competition.format != format_key:
        raise Http404
    return competition


def ensure_organiser(event: Event, user: User) -> None:
    """403 for a signed-in user who does not organise the event (one query at most)."""
    if not event.is_organised_by(user):
        raise PermissionDenied


def competition_for_organiser(
    user: User, event_slug: str, competition_slug: str, *, format_key: str | None = None
) -> Competition:
    """The competition for its organiser's desk: 404 as above, 403 for anyone else."""
    competition = competition_by_slugs(event_slug, competition_slug, format_key=format_key)
    ensure_organiser(competition.event, user)
    return competition


def entry_for_organiser(user: User, entry_id: int) -> Entry:
    entry = get_object_or_404(
        Entry.objects.select_related("player", "competition__event"), pk=entry_id
    )
    ensure_organiser(entry.competition.event, user)
    return entry


def entries_for_competition(competition: Competition) -> list[Entry]:
    """Entries with their players, withdrawn last, then by name, erased people after the real
    names (a database's language collation may put the pseudonym's mark first)."""
    entries = list(
        Entry.objects.filter(competition=competition)
        .select_related("player")
        .order_by("player__name", "pk")
    )
    return sorted(entries, key=lambda e: (e.withdrawn_at is not None, is_pseudonym(e.player.name)))


@dataclass(frozen=True)
class EntryCounts:
    registered: int
    checked_in: int
    withdrawn: int


def entry_counts(entries: list[Entry]) -> EntryCounts:
    return EntryCounts(
        registered=sum(1 for e in entries if not e.withdrawn_at),
        checked_in=sum(1 for e in entries if e.is_checked_in),
        withdrawn=sum(1 for e in entries if e.withdrawn_at),
    )


def players_search(query: str, *, competition: Competition) -> list[Player]:
    """Known players whose name or club contain every word typed, accents and case aside.

    The register is shared by every event, so an organiser sees only name and club here (no
    e-mail, no rating): the rows are loaded with those fields alone. Each player carries
    ``is_registered`` (entered in ``competition``).
    """
    words = fold(query).split()
    if not words:
        return []
    players = Player.objects.filter(host_id=competition.event.host_id)
    for word in words[:5]:
        players = players.filter(search_text__contains=word)
    entry = Entry.objects.filter(competition=competition, player=OuterRef("pk"))
    # Erased people after the real names, whatever the database's collation.
    erased = Q(name__startswith=f"{PSEUDONYM_MARK} ") | Q(
        name__startswith=f"{LEGACY_PSEUDONYM} ", email=""
    )
    return list(
        players.only("pk", "name", "club")
        .annotate(
            is_registered=Exists(entry),
            erased=Case(When(erased, then=1), default=0, output_field=IntegerField()),
        )
        .order_by("erased", "name", "club", "pk")[:SEARCH_LIMIT]
    )


def player_or_404(player_id: str | int) -> Player:
    try:
        return Player.objects.get(pk=int(player_id))
    except (TypeError, ValueError, Player.DoesNotExist) as exc:
        raise Http404 from exc


TRAIL_LENGTH = 20


def with_public_texts(corrections: list[Correction]) -> list[Correction]:
    """Each correction with ``public``: its texts (item, before, after, note) as public pages
    show them, the names of players who chose first name and initial shortened (the texts were
    written with full names). One query, none for an empty list."""
    if not corrections:
        return corrections
    competitions = {c.competition_id for c in corrections}
    full_names = (
        Player.objects.filter(
            entries__competition_id__in=competitions, name_shown=Player.NameShown.SHORT
        )
        .values_list("name", flat=True)
        .distinct()
    )
    # Whole names only ("Anna Berg" never shortens "Anna Bergström"), longest first.
    names = sorted(set(full_names), key=len, reverse=True)
    pattern = (
        re.compile("|".join(rf"(?<!\w){re.escape(n)}(?!\w)" for n in names)) if names else None
    )

    def public(text: str) -> str:
        if pattern is None:
            return text
        return pattern.sub(lambda m: short_name(m.group(0)), text)

    for correction in corrections:
        correction.public = {  # type: ignore[attr-defined]
            "item": public(correction.item_shown),
            "before": public(correction.before_shown),
            "after": public(correction.after_shown),
            "note": public(correction.note_shown),
        }
    return corrections


def corrections_of_competition(competition: Competition, limit: int = TRAIL_LENGTH) -> list:
    """The latest corrections of a competition, newest first (two queries)."""
    return with_public_texts(
        list(
            Correction.objects.filter(competition=competition)
            .select_related("entry__player", "corrected_by")
            .annotate(is_undone=Exists(Correction.objects.filter(reverts=OuterRef("pk"))))
            .order_by("-created_at", "-pk")[:limit]
        )
    )


def corrections_of_entry(entry: Entry, limit: int = TRAIL_LENGTH) -> list:
    """The latest corrections of one player's results, newest first (two queries)."""
    return with_public_texts(
        list(
            Correction.objects.filter(entry=entry)
            .select_related("entry__player", "corrected_by")
            .annotate(is_undone=Exists(Correction.objects.filter(reverts=OuterRef("pk"))))
            .order_by("-created_at", "-pk")[:limit]
        )
    )


def correction_for_organiser(user: User, correction_id: int) -> Correction:
    """A correction for its competition's organiser (404 unknown, 403 anyone else)."""
    correction = get_object_or_404(
        Correction.objects.select_related("competition__event"), pk=correction_id
    )
    ensure_organiser(correction.competition.event, user)
    return correction
