"""Screenshots of the web table for the docs: a table mid-game on a phone and on a desktop, a table of
eight on a 320 px phone, and a room's lobby with a friend seated.

Starts ``eights serve`` on a temporary database and drives Debian's Chromium with Playwright, as the
browser tests do (tests/browser.py), and writes docs/web-phone.png, docs/web-desktop.png,
docs/web-eight.png and docs/web-lobby.png. Run from the repository's root:
``.venv/bin/python scripts/web_screenshots.py``.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import Browser, Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.browser import CHROMIUM, CHROMIUM_ARGS, DESKTOP, PATIENCE, PHONE, LiveServer, new_game  # noqa: E402

DOCS = ROOT / "docs"


#: This seat is to act, with no move of its own on the way.
MY_TURN = """() => !document.querySelector("#table").classList.contains("busy")
    && document.querySelector("#seats .seat.turn")?.textContent.includes("(you)")
    && document.querySelector("#hand .card.marked, #moves button") !== null"""


def my_turn(page: Page) -> None:
    """Wait until it is this seat's turn, answering a dialog on the way (a round's end is closed, a suit
    named)."""
    while True:
        page.wait_for_function(
            f"() => ({MY_TURN[6:]}) || document.querySelector('#dialog').open", timeout=PATIENCE * 1000
        )
        if not page.is_visible("#dialog"):
            return
        page.locator("#dialog .suit-choice, #dialog .move-choice, #dialog-close").first.click()
        time.sleep(0.3)


def play(page: Page, moves: int) -> None:
    """Make at least ``moves`` moves (a marked card when there is one, else the first move; a dialog's
    first choice), then more until a card of the hand is marked as playable."""
    for done in range(moves + 20):
        my_turn(page)
        if done >= moves and page.query_selector("#hand .card.marked"):
            break
        page.locator("#hand .card.marked, #moves button").first.click(timeout=PATIENCE * 1000)
        time.sleep(0.3)
        if page.is_visible("#dialog .suit-choice, #dialog .move-choice"):
            page.click("#dialog .suit-choice, #dialog .move-choice")
    time.sleep(0.6)  # the last card's flight lands


def lobby(browser: Browser, base: str) -> None:
    """The host's room with a friend seated (the friend on a phone), as the host sees it."""
    host = browser.new_page(**DESKTOP)
    host.goto(f"{base}/")
    host.fill("#name", "Ann")
    host.select_option("#new-players", "3")
    host.click("#new-room")
    host.wait_for_selector("#lobby-code:not(:empty)")
    code = host.text_content("#lobby-code")
    friend = browser.new_page(**PHONE)
    friend.goto(f"{base}/r/{code}")
    friend.fill("#sit-name", "Bea")
    friend.click("#sit-1")
    friend.wait_for_selector("#lobby-device")
    host.select_option("#room-seat-2", "hard")
    host.wait_for_function("() => !document.querySelector('#start').disabled")
    host.wait_for_load_state("networkidle")
    host.screenshot(path=str(DOCS / "web-lobby.png"))


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        server = LiveServer(Path(folder) / "shots.db", pace=0.2)
        base = server.base
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                phone = browser.new_page(**PHONE, color_scheme="dark")  # the desktop in the light theme
                new_game(phone, base, "action", 4, {"stacking": "true"}, level=None)
                play(phone, 2)
                phone.screenshot(path=str(DOCS / "web-phone.png"))
                desktop = browser.new_page(**DESKTOP, color_scheme="light")
                new_game(desktop, base, "classic", 4, {"score_keeping": "true", "target": "100"}, level=None)
                play(desktop, 3)
                desktop.keyboard.press("h")  # a hint, to show it
                desktop.wait_for_selector("#hint-line:not([hidden])")
                desktop.screenshot(path=str(DOCS / "web-desktop.png"))
                eight = browser.new_page(**{**PHONE, "viewport": {"width": 320, "height": 700}}, color_scheme="dark")
                new_game(eight, base, "action", 8, {}, level="easy")
                play(eight, 2)
                eight.screenshot(path=str(DOCS / "web-eight.png"), full_page=True)
                lobby(browser, base)
                browser.close()
        finally:
            server.stop()
    print(f"wrote {', '.join(f'docs/web-{n}.png' for n in ('phone', 'desktop', 'eight', 'lobby'))}", file=sys.stderr)


if __name__ == "__main__":
    main()
