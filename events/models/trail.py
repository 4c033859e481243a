"""The correction trail, and the words for a broken database constraint."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from events.common.words import render

if TYPE_CHECKING:
    pass
from events.models.events import Competition, Entry


class Correction(models.Model):
    """A result changed after it was first entered: the trail players and the desk read.

    The format that made the change writes it (``events.services.correction_record``) in the
    same transaction as the change. ``item``, ``before`` and ``after`` are short texts in the
    format's words ("game 3", "112", "121"); ``payload`` is what the format needs to undo it.
    Who corrected is shown on the desk only, never on public pages.
    """

    class Source(models.TextChoices):
        DESK = "desk", _("desk")
        ADMIN = "admin", _("admin")
        UNDO = "undo", _("undo")

    competition = models.ForeignKey(
        Competition,
        on_delete=models.CASCADE,
        related_name="corrections",
        verbose_name=_("competition"),
    )
    entry = models.ForeignKey(
        Entry,
        on_delete=models.CASCADE,
        related_name="corrections",
        null=True,
        blank=True,
        verbose_name=_("player"),
    )
    item = models.CharField(_("what"), max_length=120)
    before = models.CharField(_("before"), max_length=120, blank=True)
    after = models.CharField(_("after"), max_length=120, blank=True)
    note = models.CharField(_("note"), max_length=300, blank=True)
    source = models.CharField(_("source"), max_length=10, choices=Source.choices)
    corrected_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("corrected by"),
    )
    payload = models.JSONField(_("undo data"), default=dict, blank=True)
    # The texts above as message ids and values (events.common.words), shown in the reader's
    # language; a field without a recipe (rows written before, free text) shows its text.
    words = models.JSONField(_("words"), default=dict, blank=True)
    reverts = models.OneToOneField(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="reverted_by",
        verbose_name=_("undoes"),
    )
    created_at = models.DateTimeField(_("corrected at"), auto_now_add=True)

    def shown(self, field: str) -> str:
        recipes = self.words if isinstance(self.words, dict) else {}
        if field in recipes:
            return render(recipes[field])
        return str(getattr(self, field))

    @property
    def item_shown(self) -> str:
        return self.shown("item")

    @property
    def before_shown(self) -> str:
        return self.shown("before")

    @property
    def after_shown(self) -> str:
        return self.shown("after")

    @property
    def note_shown(self) -> str:
        return self.shown("note")

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("correction")
        verbose_name_plural = _("corrections")
        indexes = [models.Index(fields=["competition", "-created_at"], name="correction_recent")]
        constraints = [
            models.CheckConstraint(
                condition=Q(source__in=["desk", "admin", "undo"]),
                name="correction_source_known",
                violation_error_message=_("Unknown correction source."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.item}: {self.before} → {self.after}"


# The words for a database refusal, by constraint name, for a save that got past the forms
# (a race, two seats swapping places): never show a constraint's name to a person.
_UNIQUE_MESSAGES = {
    "competition_slug_unique": _("Another competition of this event has this address."),
    "eventrole_one_per_user": _("This person already has a role at this event."),
    "player_one_per_person": _(
        "A player with this name and club is already in the register; if this is a different "
        "person, give them another homonym number."
    ),
    "entry_one_per_player": _("The player is already entered in this competition."),
    "entry_number_unique": _("Another player of this competition has this number."),
    "session_number_unique": _("Another session of this competition has this number."),
    "round_number_unique": _("Another round of this session has this number."),
    "game_number_unique": _("Another game of this round has this table number."),
    "seat_one_per_player": _("The player already has a seat in this game."),
    "seat_position_unique": _("Another seat of this game has this position."),
}


def constraint_message(error_text: str) -> str:
    """A readable reason for a database error text naming one of our constraints (PostgreSQL
    names it; SQLite names the columns of a unique one); a general one otherwise."""
    from django.apps import apps

    for model in apps.get_models():
        table = model._meta.db_table
        for constraint in model._meta.constraints:
            fields = getattr(constraint, "fields", ()) or ()
            columns = ", ".join(
                f"{table}.{getattr(model._meta.get_field(f), 'column', f)}" for f in fields
            )
            if constraint.name not in error_text and not (columns and columns in error_text):
                continue
            known = _UNIQUE_MESSAGES.get(constraint.name)
            if known is not None:
                return str(known)
            message = str(getattr(constraint, "violation_error_message", "") or "")
            if message and "%(name)s" not in message:
                return message
    return str(_("it conflicts with data stored meanwhile; please check the values and retry."))
