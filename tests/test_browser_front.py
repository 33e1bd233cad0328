"""The front door in a real browser against a real server (tests/browser.py): the home page and the lobby on
a phone and a desktop, Continue for a game left through the home page, and a server whose installed files
are pulled from under it (a reinstall while it runs)."""

from __future__ import annotations

import shutil
import urllib.request
from pathlib import Path
from typing import Any

from tests.browser import PATIENCE, PHONE, LiveServer


def fetched(url: str, etag: str | None = None) -> tuple[int, bytes, str | None]:
    request = urllib.request.Request(url, headers={"If-None-Match": etag} if etag else {})
    try:
        with urllib.request.urlopen(request, timeout=PATIENCE) as answer:
            return answer.status, answer.read(), answer.headers.get("ETag")
    except urllib.error.HTTPError as answer:
        return answer.code, answer.read(), answer.headers.get("ETag")


def test_a_reinstall_while_the_server_runs_breaks_no_page(chromium: Any, tmp_path: Path) -> None:
    """The server runs from an installed copy of the package; a reinstall removes its files and writes them
    again (here: removed, and one written back changed). Every page and file is served as before, the page
    still plays, and a browser's copy is confirmed by its ETag (304) instead of sent again."""
    installed = tmp_path / "site" / "eights"
    shutil.copytree(Path(__file__).parent.parent / "src" / "eights", installed)
    server = LiveServer(tmp_path / "served.db", source=installed)
    try:
        status, page, _ = fetched(f"{server.base}/")
        assert status == 200
        status, script, etag = fetched(f"{server.base}/static/app.js")
        assert status == 200 and etag
        shutil.rmtree(installed / "web" / "static")  # the reinstall's uninstall, mid-way
        assert fetched(f"{server.base}/")[:2] == (200, page)
        assert fetched(f"{server.base}/static/app.js")[:2] == (200, script)
        assert fetched(f"{server.base}/static/app.js", etag)[0] == 304
        assert fetched(f"{server.base}/static/nothing.js")[0] == 404
        context = chromium.new_context(**PHONE)
        try:
            browser_page = context.new_page()
            browser_page.goto(f"{server.base}/")
            browser_page.fill("#name", "Ann")
            browser_page.click("#play-now")
            browser_page.wait_for_selector("#hand .card", timeout=PATIENCE * 1000)
        finally:
            context.close()
    finally:
        server.stop()
