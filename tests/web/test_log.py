"""The web table's narration: told by the table layer's Narrator (as in the terminal), so one player's
draws in a row are one line, and sent a little at a time so that the lines a browser puts together are
the lines a newcomer gets at once."""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import Iterable, Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from eights.engine.events import Event
from eights.store import Store, database_url
from eights.table import Session
from eights.table.lines import Line
from eights.table.narrator import Narrator
from eights.web.app import create_app
from eights.web.outbox import Outbox, Tally
from eights.web.protocol import Hello, Rematch
from eights.web.rooms import room as rooms
from eights.web.rooms.connection import Connection
from eights.web.rooms.registry import Hub
from eights.web.rooms.room import LOG_BACKLOG
from eights.web.settings import Limits, Settings
from eights.web.tableview import table_json
from tests.support.moves import moves

#: Scripted clients send far faster than people.
SCRIPTED = Settings(limits=Limits(messages_per_second=10_000, message_burst=20_000))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    store = Store(database_url(str(tmp_path / "web.db")))
    with TestClient(create_app(store, pace=0, settings=SCRIPTED)) as test_client:
        yield test_client
    store.close()


def send(ws: WebSocketTestSession, **message: Any) -> None:
    ws.send_text(json.dumps(message))


def keep(log: list[str], message: dict[str, Any]) -> None:
    """What the page does with a state's lines (app.js, keepLog): replace from ``log_from`` on."""
    start = message["log_from"]
    assert start <= len(log), f"a gap: lines from {start}, {len(log)} held"
    del log[start:]
    log.extend(message["log"])


def test_the_web_log_groups_repeats_and_adds_up_to_what_a_newcomer_reads(client: TestClient) -> None:
    # draw one card at a time until one can be played: draws in a row are many, and each is a move
    room = client.post(
        "/api/rooms",
        json={
            "name": "Ann",
            "preset": "classic",
            "options": {"draw": "until_playable", "score_keeping": "false"},
            "seats": ["me", "easy", "easy"],
            "start": True,
        },
    ).json()
    log: list[str] = []
    seen = 0
    with client.websocket_connect("/ws") as ws:
        send(ws, type="hello", room=room["code"], token=room["token"])
        while True:
            message = ws.receive_json()
            if message["type"] != "state":
                continue
            seen += 1
            keep(log, message)
            table = message["table"]
            if table["result"] is not None:
                break
            if table["legal"]:
                draw = next((m for m in moves(table) if m["kind"] == "draw"), table["legal"][0])
                send(ws, type="act", version=message["version"], action=draw["action"])
    with client.websocket_connect("/ws") as ws:
        send(ws, type="hello", room=room["code"], token=room["token"])
        fresh = next(m for m in iter(ws.receive_json, None) if m["type"] == "state")
    assert seen > 20
    assert fresh["log_from"] == 0 and fresh["log"] == log  # put together a little at a time, or all at once
    grouped = [line for line in log if re.match(r"Ann draws ([2-9]|\d\d+) cards\b", line)]
    assert grouped, log  # Ann drew card after card: one line says how many
    repeats = [a for a, b in pairwise(log) if a == b and "draws" in a]
    assert not repeats, repeats


def test_a_hello_at_a_long_match_narrates_nothing_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The match is told once per seat (and once for the spectators), as it goes: a seat's hello at a long match,
    and every spectator's after the first, feed no event to a narrator and get the last lines; a connection that
    follows the whole match puts together exactly the lines a narrator fed the whole log says."""
    fed: list[int] = []
    feed = Narrator.feed

    def counted(narrator: Narrator, events: Iterable[Event]) -> list[Line]:
        events = list(events)
        fed.append(len(events))
        return feed(narrator, events)

    monkeypatch.setattr(Narrator, "feed", counted)

    async def main() -> None:
        store = Store(database_url(str(tmp_path / "long.db")))
        hub = Hub(store, pace=0)
        rules = {"target": "100000"}  # no match reaches it: it lasts as long as the test plays
        room, token, _ = await hub.create(
            "Ann", "classic", rules, 2, ["me", "here"], start=True, here=[("Bea", "b" * 22)]
        )
        session = room.session
        assert session is not None
        follower: list[str] = []

        async def follow(message: dict[str, Any]) -> None:
            if message["type"] == "state":
                keep(follower, message)

        await hub.receive(Connection(follow), Hello(type="hello", room=room.code, token="b" * 22))
        rng = random.Random(5)
        for _ in range(1500):  # each move broadcast, as a move at the table is
            seat = session.game.to_act
            legal = session.view(seat).legal
            session.play(legal[rng.randrange(len(legal))], seat)
            await room.broadcast()
        events = len(session.game.log or [])

        async def hello(token: str | None) -> dict[str, Any]:
            got: list[dict[str, Any]] = []

            async def send(message: dict[str, Any]) -> None:
                got.append(message)

            fed.clear()
            await hub.receive(Connection(send), Hello(type="hello", room=room.code, token=token))
            return next(m for m in got if m["type"] == "state")

        first = await hello(token)
        assert sum(fed) == events  # the first of a seat tells the match once
        for _ in range(3):
            again = await hello(token)
            assert sum(fed) == 0 and again["log"] == first["log"] and again["log_from"] == first["log_from"]
        await hello(None)
        assert sum(fed) == events  # the spectators' narration, told once
        watched = [await hello(None) for _ in range(20)]
        assert sum(fed) == 0

        for seat, state in ((0, first), (None, watched[-1])):
            narrator = Narrator(session.rules, session.names, seat)
            told = [str(line) for line in narrator.feed(session.game.log or []) if line.kind != "blank"]
            told += [str(narrator.pending)] if narrator.pending is not None else []
            assert len(told) > 2 * LOG_BACKLOG  # more lines than a narration keeps
            assert state["log_from"] == len(told) - LOG_BACKLOG and state["log"] == told[-LOG_BACKLOG:]
            if seat == 0:
                bea = Narrator(session.rules, session.names, 1)
                whole = [str(line) for line in bea.feed(session.game.log or []) if line.kind != "blank"]
                whole += [str(bea.pending)] if bea.pending is not None else []
                assert follower == whole  # put together a state at a time, over every line
        await hub.close()
        store.close()

    asyncio.run(main())


def test_a_slow_readers_log_stays_exact_though_its_states_are_replaced(tmp_path: Path) -> None:
    """A reader that reads now and then (its outbox joins each state waiting into the newer one, as the server's
    sockets do): the lines its page puts together are every line of the match, through a hello said again
    and a rematch, as a reader of every state gets them."""

    async def main() -> None:
        store = Store(database_url(str(tmp_path / "slow.db")))
        hub = Hub(store, pace=0)
        room, token, _ = await hub.create("Ann", "classic", {}, 2, ["me", "here"], start=True, here=[("Bea", "b" * 22)])
        tally = Tally()
        pages: dict[str, list[str]] = {}
        outboxes: dict[str, Outbox] = {}

        def reader(name: str) -> Connection:
            outbox = outboxes[name] = Outbox(10**9, tally)
            pages[name] = []

            async def send(message: dict[str, Any]) -> None:
                assert outbox.put(message)

            return Connection(send)

        async def read(name: str) -> None:
            outbox = outboxes[name]
            while outbox.waiting:
                got = await outbox.get()
                assert got is not None
                outbox.written()
                message = json.loads(got[1])
                if message["type"] == "state":
                    keep(pages[name], message)

        ann, bea, watcher, eager = reader("ann"), reader("bea"), reader("watcher"), reader("eager")
        await hub.receive(ann, Hello(type="hello", room=room.code, token=token))
        await hub.receive(bea, Hello(type="hello", room=room.code, token="b" * 22))
        await hub.receive(watcher, Hello(type="hello", room=room.code, token=None))
        await hub.receive(eager, Hello(type="hello", room=room.code, token=None))
        rng = random.Random(3)
        rematches = 0
        for move in range(1200):
            session = room.session
            assert session is not None
            if session.game.is_over:
                await hub.receive(ann, Rematch(type="rematch", version=room.version))
                rematches += 1
                continue
            seat = session.game.to_act
            legal = session.view(seat).legal
            session.play(legal[rng.randrange(len(legal))], seat)
            await room.broadcast()
            if move == 500:
                await hub.receive(watcher, Hello(type="hello", room=room.code, token=None))  # said again
            await read("eager")
            for name in ("ann", "bea", "watcher"):
                if rng.random() < 0.1:
                    await read(name)
        for name in pages:
            await read(name)
        session = room.session
        assert session is not None and rematches > 0
        assert tally.replaced > 500  # most states the slow readers never read alone
        for name, seat in (("ann", 0), ("bea", 1), ("watcher", None), ("eager", None)):
            narrator = Narrator(session.rules, session.names, seat)
            told = [str(line) for line in narrator.feed(session.game.log or []) if line.kind != "blank"]
            told += [str(narrator.pending)] if narrator.pending is not None else []
            assert pages[name] == told, name
        assert tally.waiting == 0
        await hub.close()
        store.close()

    asyncio.run(main())


def test_a_broadcast_makes_each_seats_table_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Twenty spectators and a seat: a change of the room makes the spectators' table once, and the seat's."""
    made: list[int | None] = []

    def counted(session: Session, seat: int | None) -> dict[str, Any]:
        made.append(seat)
        return table_json(session, seat)

    monkeypatch.setattr(rooms, "table_json", counted)

    async def main() -> None:
        store = Store(database_url(str(tmp_path / "watched.db")))
        hub = Hub(store, pace=0)
        room, token, _ = await hub.create("Ann", "classic", {}, 2, ["me", "here"], start=True, here=[("Bea", "b" * 22)])
        got: list[dict[str, Any]] = []

        async def send(message: dict[str, Any]) -> None:
            got.append(message)

        await hub.receive(Connection(send), Hello(type="hello", room=room.code, token=token))
        for _ in range(20):
            await hub.receive(Connection(send), Hello(type="hello", room=room.code, token=None))
        made.clear()
        got.clear()
        await room.broadcast()
        assert sorted(made, key=str) == [0, None]
        assert len([m for m in got if m["type"] == "state"]) == 21
        await hub.close()
        store.close()

    asyncio.run(main())
