"""Seating that keeps people apart: the group marks the desk sets on entries, what a format
answers about its draws (``contract``), and the words the desks show for what a seating could
not meet. The seating itself is pure: ``events.rules.seating``."""
