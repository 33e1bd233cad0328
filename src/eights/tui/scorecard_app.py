"""The Textual app behind ``eights scorecard``: the list of sheets (or a new one), then the sheet.

The screens post ``SheetsScreen.Open`` and ``SheetScreen.Leave``; the app moves between them.
Every change on a sheet is saved in the store as it is made.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import App
from textual.binding import Binding, BindingType

from eights.store import StoreError
from eights.store.sheets import Sheets
from eights.tui.screens.scorecard import SheetScreen, SheetsScreen


class ScorecardApp(App[None]):
    """Score sheets at the terminal. ``sheet_id`` opens that sheet at once; otherwise the list comes first."""

    TITLE = "Score sheets"
    CSS_PATH = "dialogs.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+q", "quit", "Quit", show=False)]

    def __init__(self, sheets: Sheets, sheet_id: int | None = None) -> None:
        super().__init__()
        self.sheets = sheets
        self.first_sheet = sheet_id

    def on_mount(self) -> None:
        if self.first_sheet is not None:
            self.push_screen(SheetScreen(self.sheets, self.first_sheet))
        else:
            self.push_screen(SheetsScreen(self.sheets))

    def on_sheets_screen_open(self, message: SheetsScreen.Open) -> None:
        try:
            screen = SheetScreen(self.sheets, message.sheet_id)
        except StoreError as exc:  # a sheet that no longer reads, a database gone away
            if isinstance(self.screen, SheetsScreen):
                self.screen.show_error(f"Not opened: {exc}")
            return
        self.switch_screen(screen)

    def on_sheet_screen_leave(self, message: SheetScreen.Leave) -> None:
        self.switch_screen(SheetsScreen(self.sheets))
