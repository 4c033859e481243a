"""Sjoelen pages: ``public`` for the players' phones (live), ``screen`` for the projector,
``proposals`` for a result sent from the board, ``desk`` for the organiser."""
