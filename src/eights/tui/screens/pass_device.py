"""Hot-seat: the screen that hides the hands while the device passes to the next person."""

from __future__ import annotations

from typing import ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Button, Footer, Label, Static


class PassDeviceScreen(Screen[None]):
    """Hot-seat: the hands are hidden while the device passes to the next person.

    A key pressed to hurry the computers along, or held down, must not show the next person's hand to
    whoever is at the keyboard: the screen ignores every key until the keyboard has been quiet for
    ``ARM_DELAY`` seconds (each ignored key starts the wait again), and then only a key pressed after
    that counts: keys typed earlier but delivered late (a busy machine) are ignored by their time stamp.
    Only Enter (or a click on the button, which stays disabled until then) shows the hand.
    """

    #: Seconds of quiet before the screen takes a key: longer than the pause before a held key starts
    #: repeating (660 ms by default under X11, 500 ms on Windows and GNOME), so a held Enter never gets through.
    ARM_DELAY = 1.0
    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "ready", "Show my hand")]

    #: When the screen began taking keys, on Textual's event clock; None while it ignores them.
    armed_at: reactive[float | None] = reactive(None, init=False)

    def __init__(self, name: str) -> None:
        super().__init__()
        self.person = name
        self._arming: Timer | None = None

    @property
    def armed(self) -> bool:
        return self.armed_at is not None

    def compose(self) -> ComposeResult:
        with Vertical(id="pass"):
            yield Label(f"Pass the device to {self.person}", id="pass-title")
            yield Static(self.words(), id="pass-text")
            yield Button(f"I am {self.person}: show my hand", id="ready", variant="primary", disabled=True)
        yield Footer()

    def words(self) -> str:
        if self.armed:
            return (
                f"The hands are hidden. {self.person}: press Enter (or click the button) when you are at the "
                "keyboard and the others cannot see the screen."
            )
        return (
            f"The hands are hidden. Pass the device to {self.person}, who presses Enter when the others cannot "
            "see the screen."
        )

    def on_mount(self) -> None:
        self.disarm()

    def disarm(self) -> None:
        """Ignore keys until the keyboard has been quiet for ``ARM_DELAY`` seconds."""
        self.armed_at = None
        if self._arming is not None:
            self._arming.stop()
        self._arming = self.set_timer(self.ARM_DELAY, self.arm)

    def arm(self) -> None:
        self.armed_at = Message().time  # now, on the clock Textual stamps every key with

    def watch_armed_at(self) -> None:
        self.query_one("#pass-text", Static).update(self.words())
        self.query_one("#ready", Button).disabled = not self.armed
        self.refresh_bindings()

    def on_key(self, event: events.Key) -> None:
        if self.armed_at is None or event.time < self.armed_at:
            # Typed before the screen was ready (or while it waited): not meant for it.
            event.stop()
            event.prevent_default()
            self.disarm()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.armed if action == "ready" else True

    @on(Button.Pressed, "#ready")
    def action_ready(self) -> None:
        if self.armed:
            self.dismiss(None)
