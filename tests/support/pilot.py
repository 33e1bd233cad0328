"""The terminal game (eights.tui.app) driven by Textual's Pilot in the tests: an app run with a script, a
wait for a state, the table screen and what it says, and a computer that thinks until a test lets it answer."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from typing import Any

from textual.pilot import Pilot

from eights.bots import Hint
from eights.engine import Action, Game, View
from eights.table.session import PlayConfig
from eights.tui.app import EightsApp
from eights.tui.screens.table import TableScreen
from eights.tui.widgets import GameLog

#: The table's speed with no pause between computer moves (``PlayConfig.speed``).
INSTANT = 5


def run_app(
    app: EightsApp,
    script: Callable[[Pilot[None]], Coroutine[Any, Any, None]],
    size: tuple[int, int] = (130, 45),
) -> None:
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(main())


async def until(pilot: Pilot[None], condition: Callable[[], bool], limit: int = 3000) -> None:
    """Wait for the app (computers think in worker threads, so real time passes too)."""
    for _ in range(limit):
        if condition():
            return
        await pilot.pause(0.002)
    raise AssertionError("the app never reached the expected state")


def table(app: EightsApp) -> TableScreen:
    return next(s for s in reversed(app.screen_stack) if isinstance(s, TableScreen))


def scripted_app(game: Game, seats: tuple[str, ...]) -> EightsApp:
    return EightsApp(PlayConfig(game.rules, seats, seed=0, speed=INSTANT), game=game)


def log_text(screen: TableScreen) -> str:
    return "\n".join(line.text for line in screen.query_one(GameLog).lines)


def log_words(screen: TableScreen) -> str:
    """The narration as one text, its lines unwrapped."""
    return " ".join(log_text(screen).split())


def message(screen: TableScreen) -> str:
    return str(screen.query_one("#message").render())


def human_turn(app: EightsApp) -> bool:
    screen = app.screen
    if not isinstance(screen, TableScreen):
        return False
    game = screen.session.game
    return not game.is_over and game.to_act == screen.viewer


class HeldBot:
    """A computer that thinks until the test lets it answer: the first legal action."""

    name = "held"

    def __init__(self) -> None:
        self.go = threading.Event()
        self.thinking = threading.Event()

    def choose(self, view: View) -> Action:
        self.thinking.set()
        self.go.wait(10)
        return view.legal[0]

    def hint(self, view: View) -> Hint:
        return Hint(view.legal[0], "the first legal move")
