"""Blokus pages: ``public`` for the players' phones (live), ``desk`` and ``results`` for the
organiser."""
