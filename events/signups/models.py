"""Entry before the day: a competition's online sign-up window with its cap, and each
person's sign-up through its states.

A sign-up is ``pending`` until its e-mail link is confirmed (holding a seat until
``hold_until`` while seats are free), then ``confirmed`` (a seat: an ``Entry``) or
``waitlisted`` (in order of ``confirmed_at``); a freed seat goes to the first on the waitlist as
``offered`` until ``offer_until``, then ``confirmed`` on acceptance, or ``expired`` /
``cancelled`` and the next one is offered. Every step is in the sign-up's history. The writes
are ``events.signups.services.lifecycle``; a seat counts as taken while it is confirmed, offered
(until the offer ends) or held by a pending sign-up (until its hold ends).
"""

from __future__ import annotations

import zoneinfo
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from events.models.events import Competition, Entry
from events.models.people import MAX_RATING, NameShown, Player
from events.models.play import Session

MAX_HOLD_MINUTES = 24 * 60
MAX_FEE = Decimal("10000")
CURRENCIES = [("EUR", "EUR"), ("SEK", "SEK")]


def validate_iban(value: str) -> None:
    """An IBAN's form and check digits (ISO 13616: the number mod 97 is 1), spaces aside."""
    iban = "".join(value.split()).upper()
    if not iban:
        return
    if not (15 <= len(iban) <= 34 and iban[:2].isalpha() and iban[2:4].isdigit()) or not (
        iban.isascii() and iban.isalnum()
    ):
        raise ValidationError(_("Not an IBAN."), code="iban")
    digits = "".join(str(int(c, 36)) for c in iban[4:] + iban[:4])
    if int(digits) % 97 != 1:
        raise ValidationError(_("The IBAN's check digits do not match."), code="iban")


MAX_OFFER_MINUTES = 14 * 24 * 60


class SignUpWindow(models.Model):
    """A competition's online sign-up: open from ``opens_at`` until ``closes_at`` for ``cap``
    seats, with an optional limit on the waitlist."""

    competition = models.OneToOneField(
        Competition,
        on_delete=models.CASCADE,
        related_name="sign_up_window",
        verbose_name=_("competition"),
    )
    opens_at = models.DateTimeField(_("opens at"))
    closes_at = models.DateTimeField(_("closes at"))
    cap = models.PositiveIntegerField(
        _("seats"), validators=[MinValueValidator(1), MaxValueValidator(10_000)]
    )
    waitlist_limit = models.PositiveIntegerField(
        _("waitlist limit"),
        null=True,
        blank=True,
        validators=[MaxValueValidator(10_000)],
        help_text=_("Empty: no limit."),
    )
    hold_minutes = models.PositiveIntegerField(
        _("minutes an unconfirmed sign-up holds a seat"),
        default=30,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_HOLD_MINUTES)],
    )
    offer_minutes = models.PositiveIntegerField(
        _("minutes to accept an offered seat"),
        default=24 * 60,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_OFFER_MINUTES)],
    )
    day_offer_minutes = models.PositiveIntegerField(
        _("minutes to accept an offered seat on the event's days"),
        default=15,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_HOLD_MINUTES)],
    )
    fee = models.DecimalField(
        _("entry fee"),
        max_digits=7,
        decimal_places=2,
        default=Decimal("0"),
        validators=[MinValueValidator(Decimal("0")), MaxValueValidator(MAX_FEE)],
        help_text=_("0: no fee."),
    )
    currency = models.CharField(_("currency"), max_length=3, choices=CURRENCIES, default="EUR")
    payee_name = models.CharField(
        _("account holder"),
        max_length=70,
        blank=True,
        help_text=_("For the bank transfer's QR code (euro only)."),
    )
    payee_iban = models.CharField(_("IBAN"), max_length=34, blank=True, validators=[validate_iban])
    # Self check-in at the door (both set: on): a confirmed player types the door screen's
    # code on their own page within these times.
    self_check_in_from = models.DateTimeField(_("self check-in from"), null=True, blank=True)
    self_check_in_until = models.DateTimeField(_("self check-in until"), null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("sign-up window")
        verbose_name_plural = _("sign-up windows")
        constraints = [
            models.CheckConstraint(
                condition=Q(closes_at__gt=F("opens_at")),
                name="signup_window_closes_after_opening",
                violation_error_message=_("The sign-up closes after it opens."),
            ),
            models.CheckConstraint(
                condition=Q(cap__gte=1, cap__lte=10_000),
                name="signup_window_cap_range",
                violation_error_message=_("Seats: 1 to 10,000."),
            ),
            models.CheckConstraint(
                condition=Q(self_check_in_from__isnull=True, self_check_in_until__isnull=True)
                | Q(self_check_in_until__gt=F("self_check_in_from")),
                name="signup_window_self_check_in_times",
                violation_error_message=_("Self check-in ends after it starts."),
            ),
            models.CheckConstraint(
                condition=Q(fee__gte=0, fee__lte=MAX_FEE),
                name="signup_window_fee_range",
                violation_error_message=_("An entry fee is 0 to 10,000."),
            ),
            models.CheckConstraint(
                condition=Q(hold_minutes__gte=1, hold_minutes__lte=MAX_HOLD_MINUTES)
                & Q(offer_minutes__gte=1, offer_minutes__lte=MAX_OFFER_MINUTES)
                & Q(day_offer_minutes__gte=1, day_offer_minutes__lte=MAX_HOLD_MINUTES),
                name="signup_window_minutes_range",
                violation_error_message=_(
                    "A hold lasts 1 minute to a day, an offer up to 14 days."
                ),
            ),
        ]

    def __str__(self) -> str:
        return str(self.competition)

    def is_open(self, now=None) -> bool:
        now = now or timezone.now()
        return self.opens_at <= now < self.closes_at

    def offer_minutes_at(self, now) -> int:
        """How long an offer made at ``now`` stays open: ``day_offer_minutes`` on the event's
        days (in its time zone), else ``offer_minutes``."""
        event = self.competition.event
        today = now.astimezone(zoneinfo.ZoneInfo(event.time_zone)).date()
        on_the_day = event.starts_on <= today <= event.ends_on
        return self.day_offer_minutes if on_the_day else self.offer_minutes

    def self_check_in_open(self, now=None) -> bool:
        if self.self_check_in_from is None or self.self_check_in_until is None:
            return False
        now = now or timezone.now()
        return self.self_check_in_from <= now < self.self_check_in_until


class SignUpStatus(models.TextChoices):
    PENDING = "pending", _("not confirmed yet")
    CONFIRMED = "confirmed", _("confirmed")
    WAITLISTED = "waitlisted", _("on the waitlist")
    OFFERED = "offered", _("offered a seat")
    CANCELLED = "cancelled", _("cancelled")
    EXPIRED = "expired", _("expired")


# The states of a sign-up that still counts: one per e-mail address and window.
ACTIVE_SIGN_UP = (
    SignUpStatus.PENDING,
    SignUpStatus.CONFIRMED,
    SignUpStatus.WAITLISTED,
    SignUpStatus.OFFERED,
)


class Payment(models.TextChoices):
    UNPAID = "unpaid", _("unpaid")
    PAID = "paid", _("paid")
    WAIVED = "waived", _("waived")


class SignUp(models.Model):
    """One person's sign-up for one competition (see the module's docstring)."""

    Status = SignUpStatus
    Payment = Payment

    window = models.ForeignKey(
        SignUpWindow,
        on_delete=models.CASCADE,
        related_name="sign_ups",
        verbose_name=_("sign-up window"),
    )
    # The session chosen, where the competition's players choose one (a Blokus qualifying
    # session): its seats and its waitlist are counted apart.
    session = models.ForeignKey(
        Session,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="sign_ups",
        verbose_name=_("session"),
    )
    name = models.CharField(_("name"), max_length=100)
    email = models.EmailField(_("e-mail"))  # stored in lower case
    club = models.CharField(_("club"), max_length=100, blank=True)
    rating = models.PositiveIntegerField(
        _("rating"), null=True, blank=True, validators=[MaxValueValidator(MAX_RATING)]
    )
    language = models.CharField(_("language"), max_length=10, blank=True)
    name_shown = models.CharField(
        _("name shown in public"),
        max_length=10,
        choices=NameShown.choices,
        default=NameShown.FULL,
    )
    status = models.CharField(
        _("status"), max_length=20, choices=SignUpStatus.choices, default=SignUpStatus.PENDING
    )
    created_at = models.DateTimeField(_("signed up at"), default=timezone.now)
    hold_until = models.DateTimeField(_("seat held until"), null=True, blank=True)
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)
    offer_until = models.DateTimeField(_("offer open until"), null=True, blank=True)
    entry = models.OneToOneField(
        Entry,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="sign_up",
        verbose_name=_("entry"),
    )
    payment = models.CharField(
        _("entry fee"), max_length=10, choices=Payment.choices, default=Payment.UNPAID
    )
    # A register person of the same name and club but another (or no) e-mail address: never
    # joined on name alone, marked for the desk to check and merge.
    possible_duplicate = models.ForeignKey(
        Player,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("possible duplicate of"),
    )
    # The register person the desk joined this sign-up to (the merge of a possible duplicate):
    # seated as that person, whatever the address.
    register_person = models.ForeignKey(
        Player,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("joined to"),
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("sign-up")
        verbose_name_plural = _("sign-ups")
        ordering = ["window", "created_at", "pk"]
        indexes = [
            models.Index(fields=["window", "status", "confirmed_at"], name="signup_queue"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["window", "email"],
                condition=Q(status__in=ACTIVE_SIGN_UP),
                name="signup_once_per_address",
                violation_error_message=_("This e-mail address has signed up already."),
            ),
            models.CheckConstraint(
                condition=Q(status__in=SignUpStatus.values),
                name="signup_status_known",
                violation_error_message=_("Choose one of the listed states."),
            ),
            models.CheckConstraint(
                condition=Q(status=SignUpStatus.PENDING) | Q(confirmed_at__isnull=False),
                name="signup_confirmed_time",
                violation_error_message=_("A confirmed sign-up has its confirmation time."),
            ),
            models.CheckConstraint(
                condition=~Q(status=SignUpStatus.OFFERED) | Q(offer_until__isnull=False),
                name="signup_offer_has_an_end",
                violation_error_message=_("An offered seat has the time the offer ends."),
            ),
            models.CheckConstraint(
                condition=Q(name_shown__in=NameShown.values),
                name="signup_name_shown_known",
                violation_error_message=_("Choose one of the listed ways."),
            ),
            models.CheckConstraint(
                condition=Q(payment__in=Payment.values),
                name="signup_payment_known",
                violation_error_message=_("Choose one of the listed states."),
            ),
            models.CheckConstraint(
                condition=Q(entry__isnull=True) | Q(status=SignUpStatus.CONFIRMED),
                name="signup_entry_only_confirmed",
                violation_error_message=_("Only a confirmed sign-up has an entry."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} · {self.window}"

    @property
    def reference(self) -> str:
        """The payment reference of this sign-up, unique on the site (its bank transfer's)."""
        return f"TD-{self.pk}"
