"""The match store: every match as it is played, remembered settings, history and stats.

The only place that knows SQL. ``Store(url)`` opens (and migrates) a database;
``Store.new_match(...)`` gives a match's log (``eights.store.recorder.Recorder``) whose every
action is committed as it is played, ``Store.saved_match(id)`` a saved match's table and
actions; the table (``eights.table.saved``) makes sessions of them: the store knows nothing of
tables. ``rooms``, ``reviews`` and ``sheets`` keep the web table's rooms, reviews and score sheets.
"""

from eights.store.db import ENV_VAR, StoreError, database_file, database_url, default_path
from eights.store.matches import MatchSummary, PlayerStats, Store

__all__ = [
    "ENV_VAR",
    "MatchSummary",
    "PlayerStats",
    "Store",
    "StoreError",
    "database_file",
    "database_url",
    "default_path",
]
