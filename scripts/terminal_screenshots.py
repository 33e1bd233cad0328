"""Screenshots of the terminal game for the docs: the new-game screen and a table mid-game.

Textual draws each screen as SVG; Chromium (Debian's ``chromium``) turns it into a PNG.
Run from the repository's root: ``.venv/bin/python scripts/terminal_screenshots.py``;
it writes docs/new-game.png and docs/table.png.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from eights.bots import make_bot
from eights.engine import Game, view
from eights.table import PlayConfig, build_config
from eights.tui.app import EightsApp
from eights.tui.screens.table import TableScreen

DOCS = Path(__file__).resolve().parent.parent / "docs"
SIZE = (120, 40)


async def shoot(app: EightsApp, ready: object, folder: Path, name: str) -> Path:
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(2000):
            if ready(app):  # type: ignore[operator]
                break
            await pilot.pause(0.01)
        await pilot.pause(0.3)
        return Path(app.save_screenshot(filename=f"{name}.svg", path=str(folder)))


def to_png(svg: Path, png: Path) -> None:
    browser = shutil.which("chromium") or "/usr/bin/chromium"
    html = svg.with_suffix(".html")
    html.write_text(f"<html><body style='margin:0;background:#1e1e1e'>{svg.read_text()}</body></html>")
    subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--screenshot={png}",
            "--window-size=1480,1040",
            html.as_uri(),
        ],
        check=True,
        capture_output=True,
    )


def mid_game(config: PlayConfig) -> Game:
    """The match a few turns in, at Ann's turn: every seat played by the normal player so far."""
    game = Game(config.rules, config.players, config.seed)
    players = [make_bot("normal", seat) for seat in range(config.players)]
    while len(game.actions) < 40 or game.to_act != 0:
        game.play(players[game.to_act].choose(view(game, game.to_act)), game.to_act)
    return game


def your_turn(app: EightsApp) -> bool:
    screen = app.screen
    return isinstance(screen, TableScreen) and screen.session.game.to_act == 0


async def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        where = Path(folder)
        setup = await shoot(EightsApp(defaults=build_config("derange", players=4)), lambda a: True, where, "setup")
        to_png(setup, DOCS / "new-game.png")
        config = build_config("derange", players=4, bots="normal", seed=12, speed=5, names="Ann")
        table = await shoot(EightsApp(config, game=mid_game(config)), your_turn, where, "table")
        to_png(table, DOCS / "table.png")
    print(f"wrote {DOCS / 'new-game.png'} and {DOCS / 'table.png'}", file=sys.stderr)


if __name__ == "__main__":
    asyncio.run(main())
