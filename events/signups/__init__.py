"""Online sign-up: windows, waitlists, offers, fees, the person's page, door check-in, a
person's data and its erasure (a capability room: LAYOUT.md)."""
