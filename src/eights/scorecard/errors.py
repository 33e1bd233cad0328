"""The scorecard's errors. Each message names the problem and the valid choices in the
player's words, and the sheet is left exactly as it was."""

from __future__ import annotations


class SheetError(ValueError):
    """Something a score sheet cannot take: the sheet is unchanged."""


class PlayerError(SheetError):
    """A player count or a name that cannot be used: empty, duplicate or unknown."""


class HandError(SheetError):
    """An impossible round entry: a card the packs do not hold, too many copies, cards or
    points for the player who went out, negative points, a missing player."""


class RoundNumberError(SheetError):
    """A round number that does not name an entered round."""


class MatchOverError(SheetError):
    """A change the finished (or ending) match does not allow."""
