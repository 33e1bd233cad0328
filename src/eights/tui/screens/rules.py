"""The rules of the game being played, in plain words."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Label, Static

from eights.rules import RuleSet
from eights.rules.describe import describe, heading
from eights.tui.style import styled


class RulesScreen(ModalScreen[None]):
    """The rules of the game being played, in plain words."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,question_mark,enter", "close", "Close")]

    def __init__(self, rules: RuleSet) -> None:
        super().__init__()
        self.rules = rules

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="rules"):
            yield Label(heading(self.rules), id="rules-title")
            for section in describe(self.rules):
                yield Label(section.title, classes="rules-section")
                for line in section.lines:
                    yield Static(styled("• " + line), classes="rules-line")
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)
