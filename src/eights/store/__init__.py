"""The match store: every match as it is played, remembered settings, history and stats.

The only place that knows SQL. ``Store(url)`` opens (and migrates) a database;
``Store.start(config)`` gives a ``Session`` whose every action is committed as it is
applied, ``Store.resume(id)`` plays a saved match's actions again to take it up where it
stopped.
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
