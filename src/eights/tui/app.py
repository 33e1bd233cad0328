"""The Textual app behind ``eights play``: it moves between the new-game screen and the table.

The screens never call the app: they post messages (``SetupScreen.Start``,
``SetupScreen.Continue``, ``TableScreen.MatchEnded``) and the app decides what comes next.
Where a match store is given, every match is saved as it is played.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import TYPE_CHECKING, ClassVar

from textual.app import App
from textual.binding import Binding, BindingType

from eights.engine import Game
from eights.store import StoreError
from eights.table import PlayConfig, RestoreError, Session
from eights.table.saved import remember_setup, resume_saved, start_saved
from eights.tui.screens.setup import SetupScreen
from eights.tui.screens.table import TableScreen

if TYPE_CHECKING:
    from eights.store import Store


class EightsApp(App[None]):
    """Crazy Eights at the terminal: a new-game screen, then the table.

    ``config`` None opens the new-game screen (prefilled from ``defaults``); ``game``
    replaces the first game's deal (tests and puzzles); ``session`` is a match to take up
    again (a saved one); ``store`` keeps every match and the last settings.
    """

    CSS_PATH: ClassVar[list[str | PurePath]] = ["eights.tcss", "dialogs.tcss"]
    TITLE = "Crazy Eights"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+q", "quit", "Quit", show=False)]

    def __init__(
        self,
        config: PlayConfig | None = None,
        *,
        defaults: PlayConfig | None = None,
        game: Game | None = None,
        session: Session | None = None,
        store: Store | None = None,
    ) -> None:
        super().__init__()
        self.config = config
        self.defaults = defaults or config
        self.store = store
        self._first_game = game
        self._first_session = session
        #: The match at the table now (or last), for what is said when the app is left.
        self.session: Session | None = None

    def table(self, session: Session) -> TableScreen:
        """The table for ``session``, which becomes the match at the table."""
        self.session = session
        return TableScreen(session)

    def on_mount(self) -> None:
        if self._first_session is not None:
            self.push_screen(self.table(self._first_session))
            self._first_session = None
        elif self.config is None:
            self.push_screen(self.setup_screen(self.defaults))
        else:
            self.push_screen(self.table(self.new_session(self.config, self._first_game)))
            self._first_game = None

    def setup_screen(self, defaults: PlayConfig | None) -> SetupScreen:
        unfinished = self.store.unfinished_words() if self.store is not None else []
        return SetupScreen(defaults, unfinished)

    def new_session(self, config: PlayConfig, game: Game | None = None) -> Session:
        """A session for ``config``, saved in the store (with the settings it was chosen with)."""
        if self.store is None:
            return Session(config, game)
        remember_setup(self.store, config)
        return start_saved(self.store, config, game)

    def start(self, config: PlayConfig) -> None:
        """Begin a game at this table, replacing the screen on top (setup, or a finished table)."""
        self.config = self.defaults = config
        self.switch_screen(self.table(self.new_session(config)))

    def on_setup_screen_start(self, message: SetupScreen.Start) -> None:
        self.start(message.config)

    def on_setup_screen_continue(self, message: SetupScreen.Continue) -> None:
        if self.store is None:
            return
        try:
            session = resume_saved(self.store, message.match_id)
        except (StoreError, RestoreError) as exc:
            self.notify(str(exc), severity="error")
            return
        self.config = self.defaults = session.config
        self.switch_screen(self.table(session))

    def on_table_screen_match_ended(self, message: TableScreen.MatchEnded) -> None:
        """The match-end screen closed: play again, set up a new game, or quit."""
        following = message.session.next_config()
        if message.choice == "again":
            self.start(following)
        elif message.choice == "new":
            self.switch_screen(self.setup_screen(following))
        else:
            self.exit()
