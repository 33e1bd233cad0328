"""Fault injection over two instances: rooms played on two ``eights serve --redis`` instances while their
PostgreSQL goes down (every connection cut at once) for a while, one instance is killed (SIGKILL) while it
is down and started again once it is back, and then their Redis is restarted (every lease, life sign and
channel gone). Every state any player or spectator was sent is held against a replay of what the store
kept: no fork, no move lost or played back, and every room's match finished.

Real parts: the throwaway PostgreSQL and Redis servers (tests/support/postgres.py,
tests/support/redis_server.py) and two ``eights serve`` processes; the browsers are WebSocket clients
that reconnect as the page does, and play again when a move is refused while the store is down."""

from __future__ import annotations

import json
import time
from typing import Any

from websockets.exceptions import ConnectionClosed

from tests.support.browser import PATIENCE, Browser, LiveServer, post
from tests.support.moves import first_move
from tests.support.redis_server import RedisServer
from tests.support.store_check import check_seen

#: The rooms: a preset each, a person and computers, and a spectator through the other instance.
PRESETS = ("classic", "action", "classic", "action", "classic", "action")


class Seat:
    """A browser in the fault run: it plays its seat's first legal move on each of its turns, and after a
    refusal (``unsaved`` while the store is down, ``stale``) plays again a moment later."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.latest: dict[str, Any] | None = None
        self.acted: int | None = None
        self.calm_until = 0.0
        self.refused: list[str] = []

    @property
    def over(self) -> bool:
        return self.latest is not None and self.latest["room"]["phase"] == "over"

    def step(self) -> int:
        """Read what came, and act if it is this seat's turn; the moves sent (0 or 1)."""
        browser = self.browser
        if browser.ws is None:
            browser.open()
        assert browser.ws is not None
        try:
            while True:
                message = json.loads(browser.ws.recv(timeout=0.02))
                if message["type"] == "welcome":
                    browser.seat = message["seat"]
                elif message["type"] == "state":
                    self.latest = message
                    browser.seen.append(message)
                elif message["type"] == "error":
                    self.refused.append(message["code"])
                    self.acted = None  # not played: play again, in a moment
                    self.calm_until = time.monotonic() + 0.5
        except TimeoutError:
            pass
        except (ConnectionClosed, OSError):
            browser.ws = None
            browser.reconnects += 1
            return 0
        state = self.latest
        if browser.token is None or state is None or self.over or time.monotonic() < self.calm_until:
            return 0
        table = state.get("table")
        if not table or not table["legal"] or self.acted == state["version"]:
            return 0
        self.acted = state["version"]
        browser.send({"type": "act", "version": state["version"], "action": first_move(table)})
        return 1


def test_postgresql_and_redis_restarted_mid_play_change_no_game(postgres: Any, redis_server: RedisServer) -> None:
    options = ("--redis", redis_server.url)
    instances = [LiveServer(postgres.url, pace=0.05, options=options) for _ in range(2)]
    bases = [server.base for server in instances]
    people: list[Seat] = []
    watchers: list[Seat] = []
    codes: list[str] = []
    try:
        for index, preset in enumerate(PRESETS):
            body = {"name": "Ann", "preset": preset, "seats": ["me", "normal", "easy"], "start": True}
            room = post(bases[index % 2], "/api/rooms", body)
            codes.append(room["code"])
            mine = [bases[index % 2], bases[(index + 1) % 2]]
            people.append(Seat(Browser(mine, room["code"], room["token"])))
            watchers.append(Seat(Browser(mine[::-1], room["code"])))
        moves, faults, since = 0, [], 0.0
        deadline = time.monotonic() + 10 * PATIENCE
        while not all(seat.over for seat in people) and time.monotonic() < deadline:
            for seat in people + watchers:
                moves += seat.step()
            if moves >= 15 and not faults:
                postgres.stop()  # every connection cut at once; what was committed is kept
                faults.append(f"postgresql down at {moves}")
                since = time.monotonic()
            elif len(faults) == 1 and time.monotonic() - since > 2:  # the players tried meanwhile
                instances[0].stop(kill=True)  # an instance dies before the store is back
                postgres.start()
                instances[0].start()
                faults.append(f"an instance killed and postgresql back at {moves}")
            elif len(faults) == 2 and moves >= 40:
                redis_server.restart()  # every lease, life sign and channel gone
                faults.append(f"redis restarted at {moves}")
        assert len(faults) == 3, f"the matches ended after {moves} moves, before every fault: {faults}"
        assert all(seat.over for seat in people), [seat.latest and seat.latest["room"]["phase"] for seat in people]
        checked = 0
        for code, person, watcher in zip(codes, people, watchers, strict=True):
            checked += check_seen(postgres.url, code, {0: person.browser.seen, None: watcher.browser.seen})
        assert checked > 100
    finally:
        for seat in people + watchers:
            seat.browser.close()
        for server in instances:
            server.stop()
