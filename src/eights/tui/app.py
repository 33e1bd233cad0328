"""The Textual app behind ``eights play``."""

from __future__ import annotations

from typing import ClassVar

from textual.app import App
from textual.binding import Binding, BindingType
from textual.reactive import reactive

from eights.engine import Game
from eights.tui.screens import SetupScreen, TableScreen
from eights.tui.session import DEFAULT_SPEED, PlayConfig, Session


class EightsApp(App[None]):
    """Crazy Eights at the terminal: a new-game screen, then the table.

    ``config`` None opens the new-game screen (prefilled from ``defaults``); ``game``
    replaces the first game's deal (tests and puzzles).
    """

    CSS_PATH = "eights.tcss"
    TITLE = "Crazy Eights"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+q", "quit", "Quit", show=False)]

    #: Computer pacing, 1 (slow) to 5 (no pause); + and - change it.
    speed: reactive[int] = reactive(DEFAULT_SPEED)

    def __init__(
        self, config: PlayConfig | None = None, *, defaults: PlayConfig | None = None, game: Game | None = None
    ) -> None:
        super().__init__()
        self.config = config
        self.defaults = defaults or config
        self._first_game = game
        if config is not None:
            self.speed = config.speed
        elif defaults is not None:
            self.speed = defaults.speed

    def on_mount(self) -> None:
        if self.config is None:
            self.push_screen(SetupScreen(self.defaults))
        else:
            self.push_screen(TableScreen(Session(self.config, self._first_game)))
            self._first_game = None

    def start(self, config: PlayConfig) -> None:
        """Begin a game at this table, replacing the screen on top (setup, or a finished table)."""
        self.config = self.defaults = config
        self.speed = config.speed
        self.switch_screen(TableScreen(Session(config)))

    def after_match(self, choice: str) -> None:
        """The match-end screen closed: play again, set up a new game, or quit."""
        if choice == "again" and self.config is not None:
            self.start(self.config.again())
        elif choice == "new":
            self.switch_screen(SetupScreen(self.config))
        else:
            self.exit()
