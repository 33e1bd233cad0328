"""Screenshots of the app that plays with no server, installed on a phone and offline, for the docs: a game
of derange against the computer mid-match (docs/app-table.png), then the home page opened again with that
game to continue (docs/app-home.png).

Starts ``eights serve`` on a temporary database (it builds the app; the runtime comes from npm once, see
the README), opens /app/ once online in Debian's Chromium with a profile on disk, as a phone's browser
has, then stops the server and cuts the network, as the browser tests do (tests/web/test_browser_app.py).
Run from the repository's root: ``.venv/bin/python scripts/app_screenshots.py``.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, PATIENCE, PHONE, LiveServer  # noqa: E402
from tests.web.test_browser_app import play_to_end, start_game  # noqa: E402

DOCS = ROOT / "docs"
WAIT = PATIENCE * 1000


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="eights-app-shots-"))
    server = LiveServer(folder / "served.db")
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            folder / "profile", executable_path=CHROMIUM, args=CHROMIUM_ARGS, **PHONE
        )
        try:
            page = context.new_page()
            page.goto(server.base + "/app/")
            page.wait_for_selector("#new-game", state="visible", timeout=WAIT)
            page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=WAIT)
            server.stop()
            context.set_offline(True)
            page.reload()
            page.wait_for_selector("#new-game", state="visible", timeout=WAIT)
            start_game(page, "derange", 3, {}, ["normal", "hard"])
            play_to_end(page, moves=4)
            page.wait_for_timeout(800)
            page.screenshot(path=str(DOCS / "app-table.png"))
            page.close()
            page = context.new_page()
            page.goto(server.base + "/app/")
            page.wait_for_selector("#saved-games .continue", state="visible", timeout=WAIT)
            page.wait_for_timeout(300)
            page.screenshot(path=str(DOCS / "app-home.png"))
        finally:
            context.close()
            server.stop()
    print("wrote docs/app-table.png and docs/app-home.png")


if __name__ == "__main__":
    main()
