"""The records every format shares: players, events, competitions, entries, sessions,
rounds, games and seats.

Per-row facts live here; anything spanning rows lives in services (writes) and
selectors (reads). Format apps add their settings (in ``Competition.settings``,
validated by the format's settings form) and their own detail tables.
"""

from __future__ import annotations

from events.models.clubs import ClubRole, HostClub
from events.models.events import (
    Competition,
    CompetitionStatus,
    Entry,
    Event,
    EventRole,
    entry_next_number,
    strongest_role,
    time_zone_choices,
    validate_time_zone,
)
from events.models.people import (
    DEFAULT_RATING,
    MAX_RATING,
    PERSON_KEY_LENGTH,
    NameShown,
    Player,
    fold,
    person_key,
    short_name,
)
from events.models.play import Game, GameStatus, Round, Seat, Session
from events.models.proposals import (
    PROPOSALS_OPEN,
    AttemptCounter,
    ProposalStatus,
    ResultProposal,
    SubmissionToken,
)
from events.models.trail import Correction, constraint_message
from events.models.worker import PeriodicSlot, WorkerBeat

__all__ = [
    "PeriodicSlot",
    "WorkerBeat",
    "AttemptCounter",
    "Competition",
    "CompetitionStatus",
    "ClubRole",
    "Correction",
    "HostClub",
    "DEFAULT_RATING",
    "Entry",
    "Event",
    "EventRole",
    "Game",
    "GameStatus",
    "MAX_RATING",
    "PERSON_KEY_LENGTH",
    "PROPOSALS_OPEN",
    "NameShown",
    "Player",
    "ProposalStatus",
    "ResultProposal",
    "Round",
    "Seat",
    "Session",
    "SubmissionToken",
    "constraint_message",
    "entry_next_number",
    "fold",
    "person_key",
    "short_name",
    "strongest_role",
    "time_zone_choices",
    "validate_time_zone",
]
