"""A screenshot of the score sheet kept on a phone with no server (issue 30), for the README: opens
/scorecard once with the server up (the service worker keeps the page), stops the server, starts a derange
sheet and enters three rounds, all scored on the phone, and writes docs/scorecard-offline.png.

Run from the repository's root: ``.venv/bin/python scripts/scorecard_offline_screenshot.py``.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, PATIENCE, PHONE, LiveServer  # noqa: E402
from tests.web.test_browser_scorecard import ROUNDS, fill_new_sheet, fill_round, save  # noqa: E402
from tests.web.test_browser_scorecard_offline import open_once  # noqa: E402


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        server = LiveServer(Path(folder) / "shots.db")
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                page = browser.new_context(**PHONE).new_page()
                open_once(page, server.base)
                server.stop()
                page.reload()
                page.wait_for_selector("#preset-derange", timeout=PATIENCE * 1000)
                fill_new_sheet(page)
                for number, (out, hands) in enumerate(ROUNDS[:3], 1):
                    fill_round(page, out, hands)
                    save(page, number)
                page.evaluate("() => window.scrollTo(0, 0)")
                page.screenshot(path=str(ROOT / "docs" / "scorecard-offline.png"))
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
