"""Score sheets for games at a real table: the sheet, not the dealer.

A ``Sheet`` starts from a rule set and 2 to 8 players; each round the table enters who went
out (or that the round was blocked) and every other player's points or cards left. Points come
from the engine's own scoring (``eights.rules.scoring``, the rule set's value table); the sheet keeps
running totals, the dealer and hand size of each round, the end of the match and its winners.
A sheet is its setup plus its round entries, stored with ``to_dict`` and loaded with
``from_dict``. Standard library only; nothing here reads or writes files.
"""

from eights.scorecard.entry import (
    Left,
    LeftInput,
    RoundEntry,
    left_from_text,
    parse_points,
    points_from_text,
    read_hand,
)
from eights.scorecard.errors import HandError, MatchOverError, PlayerError, RoundNumberError, SheetError
from eights.scorecard.export import (
    next_words,
    scored_words,
    sheet_json,
    standings_words,
    to_csv,
    to_text,
    totals_words,
)
from eights.scorecard.setup import MAX_PLAYERS, MAX_ROUNDS, MIN_PLAYERS, Setup
from eights.scorecard.sheet import FORMAT, RoundResult, Sheet, Standing

__all__ = [
    "FORMAT",
    "MAX_PLAYERS",
    "MAX_ROUNDS",
    "MIN_PLAYERS",
    "HandError",
    "Left",
    "LeftInput",
    "MatchOverError",
    "PlayerError",
    "RoundEntry",
    "RoundNumberError",
    "RoundResult",
    "Setup",
    "Sheet",
    "SheetError",
    "Standing",
    "left_from_text",
    "next_words",
    "parse_points",
    "points_from_text",
    "read_hand",
    "scored_words",
    "sheet_json",
    "standings_words",
    "to_csv",
    "to_text",
    "totals_words",
]
