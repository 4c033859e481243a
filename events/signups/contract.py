"""What online sign-up (``events.signups``) asks of a format. Every format's competitions can be
signed up for as a whole; a format takes part further by implementing:

- :class:`SignUpSessions`: the person chooses one of several sessions, each with its own seats
  and waitlist (Blokus qualifying sessions);
- :class:`PrivateLinks`: each entry has a private page where only that person acts (the round
  robin's moves), linked from the person's sign-up page.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from events.models import Competition, Entry, Session


@runtime_checkable
class SignUpSessions(Protocol):
    def sign_up_sessions(self, competition: Competition) -> list[Session]:
        """The sessions a person chooses one of at online sign-up, each with its own seats
        (``sign_up_cap``) and waitlist. One query."""
        ...

    def sign_up_seated(self, entry: Entry, session: Session) -> None:
        """A sign-up for ``session`` (one of ``sign_up_sessions``) got its seat as ``entry``:
        put the entry in that session. Called inside the sign-up's transaction; raise
        ``events.errors.ServiceError`` to refuse the seat."""
        ...


@runtime_checkable
class PrivateLinks(Protocol):
    def private_links(self, entries: Sequence[Entry]) -> dict[int, str]:
        """Each entry's private page (a path), by entry id. One query for all of them."""
        ...
