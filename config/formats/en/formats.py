"""English pages in day-month-year order: the site's English is read in Sweden,
Estonia and the Netherlands, where 12/02/2026 is the 12th of February. Django's ``en`` module
is US English ("Dec. 2, 2026", "12/02/2026"); these are its ``en_GB`` formats ("2 Dec 2026",
"02/12/2026"), input formats included (ISO dates are always accepted too)."""

from django.conf.locale.en_GB.formats import *  # type: ignore[import-untyped]  # noqa: F403
