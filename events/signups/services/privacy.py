"""A person's data, asked for from their page: everything stored under their
e-mail address as one document, how their name shows in public, and its erasure.

Erasure replaces the person by a pseudonym ("№ 1234", the register row's number) in the
register, in every sign-up and in the history tables of both, blanks their e-mail address and
club, cancels their open sign-ups (a seat freed goes to the waitlist) and forgets the e-mails
sent to them. Results, seats and ratings stay as they were: every standings page reads the same
apart from the name. Decided here: a confirmed seat that already has a
table or a result stays (under the pseudonym), as the desk's withdrawal would keep it.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from events.errors import Invalid, ServiceError
from events.models import Competition, Entry, NameShown, Player
from events.models.people import is_pseudonym, pseudonym
from events.outbox.models import (
    NotificationPreference,
    OutboxMessage,
    OutboxStatus,
    PushSubscription,
)
from events.services.events import competition_touch
from events.signups.models import ACTIVE_SIGN_UP, SignUp
from events.signups.services.lifecycle import signup_cancel


def _iso(value: Any) -> Any:
    return value.isoformat() if value is not None else None


def _people_of(email: str) -> Any:
    """The register rows of an address, and those its sign-ups were seated as or joined to (a
    merge said they are the same person): their primary keys, as a subquery."""
    joined = SignUp.objects.filter(email=email)
    return (
        Player.objects.filter(
            Q(email__iexact=email)
            | Q(pk__in=joined.exclude(register_person=None).values("register_person"))
            | Q(entries__sign_up__in=joined)
        )
        .values("pk")
        .distinct()
    )


def person_data(email: str) -> dict[str, Any]:
    """What the site stores under ``email``: register rows, entries, sign-ups, e-mails."""
    email = email.strip().lower()
    players = list(Player.objects.filter(pk__in=_people_of(email)).order_by("pk"))
    entries = (
        Entry.objects.filter(player__in=players).select_related("competition__event").order_by("pk")
    )
    sign_ups = (
        SignUp.objects.filter(email=email)
        .select_related("window__competition__event")
        .order_by("pk")
    )
    mails = OutboxMessage.objects.filter(Q(to__iexact=email) | Q(player__in=players)).order_by("pk")
    choices = NotificationPreference.objects.filter(player__in=players).select_related("event")
    browsers = PushSubscription.objects.filter(player__in=players).order_by("pk")
    return {
        "email": email,
        "exported_at": timezone.now().isoformat(),
        "register": [
            {
                "name": p.name,
                "club": p.club,
                "rating": p.rating,
                "rated_games": p.rated_games,
                "language": p.language,
                "name_shown": p.name_shown,
            }
            for p in players
        ],
        "entries": [
            {
                "event": e.competition.event.name,
                "competition": e.competition.name,
                "number": e.number,
                "registered_at": _iso(e.registered_at),
                "checked_in_at": _iso(e.checked_in_at),
                "withdrawn_at": _iso(e.withdrawn_at),
            }
            for e in entries
        ],
        "sign_ups": [
            {
                "event": s.window.competition.event.name,
                "competition": s.window.competition.name,
                "name": s.name,
                "club": s.club,
                "rating": s.rating,
                "language": s.language,
                "name_shown": s.name_shown,
                "status": s.status,
                "signed_up_at": _iso(s.created_at),
                "confirmed_at": _iso(s.confirmed_at),
                "payment": s.payment,
                "reference": s.reference,
            }
            for s in sign_ups
        ],
        "emails": [
            {
                "subject": m.subject,
                "channel": m.channel,
                "created_at": _iso(m.created_at),
                "status": m.status,
            }
            for m in mails
        ],
        "notifications": [
            {
                "event": c.event.name,
                "email": c.email,
                "push": c.push,
                "quiet_from": _iso(c.quiet_from),
                "quiet_to": _iso(c.quiet_to),
            }
            for c in choices.order_by("pk")
        ],
        "push_browsers": [
            {"created_at": _iso(b.created_at), "last_delivered_at": _iso(b.last_success_at)}
            for b in browsers
        ],
    }


def public_name_set(email: str, name_shown: str) -> int:
    """How the person of ``email`` is named in public, from now on and on every page that
    showed them (their register rows and their sign-ups); the pages follow at once (their
    versions bumped). The number of register rows changed."""
    email = email.strip().lower()
    if name_shown not in NameShown.values:
        raise Invalid(str(_("Choose one of the listed ways.")), code="name_shown")
    with transaction.atomic():
        # Competitions, then sign-ups, then people: the order the sign-up's writes lock in.
        people = _people_of(email)
        competitions = Competition.objects.filter(
            Q(entries__player__in=people) | Q(sign_up_window__sign_ups__email=email)
        ).values("pk")
        list(Competition.objects.select_for_update().filter(pk__in=competitions).order_by("pk"))
        list(SignUp.objects.select_for_update().filter(email=email).order_by("pk"))
        SignUp.objects.filter(email=email).update(name_shown=name_shown)
        players = list(Player.objects.select_for_update().filter(pk__in=people).order_by("pk"))
        changed = [p for p in players if p.name_shown != name_shown]
        for player in changed:
            player.name_shown = name_shown
            player.save(update_fields=["name_shown"])
        touched = Competition.objects.filter(entries__player__in=changed).distinct()
        for competition in touched:
            competition_touch(competition)
    return len(changed)


def is_erased(player: Player) -> bool:
    """The register row was erased (``person_erase``): its name is its own pseudonym and no
    address is left. What a signed link opened for the person (their calendar feed) is gone."""
    return is_pseudonym(player.name, player.pk) and not player.email


def person_erase(email: str) -> int:
    """Erase the person of ``email`` (see the module's docstring); the number of register rows
    and sign-ups replaced by a pseudonym."""
    email = email.strip().lower()
    for sign_up in SignUp.objects.filter(email=email, status__in=ACTIVE_SIGN_UP).order_by("pk"):
        try:
            signup_cancel(sign_up=sign_up)
        except ServiceError:
            pass  # a seat with a table or a result: it stays, under the pseudonym
    with transaction.atomic():
        # The register rows of the address, and those its sign-ups were seated as or joined to
        # (a merge said they are the same person).
        players = list(Player.objects.select_for_update().filter(pk__in=_people_of(email)))
        for player in players:
            player.name = pseudonym(player.pk)
            player.club = player.email = ""
            player.homonym = 0
            player.name_shown = NameShown.FULL  # a pseudonym shows whole
            player._change_reason = "erasure"  # type: ignore[attr-defined]
            player.save()
            Player.history.filter(id=player.pk).update(
                name=player.name,
                club="",
                email="",
                search_text=player.search_text,
                person_key=player.person_key,
            )
        sign_ups = list(SignUp.objects.select_for_update().filter(email=email))
        for sign_up in sign_ups:
            erased = f"erased-{sign_up.pk}@invalid"
            number = sign_up.entry.player_id if sign_up.entry is not None else sign_up.pk
            values = {"name": pseudonym(number), "club": "", "email": erased}
            SignUp.objects.filter(pk=sign_up.pk).update(**values)
            SignUp.history.filter(id=sign_up.pk).update(**values)
        mails = OutboxMessage.objects.filter(Q(to__iexact=email) | Q(player__in=players))
        mails.filter(status=OutboxStatus.PENDING).delete()
        mails.update(to="erased@invalid", subject="", body="", url="")
        # Their notification choices and browsers go too: nothing more reaches them.
        NotificationPreference.objects.filter(player__in=players).delete()
        PushSubscription.objects.filter(player__in=players).delete()
        touched = Competition.objects.filter(
            Q(entries__player__in=players) | Q(sign_up_window__sign_ups__in=sign_ups)
        ).distinct()
        for competition in touched:
            competition_touch(competition)
    return len(players) + len(sign_ups)
