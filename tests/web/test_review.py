"""The review at the web table's match end (``/api/rooms/{code}/review``, docs/protocol.md), through the real
HTTP interface: a seat's own decisions only, for its seat token only, once the match is over; run in worker
processes within the server's budget and per-client rate and cap; kept in the store and given again at once."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from websockets.sync.client import connect

from eights.record import GameRecord
from eights.store import Store, database_url
from eights.store.reviews import Reviews
from eights.web.app import create_app
from eights.web.settings import Limits, Settings
from tests.support.browser import PATIENCE
from tests.support.moves import first_move

#: Scripted clients send far faster than people; a small review budget keeps the tests quick.
QUICK = Limits(messages_per_second=10_000, message_burst=20_000, review_deals=8, review_iterations=100)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    store = Store(database_url(str(tmp_path / "review.db")))
    yield store
    store.close()


def serve(store: Store, **limits: Any) -> TestClient:
    changed = Limits(**{**QUICK.__dict__, **limits})
    return TestClient(create_app(store, pace=0, settings=Settings(limits=changed)))


def until_my_turn(ws: WebSocketTestSession) -> dict[str, Any]:
    for _ in range(5000):
        message = ws.receive_json()
        table = message.get("table") if message["type"] == "state" else None
        if table is not None and (table["legal"] or table["result"] is not None):
            return message
    raise AssertionError("no turn came")


def played_room(client: TestClient, finish: bool = True) -> dict[str, Any]:
    """A room of Ann against an easy computer (classic, one round), Ann taking the first move each time; played
    to its end when ``finish``, else to Ann's first turn."""
    room: dict[str, Any] = client.post(
        "/api/rooms", json={"name": "Ann", "preset": "classic", "seats": ["me", "easy"], "start": True}
    ).json()
    with client.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "room": room["code"], "token": room["token"]}))
        while True:
            state = until_my_turn(ws)
            table = state["table"]
            if table["result"] is not None or not finish:
                return room
            move = first_move(table)
            ws.send_text(json.dumps({"type": "act", "version": state["version"], "action": move}))


def review(client: TestClient, room: dict[str, Any], method: str = "post", token: str | None = None) -> Any:
    headers = {"X-Seat-Token": token if token is not None else room["token"]}
    return getattr(client, method)(f"/api/rooms/{room['code']}/review", headers=headers)


def finished_review(client: TestClient, room: dict[str, Any]) -> dict[str, Any]:
    """Ask for the review and follow it to its end, checking its progress on the way."""
    answer = review(client, room)
    seen = []
    while answer.status_code in (200, 202) and answer.json()["state"] == "running":
        progress = answer.json()
        assert 0 <= progress["done"] <= progress["total"]
        seen.append(progress["done"])
        answer = review(client, room, "get")
    assert answer.status_code == 200, answer.text
    assert seen == sorted(seen)
    done: dict[str, Any] = answer.json()
    return done


def test_a_player_reviews_their_own_seat_once_the_match_is_over(store: Store) -> None:
    with serve(store) as client:
        room = played_room(client, finish=False)
        early = review(client, room)
        assert early.status_code == 409 and "once the match is over" in early.json()["error"]
        other = played_room(client)
        for token in ("", "not-a-token", other["token"]):  # a stranger, a spectator's guess, another room's seat
            refused = review(client, room, token=token)
            assert refused.status_code == 403 and "players of this room" in refused.json()["error"]
        assert review(client, other, "get").status_code == 404  # nothing asked for yet
        done = finished_review(client, other)
        assert done["state"] == "done" and done["seat"] == 0 and done["decisions"]
        assert done["settings"] == {"deals": 8, "iterations": 100}  # the server's budget, not the asker's
        for decision in done["decisions"]:
            table = decision["table"]
            assert table["seat"] == table["to_act"] == 0
            assert len(table["hand"]) == table["counts"][0] and table["top"]["label"]
            assert {"round", "turn", "played", "best", "cost", "spread", "mistake"} <= set(decision)
            assert set(decision["played_cards"]) <= {card["code"] for card in table["hand"]}
        assert {d["number"] for d in done["decisions"] if d["mistake"]} == set(done["mistakes"])
        assert [r["round"] for r in done["rounds"]] == [1]
        kept = Reviews(store).get(match_of(client, other), "0|8|100")
        assert kept is not None and len(kept["decisions"]) == len(done["decisions"])


def match_of(client: TestClient, room: dict[str, Any]) -> int:
    match_id: int = client.app.state.hub.rooms[room["code"]].match_id  # type: ignore[attr-defined]
    return match_id


def test_a_kept_review_is_given_again_at_once_and_uncounted(store: Store) -> None:
    with serve(store, reviews_per_client="1/hour") as client:
        room = played_room(client)
        first = finished_review(client, room)
        again = review(client, room)  # past the client's share: a kept review is not counted
        assert again.status_code == 200 and again.json() == first
        assert review(client, room, "get").json() == first


def test_reviews_have_a_rate_per_client(store: Store) -> None:
    with serve(store, reviews_per_client="1/hour") as client:
        one, two = played_room(client), played_room(client)
        finished_review(client, one)
        refused = review(client, two)
        assert refused.status_code == 429 and "too many reviews" in refused.json()["error"]
        assert review(client, two, "get").status_code == 404  # nothing was started


def test_reviews_at_once_are_capped(store: Store) -> None:
    # a large budget: the first review is still running when the second is asked for
    with serve(store, reviews_at_once=1, review_deals=200, review_iterations=3000) as client:
        one, two = played_room(client), played_room(client)
        assert review(client, one).status_code == 202
        busy = review(client, two)
        assert busy.status_code == 429 and "as many matches as it can" in busy.json()["error"]
        assert review(client, one).json()["state"] == "running"  # asked again: the same review, not another
        # the operator sees it under way (GET /metrics is for this machine: its text, as served)
        assert b"\neights_reviews_running 1.0\n" in client.app.state.metrics.text()  # type: ignore[attr-defined]


def test_a_review_under_way_is_stopped_by_its_asker_only(store: Store) -> None:
    with serve(store, review_deals=200, review_iterations=3000) as client:  # far longer than the test
        room, other = played_room(client), played_room(client)
        assert review(client, room, "delete").status_code == 404  # none under way
        assert review(client, room).status_code == 202
        assert review(client, room, "delete", token=other["token"]).status_code == 403
        stopped = review(client, room, "delete")
        assert stopped.status_code == 200 and stopped.json()["state"] == "stopped"
        assert review(client, room, "get").status_code == 404
        assert Reviews(store).get(match_of(client, room), "0|200|3000") is None
        assert review(client, room).status_code == 202  # asked again: it starts anew


def test_a_review_past_its_time_stops_and_keeps_nothing(store: Store) -> None:
    with serve(store, review_seconds=0.001) as client:
        room = played_room(client)
        answer = review(client, room)
        while answer.status_code == 202 or answer.json().get("state") == "running":
            answer = review(client, room, "get")
        assert answer.status_code == 503 and "did not finish in the time this server allows" in answer.json()["error"]
        assert Reviews(store).get(match_of(client, room), "0|8|100") is None
        assert review(client, room, "get").status_code == 404  # said once; it may be asked for again
        assert review(client, room).status_code == 202


def test_the_review_budget_is_a_limit() -> None:
    limits = Limits().with_changes({"review-deals": "12", "review_iterations": "300", "reviews_per_client": "3/hour"})
    assert (limits.review_deals, limits.review_iterations, limits.reviews_per_client) == (12, 300, "3/hour")


#: A scripted client's pace, and a review far longer than a test.
FAST_AND_LONG = {
    "messages_per_second": 10_000,
    "message_burst": 20_000,
    "review_deals": 2000,
    "review_iterations": 100_000,
}


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="finds the server's workers in Linux's /proc")
@pytest.mark.parametrize("kill", [False, True], ids=["sigterm", "sigkill"])
def test_a_stopped_server_leaves_no_review_worker(tmp_path: Path, kill: bool) -> None:
    """A review far longer than the test, under way in ``eights serve``: stopped as a service manager stops it
    (SIGTERM) or killed (SIGKILL), the server leaves none of its review workers behind."""
    from tests.support.browser import LiveServer
    from tests.web.test_killed import act, post
    from tests.web.test_workers import alive, kill_left, started_workers

    limits = [("--set-limit", f"{name}={value}") for name, value in FAST_AND_LONG.items()]
    server = LiveServer(tmp_path / "served.db", pace=0, options=sum(limits, ()))
    assert server.process is not None
    pid = server.process.pid
    workers: list[int] = []
    try:
        room = post(server.base, "/api/rooms", {"name": "Ann", "seats": ["me", "easy"], "start": True})
        with connect(server.base.replace("http", "ws") + "/ws") as ws:  # the computer plays in a thread: no worker
            ws.send(json.dumps({"type": "hello", "room": room["code"], "token": room["token"]}))
            while True:
                message = json.loads(ws.recv(timeout=PATIENCE))
                table = message.get("table") if message["type"] == "state" else None
                if table and table["result"]:
                    break
                if table and table["legal"]:
                    act(ws, message)
        request = urllib.request.Request(
            f"{server.base}/api/rooms/{room['code']}/review", method="POST", headers={"X-Seat-Token": room["token"]}
        )
        with urllib.request.urlopen(request, timeout=PATIENCE) as answer:
            assert answer.status == 202
        workers = started_workers(pid)
        assert workers, "the review started its workers"
        server.stop(kill=kill)
        until = time.monotonic() + PATIENCE
        while any(alive(worker) for worker in workers) and time.monotonic() < until:
            time.sleep(0.05)
        assert not [worker for worker in workers if alive(worker)], "a review worker outlived its server"
    finally:
        server.stop(kill=True)
        kill_left(workers)


def test_two_asks_at_once_start_one_review(tmp_path: Path) -> None:
    """The second of two asks that arrive together (the first still reading the match) joins the first's
    review: one job, counted once against the client's share."""
    from eights.web.guard import Guard
    from eights.web.reviews import Reviewer
    from eights.web.rooms.registry import Hub
    from eights.web.workers import BotPool
    from tests.web.test_leaks import Audit, play_room

    store = Store(database_url(str(tmp_path / "together.db")))

    async def main() -> None:
        hub = Hub(store, BotPool(), pace=0)
        limits = Limits(**{**QUICK.__dict__, "reviews_per_client": "1/hour"})
        reviewer = Reviewer(store, limits, Guard(limits))
        await play_room(hub, Audit(), "classic", 2, random.Random(5))
        (room,) = hub.rooms.values()
        assert room.match_id is not None
        asks = [reviewer.ask(room.match_id, 0, room.rules, "client") for _ in range(2)]
        first, second = await asyncio.gather(*asks)
        assert first["state"] == second["state"] == "running" and len(reviewer.jobs) == 1
        await reviewer.close()
        await hub.close()

    asyncio.run(main())
    store.close()


def killed_workers(client: TestClient, room: dict[str, Any], times: int) -> tuple[Any, list[int], int]:
    """Follow the room's review, SIGKILLing its worker (once it has reviewed a decision, then any new one
    at once) ``times`` times: the review's last answer, the workers killed, and its decisions to review."""
    reviewer = client.app.state.reviewer  # type: ignore[attr-defined]
    answer = review(client, room)
    total: int = answer.json()["total"]
    killed: list[int] = []
    until = time.monotonic() + 120
    while answer.status_code in (200, 202) and answer.json()["state"] == "running":
        assert time.monotonic() < until, "the review neither ended nor stopped"
        fresh = [pid for pid in reviewer.slots.pids() if pid not in killed]
        if fresh and len(killed) < times and (killed or answer.json()["done"] >= 1):
            os.kill(fresh[0], signal.SIGKILL)
            killed.append(fresh[0])
        time.sleep(0.02)
        answer = review(client, room, "get")
    return answer, killed, total


def test_a_review_whose_worker_is_killed_goes_on_in_a_fresh_one(store: Store) -> None:
    """The review's worker SIGKILLed after its first decision (as the kernel kills a process out of memory):
    its decision is made again by a fresh worker, and the review ends whole and is kept."""
    with serve(store, review_deals=48, review_iterations=600) as client:  # decisions of a fraction of a second
        room = played_room(client)
        answer, killed, total = killed_workers(client, room, 1)
        assert answer.status_code == 200, answer.text
        assert len(killed) == 1 and killed[0] not in client.app.state.reviewer.slots.pids()  # type: ignore[attr-defined]
        numbers = [decision["number"] for decision in answer.json()["decisions"]]
        assert numbers == sorted(set(numbers)) and len(numbers) == total > 1  # each once, none lost
        assert Reviews(store).get(match_of(client, room), "0|48|600") is not None


def test_a_review_whose_workers_keep_dying_stops_at_once_in_words(store: Store) -> None:
    """Two workers killed in turn: the review stops then (not at review_seconds, ten minutes here: it says
    why), says so once, keeps nothing, and may be asked for again."""
    with serve(store, review_deals=48, review_iterations=600, review_seconds=600) as client:
        room = played_room(client)
        answer, killed, _ = killed_workers(client, room, 2)
        assert answer.status_code == 503 and len(killed) == 2
        assert answer.json()["error"] == (
            "the review stopped: its worker process on the server died; nothing was kept, try again later"
        )
        assert Reviews(store).get(match_of(client, room), "0|48|600") is None
        assert review(client, room, "get").status_code == 404
        assert review(client, room).status_code == 202


class HeldStore(Store):
    """The real store, whose next reading of a match's record (``hold``) waits until the test lets it go on:
    a review held while it reads its match."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.holding = False
        self.reading = threading.Event()
        self.go_on = threading.Event()

    def hold(self) -> None:
        self.holding = True

    def record(self, match_id: int) -> GameRecord:
        if self.holding:
            self.holding = False
            self.reading.set()
            assert self.go_on.wait(PATIENCE), "the test never let the reading go on"
        return super().record(match_id)


class HeldReviews(Reviews):
    """The real kept reviews, whose next ``keep`` waits until the test lets it go on."""

    def __init__(self, store: Store) -> None:
        super().__init__(store)
        self.keeping = threading.Event()
        self.go_on = threading.Event()

    def keep(self, match_id: int, key: str, data: dict[str, Any]) -> None:
        self.keeping.set()
        assert self.go_on.wait(PATIENCE), "the test never let the keeping go on"
        super().keep(match_id, key, data)


def in_thread(call: Callable[[], Any]) -> Callable[[], Any]:
    """Start ``call`` in a thread; the function returned waits for its answer."""
    answers: list[Any] = []
    thread = threading.Thread(target=lambda: answers.append(call()))
    thread.start()

    def answer() -> Any:
        thread.join(PATIENCE)
        assert answers, "the call never answered"
        return answers[0]

    return answer


def test_a_review_stopped_while_its_match_is_read_never_runs(tmp_path: Path) -> None:
    """Stopped between its ask and the start of its decisions (its match still being read): it is stopped.
    Its asker is told so, no worker starts, nothing is kept, it counts in reviews_at_once until its reading
    ended, and it may be asked for again."""
    store = HeldStore(database_url(str(tmp_path / "held.db")))
    try:
        with serve(store, reviews_at_once=1, review_deals=200, review_iterations=3000) as client:
            reviewer = client.app.state.reviewer  # type: ignore[attr-defined]
            room = played_room(client)
            store.hold()
            asked = in_thread(lambda: review(client, room))
            assert store.reading.wait(PATIENCE)
            stopped = review(client, room, "delete")
            assert stopped.status_code == 200 and stopped.json()["state"] == "stopped"
            assert reviewer.running() == 1  # its reading goes on: it still counts
            again = review(client, room)
            assert again.status_code == 429 and "as many matches as it can" in again.json()["error"]
            store.go_on.set()
            answer = asked()
            assert answer.status_code == 409 and answer.json()["code"] == "stopped", answer.text
            assert reviewer.running() == 0 and reviewer.slots.pids() == []  # nothing ran
            assert review(client, room, "get").status_code == 404
            assert Reviews(store).get(match_of(client, room), "0|200|3000") is None
            assert review(client, room).status_code == 202  # asked again: it starts anew, counted
            assert reviewer.running() == 1
    finally:
        store.close()


def test_a_review_being_kept_cannot_be_stopped(store: Store) -> None:
    """A stop that comes once every decision is made (the review being kept) is refused in words: the review
    is kept, and given."""
    with serve(store) as client:
        reviewer = client.app.state.reviewer  # type: ignore[attr-defined]
        kept = reviewer.kept = HeldReviews(store)
        room = played_room(client)
        assert review(client, room).status_code in (200, 202)
        assert kept.keeping.wait(PATIENCE)
        refused = review(client, room, "delete")
        assert refused.status_code == 409 and "done and being kept" in refused.json()["error"]
        kept.go_on.set()
        answer = review(client, room, "get")
        while answer.json()["state"] == "running":
            answer = review(client, room, "get")
        assert answer.status_code == 200 and answer.json()["state"] == "done"
        assert Reviews(store).get(match_of(client, room), "0|8|100") is not None


def test_a_review_stopped_before_its_task_ever_ran_is_stopped(tmp_path: Path) -> None:
    """The stop comes in the very loop step after the ask (its task not started yet): the ask says it was
    stopped, nothing counts or runs, and the next ask starts one."""
    from eights.web.guard import Guard
    from eights.web.reviews import Reviewer, ReviewError
    from eights.web.rooms.registry import Hub
    from eights.web.workers import BotPool
    from tests.web.test_leaks import Audit, play_room

    store = Store(database_url(str(tmp_path / "unstarted.db")))

    async def main() -> None:
        hub = Hub(store, BotPool(), pace=0)
        reviewer = Reviewer(store, QUICK, Guard(QUICK))
        await play_room(hub, Audit(), "classic", 2, random.Random(5))
        (room,) = hub.rooms.values()
        assert room.match_id is not None
        asking = asyncio.ensure_future(reviewer.ask(room.match_id, 0, room.rules, "client"))
        await asyncio.sleep(0)  # the ask's first step: its review registered, its task not run yet
        assert reviewer.stop(room.match_id, 0)["state"] == "stopped"
        with pytest.raises(ReviewError) as stopped:
            await asking
        assert stopped.value.code == "stopped" and reviewer.running() == 0 and reviewer.slots.pids() == []
        assert (await reviewer.ask(room.match_id, 0, room.rules, "client"))["state"] == "running"
        assert reviewer.running() == 1
        await reviewer.close()
        await hub.close()

    asyncio.run(main())
    store.close()
