"""Many instances of the web table on one Redis and one PostgreSQL (``eights serve --redis``): play across
instances, an owner killed mid-match (SIGKILL) and its match going on through another with no accepted
move lost, a paused owner's writes refused by the fence, and Redis restarted under running instances.

Real parts: a throwaway Redis server and PostgreSQL cluster (tests/support/redis_server.py,
tests/support/postgres.py), and ``eights serve`` processes; the browsers are WebSocket clients that reconnect
as the page does."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from eights.cluster.leases import Cluster
from eights.store import Store, database_url
from eights.web.protocol import CLOSE_MOVED, parse
from eights.web.rooms.connection import Connection
from eights.web.rooms.keeping import EPOCH
from eights.web.rooms.registry import Hub
from tests.support.browser import PATIENCE, Browser, LiveServer, play, post, saved_moves
from tests.support.redis_server import RedisServer, free_port


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
    watcher = Browser([first.base], room["code"])  # the first browser of the room: the first instance plays it
    host = Browser([second.base], room["code"], room["token"])  # relayed through the second instance
    try:
        watcher.open()
        watcher.state()
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
        watcher.close()
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
    from eights.web.rooms.connection import Relay

    async def scenario() -> None:
        store = Store(database_url(str(tmp_path / "shared.db")))
        hub = Hub(store, pace=0, cluster=Cluster(redis_server.url, instance="here"))
        closed: list[int] = []

        async def keep(message: dict[str, Any]) -> None:
            pass

        try:
            browser = Connection(keep, close=closed.append, relay=Relay("elsewhere", "ABCDEFGHJ", "c1"))
            hub.relays.relayed["c1"] = browser
            move = json.dumps({"type": "act", "version": 7, "action": "draw"})
            await hub.receive(browser, parse(move))
            assert closed == [CLOSE_MOVED]
            assert browser.relay is None and "c1" not in hub.relays.relayed
        finally:
            await hub.close()
            store.close()

    asyncio.run(scenario())


def test_a_new_room_while_redis_refuses_is_told_busy(redis_server: RedisServer, tmp_path: Path) -> None:
    """POST /api/rooms answers 503 ``busy`` in words (as a hello does), not 500 with a traceback."""
    server = LiveServer(tmp_path / "busy.db", pace=0, options=("--redis", redis_server.url))
    try:
        redis_server.stop()
        request = urllib.request.Request(
            server.base + "/api/rooms",
            data=json.dumps({"name": "Ann", "preset": "classic", "seats": ["me", "easy"]}).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=PATIENCE)
        assert refused.value.code == 503
        answer = json.load(refused.value)
        assert answer["code"] == "busy" and "try again" in answer["error"]
        assert "Traceback" not in server.logged()
    finally:
        redis_server.start()
        server.stop()


async def relayed_pair(redis_server: RedisServer, tmp_path: Path) -> tuple[Hub, Hub, Store]:
    """Two hubs on one Redis and one store, listening: ``owner`` plays rooms, ``relay`` relays browsers."""
    store = Store(database_url(str(tmp_path / "shared.db")))
    owner = Hub(store, pace=0, cluster=Cluster(redis_server.url, instance="owner"))
    relay = Hub(store, pace=0, cluster=Cluster(redis_server.url, instance="relay"))
    owner.start_cluster()
    relay.start_cluster()
    await until_listening(relay)
    return owner, relay, store


async def until_listening(hub: Hub) -> None:
    """Wait until ``hub``'s instance listens on its channel."""
    assert hub.cluster is not None
    channel = hub.cluster.channel(hub.cluster.id)
    for _ in range(500):
        if dict(await hub.cluster.redis.pubsub_numsub(channel)).get(channel.encode(), 0):
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{hub.cluster.id} never listened")


async def until(condition: Any) -> None:
    for _ in range(500):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("it never happened")


def test_a_relayed_browser_its_owner_let_go_is_sent_to_start_again_at_its_next_ping(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    """The owner could not send a relayed browser its state (its instance was not listening for a moment, as
    after Redis came back) and let that browser go. Its pings go all the way to the owner, who no longer
    knows it and tells its instance to close its socket: the page starts again instead of watching a frozen
    table (answered by its own instance, its pings kept it waiting for ever)."""

    async def scenario() -> None:
        owner, relay, store = await relayed_pair(redis_server, tmp_path)
        got: list[dict[str, Any]] = []
        closed: list[int] = []

        async def keep(message: dict[str, Any]) -> None:
            got.append(message)

        try:
            room, token, _ = await owner.create("Ann", "race", seats=["me", "normal"], start=True)
            ann = Connection(keep, close=closed.append)
            await relay.receive(ann, parse(json.dumps({"type": "hello", "room": room.code, "token": token})))
            await until(lambda: any(m["type"] == "state" for m in got))
            assert relay.cluster is not None and owner.relays.remote
            listening = relay.cluster._tasks[0]
            listening.cancel()  # the relay stops listening for a moment
            with contextlib.suppress(asyncio.CancelledError):
                await listening
            await room.broadcast()  # a state the relay does not hear: the owner lets the browser go
            await until(lambda: not owner.relays.remote)
            assert relay.relays is not None
            listen = relay.cluster._listen(relay.relays.on_envelope)
            relay.cluster._tasks[0] = asyncio.get_running_loop().create_task(listen)
            await until_listening(relay)
            assert closed == []
            await relay.receive(ann, parse(json.dumps({"type": "ping"})))
            await until(lambda: closed == [CLOSE_MOVED])
        finally:
            await owner.close()
            await relay.close()
            store.close()

    asyncio.run(scenario())


def test_a_paused_redis_does_not_hold_the_broadcast_to_the_owners_own_browsers(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    """What a relayed browser is sent waits in an outbox of its own: with Redis paused (SIGSTOP), the owner's
    broadcast reaches the browsers connected to it at once, instead of after Redis's timeout for each relayed
    browser."""

    async def scenario() -> None:
        owner, relay, store = await relayed_pair(redis_server, tmp_path)
        got: list[dict[str, Any]] = []

        async def keep(message: dict[str, Any]) -> None:
            got.append(message)

        async def watch(message: dict[str, Any]) -> None:
            pass

        assert redis_server.process is not None
        paused = False
        try:
            room, token, _ = await owner.create("Ann", "classic", seats=["me", "open"])
            ann = Connection(keep)
            await owner.receive(ann, parse(json.dumps({"type": "hello", "room": room.code, "token": token})))
            for _ in range(3):  # three spectators through the other instance
                await relay.receive(Connection(watch), parse(json.dumps({"type": "hello", "room": room.code})))
            await until(lambda: len(owner.relays.remote) == 3)
            os.kill(redis_server.process.pid, signal.SIGSTOP)
            paused = True
            before = len(got)
            broadcast = asyncio.get_running_loop().create_task(room.broadcast())
            for _ in range(20):
                await asyncio.sleep(0)
            assert broadcast.done(), "the broadcast waited for Redis"
            assert len(got) == before + 1 and got[-1]["type"] == "state"
        finally:
            if paused:
                os.kill(redis_server.process.pid, signal.SIGCONT)
            await owner.close()
            await relay.close()
            store.close()

    asyncio.run(scenario())
