"""The desk's writes on sign-ups: a seat given by hand (beyond the cap), a possible
duplicate joined to the register's person, the entry fee marked. Each under the window's lock
(``events.signups.services.lifecycle.relocked``) and in the sign-up's history with who did it."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy

from events.errors import Conflict, Invalid, Refused, refuse
from events.models import Entry
from events.services.events import competition_touch, games_changed
from events.signups.models import ACTIVE_SIGN_UP, Payment, SignUp, SignUpStatus
from events.signups.services.lifecycle import final_refusal, name_choice_apply, relocked, seat

UNKNOWN_PAYMENT = gettext_lazy("Choose paid, unpaid or waived.")
NOTHING_TO_MERGE = gettext_lazy("This sign-up is not marked as a possible duplicate.")
MERGE_BY_HAND = gettext_lazy("%(name)s has other registrations: merge them in admin by hand.")
MERGE_REGISTERED = gettext_lazy("%(name)s is registered in this competition already.")


def signup_promote(*, sign_up: SignUp, now: datetime | None = None) -> SignUp:
    """The desk gives a waitlisted, offered or unconfirmed sign-up a seat at once, beyond the
    cap if need be (the organiser's decision; raising the cap offers seats in order instead)."""
    now = now or timezone.now()
    with transaction.atomic():
        window, sign_up = relocked(sign_up)
        if sign_up.status == SignUpStatus.CONFIRMED:
            return sign_up
        if sign_up.status not in ACTIVE_SIGN_UP:
            raise final_refusal(sign_up)
        if sign_up.confirmed_at is None:
            sign_up.confirmed_at = now
        sign_up.hold_until = None
        seat(window, sign_up)
        sign_up.save()
    return sign_up


def signup_merge(*, sign_up: SignUp) -> SignUp:
    """The desk (or admin) says a possible duplicate is the same person as the register's one:
    the sign-up is joined to that person. A seat already given to the new person moves to the
    register's one, and the new person, made by this sign-up alone, is removed. Each step is in
    the sign-up's history (who, when)."""
    with transaction.atomic():
        window, sign_up = relocked(sign_up)
        same = sign_up.possible_duplicate
        if same is None:
            raise refuse(NOTHING_TO_MERGE, error_class=Refused, code="nothing_to_merge")
        entry = sign_up.entry
        others = Entry.objects.filter(competition=window.competition, player=same)
        if entry is not None:
            others = others.exclude(pk=entry.pk)
        if others.exists():  # the register's person has a seat here already
            raise refuse(
                MERGE_REGISTERED, error_class=Conflict, code="merge_registered", name=same.name
            )
        if entry is not None and entry.player_id != same.pk:
            new = entry.player
            if new.entries.exclude(pk=entry.pk).exists():
                raise refuse(
                    MERGE_BY_HAND, error_class=Refused, code="merge_by_hand", name=new.name
                )
            entry.player = same
            entry.save(update_fields=["player"])
            new.delete()
            competition_touch(window.competition)
            games_changed([window.competition])
        name_choice_apply(same, sign_up)
        sign_up.register_person = same
        sign_up.possible_duplicate = None
        sign_up._change_reason = "merge"  # type: ignore[attr-defined]
        sign_up.save(update_fields=["register_person", "possible_duplicate"])
    return sign_up


def payment_set(*, sign_up: SignUp, payment: str) -> SignUp:
    """The desk marks a sign-up's entry fee paid, unpaid or waived (in its history)."""
    if payment not in Payment.values:
        raise Invalid(str(UNKNOWN_PAYMENT), code="payment")
    with transaction.atomic():
        _window, sign_up = relocked(sign_up)
        if sign_up.payment != payment:
            sign_up.payment = payment
            sign_up.save(update_fields=["payment"])
    return sign_up
