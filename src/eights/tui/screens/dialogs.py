"""The choices the rules ask for, as dialogs that offer only the legal actions."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from eights.cards import Card
from eights.engine import Action, NameSuit, Play, View
from eights.engine.actions import Bury, ChoosePlayer
from eights.table.phrases import sorted_hand
from eights.table.session import Session
from eights.tui.style import card_style, styled
from eights.tui.widgets import NUMBER_KEYS
from eights.words import count_words


class ChoiceDialog(ModalScreen[Action]):
    """A choice the rules ask for now. One button per legal action; number keys pick too."""

    def __init__(self, title: str, explanation: str, options: list[tuple[Text | str, Action]]) -> None:
        super().__init__()
        self.title_text = title
        self.explanation = explanation
        self.options = options
        #: Extra keys (a letter) for some options.
        self.keys: dict[str, Action] = {}

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(self.title_text, id="dialog-title")
            yield Static(styled(self.explanation), id="dialog-text")
            with VerticalScroll(id="dialog-choices"):
                for i, (label, _) in enumerate(self.options):
                    key = NUMBER_KEYS[i] if i < 9 else ""
                    text = Text(f"{key}. " if key else "")
                    text.append_text(label if isinstance(label, Text) else styled(label))
                    yield Button(text, id=f"choice-{i}", classes="choice", compact=True)

    @on(Button.Pressed, ".choice")
    def chose(self, event: Button.Pressed) -> None:
        assert event.button.id is not None
        self.dismiss(self.options[int(event.button.id.removeprefix("choice-"))][1])

    def on_key(self, event: Any) -> None:
        character = (event.character or "").lower()
        if character in self.keys:
            event.stop()
            self.dismiss(self.keys[character])
        elif character.isdigit() and 1 <= int(character) <= min(9, len(self.options)):
            event.stop()
            self.dismiss(self.options[int(character) - 1][1])


class SuitDialog(ChoiceDialog):
    """Name a suit after a wild (keys C, D, H, S)."""

    def __init__(self, view: View) -> None:
        options: list[tuple[Text | str, Action]] = []
        for action in view.legal:
            if isinstance(action, NameSuit):
                suit = action.suit
                options.append((Text(f"{suit.symbol} {suit.name.capitalize()}", card_style(Card.of(1, suit))), action))
        super().__init__(
            "Name a suit",
            f"You played {view.top.pretty()}: the next player must follow the suit you name (or play a wild). "
            "Keys: C, D, H, S.",
            options,
        )
        self.keys = {a.suit.letter.lower(): a for _, a in options if isinstance(a, NameSuit)}


class PlayerDialog(ChoiceDialog):
    """Choose a player for a 5 (anyone draws) or a 7 (swap a random card with an opponent)."""

    def __init__(self, view: View, session: Session) -> None:
        options: list[tuple[Text | str, Action]] = []
        for action in view.legal:
            if isinstance(action, ChoosePlayer):
                seat = action.seat
                who = "yourself" if seat == view.seat else session.label(seat)
                options.append((f"{who}: {count_words(view.hand_counts[seat], 'card')}", action))
        if view.phase == "choose_draw":
            title = "Who draws?"
            text = f"You played {view.top.pretty()}: choose any player, yourself included, to draw."
        else:
            title = "Swap with whom?"
            text = (
                f"You played {view.top.pretty()}: choose an opponent; you each take one random card from the "
                "other's hand, unseen."
            )
        super().__init__(title, text, options)


class JackDialog(ChoiceDialog):
    """A queen was played: drop your jacks one at a time; pick the next one."""

    def __init__(self, view: View) -> None:
        options: list[tuple[Text | str, Action]] = [
            (f"drop {a.card.pretty()}", a) for a in view.legal if isinstance(a, Play)
        ]
        super().__init__(
            "Drop your jacks",
            "A queen was played: every player drops all their jacks, in turn order. Pick which jack you drop next; "
            "the last jack dropped is the card the next player must match.",
            options,
        )


class BuryDialog(ChoiceDialog):
    """Four in a row: bury one card of your choice under the discard pile."""

    def __init__(self, view: View) -> None:
        buries = {a.card: a for a in view.legal if isinstance(a, Bury)}
        options: list[tuple[Text | str, Action]] = [
            (f"bury {card.pretty()}", buries[card]) for card in sorted_hand(buries)
        ]
        super().__init__(
            "Four in a row: bury a card",
            "Four of one number in a row! Starting with the player who laid the fourth, everyone puts one card of "
            "their choice under the discard pile; the first whose hand empties is out and wins.",
            options,
        )


class ConfirmDialog(ModalScreen[bool]):
    """A yes-or-no question (y or Enter: yes; n or Escape: no)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, title: str, explanation: str, yes: str, no: str) -> None:
        super().__init__()
        self.title_text = title
        self.explanation = explanation
        self.yes = yes
        self.no = no

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(self.title_text, id="dialog-title")
            yield Static(styled(self.explanation), id="dialog-text")
            with Horizontal(id="dialog-buttons"):
                yield Button(f"{self.yes} (y)", id="yes", variant="warning", compact=True)
                yield Button(f"{self.no} (n)", id="no", variant="primary", compact=True)

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
