"""The screens room's records (a capability room: LAYOUT.md), models of the app ``events``.

- ``ScreenPairing``: a code a browser opened at the pairing address shows, until an organiser
  types it at the desk (single use, short-lived). The browser polls its own pairing address
  (``claim``, secret) and is sent on to its screen's address once paired.
- ``Screen``: a named projector of an event, reached by its long random ``token`` in the
  address (no cookie: a public page's body is the same for every visitor), and what the desk
  chose for it to show. Written only by ``events.screens.services``.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from events.models.events import Competition, Event
from events.models.play import Round

MAX_NAME = 60
MAX_ANNOUNCEMENT = 280
CODE_LENGTH = 6
TOKEN_LENGTH = 43  # secrets.token_urlsafe(32)


class Shows(models.TextChoices):
    """What a screen shows. The first four are pages of the format's own screen (their
    ``Page.kind``); the next three the room draws itself."""

    CYCLE = "cycle", _("The cycle (every page in turn)")
    STANDINGS = "standings", _("Standings")
    SEATING = "seating", _("The round's seating")
    ROTA = "rota", _("The rota (who plays where)")
    CLOCK = "clock", _("The clock")
    ANNOUNCEMENT = "announcement", _("An announcement")
    SIGN_UP = "sign_up", _("The sign-up QR code")


class Screen(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="screens")
    name = models.CharField(_("name"), max_length=MAX_NAME)
    token = models.CharField(max_length=TOKEN_LENGTH, unique=True, editable=False)
    competition = models.ForeignKey(
        Competition, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    shows = models.CharField(_("shows"), max_length=20, choices=Shows.choices, default=Shows.CYCLE)
    # The round whose seating was chosen: once it is played out (or deleted) the screen falls
    # back to the standings rather than showing a seating nobody sits at any more.
    round = models.ForeignKey(
        Round, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    follows_round = models.BooleanField(default=False)
    announcement = models.CharField(_("announcement"), max_length=MAX_ANNOUNCEMENT, blank=True)
    paused = models.BooleanField(_("cycle paused"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    changed_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["event", "name"], name="screen_name_unique_per_event")
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.event})"


class ScreenPairing(models.Model):
    code = models.CharField(max_length=CODE_LENGTH, unique=True)
    claim = models.CharField(max_length=TOKEN_LENGTH, unique=True)
    expires_at = models.DateTimeField(db_index=True)
    screen = models.ForeignKey(
        Screen, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.code
