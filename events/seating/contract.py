"""What seating that keeps people apart (``events.seating``) asks of a format: how a
competition's draws use the wish, one of three answers. A format takes part by implementing
:class:`SeatingWishes` in its hooks; the desk's group page is offered for its competitions only.

The modes, each the format's own setting (off by default):
- ``OFF``: draws as the format's rules say, nothing kept apart;
- ``FIRST_ROUND``: round 1 is a constrained random draw (later rounds by the rules' order);
- ``EVERY_ROUND``: every round drawn apart, with the fewest repeat table-mates (casual play,
  where rounds are not grouped by points)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Protocol, runtime_checkable

if TYPE_CHECKING:
    from events.models import Competition

OFF: Final = "off"
FIRST_ROUND: Final = "first_round"
EVERY_ROUND: Final = "every_round"
MODES: Final = (OFF, FIRST_ROUND, EVERY_ROUND)


@runtime_checkable
class SeatingWishes(Protocol):
    def seating_apart(self, competition: Competition) -> str:
        """Which of ``MODES`` the competition's draws follow (no query: from its settings)."""
        ...
