"""Computer players. Each sees only its seat's view and returns one legal action."""

from eights.bots.base import Bot, Hint
from eights.bots.random_bot import RandomBot

__all__ = ["Bot", "Hint", "RandomBot"]
