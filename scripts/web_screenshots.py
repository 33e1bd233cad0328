"""Screenshots of the web table for the docs: a game against the computer on a phone and on a desktop.

Starts ``eights serve`` on a temporary database, drives Debian's Chromium with Playwright, and
writes docs/web-phone.png and docs/web-desktop.png. Run from the repository's root:
``.venv/bin/python scripts/web_screenshots.py``.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

DOCS = Path(__file__).resolve().parent.parent / "docs"
PORT = 8766
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def play_a_few(page: Page, moves: int) -> None:
    """Start a derange game against the computer and make ``moves`` moves (a card when one plays)."""
    page.goto(f"http://127.0.0.1:{PORT}/")
    page.fill("#name", "Ann")
    page.select_option("#preset", "derange")
    page.click("#play-computer")
    for _ in range(moves):
        page.wait_for_selector("#hand button.playable, #moves button", timeout=30_000)
        playable = page.query_selector("#hand button.playable")
        (playable or page.query_selector("#moves button")).click()  # type: ignore[union-attr]
        time.sleep(0.8)
    page.wait_for_selector("#hand button.playable, #moves button", timeout=30_000)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "eights.cli",
                "serve",
                "--port",
                str(PORT),
                "--pace",
                "0.1",
                "--db",
                str(Path(folder) / "shots.db"),
            ]
        )
        try:
            time.sleep(3)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
                phone = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
                play_a_few(phone, 3)
                phone.screenshot(path=str(DOCS / "web-phone.png"), full_page=True)
                desktop = browser.new_page(viewport={"width": 1280, "height": 800})
                play_a_few(desktop, 5)
                desktop.screenshot(path=str(DOCS / "web-desktop.png"), full_page=True)
                browser.close()
        finally:
            server.terminate()
            server.wait(10)
    print(f"wrote {DOCS / 'web-phone.png'} and {DOCS / 'web-desktop.png'}", file=sys.stderr)


if __name__ == "__main__":
    main()
