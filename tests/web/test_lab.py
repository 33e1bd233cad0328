"""'Test these rules' (POST /api/lab): rules checked as a new room's, the lab played on a worker process of
its own within the server's budget, followed to its end, the same answer for the same rules (kept, and
asked again at no cost), and the limits: one client's labs at once, the server's queue, the rate per
client, the time a lab may play."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from eights.store import Store, database_url
from eights.web.app import create_app
from eights.web.guard import Guard
from eights.web.lab import GRACE, LabDesk
from eights.web.settings import Limits, Settings, SettingsError

#: Seconds to wait for a lab of a few games to end (a worker process starts for the first one).
PATIENCE = 120.0
#: A lab of a few games: what the tests play unless they need more.
SMALL = {"lab_games": 2, "lab_budget": 3}


@contextmanager
def served(tmp_path: Path, name: str = "lab.db", **limits: Any) -> Iterator[TestClient]:
    store = Store(database_url(str(tmp_path / name)))
    settings = Settings(limits=Limits(**{**SMALL, **limits}))
    with TestClient(create_app(store, pace=0, settings=settings)) as client:
        yield client
    store.close()


def ask(client: TestClient, preset: str, options: dict[str, str], players: int) -> tuple[int, dict[str, Any]]:
    answer = client.post("/api/lab", json={"preset": preset, "options": options, "players": players})
    return answer.status_code, answer.json()


def ended(client: TestClient, answer: dict[str, Any]) -> dict[str, Any]:
    """The lab's answer once it is done or failed, following it as the page does."""
    until = time.monotonic() + PATIENCE
    while answer["state"] not in ("done", "failed"):
        assert answer["state"] in ("waiting", "playing"), answer
        assert 0 <= answer["played"] <= answer["total"]
        if time.monotonic() > until:
            pytest.fail(f"the lab did not end within {PATIENCE} s: {answer}")
        time.sleep(0.1)
        reply = client.get(f"/api/lab/{answer['id']}")
        assert reply.status_code == 200
        answer = reply.json()
    return answer


def test_bad_rules_are_refused_with_the_valid_choices_and_start_nothing(tmp_path: Path) -> None:
    with served(tmp_path) as client:
        status, answer = ask(client, "clasic", {}, 4)
        assert status == 400 and answer["code"] == "bad_setup"
        assert answer["error"] == "unknown preset 'clasic'; valid: classic, action, race, derange, baby-eating"
        status, answer = ask(client, "action", {"stacking": "maybe"}, 4)
        assert status == 400 and "stacking" in answer["error"] and "true" in answer["error"]
        status, answer = ask(client, "classic", {}, 9)
        assert status == 400 and answer["error"].startswith("players: 9") and "valid: 2-" in answer["error"]
        bad = client.post("/api/lab", json={"preset": "classic", "options": {}, "players": 4, "seed": 3})
        assert bad.status_code == 400 and bad.json()["error"].startswith("seed:")
        missing = client.post("/api/lab", json={"preset": "classic"})
        assert missing.status_code == 400 and missing.json()["error"].startswith("players:")
        nothing = client.get("/api/lab/0123456789abcdef0123")
        assert nothing.status_code == 404 and "test the rules again" in nothing.json()["error"]
        labs = client.app.state.labs  # type: ignore[attr-defined]
        assert labs.jobs == {} and labs.slots.pids() == []


def test_a_lab_plays_on_a_worker_within_the_budget_and_is_kept(tmp_path: Path) -> None:
    with served(tmp_path, lab_work_per_client="1/hour") as client:
        status, started = ask(client, "action", {"stacking": "true"}, 3)
        assert status == 202 and started["state"] in ("waiting", "playing")
        assert started["total"] == 2 * 3 * 2  # games of each of three kinds, for each of two rule sets
        done = ended(client, started)
        assert done["state"] == "done" and done["played"] == done["total"] == 12
        labs = client.app.state.labs  # type: ignore[attr-defined]
        assert len(labs.slots.pids()) == 1 and labs.slots.pids()[0] != os.getpid()  # a process of its own
        lab = done["lab"]
        assert [v["name"] for v in lab["variants"]] == ["your rules", "action"]
        assert lab["variants"][0]["changes"] == ["stacking=true"] and lab["variants"][1]["changes"] == []
        assert lab["games"] == 2 and lab["search_budget"]["expert"] == "expert@3" and not lab["partial"]
        assert done["compared"] and done["changes"] == ["stacking=true"] and done["players"] == 3
        assert done["budget"]["games"] == 2 and "3 iterations a move" in done["budget"]["words"]
        assert done["command"] == "eights lab house.toml action --players 3 --games 2 --budget 3 --seed 1"
        titles = [chart["title"] for chart in lab["charts"]]
        assert "Luck against skill" in titles and "Who wins" in titles
        assert all(len(chart["series"]) == 2 for chart in lab["charts"])
        labels = [row["label"] for row in lab["rows"]]
        assert "first to act wins" in labels and "expert beats normal" in labels
        assert any(line.startswith("Power: 2 games can see") for line in lab["notes"])
        # Asked again: the answer kept, at once, not counted against the client's second of work an hour.
        status, again = ask(client, "action", {"stacking": "true"}, 3)
        assert status == 200 and again["cached"] is True and again["lab"] == lab
        status, other = ask(client, "action", {"stacking": "true"}, 4)
        assert status == 429 and other["code"] == "too_many_labs"
        assert "at most 1 second of play every hour" in other["error"]


def test_the_same_rules_give_the_same_figures_on_another_server(tmp_path: Path) -> None:
    answers = []
    for name in ("one.db", "two.db"):
        with served(tmp_path, name) as client:
            _, started = ask(client, "race", {"target_per_player": "10"}, 2)
            answers.append(ended(client, started))
    one, two = (a["lab"] for a in answers)
    assert answers[0]["id"] == answers[1]["id"]
    for part in ("variants", "charts", "rows", "seed"):
        assert one[part] == two[part]


def test_the_plain_preset_is_shown_alone_and_says_so(tmp_path: Path) -> None:
    with served(tmp_path) as client:
        _, started = ask(client, "classic", {}, 2)
        _, same = ask(client, "classic", {"draw": "until_playable"}, 2)  # an option at the preset's own value
        assert same["id"] == started["id"]
        done = ended(client, started)
        assert not done["compared"] and done["changes"] == [] and done["total"] == 2 * 3
        assert "nothing to compare" in done["note"]
        assert [v["name"] for v in done["lab"]["variants"]] == ["classic"]
        assert done["command"] == "eights lab classic --players 2 --games 2 --budget 3 --seed 1"


def test_one_client_s_labs_at_once_and_the_server_s_queue_are_capped(tmp_path: Path) -> None:
    with served(tmp_path, lab_games=60) as client:
        status, first = ask(client, "derange", {}, 4)
        assert status == 202
        status, joined = ask(client, "derange", {}, 4)  # the same rules: the same lab, followed again
        assert status == 202 and joined["id"] == first["id"]
        status, second = ask(client, "classic", {}, 4)
        assert status == 429 and second["code"] == "too_many_labs" and "at most 1 at once" in second["error"]
        labs = client.app.state.labs  # type: ignore[attr-defined]
        until = time.monotonic() + PATIENCE
        while not labs.slots.pids():
            assert time.monotonic() < until
            time.sleep(0.05)
        busy = labs.slots.pids()[0]
    with pytest.raises(ProcessLookupError):
        os.kill(busy, 0)  # the server stopped its lab worker, busy as it was
    with served(tmp_path, "two.db", lab_games=60, labs_at_once_per_client=3, labs_queued=2) as client:
        assert ask(client, "derange", {}, 4)[0] == 202
        status, waiting = ask(client, "derange", {}, 5)
        assert status == 202 and waiting["state"] == "waiting" and waiting["ahead"] == 1
        # the operator sees both (GET /metrics is for this machine: its text, as served): the first one
        # playing, or about to
        shown = client.app.state.metrics.text().decode()  # type: ignore[attr-defined]
        labs = dict(re.findall(r'^eights_labs\{state="(\w+)"\} (\S+)$', shown, re.MULTILINE))
        assert float(labs["waiting"]) + float(labs["playing"]) == 2 and float(labs["waiting"]) >= 1, labs
        status, refused = ask(client, "classic", {}, 4)
        assert status == 429 and refused["code"] == "busy" and "try again in a minute" in refused["error"]


def test_a_lab_stops_at_its_time_and_gives_the_games_played_not_kept(tmp_path: Path) -> None:
    with served(tmp_path, lab_games=50, lab_seconds=0.001) as client:
        _, started = ask(client, "classic", {}, 4)
        done = ended(client, started)
        assert done["state"] == "done" and done["lab"]["partial"] is True
        assert 1 <= done["played"] < done["total"] == 150
        status, again = ask(client, "classic", {}, 4)
        assert status == 202 and "cached" not in again  # played again, not answered from the stopped one
        ended(client, again)


def test_a_clients_labs_are_budgeted_by_their_work_not_counted(tmp_path: Path) -> None:
    # Two-player hands of fifteen cards from two packs: a game costs some thirty times one of classic at four.
    # With 3 seconds of the worker's processor an hour, one such lab stops (partial) once its games used
    # them, well before its time limit, and the client's next lab is refused; another client's are not.
    heavy = {"packs": "2", "deal_two_players": "15", "deal_extra_packs": "15", "stacking": "true"}
    with served(tmp_path, lab_games=60, lab_budget=50, lab_work_per_client="3/hour") as client:
        _, started = ask(client, "action", heavy, 2)
        done = ended(client, started)
        assert done["state"] == "done" and done["lab"]["partial"] is True
        assert 1 <= done["played"] < done["total"] == 60 * 3 * 2
        labs = client.app.state.labs  # type: ignore[attr-defined]
        assert labs.guard.lab_work_left("testclient") == 0  # charged what it used: all of the 3 seconds
        assert labs.guard.lab_work_left("192.0.2.7") == 3
        status, refused = ask(client, "classic", {}, 4)
        assert status == 429 and refused["code"] == "too_many_labs"
        assert refused["error"] == (
            "your labs have used their share of the server's time for now (at most 3 seconds of play every hour): "
            "wait a while"
        )


def test_lab_limits_are_settings_with_ceilings() -> None:
    limits = Limits().with_changes({"lab_games": "12", "lab_budget": "20", "lab_work_per_client": "5/hour"})
    assert (limits.lab_games, limits.lab_budget, limits.lab_work_per_client) == (12, 20, "5/hour")
    with pytest.raises(SettingsError, match=r"limit lab_games: '500' is more than a quick lab plays \(at most 200\)"):
        Limits().with_changes({"lab_games": "500"})
    with pytest.raises(SettingsError, match="limit lab_seconds: '0' must be more than 0"):
        Limits().with_changes({"lab_seconds": "0"})


def test_a_lab_past_its_hard_deadline_is_stopped_with_its_worker_and_the_next_has_a_fresh_one() -> None:
    """A worker still playing ``grace`` seconds past ``lab_seconds`` is stopped, the lab failed in words;
    the same rules asked again start a fresh worker."""
    limits = Limits(lab_games=50, lab_budget=3, lab_seconds=0.001)

    async def until_ended(desk: LabDesk, key: str, seen: set[int]) -> dict[str, Any]:
        until = time.monotonic() + PATIENCE
        while (answer := desk.status(key))["state"] in ("waiting", "playing"):
            seen.update(desk.slots.pids())
            assert time.monotonic() < until, answer
            await asyncio.sleep(0.05)
        return answer

    async def main() -> None:
        desk = LabDesk(limits, Guard(limits), grace=0.001)
        try:
            _, started = desk.ask("derange", {}, 4, "a client")
            first: set[int] = set()
            failed = await until_ended(desk, started["id"], first)
            assert failed["state"] == "failed"
            assert failed["error"] == (
                "the lab took longer than 0.002 s and was stopped: try again when the server is less busy"
            )
            assert len(first) == 1 and desk.slots.pids() == []
            with pytest.raises(ProcessLookupError):
                os.kill(first.pop(), 0)  # stopped, and reaped
            desk.grace = GRACE
            _, again = desk.ask("derange", {}, 4, "a client")  # a failed lab is played again
            assert again["state"] in ("waiting", "playing")
            second: set[int] = set()
            done = await until_ended(desk, again["id"], second)
            assert done["state"] == "done" and done["lab"]["partial"] and len(second) == 1
        finally:
            await desk.aclose()
        assert desk.slots.pids() == []

    asyncio.run(main())


def test_a_lab_whose_worker_is_killed_fails_in_words_and_the_server_goes_on() -> None:
    limits = Limits(lab_games=60, lab_budget=3)

    async def main() -> None:
        desk = LabDesk(limits, Guard(limits))
        try:
            _, started = desk.ask("derange", {}, 4, "a client")
            until = time.monotonic() + PATIENCE
            while desk.status(started["id"])["played"] == 0:  # the worker is up and playing
                assert time.monotonic() < until
                await asyncio.sleep(0.05)
            os.kill(desk.slots.pids()[0], signal.SIGKILL)
            while (answer := desk.status(started["id"]))["state"] == "playing":
                assert time.monotonic() < until
                await asyncio.sleep(0.05)
            assert answer == {
                "id": started["id"],
                "state": "failed",
                "error": "the lab's worker process ended before the lab did: try again in a minute",
            }
            assert desk.slots.pids() == [] and desk.jobs == {}
        finally:
            await desk.aclose()

    asyncio.run(main())
