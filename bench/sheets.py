"""What reading the largest score sheet costs the web server: one ``GET /api/sheets/CODE``, and ``/healthz``
while readers fetch it without pause (issue 37).

Run from the repository root::

    python bench/sheets.py                   # the most rounds a sheet holds (MAX_ROUNDS), JSON on stdout
    python bench/sheets.py --rounds 1500     # a longer sheet, where the code allows one (before the cap)

The sheet: ``action`` with points kept and a target no total reaches (``score_keeping=true``,
``target=1000000``: the rules are open-ended), 8 players, each round one player out and the whole pack
but one card left in the seven other hands (as much as a round may hold), so that each round's view
spells out every card. It is written into
a new SQLite database in a temporary folder (loaded in one go, as a stored sheet is), given a code, and
``eights serve`` is started on that database in a process of its own (``python -m eights.cli serve``, a
free port on 127.0.0.1), measured alone.

What is measured: ``bytes``, the body of a ``GET``; ``first_get_ms``, the first ``GET`` (the server reads
and views the sheet); ``get_ms`` (p50 and max of ``--gets`` more, one after another); then, with
``--readers`` threads fetching the sheet without pause for ``--seconds``, ``healthz_ms`` (p50 and max of
``/healthz``, asked every 0.1 s from one more thread: how long anyone else waits) and ``reads_per_second``.
Times are wall clock (``time.perf_counter``) on this machine, the clients sharing it with the server.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

from eights.rules import load_preset
from eights.scorecard import Sheet
from eights.store import Store, database_url
from eights.store.sheets import Sheets

PATIENCE = 30.0
PLAYERS = [f"P{seat}" for seat in range(1, 9)]


def largest_sheet(rounds: int) -> Sheet:
    """``rounds`` rounds of the open-ended sheet above, built as a stored sheet is loaded (one replay)."""
    rules = load_preset("action").with_options({"score_keeping": "true", "target": "1000000"})
    sheet = Sheet.new(rules, PLAYERS, "P1")
    cards = [str(card) for card, copies in sheet.setup.pack.items() for _ in range(copies)][1:]
    others = PLAYERS[1:]
    sheet.add_round("P1", {name: " ".join(cards[seat :: len(others)]) for seat, name in enumerate(others)})
    data = sheet.to_dict()
    data["rounds"] = data["rounds"] * rounds
    return Sheet.from_dict(data)


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def fetch(url: str) -> tuple[float, int]:
    start = time.perf_counter()
    with urllib.request.urlopen(url, timeout=PATIENCE) as answer:
        size = len(answer.read())
    return (time.perf_counter() - start) * 1000, size


def ms(values: list[float]) -> dict[str, float]:
    return {"p50": round(statistics.median(values), 1), "max": round(max(values), 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=None, help="rounds on the sheet (default: MAX_ROUNDS)")
    parser.add_argument("--gets", type=int, default=20)
    parser.add_argument("--readers", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    if args.rounds is None:
        from eights.scorecard import MAX_ROUNDS  # (not there before the cap: then give --rounds)

        args.rounds = MAX_ROUNDS
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "sheets.db")
        store = Store(database_url(db))
        try:
            sheets = Sheets(store)
            code, _ = sheets.share(sheets.new(largest_sheet(args.rounds)))
        finally:
            store.close()
        port = free_port()
        command = [sys.executable, "-m", "eights.cli", "serve", "--port", str(port), "--db", db]
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + PATIENCE
            while True:
                try:
                    fetch(f"{base}/healthz")
                    break
                except OSError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        raise SystemExit("bench/sheets.py: eights serve did not answer") from None
                    time.sleep(0.1)
            url = f"{base}/api/sheets/{code}"
            first, size = fetch(url)
            gets = [fetch(url)[0] for _ in range(args.gets)]
            until = time.monotonic() + args.seconds
            reads = [0] * args.readers

            def read(reader: int) -> None:
                while time.monotonic() < until:
                    fetch(url)
                    reads[reader] += 1

            readers = [threading.Thread(target=read, args=(i,)) for i in range(args.readers)]
            for thread in readers:
                thread.start()
            health: list[float] = []
            while time.monotonic() < until:
                health.append(fetch(f"{base}/healthz")[0])
                time.sleep(0.1)
            for thread in readers:
                thread.join()
        finally:
            server.terminate()
            server.wait(PATIENCE)
    report: dict[str, Any] = {
        "rounds": args.rounds,
        "players": len(PLAYERS),
        "bytes": size,
        "first_get_ms": round(first, 1),
        "get_ms": ms(gets),
        "readers": args.readers,
        "healthz_ms": ms(health),
        "reads_per_second": round(sum(reads) / args.seconds, 1),
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
