"""The web table's pool of computer players, with real worker processes: a search past its deadline is
killed and its seat plays a fallback move, the bot handed back plays on; owners are served in turn;
the queues are capped; closing the pool, or killing the server, leaves no worker behind."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any, ClassVar

import pytest
from websockets.sync.client import connect

from eights.bots import Bot, HeuristicBot, Hint, ISMCTSBot, make_bot
from eights.engine import Action, Game, View, view
from eights.rules import load_preset
from eights.web.workers import BotPool, PoolClosed, fallback_move
from tests.support.browser import LiveServer

ROOT = Path(__file__).resolve().parents[2]
#: A search budget no decision may be left to spend.
FOREVER = 100_000.0
#: How long a test waits for what must happen (no assertion is made on how long it took).
PATIENCE = 60.0


def table(seed: int = 12, preset: str = "classic") -> tuple[Game, View]:
    """A two-player game at a decision of seat 0 with two legal actions or more, the other seat
    playing as the normal player."""
    game = Game(load_preset(preset), 2, seed=seed)
    other = make_bot("normal", seed)
    while True:
        if game.to_act == 1:
            game.play(other.choose(view(game, 1)))
        elif len(game.legal_actions()) >= 2 and game.actions:
            return game, view(game, 0)
        else:
            game.play(game.legal_actions()[0])


def on_to_next_decision(game: Game) -> View | None:
    """Play seat 1 (the normal player) and seat 0's forced moves on to seat 0's next real choice
    (None: the match ended first)."""
    other = make_bot("normal", 99)
    while True:
        if game.is_over:
            return None
        if game.to_act == 1:
            game.play(other.choose(view(game, 1)))
        elif len(game.legal_actions()) >= 2:
            return view(game, 0)
        else:
            game.play(game.legal_actions()[0])


def quick_search(seed: int = 5) -> Bot:
    return make_bot("hard", seed, iterations=40)


def endless_search(seed: int = 5) -> ISMCTSBot:
    bot = make_bot("expert", seed, seconds=FOREVER)
    assert isinstance(bot, ISMCTSBot)
    return bot


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_a_search_past_its_deadline_is_killed_and_its_bot_plays_on_legally():
    async def main() -> None:
        pool = BotPool(1, deadline=0.5)
        try:
            game, seen = table()
            action, bot = await pool.choose(quick_search(), seen, "room")  # starts the worker
            assert action in seen.legal
            [first] = pool.pids()
            game.play(action, 0)
            seen = on_to_next_decision(game)
            assert seen is not None

            # The same bot, its beliefs moved on, now told to search for ever.
            assert isinstance(bot, ISMCTSBot)
            bot.seconds, bot.iterations = FOREVER, None
            history = bot.belief._history
            assert history and bot.modelled(seen), "the bot reads the other player through a belief"
            action, back = await pool.choose(bot, seen, "room")
            assert back is bot, "a decision past its deadline hands the bot back as it was"
            assert bot.belief._history == history
            assert action in seen.legal, "the fallback is a legal move"
            [second] = pool.pids()
            assert second != first, "the worker that overran is replaced"
            assert not alive(first), "the worker that overran is killed"

            # The bot, which never saw that decision, follows the game on from the next view: with a
            # budget again, it plays its next decisions legally.
            bot.seconds, bot.iterations = None, 40
            game.play(action, 0)
            moves = 0
            while moves < 4 and (seen := on_to_next_decision(game)) is not None:
                action, back = await pool.choose(bot, seen, "room")
                assert back is not bot, "a decision a worker made returns the bot it sent back"
                assert action in seen.legal
                if not moves:
                    # The belief picks the game up where it left it, replaying the fallback move with the rest.
                    assert seen.round == bot.belief._round and seen.history[: len(history)] == history
                assert isinstance(back, ISMCTSBot)
                game.play(action, 0)
                bot = back
                moves += 1
            assert moves
            assert pool.pids() == [second], "the fresh worker answered"
            stats = pool.stats()
            assert stats["overruns"] == 1 and stats["restarts"] == 1 and stats["fallbacks"] == 1
            assert stats["searches"] == 1 + moves and stats["decisions"] == 2 + moves
            assert stats["busy"] == 0 and stats["queued"] == 0 and stats["workers"] == 1
        finally:
            pool.close()

    asyncio.run(main())


async def served(pool: BotPool, seen: View, asks: list[tuple[str, Bot]]) -> list[str]:
    """Every (owner, bot) of ``asks`` asked at once, in that order: the owners in the order they were
    answered, each with a legal move a worker chose."""
    order: list[str] = []

    async def decide(owner: str, bot: Bot) -> None:
        action, back = await pool.choose(bot, seen, owner)
        assert action in seen.legal and back is not bot, f"{owner}'s decision fell back"
        order.append(owner)

    await asyncio.gather(*(decide(owner, bot) for owner, bot in asks))
    return order


def test_owners_are_served_in_turn():
    async def main() -> None:
        pool = BotPool(1, deadline=PATIENCE, per_owner=8)
        _, seen = table()
        try:
            order = await served(
                pool, seen, [*(("crowd", quick_search(seed)) for seed in range(6)), ("alone", quick_search())]
            )
        finally:
            pool.close()
        # The crowd's first search took the worker before the lone one was asked; the lone one came next.
        assert order == ["crowd", "alone", *["crowd"] * 5]

    asyncio.run(main())


def test_owners_take_turns_among_many():
    async def main() -> None:
        pool = BotPool(1, deadline=PATIENCE, per_owner=8)
        _, seen = table()
        try:
            order = await served(pool, seen, [(owner, quick_search(seed)) for owner in "abc" for seed in range(3)])
        finally:
            pool.close()
        assert order[:3] == ["a", "b", "c"] and sorted(order) == sorted("abc" * 3)

    asyncio.run(main())


def test_the_owner_that_used_the_least_worker_time_goes_first():
    async def main() -> None:
        pool = BotPool(1, deadline=PATIENCE)
        _, seen = table()
        try:
            for owner, iterations in (("heavy", 1000), ("weighty", 1000), ("light", 2)):
                await pool.choose(make_bot("hard", 5, iterations=iterations), seen, owner)
            # All asked while the first takes the worker: the light one, asked last, comes next.
            order = await served(
                pool, seen, [(owner, quick_search()) for owner in ("first", "heavy", "weighty", "light")]
            )
        finally:
            pool.close()
        assert order[:2] == ["first", "light"] and sorted(order[2:]) == ["heavy", "weighty"]

    asyncio.run(main())


def test_at_equal_use_the_shorter_budget_goes_first():
    async def main() -> None:
        pool = BotPool(1, deadline=PATIENCE)
        _, seen = table()
        try:
            asks = [
                ("first", quick_search()),
                ("slow", make_bot("hard", 1, seconds=0.3)),
                ("quick", make_bot("hard", 2, seconds=0.05)),
            ]
            order = await served(pool, seen, asks)
        finally:
            pool.close()
        assert order == ["first", "quick", "slow"]

    asyncio.run(main())


def test_decisions_past_the_queues_caps_play_the_fallback_at_once():
    async def main() -> None:
        pool = BotPool(1, deadline=PATIENCE, per_owner=1, queued=2)
        _, seen = table()
        bots = {name: quick_search(seed) for seed, name in enumerate(["a1", "a2", "a3", "b1", "c1"])}
        try:
            # All asked before any is answered: a1 takes the worker, a2 and b1 wait, a3 is past its owner's
            # cap (one waiting) and c1 past the pool's (two waiting).
            answers = await asyncio.gather(*(pool.choose(bot, seen, name[0]) for name, bot in bots.items()))
        finally:
            pool.close()
        for (name, bot), (action, back) in zip(bots.items(), answers, strict=True):
            assert action in seen.legal
            refused = name in ("a3", "c1")
            assert (back is bot) == refused, name
        stats = pool.stats()
        assert stats["refused"] == 2 and stats["fallbacks"] == 2 and stats["searches"] == 3
        assert stats["decisions"] == 5 and stats["queued"] == 0

    asyncio.run(main())


def test_a_decision_left_waiting_past_the_deadline_plays_the_fallback():
    async def main() -> None:
        pool = BotPool(1, deadline=0.5)
        _, seen = table()
        patient, endless = quick_search(), endless_search()
        try:
            # The worker's start does not count against the endless search's deadline, but the
            # wait of the one behind it does.
            (_, hog), (action, back) = await asyncio.gather(
                pool.choose(endless, seen, "hog"), pool.choose(patient, seen, "patient")
            )
        finally:
            pool.close()
        assert hog is endless
        assert back is patient and action in seen.legal
        stats = pool.stats()
        assert stats["expired"] == 1 and stats["overruns"] == 1 and stats["fallbacks"] == 2

    asyncio.run(main())


def test_a_decision_given_up_leaves_its_queue():
    async def main() -> None:
        pool = BotPool(1, deadline=PATIENCE)
        _, seen = table()
        try:
            first = asyncio.ensure_future(pool.choose(quick_search(1), seen, "a"))
            waiting = asyncio.ensure_future(pool.choose(quick_search(2), seen, "b"))
            await asyncio.sleep(0)
            assert pool.stats()["queued"] == 1
            waiting.cancel()
            with pytest.raises(asyncio.CancelledError):
                await waiting
            assert pool.stats()["queued"] == 0
            action, _ = await first
            assert action in seen.legal
            action, _ = await pool.choose(quick_search(3), seen, "b")
            assert action in seen.legal
        finally:
            pool.close()
        assert pool.stats()["searches"] == 2

    asyncio.run(main())


def test_a_worker_that_died_while_idle_is_replaced_and_a_failing_bot_raises():
    async def main() -> None:
        pool = BotPool(1, deadline=PATIENCE)
        game, seen = table()
        try:
            await pool.choose(quick_search(), seen, "room")
            [first] = pool.pids()
            os.kill(first, signal.SIGKILL)
            bot = quick_search()
            action, back = await pool.choose(bot, seen, "room")
            assert back is bot and action in seen.legal, "a lost decision plays the fallback"
            [second] = pool.pids()
            assert second != first
            action, back = await pool.choose(bot, seen, "room")
            assert back is not bot and action in seen.legal
            stats = pool.stats()
            assert stats["lost"] == 1 and stats["restarts"] == 1 and stats["fallbacks"] == 1

            # A bug in a bot is not hidden by a fallback: it reaches the room, in words.
            with pytest.raises(RuntimeError, match="the computer player failed: ValueError: seat 1 has nothing"):
                await pool.choose(quick_search(), view(game, 1), "room")
            assert pool.pids() == [second], "a worker whose bot failed goes on"
        finally:
            pool.close()

    asyncio.run(main())


class Dawdler:
    """A quick level (no search) that takes as long as the test wants: until ``gate`` opens."""

    name = "dawdler"
    gate = threading.Event()

    def choose(self, view: View) -> Action:
        Dawdler.gate.wait(PATIENCE)
        return view.legal[-1]

    def hint(self, view: View) -> Any:
        raise NotImplementedError


def test_a_quick_level_past_its_deadline_plays_the_fallback():
    async def main() -> None:
        pool = BotPool(1, deadline=0.2)
        _, seen = table()
        dawdler = Dawdler()
        try:
            action, back = await pool.choose(dawdler, seen, "room")
            assert back is dawdler and action in seen.legal
            assert pool.stats()["overruns"] == 1 and pool.stats()["fallbacks"] == 1
            Dawdler.gate.set()
            normal = make_bot("normal", 3)
            action, back = await pool.choose(normal, seen, "room")
            assert action == make_bot("normal", 3).choose(seen)
            assert back is not normal, "a quick level thinks on a copy"
        finally:
            Dawdler.gate.set()
            pool.close()
        assert pool.pids() == [], "quick levels start no worker"

    asyncio.run(main())


class Clocked(HeuristicBot):
    """The normal player, noting the deadline it was told at each decision and hint."""

    told: ClassVar[list[float | None]] = []

    def choose(self, view: View) -> Action:
        Clocked.told.append(self.deadline)
        return super().choose(view)

    def hint(self, view: View) -> Hint:
        Clocked.told.append(self.deadline)
        return super().hint(view)


def test_a_quick_level_and_a_hint_think_on_a_copy_told_the_deadline():
    async def main() -> None:
        pool = BotPool(1, deadline=PATIENCE)
        _, seen = table()
        try:
            asked = time.perf_counter()
            action, back = await pool.choose(Clocked(3), seen, "room")
            hint = await pool.hint(Clocked(3), seen)
        finally:
            pool.close()
        assert action == hint.action == make_bot("normal", 3).choose(seen)
        # Each copy was told the deadline, so its planner stops there by itself; the copy that came back
        # as the seat's bot was told no more.
        assert len(Clocked.told) == 2 and all(told is not None and told > asked for told in Clocked.told)
        assert isinstance(back, Clocked) and back.deadline is None

    asyncio.run(main())


def test_the_fallback_is_a_legal_move_made_without_the_turn_planner(monkeypatch: pytest.MonkeyPatch):
    # The 50-card hands, where the normal player's planner would spend its whole budget: the
    # fallback (after a deadline, a dead worker, a full queue) never asks it.
    import eights.bots.heuristic as heuristic

    planned: list[int] = []
    real = heuristic.planner_for

    def counted(*args: Any, **kwargs: Any) -> Any:
        planned.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(heuristic, "planner_for", counted)
    rules = load_preset("action").with_options({"packs": "2", "deal_two_players": "50", "deal_extra_packs": "50"})
    game = Game(rules, 2, 0)
    seen = view(game, game.to_act)

    async def main() -> Action:
        pool = BotPool(1)
        try:
            return await pool.fallback(seen)
        finally:
            pool.close()

    assert fallback_move(seen) in seen.legal
    assert asyncio.run(main()) == fallback_move(seen)
    assert planned == []
    make_bot("normal", 1).choose(seen)  # where the normal player itself plans the turn
    assert planned == [1]


def test_close_kills_a_busy_worker_and_answers_its_decision():
    async def main() -> None:
        pool = BotPool(1, deadline=PATIENCE)
        _, seen = table()
        await pool.choose(quick_search(), seen, "room")
        [pid] = pool.pids()
        slow = endless_search()
        thinking = asyncio.ensure_future(pool.choose(slow, seen, "room"))
        await asyncio.sleep(0.2)
        assert pool.stats()["busy"] == 1
        await pool.aclose()
        assert not alive(pid), "close stops a busy worker"
        action, back = await thinking
        assert back is slow and action in seen.legal
        assert pool.stats()["workers"] == 0
        with pytest.raises(PoolClosed):
            await pool.choose(quick_search(), seen, "room")

    asyncio.run(main())


HOST = """
import asyncio, json, sys
from eights.bots import make_bot
from tests.web.test_workers import table
from eights.web.workers import BotPool

async def main():
    pool = BotPool(2, deadline=600)
    _, seen = table()
    # Both workers started and answered once: the endless searches are searching, not starting.
    await asyncio.gather(*(pool.choose(make_bot("hard", s, iterations=20), seen, str(s)) for s in range(2)))
    thinking = asyncio.gather(*(pool.choose(make_bot("expert", s, seconds=1e5), seen, str(s)) for s in range(2)))
    while pool.stats()["busy"] < 2:
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.5)
    print(json.dumps(pool.pids()), flush=True)
    await thinking

asyncio.run(main())
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL of the server is a POSIX test")
def test_workers_die_with_a_killed_server():
    host = subprocess.Popen([sys.executable, "-c", textwrap.dedent(HOST)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    pids: list[int] = []
    try:
        assert host.stdout is not None
        pids = json.loads(host.stdout.readline())
        assert len(pids) == 2 and all(alive(pid) for pid in pids)
        host.send_signal(signal.SIGKILL)
        host.wait(PATIENCE)
        until = time.monotonic() + PATIENCE
        while any(alive(pid) for pid in pids) and time.monotonic() < until:
            time.sleep(0.05)
        assert not any(alive(pid) for pid in pids), "a worker outlived its server"
    finally:
        if host.poll() is None:
            host.kill()
            host.wait()
        for pid in pids:  # a survivor of a failed test
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def started_workers(pid: int) -> list[int]:
    """The worker processes of the server ``pid``, once it has any (waited for up to ``PATIENCE``)."""
    until = time.monotonic() + PATIENCE
    while not (workers := workers_of(pid)) and time.monotonic() < until:
        time.sleep(0.05)
    return workers


def kill_left(pids: list[int]) -> None:
    """SIGKILL those of ``pids`` still alive (after a test that failed)."""
    for pid in pids:
        if alive(pid):
            os.kill(pid, signal.SIGKILL)


def workers_of(pid: int) -> list[int]:
    """The pool's worker processes among ``pid``'s children (not multiprocessing's resource tracker)."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            command = Path(f"/proc/{child}/cmdline").read_bytes()
            if b"spawn_main" in command and b"resource_tracker" not in command:
                found.append(int(child))
    return found


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="finds the server's workers in Linux's /proc")
def test_a_server_stopped_with_sigterm_leaves_no_worker(tmp_path: Path):
    server = LiveServer(tmp_path / "served.db", pace=0)
    assert server.process is not None
    pid = server.process.pid
    workers: list[int] = []
    try:
        with contextlib.ExitStack() as stack:
            for _ in range(2):  # two rooms of three experts each, their person at the table
                body = {"name": "Ann", "seats": ["expert", "expert", "expert", "me"], "start": True}
                request = urllib.request.Request(
                    server.base + "/api/rooms", json.dumps(body).encode(), {"Content-Type": "application/json"}
                )
                with urllib.request.urlopen(request, timeout=PATIENCE) as answer:
                    made = json.load(answer)
                ws = stack.enter_context(
                    connect(server.base.replace("http", "ws") + "/ws", additional_headers={"Origin": server.base})
                )
                ws.send(json.dumps({"type": "hello", "room": made["code"], "token": made["token"]}))
            workers = started_workers(pid)
            assert workers, "the computers' searches started workers"
            server.stop()  # SIGTERM, as a service manager stops it
        assert not [worker for worker in workers if alive(worker)], "a worker outlived its server"
    finally:
        server.stop(kill=True)
        kill_left(workers)


def test_a_bad_pool_is_refused_in_words():
    with pytest.raises(ValueError, match="processes: 0 workers"):
        BotPool(0)
    with pytest.raises(ValueError, match="deadline: 0 seconds"):
        BotPool(deadline=0)
    with pytest.raises(ValueError, match="queue caps"):
        BotPool(per_owner=0)
