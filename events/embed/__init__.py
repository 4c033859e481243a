"""The event on a club's website and on a stream: the standings widget other sites may frame,
and the OBS overlays (lower third, clock, standings ticker)."""
