"""Errors the checked apply raises. Each names the rule broken and what is legal."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules do not allow now. The game is left exactly as it was."""

    #: A short name of the rule, as docs/rules.md words it.
    rule = "illegal action"


class GameIsOver(IllegalAction):
    rule = "the game is over"


class NotYourTurn(IllegalAction):
    rule = "not your turn"


class CardNotInHand(IllegalAction):
    rule = "card not in hand"


class CardNotPlayable(IllegalAction):
    rule = "a card must match the top card's rank or the active suit, or be wild"


class MustAnswerChain(IllegalAction):
    rule = "only a 2 answers a pending chain of 2s"


class MustFollow(IllegalAction):
    rule = "after a 3 or 10 only more of that rank or a follow-me card may be laid"


class MustNameSuit(IllegalAction):
    rule = "a wild was played: name a suit"


class MustPlayDrawn(IllegalAction):
    rule = "after a draw only the drawn card may be played"


class MustPlay(IllegalAction):
    rule = "you may draw only when you cannot play"


class CannotDraw(IllegalAction):
    rule = "nothing can be drawn now"


class CannotPass(IllegalAction):
    rule = "a pass is allowed only when there is nothing to play or draw"


class BadStack(IllegalAction):
    rule = "stacking: cards of one rank, the top one playable"


class MustDropJacks(IllegalAction):
    rule = "a queen was played: every player drops all their jacks, in turn order"


class MustBury(IllegalAction):
    rule = "four in a row: every player buries one card of their choice"


class MustChoosePlayer(IllegalAction):
    rule = "the 5 or 7 just played: its player chooses a player"
