"""Many instances of the web table on one Redis and one PostgreSQL (``eights serve --redis``): play across
instances, an owner killed mid-match (SIGKILL) and its match going on through another with no accepted
move lost, a paused owner's writes refused by the fence, and Redis restarted under running instances.

Real parts: a throwaway Redis server and PostgreSQL cluster (tests/redis_server.py, tests/postgres.py), and
``eights serve`` processes; the browsers are WebSocket clients that reconnect as the page does."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from eights.store import Store, database_url
from eights.web.cluster import Cluster
from eights.web.protocol import CLOSE_MOVED, parse
from eights.web.rooms import EPOCH, Connection, Hub
from tests.browser import PATIENCE, LiveServer, post, saved_moves
from tests.moves import first_move
from tests.redis_server import RedisServer, free_port


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


@pytest.fixture
def instances(redis_server: RedisServer, postgres_url: str) -> Iterator[list[LiveServer]]:
    """Two ``eights serve --redis`` instances on one Redis and one (emptied) PostgreSQL database."""
    from sqlalchemy import text

    store = Store(database_url(postgres_url))
    with store.engine.begin() as connection:
        connection.execute(text("TRUNCATE sheets, rooms, matches, settings CASCADE"))
    store.close()
    started = [LiveServer(postgres_url, pace=0, options=("--redis", redis_server.url)) for _ in range(2)]
    try:
        yield started
    finally:
        for server in started:
            server.stop()


def test_play_across_instances_and_the_owner_killed_mid_match(instances: list[LiveServer], postgres_url: str) -> None:
    first, second = instances
    room = post(first.base, "/api/rooms", {"name": "Ann", "preset": "classic", "seats": ["me", "open", "normal"]})
    code = room["code"]
    host = Browser([first.base, second.base], code, room["token"])  # the host on the room's owner
    friend = Browser([second.base, first.base], code)  # the friend through the other instance
    try:
        host.open()
        friend.open()
        assert friend.next()["type"] == "welcome"
        lobby = friend.state()
        friend.send({"type": "sit", "seat": 1, "name": "Bob"})
        while friend.seat is None:
            friend.next()
        assert friend.token is not None
        state = host.state()
        while state["room"]["seats"][1]["kind"] != "person":
            state = host.state()
        host.send({"type": "start", "version": state["version"]})
        assert lobby["version"] > 0
        accepted = play([host, friend], 6)  # both play, each through their own instance
        time.sleep(1)
        last = host.seen[-1] if host.seen else host.state()
        before = saved_moves(postgres_url, code)
        first.stop(kill=True)  # the owner dies mid-match: its lease lapses, the second takes the room up
        host.bases = [second.base]
        friend.bases = [second.base]
        host.ws = None  # (its socket was to the instance killed)
        state = host.state()
        assert host.seat == 0, "the host comes back in the same seat"
        assert state["version"] > last["version"], "a room's state version never goes back across a takeover"
        assert state["version"] // EPOCH > last["version"] // EPOCH
        assert saved_moves(postgres_url, code)[: len(before)] == before, "no accepted move is lost"
        assert len(before) >= len(accepted)
        play([host, friend], 10_000)  # and they play on to the end, through the instance left
        assert "over" in (host.seen[-1]["room"]["phase"], friend.seen[-1]["room"]["phase"])
        assert (host.reconnects, friend.reconnects) >= (1, 1), (host.reconnects, friend.reconnects)
    finally:
        host.close()
        friend.close()


def test_redis_restarted_under_running_instances(instances: list[LiveServer], redis_server: RedisServer) -> None:
    first, second = instances
    room = post(first.base, "/api/rooms", {"name": "Ann", "preset": "race", "seats": ["me", "normal"], "start": True})
    host = Browser([second.base], room["code"], room["token"])  # relayed through the second instance
    try:
        host.open()
        play([host], 2)
        before = host.seen[-1]["version"]
        redis_server.restart()  # every lease, life sign and channel is gone at once
        time.sleep(2)
        assert len(play([host], 3)) == 3, "the match goes on"
        assert host.seen[-1]["version"] > before
        fresh = post(second.base, "/api/rooms", {"name": "Cy", "preset": "classic", "seats": ["me", "easy"]})
        assert len(fresh["code"]) == 9
        with urllib.request.urlopen(first.base + "/healthz", timeout=PATIENCE) as answer:
            health = json.load(answer)
        assert health["redis"] == "up"
        with urllib.request.urlopen(second.base + "/metrics", timeout=PATIENCE) as answer:
            metrics = answer.read().decode()
        assert "eights_redis_up 1.0" in metrics
        assert "eights_relayed_connections 1.0" in metrics  # the host, relayed to the room's owner
    finally:
        host.close()


def test_a_paused_owner_is_fenced(redis_server: RedisServer, tmp_path: Path) -> None:
    """Two hubs that both believe they own a room (the first paused past its lease, the second took the room
    up): the first's move is refused by the store, it lets the room go, and its browser is sent on."""

    async def scenario() -> None:
        store = Store(database_url(str(tmp_path / "shared.db")))
        first = Hub(store, pace=0, cluster=Cluster(redis_server.url, instance="first"))
        second = Hub(store, pace=0, cluster=Cluster(redis_server.url, instance="second"))
        closed: list[int] = []
        sent: list[dict[str, Any]] = []

        async def keep(message: dict[str, Any]) -> None:
            sent.append(message)

        try:
            room, token, _ = await first.create("Ann", "race", seats=["me", "normal"], start=True)
            ann = Connection(keep, close=closed.append)
            await first.receive(ann, parse(json.dumps({"type": "hello", "room": room.code, "token": token})))
            for _ in range(200):
                if room.session is not None and room.session.game.to_act == 0:
                    break
                await asyncio.sleep(0.02)
            saved_before = saved_moves(str(tmp_path / "shared.db"), room.code)
            version = room.version
            assert first.cluster is not None
            await first.cluster.redis.delete(first.cluster.lease_key(room.code))  # the lease lapsed meanwhile
            watcher = Connection(keep)
            await second.receive(watcher, parse(json.dumps({"type": "hello", "room": room.code})))
            assert room.code in second.rooms, "the second took the room up from the store"
            taken = second.rooms[room.code]
            assert taken.version > version and taken.fence is not None and taken.fence > (room.fence or 0)
            move = str(room.session.game.legal_actions()[0]) if room.session else ""
            await first.receive(ann, parse(json.dumps({"type": "act", "version": version, "action": move})))
            assert room.code not in first.rooms, "the fenced instance let the room go"
            assert closed == [CLOSE_MOVED], "its browser was sent on, to reconnect"
            assert saved_moves(str(tmp_path / "shared.db"), room.code) == saved_before, "its move was refused"
        finally:
            await first.close()
            await second.close()
            store.close()

    asyncio.run(scenario())


@pytest.mark.parametrize(
    ("url", "words"),
    [("redis://127.0.0.1:1/0", "cannot reach Redis at redis://127.0.0.1:1/0"), ("localhost:6379", "give a Redis URL")],
)
def test_a_redis_that_cannot_be_used_is_named_in_one_line(url: str, words: str, tmp_path: Path) -> None:
    import subprocess
    import sys

    command = [sys.executable, "-m", "eights.cli", "serve", "--port", str(free_port()), "--db", str(tmp_path / "x.db")]
    done = subprocess.run([*command, "--redis", url], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode != 0
    assert words in done.stderr and "Traceback" not in done.stderr


def test_an_owner_paused_past_its_lease_wakes_up_fenced(instances: list[LiveServer], postgres_url: str) -> None:
    """A real pause (SIGSTOP) of the owning instance: the room is taken up by the other; the move its host sent
    to the paused instance is not saved when it wakes (SIGCONT), its socket is sent on (4012), and the host
    plays on through the other instance."""
    import os
    import signal

    first, second = instances
    room = post(first.base, "/api/rooms", {"name": "Ann", "preset": "race", "seats": ["me", "normal"], "start": True})
    code = room["code"]
    host = Browser([first.base], code, room["token"])
    try:
        host.open()
        play([host], 2)
        state = host.my_turn()
        assert first.process is not None
        os.kill(first.process.pid, signal.SIGSTOP)  # paused, holding the room
        try:
            watcher = Browser([second.base], code)  # the room is asked for elsewhere: it is taken up there
            watcher.open()
            taken = watcher.state()
            assert taken["version"] > state["version"]
            before = saved_moves(postgres_url, code)
            host.act(state)  # sent to the paused owner
        finally:
            os.kill(first.process.pid, signal.SIGCONT)
        assert host.ws is not None
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                host.ws.recv(timeout=PATIENCE)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_MOVED
        assert saved_moves(postgres_url, code) == before, "the woken owner's move was refused"
        host.ws, host.bases = None, [second.base]
        assert len(play([host], 2)) == 2, "the host plays on through the room's owner now"
        watcher.close()
    finally:
        host.close()


def test_hellos_that_come_together_take_a_room_up_once(redis_server: RedisServer, tmp_path: Path) -> None:
    """Three hellos for a room nobody owns (its owner died) arrive at one instance at once: the room is taken up
    once, with one fence, and all three browsers are in that one room (none stuck in a copy of it)."""

    async def scenario() -> None:
        store = Store(database_url(str(tmp_path / "shared.db")))
        first = Hub(store, pace=0, cluster=Cluster(redis_server.url, instance="first"))
        second = Hub(store, pace=0, cluster=Cluster(redis_server.url, instance="second"))

        async def keep(message: dict[str, Any]) -> None:
            pass

        try:
            room, token, _ = await first.create("Ann", "race", seats=["me", "normal"], start=True)
            assert first.cluster is not None
            await first.cluster.redis.delete(first.cluster.lease_key(room.code))  # its owner died: lease lapsed
            people = [Connection(keep) for _ in range(3)]
            hellos = [{"type": "hello", "room": room.code, "token": t} for t in (token, None, None)]
            await asyncio.gather(
                *(second.receive(p, parse(json.dumps(h))) for p, h in zip(people, hellos, strict=True))
            )
            kept = second.rooms[room.code]
            assert [person.room for person in people] == [kept, kept, kept]
            assert [person.seat for person in people] == [0, None, None]
        finally:
            await first.close()
            await second.close()
            store.close()

    asyncio.run(scenario())


def test_a_hello_while_redis_is_away_is_told_busy_and_sent_to_try_again(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    async def scenario() -> None:
        store = Store(database_url(str(tmp_path / "shared.db")))
        hub = Hub(store, pace=0, cluster=Cluster(redis_server.url, instance="only"))
        sent: list[dict[str, Any]] = []
        closed: list[int] = []

        async def keep(message: dict[str, Any]) -> None:
            sent.append(message)

        try:
            room, _, _ = await hub.create("Ann", "classic", seats=["me", "open"])
            del hub.rooms[room.code]  # (as if another instance had it, and went away)
            redis_server.stop()
            browser = Connection(keep, close=closed.append)
            taken = await hub.receive(browser, parse(json.dumps({"type": "hello", "room": room.code})))
            assert not taken
            assert [m.get("code") for m in sent] == ["busy"]
            assert closed == [CLOSE_MOVED], "the page reconnects (with its backoff) rather than wait in silence"
        finally:
            redis_server.start()
            await hub.close()
            store.close()

    asyncio.run(scenario())


def test_a_message_for_an_owner_that_does_not_listen_sends_the_browser_to_start_again(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    """Pub/sub keeps nothing for an instance not listening (gone, or not subscribed again yet after Redis came
    back): a browser's move relayed into that silence would be lost without a word, so its socket is closed
    (4012) and the page starts again, finding its room."""
    from eights.web.rooms import Relay

    async def scenario() -> None:
        store = Store(database_url(str(tmp_path / "shared.db")))
        hub = Hub(store, pace=0, cluster=Cluster(redis_server.url, instance="here"))
        closed: list[int] = []

        async def keep(message: dict[str, Any]) -> None:
            pass

        try:
            browser = Connection(keep, close=closed.append, relay=Relay("elsewhere", "ABCDEFGHJ", "c1"))
            hub.relayed["c1"] = browser
            move = json.dumps({"type": "act", "version": 7, "action": "draw"})
            await hub.receive(browser, parse(move))
            assert closed == [CLOSE_MOVED]
            assert browser.relay is None and "c1" not in hub.relayed
        finally:
            await hub.close()
            store.close()

    asyncio.run(scenario())
