"""Sessions the match store keeps: a new match saved from its deal on, a saved match taken up again, and
the last new game's settings. The table asks a ``MatchStore`` (the store: ``eights.store.Store``) for
plain data and logs, and makes the sessions itself: the store knows nothing of tables, and nothing here
imports a database.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Protocol

from eights.engine import Action, Game
from eights.names import HUMAN
from eights.rules import RulesError
from eights.table.session import MatchLog, PlayConfig, RestoreError, Session, UsageError


class SavedMatch(Protocol):
    """A saved match as the store gives it."""

    @property
    def id(self) -> int: ...

    @property
    def config(self) -> dict[str, Any]:
        """Its table: a ``PlayConfig``'s data, with the game's seed."""
        ...

    @property
    def actions(self) -> tuple[str, ...]: ...

    @property
    def finished(self) -> bool: ...


class MatchStore(Protocol):
    """Where matches are saved, as the table needs it (the match store)."""

    #: Where the store is, for people: ``/home/ann/.local/share/eights/eights.db``.
    label: str

    def new_match(
        self, config: dict[str, Any], seats: Sequence[tuple[str, str]], grouped: bool, actions: Sequence[Action] = ()
    ) -> MatchLog: ...

    def saved_match(self, match_id: int) -> SavedMatch: ...

    def match_log(self, match_id: int, grouped: bool) -> MatchLog: ...

    def last_unfinished(self) -> int | None: ...

    def remember_setup(self, setup: dict[str, Any], people: Sequence[str] = ()) -> None: ...

    def last_setup(self) -> dict[str, Any] | None: ...


def start_saved(store: MatchStore, config: PlayConfig, game: Game | None = None) -> Session:
    """A new session for ``config``, saved from its deal on (a game handed in keeps the actions it holds).

    :raises RulesError: when the rules cannot seat the players; the store's error when it cannot save.
    """
    session = Session(config, game)
    kept = replace(config, seed=session.game.seed).to_dict()
    seats = tuple(zip(session.names, config.seats, strict=True))
    session.log = store.new_match(kept, seats, grouped=HUMAN not in config.seats, actions=session.game.actions)
    return session


def resume_saved(store: MatchStore, match_id: int) -> Session:
    """The saved match ``match_id``, its actions played again, to go on where it stopped.

    :raises RestoreError: when it is over, or its record no longer replays (naming the match and what to
        do); the store's error when there is no such match.
    """
    saved = store.saved_match(match_id)
    if saved.finished:
        raise RestoreError(f"match {match_id} is over; `eights history show {match_id}` shows how it went")
    try:
        config = PlayConfig.from_dict(saved.config)
        log = store.match_log(match_id, grouped=HUMAN not in config.seats)
        return Session.restore(config, saved.actions, log)
    except (RestoreError, RulesError, UsageError) as exc:
        raise RestoreError(
            f"match {match_id} in {store.label} cannot be taken up: {exc}. It is kept as it is; "
            f"`eights history show {match_id} --export FILE` saves its record"
        ) from None


def saved_session(store: MatchStore, match_id: int) -> Session:
    """The saved match as a session: an unfinished one goes on saving; a finished one is only shown.

    :raises RestoreError: when it no longer replays; the store's error when there is no such match.
    """
    saved = store.saved_match(match_id)
    if not saved.finished:
        return resume_saved(store, match_id)
    try:
        return Session.restore(PlayConfig.from_dict(saved.config), saved.actions)
    except (RestoreError, RulesError, UsageError) as exc:
        raise RestoreError(f"match {match_id} in {store.label} no longer replays: {exc}") from None


def resume_last(store: MatchStore) -> Session | None:
    """The most recently started match that is not over, taken up again (None: there is none).

    :raises RestoreError: as ``resume_saved``.
    """
    match_id = store.last_unfinished()
    return None if match_id is None else resume_saved(store, match_id)


def remember_setup(store: MatchStore, config: PlayConfig) -> None:
    """The new-game settings (without their seed) and the people's names, for the next game."""
    store.remember_setup(replace(config, seed=None).to_dict(), config.people)


def last_setup(store: MatchStore) -> PlayConfig | None:
    """The last new game's settings, or None (also when they no longer make a table)."""
    data = store.last_setup()
    if data is None:
        return None
    try:
        return PlayConfig.from_dict(data)
    except (RulesError, UsageError):
        return None


def kept_words(session: Session) -> str:
    """Whether the match is kept, and how to take it up again, for whoever leaves it (any front end)."""
    where = None if session.log is None else session.log.where()
    if where is None:
        return "the match is left unfinished (it was not saved)."
    if session.game.is_over:
        return f"the match is over and saved ({where})."
    return f"the match is saved ({where}); take it up again with `eights play --resume`."


def resuming_words(session: Session) -> str:
    """What a player taking up a saved match is told first: which match, and where in it."""
    where = None if session.log is None else session.log.where()
    game = session.game
    rounds = f", round {game.round_index + 1}" if not game.is_over else ""
    return f"Taking up {where or 'the match'} ({session.rules.name}{rounds}) where it stopped."
