"""The round robin's pages: ``public`` (live tables, player and rating pages), ``desk`` (the
organiser's), ``private`` (a player's private page), ``screen`` (the projector) and ``api`` (the
game servers' JSON API)."""
