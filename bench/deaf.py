"""What sockets that never read cost ``eights serve``: its memory while a room they watch is played.

Run from the repository root::

    python bench/deaf.py                         # 24 sockets, 60 s
    python bench/deaf.py --sockets 12 --seconds 30

The server is ``eights serve`` in a process of its own on a new SQLite database (bench/server.py's
``start_server``), its computers without pause (``--pace 0``) and its message rate limits raised for the one
person who plays (every other limit at its default). A room of the largest states (derange, four packs,
stacking, 100-card deals) is played by that person, who reads everything and makes the first legal move at
once each turn, against an easy computer; ``--sockets`` sockets from the same address say ``hello`` as
spectators from one address (127.0.0.1; the person from another) and then read nothing, their receive
buffers kept small (tests/support/browser.py's ``deaf_socket``).

Stdout gets one JSON object: the moves made, the server's resident set at the start, the most it reached and
at the end (MB), and, where the server has them (``/metrics``), the bytes waiting for the sockets' readers at
the most, the states replaced and the readers closed as too slow. Stderr a line per step.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

from server import ROOT, progress, rss_kb, start_server, stop_server

sys.path.insert(0, str(ROOT))
from tests.support.browser import deaf_socket

RULES = {"packs": "4", "stacking": "true", "rounds": ",".join(["100"] * 20)}
OPTIONS = ["--pace", "0", "--set-limit", "messages_per_second=1000", "--set-limit", "message_burst=2000"]


def metrics(base: str) -> dict[str, float]:
    with urllib.request.urlopen(f"{base}/metrics", timeout=30) as answer:
        text = answer.read().decode()
    return {
        name: float(value)
        for name, value in (line.rsplit(" ", 1) for line in text.splitlines() if line and not line.startswith("#"))
    }


def main(sockets: int, seconds: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(str(Path(folder) / "deaf.db"), 0, Path(folder) / "server.log", OPTIONS)
        try:
            return watch(server.base, server.port, server.process.pid, sockets, seconds)
        finally:
            stop_server(server)


def watch(base: str, port: int, pid: int, sockets: int, seconds: float) -> dict[str, Any]:
    body = {"name": "Ann", "preset": "derange", "options": RULES, "seats": ["me", "easy"], "start": True}
    request = urllib.request.Request(
        f"{base}/api/rooms", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        made = json.load(answer)
    start = rss_kb(pid)
    readers = [deaf_socket(port, {"type": "hello", "room": made["code"], "token": None}) for _ in range(sockets)]
    progress(f"{sockets} sockets that read nothing watch room {made['code']}")
    most, waiting, moves, last = start, 0.0, 0, 0.0
    try:
        # the person from an address of their own: the sockets' address holds as many as the server lets it
        with connect(base.replace("http", "ws", 1) + "/ws", open_timeout=30, source_address=("127.0.0.2", 0)) as ws:
            ws.send(json.dumps({"type": "hello", "room": made["code"], "token": made["token"]}))
            ends = time.monotonic() + seconds
            while time.monotonic() < ends:
                message = json.loads(ws.recv(timeout=30))
                table = message.get("table") if message["type"] == "state" else None
                if table and table["legal"]:
                    ws.send(
                        json.dumps(
                            {"type": "act", "version": message["version"], "action": table["legal"][0]["action"]}
                        )
                    )
                    moves += 1
                if table and table["result"]:
                    break
                if time.monotonic() - last > 1:
                    last = time.monotonic()
                    most = max(most, rss_kb(pid))
                    waiting = max(waiting, metrics(base).get("eights_outbox_bytes", 0.0))
                    progress(f"{moves} moves, {rss_kb(pid) / 1024:.0f} MB")
            end = rss_kb(pid)
            seen = metrics(base)
    finally:
        for reader in readers:
            reader.close()
    return {
        "sockets": sockets,
        "seconds": seconds,
        "moves": moves,
        "rss_mb": {"start": round(start / 1024), "most": round(max(most, end) / 1024), "end": round(end / 1024)},
        "outbox_bytes_most": waiting if "eights_outbox_bytes" in seen else None,
        "states_replaced": seen.get("eights_outbox_states_replaced_total"),
        "slow_readers_closed": seen.get("eights_outbox_slow_readers_total"),
        "connections_at_end": seen.get("eights_connections"),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", type=int, default=24)
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args()
    print(json.dumps(main(args.sockets, args.seconds), indent=2))
