"""A table without a screen: everything a front end needs that is not drawing.

``Session`` seats people and computer players around one ``Game`` and applies every
action through the engine's checked door (handing each to a ``MatchLog``, the match
store); ``turns`` says who plays now and paces a computer's move (the one turn driver of every
front end); ``saved`` makes sessions of what the store keeps; ``phrases``, ``prompts`` and
``narrator`` word the state, the moves and the events for one seat. The terminal game, the
plain-text mode and the web table all use this package; nothing in it imports Textual, a
web framework or SQL.
"""

from eights.names import HUMAN
from eights.table.session import (
    MatchLog,
    PlayConfig,
    RestoreError,
    Session,
    UsageError,
    build_config,
)

__all__ = ["HUMAN", "MatchLog", "PlayConfig", "RestoreError", "Session", "UsageError", "build_config"]
