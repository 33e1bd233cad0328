"""The app that plays with no server (issue 39): its first paint, its bytes, its time to a dealt table, and a
hard computer's decisions in the browser's Python.

Run from the repository root::

    .venv/bin/python bench/app.py            # JSON on stdout
    .venv/bin/python bench/app.py --runs 5   # first paint and time to the table measured 5 times

The app is built (``eights site``) into a temporary folder and served by a static host made here: files with
their ETag (a repeat asks "changed?" and gets 304), compressed with gzip (level 6, nginx's usual) for a
browser that takes it, and every byte it writes counted (headers and bodies: the bytes over the wire). Debian's
Chromium is driven by Playwright, with a profile on disk (the app's service worker keeps its files there).
What is measured:

- ``first_paint_ms``: the app opened for the first time in a fresh 390 × 844 phone context throttled as in
  bench/page.py (150 ms latency, 1.6 Mbit/s down, 750 kbit/s up, a CPU 4× slower than this machine's): the
  page's ``first-contentful-paint``. The runtime loads after it, under a progress bar. Goal: under 1 s.
- ``first_visit``: the bytes the host wrote until the app was ready to play with no network (its home page
  drawn by its own Python, its service worker holding every file), unthrottled; ``files`` the requests.
  Goal: 6 MB or less.
- ``repeat_visit``: the bytes written when the app is opened again (the service worker answers from its
  copies), until a game is dealt; ``app_bytes`` those of the app's own files (goal: none), ``probe_bytes``
  the question that tells whether a server for rooms with friends answers (a 404 on a static host).
- ``repeat_to_table_ms``: opened again, throttled as above, the time from the navigation's start to a dealt
  table (the home page drawn, Start pressed at once, the first card of the hand drawn). Goal: under 2.5 s.
- ``hard_decision_ms``: a hard computer's decisions (``make_bot("hard")``: its time budget, 0.2 s) in the
  browser's Python, unthrottled: matches of classic with four hard computers, each decision timed in Pyodide
  (``time.perf_counter``). Goal: p95 under 500 ms.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import http.server
import json
import statistics
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))
from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, PATIENCE, PHONE  # noqa: E402

from eights.web.site import build  # noqa: E402

THROTTLE = {"offline": False, "latency": 150, "downloadThroughput": 1.6e6 / 8, "uploadThroughput": 750e3 / 8}
CPU_SLOWDOWN = 4
TYPES = {
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".wasm": "application/wasm",
    ".json": "application/json",
    ".html": "text/html",
    ".css": "text/css",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".zip": "application/zip",
    ".webmanifest": "application/manifest+json",
}
#: Already compressed: sent as they are.
PACKED = (".zip", ".png")

#: The hard computer's decisions, timed in the browser's Python.
DECISIONS = """
import time
from eights.bots import make_bot
from eights.engine import Game, view
from eights.rules import load_preset
times = []
for seed in range(GAMES):
    game = Game(load_preset("classic"), 4, seed)
    bots = [make_bot("hard", seed * 10 + seat) for seat in range(4)]
    while not game.is_over:
        seat = game.to_act
        started = time.perf_counter()
        action = bots[seat].choose(view(game, seat))
        times.append(time.perf_counter() - started)
        game.play(action)
times
"""


class Counted:
    """The bytes the host wrote, by path."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.sent: list[tuple[str, int, int]] = []  # (path, status, bytes)

    def take(self) -> list[tuple[str, int, int]]:
        with self.lock:
            taken, self.sent = self.sent, []
            return taken


def host(root: Path, counted: Counted) -> http.server.ThreadingHTTPServer:
    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            return None

        def do_GET(self) -> None:
            path = self.path.split("?")[0]
            target = root / (path.lstrip("/") or "index.html")
            if target.is_dir():
                target = target / "index.html"
            if not target.is_file():
                self.answer(404, b"not found", "text/plain", path)
                return
            body = target.read_bytes()
            tag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
            if self.headers.get("If-None-Match") == tag:
                self.answer(304, b"", None, path, tag)
                return
            kind = TYPES.get(target.suffix, "application/octet-stream")
            self.answer(200, body, kind, path, tag, packed=target.suffix in PACKED)

        def answer(
            self, status: int, body: bytes, kind: str | None, path: str, tag: str | None = None, packed: bool = True
        ) -> None:
            zipped = not packed and "gzip" in self.headers.get("Accept-Encoding", "") and len(body) > 1024
            if zipped:
                body = gzip.compress(body, 6)
            head = [f"HTTP/1.1 {status} {self.responses[status][0]}", f"Content-Length: {len(body)}"]
            if kind:
                head.append(f"Content-Type: {kind}")
            if tag:
                head += [f"ETag: {tag}", "Cache-Control: no-cache"]
            if zipped:
                head.append("Content-Encoding: gzip")
            raw = ("\r\n".join(head) + "\r\n\r\n").encode() + body
            self.wfile.write(raw)
            with counted.lock:
                counted.sent.append((path, status, len(raw)))

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def throttled(context: Any, page: Any) -> None:
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", THROTTLE)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})


def ready(page: Any) -> None:
    """Until the app's home is drawn by its own Python and its service worker holds every file."""
    page.wait_for_selector("#new-game", state="visible", timeout=PATIENCE * 4000)
    page.evaluate("async () => { await navigator.serviceWorker.ready; }")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=PATIENCE * 1000)


def deal(page: Any) -> float:
    """Start a game at once from the home page; the page's clock when its hand is drawn."""
    page.fill("#name", "Ann")
    page.click("#play-now")
    page.wait_for_selector("#hand .card", timeout=PATIENCE * 1000)
    drawn: float = page.evaluate("() => performance.now()")
    return drawn


def visit(browser_type: Any, base: str, counted: Counted, profile: Path) -> dict[str, Any]:
    """A first visit (its paint throttled in a context of its own), then a repeat visit in the same profile."""
    context = browser_type.launch_persistent_context(profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS, **PHONE)
    page = context.pages[0] if context.pages else context.new_page()
    counted.take()
    page.goto(base + "/")
    ready(page)
    page.wait_for_timeout(500)  # the service worker's own copies, asked after it was ready, counted too
    first = counted.take()
    page.goto(base + "/")
    page.wait_for_selector("#new-game", state="visible", timeout=PATIENCE * 1000)
    deal(page)
    again = counted.take()
    context.close()
    return {
        "first_visit": {"bytes": sum(n for _, _, n in first), "files": len(first)},
        "repeat_visit": {
            "bytes": sum(n for _, _, n in again),
            "app_bytes": sum(n for path, _, n in again if not path.startswith("/api/")),
            "probe_bytes": sum(n for path, _, n in again if path.startswith("/api/")),
            "requests": sorted({path for path, _, _ in again}),
        },
    }


def first_paint(browser: Any, base: str) -> float:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    throttled(context, page)
    page.goto(base + "/")
    page.wait_for_selector("#loading:not([hidden])", timeout=PATIENCE * 1000)
    page.wait_for_function("() => performance.getEntriesByName('first-contentful-paint').length")
    fcp: float = page.evaluate("() => performance.getEntriesByName('first-contentful-paint')[0].startTime")
    context.close()
    return round(fcp, 1)


def repeat_to_table(browser_type: Any, base: str, profile: Path) -> float:
    context = browser_type.launch_persistent_context(profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS, **PHONE)
    page = context.pages[0] if context.pages else context.new_page()
    throttled(context, page)
    page.goto(base + "/", wait_until="commit")
    page.wait_for_selector("#new-game", state="visible", timeout=PATIENCE * 1000)
    drawn = deal(page)
    context.close()
    return round(drawn, 1)


def decisions(browser: Any, base: str, games: int) -> dict[str, Any]:
    page = browser.new_page()
    page.goto(base + "/")
    times: list[float] = page.evaluate(
        """async (code) => {
          const { loadPyodide } = await import("./pyodide/pyodide.mjs");
          const pyodide = await loadPyodide({ indexURL: new URL("./pyodide/", location.href).href });
          const zip = await (await fetch("./eights.zip")).arrayBuffer();
          pyodide.unpackArchive(zip, "zip", { extractDir: "/eights" });
          pyodide.runPython("import sys; sys.path.insert(0, '/eights')");
          return pyodide.runPython(code).toJs();
        }""",
        DECISIONS.replace("GAMES", str(games)),
    )
    page.close()
    ms = sorted(t * 1000 for t in times)
    return {
        "decisions": len(ms),
        "median": round(statistics.median(ms), 1),
        "p95": round(ms[int(0.95 * (len(ms) - 1))], 1),
        "worst": round(ms[-1], 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="first paints and repeat visits measured (default 3)")
    parser.add_argument("--games", type=int, default=2, help="matches of four hard computers timed (default 2)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        site = Path(folder) / "site"
        build(site)
        counted = Counted()
        server = host(site, counted)
        base = f"http://127.0.0.1:{server.server_address[1]}"
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                paints = [first_paint(browser, base) for _ in range(args.runs)]
                profile = Path(folder) / "profile"
                wire = visit(p.chromium, base, counted, profile)
                tables = [repeat_to_table(p.chromium, base, profile) for _ in range(args.runs)]
                result = {
                    "first_paint_ms": {"median": statistics.median(paints), "worst": max(paints)},
                    **wire,
                    "repeat_to_table_ms": {"median": statistics.median(tables), "worst": max(tables)},
                    "hard_decision_ms": decisions(browser, base, args.games),
                    "throttling": {"latency_ms": 150, "down_kbit": 1600, "up_kbit": 750, "cpu_slowdown": CPU_SLOWDOWN},
                }
                browser.close()
        finally:
            server.shutdown()
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
