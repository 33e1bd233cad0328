"""A real server and a real browser for the browser tests: ``eights serve`` run as its own process on a
free port and a database of its own, and Debian's Chromium driven by Playwright; and ``Browser``, a page's
WebSocket as a test client (hello, reconnect as the page does, play).

Playwright's own browser download is not reachable here, so it drives ``/usr/bin/chromium``
(``executable_path``). The fixtures that use this live in tests/conftest.py: outside CI a machine
without Chromium or Playwright skips those tests and says why; under CI they fail.
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.support.moves import first_move

#: Chromium from Debian's package.
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
#: Flags for a root user in a container without a GPU, and no calls home.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: A phone (the size the issue names) and a laptop.
PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}
#: Seconds to wait for the server to answer, a page to show something, a turn to come.
PATIENCE = 30.0


class BrowserUnavailable(RuntimeError):
    """No Chromium or no Playwright on this machine."""


def chromium_path() -> str:
    """The Chromium program to drive.

    :raises BrowserUnavailable: when Chromium or Playwright is missing.
    """
    if not Path(CHROMIUM).exists():
        raise BrowserUnavailable(f"no Chromium at {CHROMIUM} (Debian's package: chromium)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        raise BrowserUnavailable("Playwright for Python is not installed (pip install -e '.[dev]')") from None
    return CHROMIUM


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class LiveServer:
    """``eights serve`` in a process of its own, on a free port and the database ``db``.

    ``restart()`` stops it (SIGTERM, as Ctrl-C would, or SIGKILL) and starts it again on the same port
    and database, as a person restarting their server would.
    """

    def __init__(
        self, db: Path | str, pace: float = 0.05, options: tuple[str, ...] = (), source: Path | None = None
    ) -> None:
        self.db = db
        #: the package's folder to run (its parent on PYTHONPATH); None: the one these tests import
        self.source = source
        self.pace = pace
        self.options = options
        #: What the server writes to its standard error (its log), kept in a file (a pipe nobody reads would
        #: stop a server that logs much once it is full).
        self.log = Path(tempfile.mkstemp(prefix="eights-serve-", suffix=".log")[1])
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        command = [sys.executable, "-m", "eights.cli", "serve", "--port", str(self.port), "--pace", str(self.pace)]
        env = dict(os.environ)
        if self.source is not None:
            env["PYTHONPATH"] = str(self.source.parent)
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [*command, "--db", str(self.db), *self.options], stdout=subprocess.DEVNULL, stderr=log, env=env
            )
        deadline = time.monotonic() + PATIENCE
        while True:
            if self.process.poll() is not None:
                err = self.logged()[-2000:]
                raise RuntimeError(f"eights serve stopped at once (exit {self.process.returncode}): {err}")
            try:
                with urllib.request.urlopen(f"{self.base}/api/presets", timeout=2):
                    return
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def stop(self, kill: bool = False) -> None:
        if self.process is None:
            return
        if kill:
            self.process.kill()
        else:
            self.process.terminate()
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)
        self.process = None

    def logged(self) -> str:
        """What the server has logged so far (across restarts)."""
        return self.log.read_text(encoding="utf-8", errors="replace")

    def restart(self, kill: bool = False) -> None:
        self.stop(kill=kill)
        self.start()


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST ``body`` as JSON to a live server; its JSON answer."""
    request = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=PATIENCE) as answer:
        result: dict[str, Any] = json.load(answer)
        return result


def deaf_socket(port: int, hello: dict[str, Any]) -> socket.socket:
    """A WebSocket to the server on ``port`` that says ``hello`` and then reads nothing, its receive buffer kept
    small, so that what the server sends it soon waits in the server."""
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    raw.sendall(
        f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    answer = b""
    while not answer.endswith(b"\r\n\r\n"):  # a byte at a time: nothing of the first message is read
        answer += raw.recv(1)
    assert answer.startswith(b"HTTP/1.1 101"), answer
    payload, mask = json.dumps(hello).encode(), os.urandom(4)
    assert len(payload) < 126  # one short frame, masked as a client's must be
    raw.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
    return raw


def saved_moves(db: Path | str, code: str) -> list[str]:
    """The moves of room ``code``'s match as the store ``db`` (a file or a URL) has them, read from the
    database itself (the server gives no record of a match in play to anyone: its seed deals every hand)."""
    from eights.store import Store, database_url
    from eights.store.rooms import Rooms

    store = Store(database_url(str(db)))
    try:
        match_id = next(room.match_id for room in Rooms(store).all() if room.code == code)
        assert match_id is not None
        return [str(action) for action in store.record(match_id).actions]
    finally:
        store.close()


def new_game(
    page: Any,
    base: str,
    preset: str,
    players: int,
    options: dict[str, str],
    name: str = "Ann",
    level: str | None = "easy",
) -> str:
    """A game against the computer from the home page (each computer at ``level``; None: the page's
    default), the options typed into the form; its room code."""
    page.goto(f"{base}/")
    page.fill("#name", name)
    page.check(f"#new-preset-{preset}")
    page.select_option("#new-players", str(players))
    for seat in range(1, players if level else 1):
        page.select_option(f"#new-seat-{seat}", level)
    for key, value in options.items():
        field = f"#new-option-{key}"
        if not page.is_visible(field):
            page.click(".more-options summary")
        if page.get_attribute(field, "type") == "checkbox":
            page.set_checked(field, value == "true")
        else:
            page.fill(field, value)
            page.press(field, "Tab")
    page.click("#play-now")
    page.wait_for_selector("#hand .card", timeout=PATIENCE * 1000)
    code = re.search(r"/r/(\w+)", page.url)
    assert code, page.url
    return code[1]


class Browser:
    """A player's page: says hello (with its token) at every connection, and reconnects as the page does
    when the socket closes (any code but 4000), through the instances it is given in turn."""

    def __init__(self, bases: list[str], code: str, token: str | None = None) -> None:
        self.bases = bases
        self.code = code
        self.token = token
        self.ws: ClientConnection | None = None
        self.seat: int | None = None
        self.reconnects = 0
        self.seen: list[dict[str, Any]] = []

    def open(self) -> None:
        deadline = time.monotonic() + PATIENCE
        while True:
            base = self.bases[self.reconnects % len(self.bases)]
            try:
                # held from call to call (websockets asks that a connection be entered; close() ends it)
                self.ws = connect(base.replace("http", "ws") + "/ws", open_timeout=5).__enter__()
                self.send({"type": "hello", "room": self.code, "token": self.token})
                return
            except OSError:
                self.reconnects += 1
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.3)

    def send(self, message: dict[str, Any]) -> None:
        assert self.ws is not None
        self.ws.send(json.dumps(message))

    def next(self) -> dict[str, Any]:
        """The next message, reconnecting through the closes a page gets through."""
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline:
            if self.ws is None:
                self.open()
            assert self.ws is not None
            try:
                message: dict[str, Any] = json.loads(self.ws.recv(timeout=PATIENCE))
            except (ConnectionClosed, TimeoutError, OSError):
                self.ws = None
                self.reconnects += 1
                time.sleep(0.3)
                continue
            if message["type"] == "welcome":
                self.seat = message["seat"]
                self.token = message.get("token", self.token)
            if message["type"] == "state":
                self.seen.append(message)
            return message
        raise AssertionError(f"no message within {PATIENCE} s")

    def state(self) -> dict[str, Any]:
        while (message := self.next())["type"] != "state":
            pass
        return message

    def my_turn(self) -> dict[str, Any]:
        while True:
            state = self.state()
            if state["room"]["phase"] == "over":
                return state
            table = state.get("table")
            if table and table["legal"]:
                return state

    def act(self, state: dict[str, Any]) -> str:
        move = first_move(state["table"])
        self.send({"type": "act", "version": state["version"], "action": move})
        return move

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()


def play(players: list[Browser], moves: int) -> list[str]:
    """Play ``moves`` moves (or to the match's end), each player acting on its turns as its states come;
    the moves made, in order."""
    made: list[str] = []
    latest: dict[int, dict[str, Any]] = {}
    acted: dict[int, int] = {}
    deadline = time.monotonic() + 4 * PATIENCE
    while len(made) < moves and time.monotonic() < deadline:
        for index, player in enumerate(players):
            if player.ws is None:
                player.open()
            assert player.ws is not None
            try:
                while True:  # every message waiting now: the newest state counts
                    message = json.loads(player.ws.recv(timeout=0.05))
                    if message["type"] == "welcome":
                        player.seat = message["seat"]
                    elif message["type"] == "state":
                        latest[index] = message
                        player.seen.append(message)
            except TimeoutError:
                pass
            except (ConnectionClosed, OSError):
                player.ws = None
                player.reconnects += 1
                continue
            state = latest.get(index)
            if state is None:
                continue
            if state["room"]["phase"] == "over":
                return made
            table = state.get("table")
            if table and table["legal"] and acted.get(index) != state["version"]:
                acted[index] = state["version"]
                made.append(player.act(state))
    assert len(made) >= moves, f"only {len(made)} moves made"
    return made
