"""The refusals of the rules: ``InvalidResult`` and the messages it carries, module-level
constants (some with ``{}`` fields filled with str.format) that callers and tests can import.
"""

from __future__ import annotations

from collections.abc import Mapping

# Messages (some have {} fields filled with str.format).
SQUARES_OUT_OF_RANGE = "Squares left must be a whole number from 0 to 89."
MONOMINO_FLAG_NOT_BOOL = "Say yes or no for whether the monomino was placed last."
MONOMINO_LAST_WITH_SQUARES_LEFT = (
    "The monomino can count as the last piece only when every piece was placed (0 squares left)."
)
SCORE_NOT_WHOLE = "A game score must be a whole number, not {!r}."
PIECES_NOT_NAMES = "The pieces left must be a list of piece names."
PIECES_DO_NOT_ADD_UP = "The pieces left add up to {} squares, not {}."
DROPPED_OUT_SQUARES = "A player who dropped out has all 89 squares left."
TOO_FEW_SCORES = "A game needs at least two players' scores."
DROPPED_LENGTH_MISMATCH = "Give one drop-out flag for each score."
DROPPED_NOT_BOOL = "Each drop-out flag must be yes or no."
UNKNOWN_PIECE = "There is no Blokus piece called {!r}."
DUPLICATE_PIECE = "The piece {!r} is listed twice; each colour has only one."
CAPACITY_INVALID = "The number of seats must be a whole number of 0 or more."
COUNT_INVALID = "The number checked in must be a whole number of 0 or more, not {!r}."
ROUNDS_INVALID = "The number of rounds must be a whole number of 0 or more, not {!r}."
DUPLICATE_PLAYER = "{!r} appears more than once."
SEATED_NOT_MULTIPLE_OF_FOUR = "A session seats a multiple of four players, not {!r}."
NO_PLAYERS_TO_GROUP = "There are no players to put at tables."
PLAYERS_NOT_MULTIPLE_OF_FOUR = (
    "Tables are for four players, so the number of players must be a multiple of four, not {}."
)
STANDING_MALFORMED = "Each standing must be (player, points, total score)."
LOT_INCOMPLETE = "The lot does not include {!r}."
POINTS_INVALID = "Qualifying points must be a number of 0 or more, not {!r}."
TOTAL_NOT_WHOLE = "A total game score must be a whole number, not {!r}."
FINAL_SIZE = "A final game has 2 to 4 players, not {}."
NOT_QUALIFIED = "{!r} has no place in the qualification order."
DRAW_NEEDS_FOUR = "Colours are drawn for exactly four different players; got {}."
DRAW_SIZE = "Colours are drawn for 2 to 4 different players; got {}."
NOT_ENOUGH_FOR_THREE_HANDED = (
    "{} players still playing cannot be split into tables of three and four."
)
REPLAY_PLAYERS = "A replay is played by exactly the players tied for first in the game before it."
REPLAYS_INVALID = "The number of replays must be a whole number of 0 or more, not {!r}."
UNKNOWN_COLOUR = "There is no colour {!r}; the colours are blue, yellow, red and green."
BETWEEN_CYCLES_NOT_BLUE = "Between two cycles it is always blue's turn."
ALREADY_PLAYED = "Already played in another qualifying session: {}."


class InvalidResult(ValueError):
    """Input a person can get wrong; the message says what to fix and may be shown as is.

    ``check_hand`` also says which value is wrong (``field``), why (``code``, stable, for a
    caller that shows the message in another language) and the numbers in it (``params``).
    """

    def __init__(
        self,
        message: str,
        *,
        field: str = "",
        code: str = "",
        params: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(message)
        self.field = field
        self.code = code
        self.params = dict(params or {})
