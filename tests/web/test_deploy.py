"""The layout of docs/deploy.md, as it stands: nginx (docs/deploy/nginx.conf) in front of two
``eights serve --redis`` instances on one PostgreSQL and one Redis, and one ``eights worker`` for the
computers' searches. A match with a ``hard`` computer is played through the proxy (its searches made by
the worker) by a player and a spectator, whose sockets the proxy sends to one instance by the room's code
(nothing relayed); that instance is killed with SIGKILL mid-match, and the match goes on to its end
through the proxy and the instance left; each instance answers /healthz and /metrics."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from eights.store import Store, database_url
from tests.support.browser import PATIENCE, LiveServer, free_port
from tests.support.moves import first_move
from tests.support.nginx import get, nginx_in_front
from tests.support.redis_server import RedisServer


@pytest.fixture
def worker(redis_server: RedisServer) -> Iterator[subprocess.Popen[str]]:
    command = [sys.executable, "-m", "eights.cli", "worker", "--redis", redis_server.url, "--processes", "1"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert "eights worker" in line, line
        yield process
    finally:
        process.terminate()
        process.wait(30)


def get_plain(url: str) -> str:
    with urllib.request.urlopen(url, timeout=PATIENCE) as answer:
        text: str = answer.read().decode()
        return text


def test_the_documented_layout_plays_through_a_lost_instance(
    tmp_path: Path, redis_server: RedisServer, postgres_url: str, worker: subprocess.Popen[str]
) -> None:
    from sqlalchemy import text

    store = Store(database_url(postgres_url))
    with store.engine.begin() as connection:
        connection.execute(text("TRUNCATE sheets, rooms, matches, settings CASCADE"))
    store.close()
    https = free_port()
    options = ("--redis", redis_server.url, "--public-url", f"https://localhost:{https}", "--trust-proxy", "127.0.0.1")
    instances = [LiveServer(postgres_url, pace=0, options=options) for _ in range(2)]
    try:
        with nginx_in_front(tmp_path, https, [server.port for server in instances]) as context:
            body = {"name": "Ann", "preset": "classic", "seats": ["me", "hard"], "start": True}
            status, made, _ = get(https, context, "/api/rooms", body)
            assert status == 200, made
            origin = f"https://localhost:{https}"
            address = f"wss://localhost:{https}/ws?room={made['code']}"

            def socket() -> Any:
                return connect(address, ssl=context, additional_headers={"Origin": origin}, open_timeout=PATIENCE)

            moves, killed, over, reconnects = 0, False, False, 0
            deadline = time.monotonic() + 6 * PATIENCE
            while not over and time.monotonic() < deadline:
                try:
                    with socket() as ws, socket() as watcher:
                        ws.send(json.dumps({"type": "hello", "room": made["code"], "token": made["token"]}))
                        watcher.send(json.dumps({"type": "hello", "room": made["code"]}))
                        while True:
                            message = json.loads(ws.recv(timeout=PATIENCE))
                            if message["type"] != "state":
                                continue
                            if message["room"]["phase"] == "over":
                                over = True
                                break
                            table = message["table"]
                            if table["legal"]:
                                action = first_move(table)
                                ws.send(json.dumps({"type": "act", "version": message["version"], "action": action}))
                                moves += 1
                            if moves == 4 and not killed:
                                # Every socket of the room went to one instance (by its code), which plays it:
                                # nothing is relayed. That instance dies mid-match.
                                health = [json.loads(get_plain(server.base + "/healthz")) for server in instances]
                                assert [h["relayed"] for h in health] == [0, 0], health
                                owner = next(i for i, h in enumerate(health) if h["rooms"] == 1)
                                assert health[owner]["connections"] == 2 and health[1 - owner]["connections"] == 0
                                instances[owner].stop(kill=True)
                                survivor = instances[1 - owner].base
                                killed = True
                except (ConnectionClosed, TimeoutError, OSError):
                    reconnects += 1
                    time.sleep(0.5)
            assert killed and over, f"the match did not end ({moves} moves, {reconnects} reconnects)"
            with urllib.request.urlopen(survivor + "/healthz", timeout=PATIENCE) as answer:
                assert json.load(answer)["redis"] == "up"
            with urllib.request.urlopen(survivor + "/metrics", timeout=PATIENCE) as answer:
                metrics = answer.read().decode()
            assert "eights_redis_up 1.0" in metrics
            searches = next(line for line in metrics.splitlines() if line.startswith("eights_decisions_searches_total"))
            assert float(searches.split()[1]) > 0, "the computer's searches went to the worker"
    finally:
        for server in instances:
            server.stop()
    assert worker.poll() is None, "the worker served throughout"
