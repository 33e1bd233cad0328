"""A round's end: every hand, points, running totals and the next deal."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from eights.engine.events import RoundOver, RoundStarted
from eights.table.phrases import cards_text, round_lines, sorted_hand
from eights.table.session import Session
from eights.tui.style import styled


def score_table(names: tuple[str, ...], event: RoundOver, scored: bool) -> Text:
    """Every hand at a round's end, with points and running totals."""
    out = Text()
    width = max(len(n) for n in names) + 2
    out.append(f"{'':<{width + 1}}", "bold")
    if scored:
        out.append(f"{'points':>8}{'total':>8}   ", "bold")
    out.append("hand\n", "bold")
    for seat, hand in enumerate(event.hands):
        mark = "★ " if seat in event.winners else "  "
        out.append(f"{mark}{names[seat]:<{width - 2}} ", "bold" if seat in event.winners else "")
        if scored:
            out.append(f"{event.points[seat]:>+8}{event.totals[seat]:>8}   ")
        out.append_text(styled(cards_text(sorted_hand(hand))))
        out.append("\n")
    return out


class RoundEndScreen(ModalScreen[None]):
    """A round's end: every hand shown, points, running totals, the next deal."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,space", "next", "Next round")]

    def __init__(self, session: Session, event: RoundOver, following: RoundStarted | None) -> None:
        super().__init__()
        self.session = session
        self.event = event
        self.following = following

    def compose(self) -> ComposeResult:
        names = self.session.names
        scored = self.session.rules.score_keeping
        lines = round_lines(self.event, names, self.following, scored)
        with VerticalScroll(id="round-end"):
            yield Label(lines[0], id="round-title")
            yield Static(score_table(names, self.event, scored), id="round-table")
            if self.following is not None:
                yield Static(lines[-1], id="round-next")
            yield Button("Next round (Enter)", id="next", variant="primary", compact=True)

    @on(Button.Pressed, "#next")
    def action_next(self) -> None:
        self.dismiss(None)
