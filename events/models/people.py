"""The player register: one row per person, shared by every event, and how names compare."""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.validators import MaxValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

if TYPE_CHECKING:
    pass


DEFAULT_RATING = 1500


MAX_RATING = 4000


# Letters that Unicode does not decompose into a base letter plus a mark.
_FOLD = str.maketrans(
    {"ø": "o", "æ": "ae", "œ": "oe", "ß": "ss", "ł": "l", "đ": "d", "ð": "d", "þ": "th"}
)


def fold(text: str) -> str:
    """Case- and accent-insensitive form of a text, for searching: 'Õie Sööt' -> 'oie soot'."""
    decomposed = unicodedata.normalize("NFKD", text.casefold().translate(_FOLD))
    kept = (c for c in decomposed if not unicodedata.combining(c) and c.isprintable())
    return " ".join("".join(kept).split())


PERSON_KEY_LENGTH = 400

# An erased person's name is this mark and a number ("№ 60"): no word, so it reads the same in
# every language, and the mark comes after every letter in code-point order (SQLite, PostgreSQL's
# "C" collation), so the erased sort after the real names; the lists sorted under a language's
# collation put them last themselves (``is_pseudonym``). Before the mark, erasure wrote the
# English "Anonymous 60": such names are still recognised.
PSEUDONYM_MARK = "\u2116"
LEGACY_PSEUDONYM = "Anonymous"


def pseudonym(number: int) -> str:
    return f"{PSEUDONYM_MARK} {number}"


def is_pseudonym(name: str, number: int | None = None) -> bool:
    """``name`` is an erased person's (of register row ``number``, when given)."""
    head, _space, tail = name.partition(" ")
    if head not in (PSEUDONYM_MARK, LEGACY_PSEUDONYM) or not tail.isdigit():
        return False
    return number is None or tail == str(number)


def _key_part(text: str) -> str:
    # A backslash-escaped "|" keeps "Anna|Berg" (no club) apart from "Anna" of club "Berg".
    return fold(text).replace("\\", "\\\\").replace("|", "\\|")


def person_key(name: str, club: str) -> str:
    """Who a register row is: the folded name, "|", the folded club ('anna berg|uppsala').

    Stored on every Player (``Player.person_key``) under a unique constraint with
    ``homonym``, so two desks (two servers, one database) can never both add the same person.
    Cut at PERSON_KEY_LENGTH characters: only names no person has could meet that way.
    """
    return f"{_key_part(name)}|{_key_part(club)}"[:PERSON_KEY_LENGTH]


def short_name(name: str) -> str:
    """The first name and the initial of the last: "Åsa Öberg" -> "Åsa Ö.", "Jan van der Berg"
    -> "Jan B."; a single name stays as it is."""
    words = name.split()
    if len(words) < 2:
        return name
    return f"{words[0]} {words[-1][0]}."


class NameShown(models.TextChoices):
    FULL = "full", _("full name")
    SHORT = "short", _("first name and initial")


class Player(models.Model):
    """A person in a hosting club's register, across its events and years."""

    NameShown = NameShown

    # Registers are per hosting club: the same person at two clubs is two rows, until they
    # join them on their own page (never by name).
    host = models.ForeignKey(
        "events.HostClub",
        on_delete=models.PROTECT,
        related_name="register",
        verbose_name=_("hosting club"),
    )
    name = models.CharField(_("name"), max_length=100)
    # The club the person plays for, as they write it: free text, not a hosting club.
    club = models.CharField(_("club"), max_length=100, blank=True)
    email = models.EmailField(_("e-mail"), blank=True)
    rating = models.PositiveIntegerField(
        _("rating"), default=DEFAULT_RATING, validators=[MaxValueValidator(MAX_RATING)]
    )
    rated_games = models.PositiveIntegerField(_("rated games"), default=0)
    # Derived from name and club on every save; what the desk search matches against.
    search_text = models.CharField(max_length=201, editable=False, db_index=True)
    # One person, one row: derived from name and club on every save (see ``person_key``) and
    # unique together with ``homonym``. Two different people with the same name in the same
    # club are told apart by an admin giving the second one homonym 1 (the third 2, ...); the
    # desk and the CSV import never set it, so they can never create a second record.
    person_key = models.CharField(max_length=PERSON_KEY_LENGTH, editable=False)
    # Blank: the language of the event the message or page is about.
    language = models.CharField(
        _("preferred language"),
        max_length=8,
        choices=settings.LANGUAGES,
        blank=True,
        help_text=_("For e-mails and private pages. Empty: the event's language."),
    )
    homonym = models.PositiveSmallIntegerField(
        _("homonym number"),
        default=0,
        blank=True,
        help_text=_(
            "0 for almost everyone. Only for a different person with the same name and club "
            "as a player already in the register: give them 1 (then 2, ...)."
        ),
    )
    # How the name shows on public pages, screens, public downloads, feeds and the API: the
    # person chooses on their sign-up page. The desk and the admin show the full name.
    name_shown = models.CharField(
        _("name shown in public"),
        max_length=10,
        choices=NameShown.choices,
        default=NameShown.FULL,
    )
    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["name", "club", "pk"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.CheckConstraint(
                condition=Q(name_shown__in=NameShown.values),
                name="player_name_shown_known",
                violation_error_message=_("Choose one of the listed ways."),
            ),
            models.CheckConstraint(
                condition=Q(rating__lte=MAX_RATING),
                name="player_rating_in_range",
                violation_error_message=_("A rating is at most 4000."),
            ),
            models.CheckConstraint(
                condition=~Q(name=""),
                name="player_name_not_empty",
                violation_error_message=_("A player needs a name."),
            ),
            models.CheckConstraint(
                condition=Q(language__in=["", *(code for code, _name in settings.LANGUAGES)]),
                name="player_language_known",
                violation_error_message=_("Choose one of the site's languages, or none."),
            ),
            models.UniqueConstraint(
                fields=["host", "person_key", "homonym"],
                name="player_one_per_person",
                violation_error_message=_(
                    "A player with this name and club is already in the register; if this is "
                    "a different person, give them another homonym number."
                ),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.club})" if self.club else self.name

    @property
    def public_name(self) -> str:
        """The name as the person chose to be shown in public (``name_shown``)."""
        return short_name(self.name) if self.name_shown == NameShown.SHORT else self.name

    def save(self, *args, **kwargs) -> None:
        # The search column must never drift from the name, whoever saves the row.
        self.search_text = fold(f"{self.name} {self.club}")
        self.person_key = person_key(self.name, self.club)
        if self.homonym is None:  # left empty in the admin: the usual case
            self.homonym = 0
        if kwargs.get("update_fields") is not None:
            kwargs["update_fields"] = {*kwargs["update_fields"], "search_text", "person_key"}
        super().save(*args, **kwargs)
