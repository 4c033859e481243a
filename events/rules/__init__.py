"""Pure Python shared by the formats (LAYOUT.md): no Django, no database. ``series`` ranks
players across the events of a series."""
