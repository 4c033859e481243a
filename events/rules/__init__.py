"""Pure Python shared by the formats (LAYOUT.md): no Django, no database. ``series`` ranks
players across the events of a series; ``seating`` seats players at tables of four and three,
keeping groups apart with the fewest repeat table-mates."""
