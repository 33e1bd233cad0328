"""The web table's page: its weight, its first paint on a throttled phone, and the frames a card's flight drops.

Run from the repository root::

    .venv/bin/python bench/page.py            # JSON on stdout
    .venv/bin/python bench/page.py --runs 5   # first paint measured 5 times (the median and the worst)

``eights serve`` runs in a process of its own on a free port and a temporary database (tests/support/browser.py),
and Debian's Chromium is driven by Playwright. What is measured:

- ``weight``: the bytes of the table's HTML, JavaScript and CSS (index.html and every module and style
  sheet it loads, as served, uncompressed), and of the card back (back.svg); ``total_bytes`` their sum.
- ``first_paint_ms``: a room's page (``/r/CODE``, a game against the computer already dealt) opened in a
  fresh 390 × 844 phone context throttled through the Chrome DevTools Protocol to a "slow 4G" phone: 150 ms
  latency, 1.6 Mbit/s down, 750 kbit/s up (``Network.emulateNetworkConditions``) and a CPU 4× slower than
  this machine's (``Emulation.setCPUThrottlingRate``); the page's own ``first-contentful-paint``
  (Paint Timing) and the moment the table's first card is drawn (``table_drawn_ms``: the page's clock
  when ``#top-card .card`` first exists; the page is opened as a spectator, with no seat token). The
  goal is a first paint under 1 s.
- ``flight``: a card played from the hand flying to the pile, unthrottled: every animation frame's
  interval (``requestAnimationFrame``) while a ``.flying`` card is on the page, over ``--flights`` moves.
  ``frames`` seen, ``dropped`` (intervals longer than 1.5 frames of 60 Hz count the frames they skipped),
  and the longest interval in ms. Headless Chromium without a GPU composites in software, so a real
  phone's figures are its own.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, PATIENCE, PHONE, LiveServer, new_game  # noqa: E402

#: Collects requestAnimationFrame intervals while a card flies.
FRAMES = """() => {
  window.frames_ = [];
  let last = null;
  const tick = (now) => {
    if (document.querySelector(".flying")) { if (last !== null) window.frames_.push(now - last); last = now; }
    else last = null;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""


def weight(base: str) -> dict[str, Any]:
    """The bytes of the page and of everything it loads (modules followed through their imports)."""
    sizes: dict[str, int] = {}

    def get(path: str) -> str:
        with urllib.request.urlopen(base + path, timeout=PATIENCE) as answer:
            body: bytes = answer.read()
        sizes[path] = len(body)
        return body.decode()

    html = get("/")
    todo = re.findall(r'(?:src|href)="(/static/[^"]+)"', html)
    while todo:
        path = todo.pop()
        if path in sizes:
            continue
        text = get(path)
        if path.endswith(".js"):
            todo += [f"/static/{name}" for name in re.findall(r'from "\./([^"]+)"', text)]
    get("/static/back.svg")
    kinds = {"html": 0, "js": 0, "css": 0, "svg": 0}
    for path, size in sizes.items():
        kinds["html" if path == "/" else path.rsplit(".", 1)[-1]] += size
    return {"files": len(sizes), **{f"{k}_bytes": v for k, v in kinds.items()}, "total_bytes": sum(sizes.values())}


def first_paint(browser: Any, url: str) -> dict[str, float]:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 150, "downloadThroughput": 1.6e6 / 8, "uploadThroughput": 750e3 / 8},
    )
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    page.add_init_script(
        """new MutationObserver(() => {
             if (!window.tableDrawn && document.querySelector("#top-card .card")) window.tableDrawn = performance.now();
           }).observe(document, { childList: true, subtree: true });"""
    )
    page.goto(url)
    page.wait_for_function("() => window.tableDrawn", timeout=PATIENCE * 1000)
    fcp = page.evaluate("() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null")
    drawn = page.evaluate("() => window.tableDrawn")
    context.close()
    return {"first_paint_ms": round(fcp, 1), "table_drawn_ms": round(drawn, 1)}


def flights(browser: Any, base: str, moves: int) -> dict[str, Any]:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    new_game(page, base, "classic", 2, {})
    page.evaluate(FRAMES)
    for _ in range(moves):
        page.wait_for_function(
            """() => !document.querySelector("#table").classList.contains("busy")
               && document.querySelector("#seats .seat.turn")?.textContent.includes("(you)")
               && document.querySelector("#hand .card.marked, #moves button") !== null
               || document.querySelector("#dialog").open || !document.querySelector("#result").hidden""",
            timeout=PATIENCE * 1000,
        )
        if page.is_visible("#result"):
            break
        if page.is_visible("#dialog"):
            page.locator("#dialog .suit-choice, #dialog .move-choice, #dialog-close").first.click()
            continue
        page.locator("#hand .card.marked, #moves button").first.click()
        time.sleep(0.8)  # the flight, and the computer's reply flying too
    intervals: list[float] = page.evaluate("() => window.frames_")
    context.close()
    frame = 1000 / 60
    dropped = sum(max(0, round(gap / frame) - 1) for gap in intervals if gap > 1.5 * frame)
    return {
        "frames": len(intervals),
        "dropped": dropped,
        "longest_ms": round(max(intervals, default=0), 1),
        "median_ms": round(statistics.median(intervals), 1) if intervals else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="first paints measured (default 3)")
    parser.add_argument("--flights", type=int, default=8, help="moves whose flights are watched (default 8)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        server = LiveServer(Path(folder) / "bench.db", pace=0.05)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                setup = browser.new_page(**PHONE)
                code = new_game(setup, server.base, "classic", 3, {})
                setup.close()
                paints = [first_paint(browser, f"{server.base}/r/{code}") for _ in range(args.runs)]
                result = {
                    "weight": weight(server.base),
                    "first_paint_ms": {
                        "median": statistics.median(p["first_paint_ms"] for p in paints),
                        "worst": max(p["first_paint_ms"] for p in paints),
                    },
                    "table_drawn_ms": {
                        "median": statistics.median(p["table_drawn_ms"] for p in paints),
                        "worst": max(p["table_drawn_ms"] for p in paints),
                    },
                    "throttling": {"latency_ms": 150, "down_kbit": 1600, "up_kbit": 750, "cpu_slowdown": 4},
                    "flight": flights(browser, server.base, args.flights),
                }
                browser.close()
        finally:
            server.stop()
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
