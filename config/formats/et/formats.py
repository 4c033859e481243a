"""Estonian date formats Django does not ship (its ``et`` module leaves these unset, so they would
fall back to the English "N j, Y, P"). Django reads the rest from its own ``et`` module."""

DATETIME_FORMAT = "j. F Y G:i"  # '30. november 2026 18:00'
SHORT_DATETIME_FORMAT = "d.m.Y G:i"  # '30.11.2026 18:00'
YEAR_MONTH_FORMAT = "F Y"  # 'november 2026'
