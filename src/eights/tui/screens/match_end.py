"""The match's end: the final table and the winners; play again, a new game, or quit."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Label, Static

from eights.table.phrases import cards_text, event_words_round, result_lines, sorted_hand
from eights.table.session import Session
from eights.tui.style import styled
from eights.words import count_words


class MatchEndScreen(Screen[str]):
    """The match's end: the final table, the winners; play again, a new game, or quit.

    Enter is not a key here (and no button has the focus, only the scrolling table): an Enter
    meant for the last card must not deal a new game over the final table.
    """

    AUTO_FOCUS = "#match-end"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "choose('again')", "Play again"),
        Binding("n", "choose('new')", "New game"),
        Binding("q,escape", "choose('quit')", "Quit"),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        session = self.session
        lines = result_lines(session)
        with VerticalScroll(id="match-end"):
            yield Label(lines[0], id="match-title")
            yield Static(final_table(session), id="match-totals")
            with Horizontal(id="match-buttons"):
                yield Button("Play again (a)", id="again", variant="primary", compact=True)
                yield Button("New game (n)", id="new", compact=True)
                yield Button("Quit (q)", id="quit", compact=True)
        yield Footer()

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "quit")

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)


def final_table(session: Session) -> Text:
    """The match's last word: how the last round ended, every seat's last hand (and points, and final
    total where score is kept), the winners starred."""
    game = session.game
    outcome = game.outcome
    last = game.last_round
    if outcome is None or last is None:
        return Text("\n".join(result_lines(session)[1:]))
    rules = session.rules
    labels = [session.label(seat) for seat in range(game.players)]
    width = max(len(label) for label in labels) + 2
    out = Text()
    rounds = count_words(outcome.rounds, "round")
    if rules.score_keeping:
        best = "lowest" if rules.lowest_wins else "highest"
        out.append(f"Final totals after {rounds} ({best} total wins).\n", "bold")
    else:
        out.append(f"No score is kept; {rounds} played.\n", "bold")
    out.append(event_words_round(last, session.names) + "\n\n")
    out.append(f"{'':<{width + 1}}", "bold")
    if rules.score_keeping:
        out.append(f"{'total':>6}{'last round':>12}   ", "bold")
    out.append("hand left\n", "bold")
    for seat, hand in enumerate(last.hands):
        won = seat in outcome.winners
        out.append(f"{'★ ' if won else '  '}{labels[seat]:<{width - 2}} ", "bold" if won else "")
        if rules.score_keeping:
            out.append(f"{outcome.totals[seat]:>6}", "bold" if won else "")
            out.append(f"{last.points[seat]:>+12}   ")
        out.append_text(styled(cards_text(sorted_hand(hand))))
        out.append("\n")
    out.append("★ ", "bold")
    out.append("won the match" if len(outcome.winners) == 1 else "share the win", "italic")
    return out
