"""Demo data for this format, called by `manage.py load_demo` after the competition is made."""

from __future__ import annotations

from events.models import Competition


def load(competition: Competition) -> None:
    """Nothing yet beyond the players that load_demo registers."""
