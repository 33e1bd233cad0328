"""The engine: game state, legal actions, apply, events and views. Standard library only."""

from eights.engine.actions import DRAW, PASS, Action, ActionError, Draw, NameSuit, Pass, Play, parse_action
from eights.engine.errors import IllegalAction
from eights.engine.events import Event, redact
from eights.engine.game import Game
from eights.engine.views import LiveViews, View, view

__all__ = [
    "DRAW",
    "PASS",
    "Action",
    "ActionError",
    "Draw",
    "Event",
    "Game",
    "IllegalAction",
    "LiveViews",
    "NameSuit",
    "Pass",
    "Play",
    "View",
    "parse_action",
    "redact",
    "view",
]
