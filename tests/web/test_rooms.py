"""The room hub's timing of away players, with a clock the test moves: a person away on their own turn
for longer than the room's limit is played by a computer until they come back, and the countdown does
not run while others play."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from eights.engine import Play
from eights.store import Store, database_url
from eights.web.protocol import Act, Hello, Setup, Sit, Start
from eights.web.rooms.connection import Connection
from eights.web.rooms.registry import Hub
from eights.web.rooms.room import Room


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def listener() -> tuple[Connection, list[dict[str, Any]]]:
    got: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        got.append(message)

    return Connection(send), got


async def settle(condition: Any, limit: float = 5.0) -> None:
    """Let the room's runner work (it sleeps at most a second at a time) until ``condition`` holds."""
    for _ in range(int(limit / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the room never got there")


async def to_turn(hub: Hub, room: Room, seat: int, players: dict[int, Connection]) -> None:
    """The people in ``players`` play (a card when they can) until ``seat`` is to act; computers play themselves."""
    for _ in range(100_000):
        session = room.session
        assert session is not None and not session.game.is_over
        acting = session.game.to_act
        if acting == seat:
            return
        if acting in players:
            legal = session.view(acting).legal
            # A card when there is one: classic lets a player draw at will, which keeps the turn theirs.
            action = next((a for a in legal if isinstance(a, Play)), legal[0])
            await hub.receive(players[acting], Act(type="act", version=room.version, action=str(action)))
        else:
            await asyncio.sleep(0.005)
    raise AssertionError(f"seat {seat} never came to act")


def test_an_away_player_is_stood_in_for_only_after_the_limit_on_their_own_turns(tmp_path: Path) -> None:
    clock = Clock()

    async def main() -> None:
        hub = Hub(Store(database_url(str(tmp_path / "away.db"))), clock=clock, pace=0)
        room, token, _ = await hub.create("Ann", "classic", {}, None, ["me", "open", "easy"], away_seconds=5)
        ann, ann_got = listener()
        bob, bob_got = listener()
        await hub.receive(ann, Hello(type="hello", room=room.code, token=token))
        await hub.receive(bob, Hello(type="hello", room=room.code, token=None))
        await hub.receive(bob, Sit(type="sit", seat=1, name="Bob"))
        bob_token = next(m["token"] for m in bob_got if m.get("type") == "welcome" and m.get("token"))
        await hub.receive(ann, Start(type="start", version=room.version))
        session = room.session
        assert session is not None

        # Bob leaves while Ann plays: a long think of Ann's does not count against him.
        await to_turn(hub, room, 0, {1: bob})
        await hub.disconnect(bob)
        assert room.state(ann)["room"]["away_left"] is None  # away, but not the one to act
        clock.now += 500
        await to_turn(hub, room, 1, {0: ann})
        await asyncio.sleep(1.2)
        assert not room.seats[1].stand_in and session.game.to_act == 1
        # the state says how long is left: none of his time went while Ann played
        assert room.state(ann)["room"]["away_left"] == 5.0

        # On his own turn the countdown runs: at 3 of 5 seconds nothing; past 5 a computer plays for him.
        clock.now += 3
        await asyncio.sleep(1.2)
        assert not room.seats[1].stand_in and session.game.to_act == 1
        assert room.state(ann)["room"]["away_left"] == 2.0
        clock.now += 3
        await settle(lambda: session.game.to_act != 1)
        assert room.seats[1].stand_in
        last = [m for m in ann_got if m["type"] == "state"][-1]
        assert last["room"]["seats"][1]["stand_in"] is True and last["room"]["away_left"] is None

        # He comes back (twice, harmlessly): his seat is his again, the countdown starts afresh.
        for _ in range(2):
            back, _ = listener()
            await hub.receive(back, Hello(type="hello", room=room.code, token=bob_token))
        assert not room.seats[1].stand_in and room.seats[1].away == 0.0
        await to_turn(hub, room, 1, {0: ann})
        await asyncio.sleep(1.2)
        assert session.game.to_act == 1  # waiting for Bob himself
        await hub.close()

    asyncio.run(main())


def test_the_rooms_rules_in_words_follow_each_setup(tmp_path: Path) -> None:
    """The heading and the changed options are made once per rule set: a setup's new rules show at once."""

    async def main() -> None:
        hub = Hub(Store(database_url(str(tmp_path / "words.db"))), pace=0)
        room, token, _ = await hub.create("Ann", "classic", {}, None, ["me", "open"])
        ann, got = listener()
        await hub.receive(ann, Hello(type="hello", room=room.code, token=token))
        first = [m for m in got if m["type"] == "state"][-1]["room"]
        assert first["preset"] == "classic" and first["options"] == []
        assert first["rules_heading"].startswith("Classic Crazy Eights")
        for preset, options, want in (("classic", {"stacking": "true"}, ["stacking=true"]), ("derange", {}, [])):
            got.clear()
            setup = Setup(
                type="setup", version=room.version, preset=preset, options=options, players=2, seats=["person", "open"]
            )
            await hub.receive(ann, setup)
            shown = [m for m in got if m["type"] == "state"][-1]["room"]
            assert shown["preset"] == preset and shown["options"] == want, shown
        assert shown["rules_heading"].startswith("Derange Order of Eight")

    asyncio.run(main())


class Instant:
    """A pool whose computers play the first legal move, found at once and after 0.4 s of the test's clock
    in turn (as a computer with one move, and one that searched): how long each decision took."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.took: list[float] = []

    async def choose(self, bot: Any, view: Any, owner: str) -> tuple[Any, Any]:
        took = 0.4 * (len(self.took) % 2)
        self.clock.now += took
        self.took.append(took)
        return view.legal[0], bot

    def stats(self) -> dict[str, int | float]:
        return {}

    def close(self) -> None:
        pass

    async def aclose(self) -> None:
        pass


def test_a_computer_takes_its_whole_think_time_whether_it_had_a_choice_or_not(tmp_path: Path) -> None:
    """How long a computer's move takes tells nothing of the position: with one legal move or many, quick or
    slow to find, each move is played its level's think time plus the room's pace after it was asked for."""
    from eights.bots.ismcts import HARD_SECONDS

    clock = Clock()
    moments: list[float] = []

    async def sleep(seconds: float) -> None:
        moments.append(seconds)
        clock.now += seconds
        await asyncio.sleep(0)

    async def main() -> None:
        pool = Instant(clock)
        hub = Hub(Store(database_url(str(tmp_path / "pace.db"))), pool=pool, clock=clock, pace=0.7, sleep=sleep)
        room, token, _ = await hub.create("Ann", "classic", {}, None, ["me", "hard"], start=True)
        ann, _ = listener()
        await hub.receive(ann, Hello(type="hello", room=room.code, token=token))
        session = room.session
        assert session is not None
        while len(pool.took) < 8:  # the computer plays in its time; then Ann
            await settle(lambda: session.game.is_over or session.game.to_act == 0)
            if session.game.is_over:
                break
            await hub.receive(ann, Act(type="act", version=room.version, action=str(session.view(0).legal[0])))
        await hub.close()
        assert len(pool.took) >= 4 and len(moments) == len(pool.took)
        # every decision's time and the wait after it add up to the same: the think time and the pace
        for took, rest in zip(pool.took, moments, strict=True):
            assert took + rest == pytest.approx(0.7 + HARD_SECONDS)

    asyncio.run(main())
