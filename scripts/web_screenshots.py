"""Screenshots of the web table for the docs: the home page on a phone and on a desktop (with a game to
Continue), a table mid-game on a phone and on a desktop, a table of eight on a 320 px phone, a room's lobby
with a friend seated (the host's on a desktop and a phone, the friend's phone), and a match's review on a
phone.

Starts ``eights serve`` on a temporary database and drives Debian's Chromium with Playwright, as the
browser tests do (tests/support/browser.py), and writes docs/web-home-phone.png, docs/web-home-desktop.png,
docs/web-phone.png, docs/web-desktop.png, docs/web-eight.png, docs/web-lobby.png, docs/web-lobby-phone.png,
docs/web-lobby-friend.png and docs/review.png. Run from the repository's root:
``.venv/bin/python scripts/web_screenshots.py`` (all of them), or name some: ``... review lobby home``.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import Browser, Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, DESKTOP, PATIENCE, PHONE, LiveServer, new_game  # noqa: E402

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


def home(browser: Browser, base: str) -> None:
    """The home page: on a phone as a newcomer first sees it (dark theme), and on a desktop with a game
    against the computer left through the home page, offered again (Continue)."""
    phone = browser.new_page(**PHONE, color_scheme="dark")
    phone.goto(f"{base}/")
    phone.wait_for_selector("#home .preset")
    phone.screenshot(path=str(DOCS / "web-home-phone.png"))
    desktop = browser.new_page(**DESKTOP, color_scheme="light")
    new_game(desktop, base, "derange", 3, {}, level=None)
    desktop.click(".brand")
    desktop.wait_for_selector("#continue:not([hidden])")
    desktop.screenshot(path=str(DOCS / "web-home-desktop.png"))


def lobby(browser: Browser, base: str) -> None:
    """The host's room with a friend seated (the friend on a phone), as the host sees it on a desktop and on
    a phone, and as the friend's phone shows it."""
    host_phone = browser.new_page(**PHONE, color_scheme="dark")
    host_phone.goto(f"{base}/")
    host_phone.fill("#name", "Ann")
    host_phone.click("#new-room")
    host_phone.wait_for_selector("#lobby-code:not(:empty)")
    host_phone.wait_for_load_state("networkidle")
    host_phone.screenshot(path=str(DOCS / "web-lobby-phone.png"))
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
    friend.screenshot(path=str(DOCS / "web-lobby-friend.png"))
    host.select_option("#room-seat-2", "hard")
    host.wait_for_function("() => !document.querySelector('#start').disabled")
    host.wait_for_load_state("networkidle")
    host.screenshot(path=str(DOCS / "web-lobby.png"))


def review(browser: Browser, base: str) -> None:
    """A match against an easy computer played to its end (a marked card when there is one, else the first
    move), with a win thrown once (a draw instead of going out with the last card: a mistake to show), then
    its review on a phone at that mistake. A match the computer wins first is played again (a rematch)."""
    page = browser.new_page(**PHONE, color_scheme="dark")
    new_game(page, base, "classic", 2, {})
    threw = False
    for _ in range(6):
        while page.is_hidden("#result") or page.is_visible("#dialog"):
            page.wait_for_function(
                f"() => ({MY_TURN[6:]}) || document.querySelector('#dialog').open"
                " || !document.querySelector('#result').hidden",
                timeout=PATIENCE * 1000,
            )
            if page.is_visible("#dialog"):
                page.locator("#dialog .suit-choice, #dialog .move-choice, #dialog-close").first.click()
            elif page.is_hidden("#result"):
                last = page.locator("#hand .card").count() == 1 and page.locator("#hand .card.marked").count() == 1
                if last and not threw and page.locator("#move-draw").count():
                    threw = True
                    page.click("#move-draw")
                else:
                    page.locator("#hand .card.marked, #moves button").first.click()
            time.sleep(0.2)
        if threw:
            break
        page.click("#rematch")
        page.wait_for_function("() => document.querySelector('#result').hidden")
    page.click("#review-button")
    page.wait_for_function("() => !document.querySelector('#review').hidden", timeout=PATIENCE * 6000)
    if not page.is_disabled("#review-mistake"):
        page.click("#review-mistake")
    time.sleep(0.3)
    page.screenshot(path=str(DOCS / "review.png"), full_page=True)


def main(only: set[str]) -> None:
    wrote = []
    with tempfile.TemporaryDirectory() as folder:
        server = LiveServer(Path(folder) / "shots.db", pace=0.2)
        base = server.base
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                if not only or "home" in only:
                    home(browser, base)
                    wrote += ["web-home-phone", "web-home-desktop"]
                if not only or "phone" in only:
                    phone = browser.new_page(**PHONE, color_scheme="dark")  # the desktop in the light theme
                    new_game(phone, base, "action", 4, {"stacking": "true"}, level=None)
                    play(phone, 2)
                    phone.screenshot(path=str(DOCS / "web-phone.png"))
                    wrote.append("web-phone")
                if not only or "desktop" in only:
                    desktop = browser.new_page(**DESKTOP, color_scheme="light")
                    new_game(desktop, base, "classic", 4, {"score_keeping": "true", "target": "100"}, level=None)
                    play(desktop, 3)
                    desktop.keyboard.press("h")  # a hint, to show it
                    desktop.wait_for_selector("#hint-line:not([hidden])")
                    desktop.screenshot(path=str(DOCS / "web-desktop.png"))
                    wrote.append("web-desktop")
                if not only or "eight" in only:
                    narrow = {**PHONE, "viewport": {"width": 320, "height": 700}}
                    eight = browser.new_page(**narrow, color_scheme="dark")
                    new_game(eight, base, "action", 8, {}, level="easy")
                    play(eight, 2)
                    eight.screenshot(path=str(DOCS / "web-eight.png"), full_page=True)
                    wrote.append("web-eight")
                if not only or "lobby" in only:
                    lobby(browser, base)
                    wrote += ["web-lobby", "web-lobby-phone", "web-lobby-friend"]
                if not only or "review" in only:
                    review(browser, base)
                    wrote.append("review")
                browser.close()
        finally:
            server.stop()
    print(f"wrote {', '.join(f'docs/{name}.png' for name in wrote)}", file=sys.stderr)


if __name__ == "__main__":
    main(set(sys.argv[1:]))
