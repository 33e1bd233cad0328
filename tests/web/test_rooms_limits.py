"""The room hub's own defences, with a clock the test moves: rooms expire and are not restored, an away
person is timed by one timer, one connection's failure is its own, a room's task that fails is started
again, and rooms saved with a computer budget of their own are held to the server's."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update
from sqlalchemy.orm import Session as DbSession

from eights.bots import Bot
from eights.engine import Action, View
from eights.store import Store, database_url
from eights.store.db import now
from eights.store.models import RoomRow
from eights.web.protocol import Hello, Sit, Start
from eights.web.rooms.connection import Connection
from eights.web.rooms.errors import RoomError
from eights.web.rooms.registry import Hub
from eights.web.settings import Limits
from eights.web.workers import BotPool
from tests.web.test_rooms import Clock, listener, settle


def hub_at(tmp_path: Path, clock: Clock, **changes: Any) -> Hub:
    return Hub(Store(database_url(str(tmp_path / "rooms.db"))), clock=clock, pace=0, limits=Limits(**changes))


def test_unused_rooms_expire_by_phase_and_rooms_in_use_do_not(tmp_path: Path) -> None:
    clock = Clock()

    async def main() -> None:
        hub = hub_at(tmp_path, clock, lobby_seconds=100, over_seconds=50, abandoned_seconds=1000)
        lobby, _, _ = await hub.create("Ann", "classic", {}, None, ["me", "open"])
        busy, busy_token, _ = await hub.create("Bob", "classic", {}, None, ["me", "open"])
        playing, _, _ = await hub.create("Cid", "classic", {}, None, ["me", "easy"], start=True)
        someone, _ = listener()
        await hub.receive(someone, Hello(type="hello", room=busy.code, token=busy_token))
        clock.now += 101
        assert await hub.sweep() == [lobby.code]
        assert busy.code in hub.rooms and playing.code in hub.rooms
        assert {r.code for r in hub.keeping.saved.all()} == {busy.code, playing.code}
        clock.now += 1000
        assert await hub.sweep() == [playing.code]
        await hub.close()

    asyncio.run(main())


def test_expired_rooms_are_not_restored_and_are_forgotten(tmp_path: Path) -> None:
    clock = Clock()

    async def main() -> None:
        hub = hub_at(tmp_path, clock, lobby_seconds=3600)
        old, _, _ = await hub.create("Ann", "classic", {}, None, ["me", "open"])
        new, _, _ = await hub.create("Bob", "classic", {}, None, ["me", "open"])
        await hub.close()
        store = hub.store
        with DbSession(store.engine) as db, db.begin():
            db.execute(update(RoomRow).where(RoomRow.code == old.code).values(updated_at=now() - timedelta(hours=2)))
        again = hub_at(tmp_path, clock, lobby_seconds=3600)
        assert await again.restore() == 1
        assert again.rooms == {}  # taken up when asked for, not all at the start
        assert again.get(new.code).code == new.code and list(again.rooms) == [new.code]
        with pytest.raises(RoomError):
            again.get(old.code)
        assert [r.code for r in again.keeping.saved.all()] == [new.code]
        await again.close()

    asyncio.run(main())


def test_an_away_person_is_timed_by_one_timer_not_a_polling_loop(tmp_path: Path) -> None:
    clock = Clock()
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        target = clock.now + seconds
        while clock.now < target:
            await asyncio.sleep(0.005)

    async def main() -> None:
        hub = Hub(Store(database_url(str(tmp_path / "timer.db"))), clock=clock, pace=0, sleep=sleep)
        room, token, _ = await hub.create("Ann", "classic", {}, None, ["me", "open"], away_seconds=600)
        ann, _ = listener()
        bob, _ = listener()
        await hub.receive(ann, Hello(type="hello", room=room.code, token=token))
        await hub.receive(bob, Hello(type="hello", room=room.code, token=None))
        await hub.receive(bob, Sit(type="sit", seat=1, name="Bob"))
        await hub.receive(ann, Start(type="start", version=room.version))
        session = room.session
        assert session is not None
        away = session.game.to_act
        leaving = ann if away == 0 else bob
        await hub.disconnect(leaving)
        await settle(lambda: room.runner.waiting)
        assert waits == [600.0]  # one wait for the whole of the away time, not one a second
        clock.now += 601
        await settle(lambda: room.seats[away].stand_in)
        assert waits == [600.0]
        await hub.close()

    asyncio.run(main())


def test_one_connections_failure_is_its_own(tmp_path: Path) -> None:
    clock = Clock()

    async def main() -> None:
        hub = hub_at(tmp_path, clock)
        room, token, _ = await hub.create("Ann", "classic", {}, None, ["me", "open"])
        ann, _ = listener()

        async def broken(message: dict[str, Any]) -> None:
            raise ConnectionResetError("the socket went away")

        watchers = [listener() for _ in range(2)]
        bad = Connection(broken)
        await hub.receive(watchers[0][0], Hello(type="hello", room=room.code, token=None))
        await hub.receive(bad, Hello(type="hello", room=room.code, token=None))
        await hub.receive(watchers[1][0], Hello(type="hello", room=room.code, token=None))
        assert bad.closed and bad not in room.connections
        before = [len(got) for _, got in watchers]
        await hub.receive(ann, Hello(type="hello", room=room.code, token=token))  # a seat's person: all hear
        assert [len(got) for _, got in watchers] == [n + 1 for n in before]
        await hub.close()

    asyncio.run(main())


class FailingOnce(BotPool):
    """A pool whose first decision fails (a worker that died), then thinks as usual."""

    def __init__(self) -> None:
        super().__init__()
        self.failed = False

    async def choose(self, bot: Bot, view: View, owner: str) -> tuple[Action, Bot]:
        if not self.failed:
            self.failed = True
            raise RuntimeError("the worker died")
        return await super().choose(bot, view, owner)


def test_a_rooms_task_that_fails_is_started_again(tmp_path: Path) -> None:
    clock = Clock()

    async def main() -> None:
        pool = FailingOnce()
        hub = Hub(Store(database_url(str(tmp_path / "fail.db"))), pool, clock=clock, pace=0)
        room, token, _ = await hub.create("Ann", "classic", {}, None, ["me", "easy", "easy"], start=True)
        ann, _ = listener()
        await hub.receive(ann, Hello(type="hello", room=room.code, token=token))
        session = room.session
        assert session is not None
        if session.game.to_act == 0:
            return  # Ann deals first: nothing for the computers to do yet (the seed is random)
        await settle(lambda: session.game.to_act == 0)
        assert pool.failed and room.runner.restarts
        await hub.close()

    asyncio.run(main())


def test_a_room_with_nobody_at_the_table_waits_and_plays_on_when_they_return(tmp_path: Path) -> None:
    clock = Clock()

    async def main() -> None:
        hub = hub_at(tmp_path, clock)
        room, token, _ = await hub.create("Ann", "classic", {}, None, ["me", "easy"], start=True, pace=0)
        session = room.session
        assert session is not None
        moves = len(session.game.actions)
        await asyncio.sleep(0.05)
        assert len(session.game.actions) == moves  # nobody here: the computers do not play on alone
        ann, _ = listener()
        await hub.receive(ann, Hello(type="hello", room=room.code, token=token))
        await settle(lambda: session.game.is_over or session.game.to_act == 0)
        await hub.close()

    asyncio.run(main())


def test_a_saved_room_with_a_budget_of_its_own_is_held_to_the_servers(tmp_path: Path) -> None:
    clock = Clock()

    async def main() -> None:
        hub = hub_at(tmp_path, clock, think_seconds=0.5)
        room, _, _ = await hub.create("Ann", "classic", {}, None, ["me", "hard"], start=True)
        session = room.session
        assert session is not None
        bot = room.runner.bot_for(1)
        bot.seconds = 99999.0  # type: ignore[attr-defined]  # as a room saved before budgets were capped
        assert room.runner.bot_for(1).seconds == 0.5  # type: ignore[attr-defined]
        await hub.close()

    asyncio.run(main())


def test_spectators_alone_keep_no_room_and_are_let_go_when_it_expires(tmp_path: Path) -> None:
    clock = Clock()

    async def main() -> None:
        hub = hub_at(tmp_path, clock, lobby_seconds=100)
        room, _, _ = await hub.create("Ann", "classic", {}, None, ["me", "open"])
        watcher, _ = listener()
        closed: list[bool] = []
        watcher.close = lambda code: closed.append(True)
        for _ in range(5):  # coming and going, saying hello again: none of it keeps the room
            await hub.receive(watcher, Hello(type="hello", room=room.code, token=None))
            clock.now += 30
        assert await hub.sweep() == [room.code]
        assert closed == [True] and watcher.room is None and room.code not in hub.rooms
        await hub.close()

    asyncio.run(main())


def test_a_stand_ins_move_thought_out_when_its_person_came_back_is_not_played(tmp_path: Path) -> None:
    clock = Clock()

    async def main() -> None:
        hub = Hub(Store(database_url(str(tmp_path / "back.db"))), clock=clock, pace=0)
        room, token, _ = await hub.create("Ann", "classic", {}, None, ["me", "easy"], start=True, away_seconds=5)
        ann, _ = listener()
        await hub.receive(ann, Hello(type="hello", room=room.code, token=token))
        room.seats[0].stand_in = True  # Ann was away, a computer plays for her
        room.seats[0].connection = None
        before = room.version
        back, _ = listener()
        await hub.receive(back, Hello(type="hello", room=room.code, token=token))
        assert not room.seats[0].stand_in and room.version > before  # what was thought for her is stale
        await hub.close()

    asyncio.run(main())
