"""Hosting clubs: the organisations that own events, series and a register of people; the roles
held at them; their public page, stylesheet, logo and season (LAYOUT.md: a capability room)."""
