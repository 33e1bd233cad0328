"""One stranger cannot freeze the server with heavy rules (issue 37): a real ``eights`` server (uvicorn, in a
thread of the test's process so that a test can stand in for a long computation) over real sockets.

- A hint is worked out off the event loop: while it is being worked out, ``/healthz`` and another room answer.
- Past the deadline the player is told there is no hint this time, and the copy of the computer that was
  working it out was told the deadline (its planner stops there: tests/bots/test_normal.py counts it).
- Rules that deal absurd hands are refused for a room and a lab, naming the bound; every preset's own
  deals and the usual house rules pass.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from websockets.sync.client import ClientConnection, connect

from eights.bots import HeuristicBot, Hint
from eights.engine import View
from eights.rules import PRESETS, RulesError, load_preset
from eights.store import Store, database_url
from eights.web.app import create_app
from eights.web.rooms.seats import check_hands, rules_from
from eights.web.settings import Limits, Settings
from tests.support.browser import PATIENCE, free_port
from tests.support.moves import moves

#: The issue's rules: two packs, fifty cards a hand.
ABSURD = {"packs": "2", "deal_two_players": "50", "deal_extra_packs": "50"}
#: The heaviest hands the server deals by default: two packs, fifteen cards a hand, stacking.
HEAVIEST = {"packs": "2", "deal_two_players": "15", "deal_extra_packs": "15", "stacking": "true"}
#: Scripted clients send far faster than people.
SCRIPTED = {"messages_per_second": 10_000.0, "message_burst": 20_000}


@contextmanager
def served(tmp_path: Path, **limits: Any) -> Iterator[str]:
    """The server on a free port of this machine, in a thread; its base address."""
    store = Store(database_url(str(tmp_path / "heavy.db")))
    app = create_app(store, pace=0, settings=Settings(limits=Limits(**{**SCRIPTED, **limits})))
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, name="eights-served", daemon=True)
    thread.start()
    try:
        until = time.monotonic() + PATIENCE
        while not server.started:
            assert thread.is_alive() and time.monotonic() < until, "the server did not start"
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(PATIENCE)
        store.close()


def call(base: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=PATIENCE) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def socket(base: str) -> ClientConnection:
    return connect(base.replace("http", "ws") + "/ws", open_timeout=PATIENCE)


def say(ws: ClientConnection, **message: Any) -> None:
    ws.send(json.dumps(message))


def until(ws: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=PATIENCE))
        if message["type"] == kind:
            return message


def room(base: str, options: dict[str, str]) -> dict[str, Any]:
    """A room of 2-player ``action`` with ``options`` against the normal computer, started."""
    body = {"name": "Ann", "preset": "action", "options": options, "seats": ["me", "normal"], "start": True}
    status, made = call(base, "/api/rooms", body)
    assert status == 200, made
    return dict(made)


def my_turn(ws: ClientConnection, made: dict[str, Any]) -> dict[str, Any]:
    """The first state of the room ``made`` where its person, on ``ws``, is to act."""
    say(ws, type="hello", room=made["code"], token=made["token"])
    while True:
        state = until(ws, "state")
        if state["table"]["legal"]:
            return state


class Gate:
    """Stands in for a hint that takes long: ``HeuristicBot.hint`` waits until the test opens the gate."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, wait: float) -> None:
        self.asked = threading.Event()
        self.open = threading.Event()
        self.opened_in_time: bool | None = None
        #: What happened, in order: the test's steps and the hint's (from the server's threads).
        self.events: list[str] = []
        #: The deadline the copy of the computer working the hint out was told.
        self.deadline: float | None = None
        real = HeuristicBot.hint

        def hint(bot: HeuristicBot, seen: View) -> Hint:
            self.deadline = bot.deadline
            self.events.append("hint asked")
            self.asked.set()
            self.opened_in_time = self.open.wait(wait)
            self.events.append("hint worked out")
            return real(bot, seen)

        monkeypatch.setattr(HeuristicBot, "hint", hint)


def test_while_a_hint_is_worked_out_the_server_answers_everyone_else(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = Gate(monkeypatch, wait=10.0)
    events = gate.events
    with served(tmp_path) as base, socket(base) as ws, socket(base) as other:
        state = my_turn(ws, room(base, HEAVIEST))
        my_turn(other, room(base, {}))
        say(ws, type="hint", version=state["version"])
        assert gate.asked.wait(PATIENCE)
        status, health = call(base, "/healthz")
        assert status == 200 and health["status"] == "ok"
        events.append("healthz answered")
        say(other, type="ping")
        until(other, "pong")
        events.append("another room answered")
        gate.open.set()
        hint = until(ws, "hint")
        events.append("hint received")
    # Before, the hint ran on the event loop: nothing answered until it was done (the gate gave up waiting).
    assert events == ["hint asked", "healthz answered", "another room answered", "hint worked out", "hint received"]
    assert gate.opened_in_time is True
    assert hint["action"] in [move["action"] for move in moves(state["table"])]
    assert hint["text"].startswith("Hint: ")


def test_past_the_deadline_the_player_hears_there_is_no_hint_and_the_work_was_told_to_stop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = Gate(monkeypatch, wait=PATIENCE)
    with served(tmp_path, think_seconds=0.1) as base, socket(base) as ws:  # a deadline of 2.1 s
        state = my_turn(ws, room(base, HEAVIEST))
        say(ws, type="hint", version=state["version"])
        assert gate.asked.wait(PATIENCE)
        say(ws, type="hint", version=state["version"])  # one at a time
        busy = until(ws, "error")
        refused = until(ws, "error")
        gate.open.set()
    assert busy == {
        "type": "error",
        "code": "too_fast",
        "message": "a hint is being worked out already: it comes in a moment",
    }
    assert refused["code"] == "no_hint" and "took too long" in refused["message"]
    # The copy of the computer working it out was told the deadline: its planner stops there by itself.
    assert gate.deadline is not None and gate.deadline <= time.perf_counter()


def test_a_room_or_a_lab_with_absurd_hands_is_refused_naming_the_bound(tmp_path: Path) -> None:
    with served(tmp_path) as base:
        body = {"name": "Ann", "preset": "action", "options": ABSURD, "seats": ["me", "normal"], "start": True}
        status, refused = call(base, "/api/rooms", body)
        assert status == 400
        assert refused["error"] == (
            "deal_two_players, deal_extra_packs: a hand of 50 cards is more than this server deals "
            "(at most 15 cards a hand); deal fewer"
        )
        status, lab = call(base, "/api/lab", {"preset": "action", "options": ABSURD, "players": 2})
        assert status == 400 and "at most 15 cards a hand" in lab["error"]
        # The host of a lobby cannot set them up either; the rules allowed still play.
        status, made = call(base, "/api/rooms", {"name": "Ann", "preset": "action", "seats": ["me", "open"]})
        assert status == 200
        with socket(base) as ws:
            say(ws, type="hello", room=made["code"], token=made["token"])
            version = until(ws, "state")["version"]
            setup = {"preset": "action", "players": 2, "seats": ["person", "normal"], "away_seconds": 60}
            say(ws, type="setup", version=version, options=ABSURD, **setup)
            error = until(ws, "error")
            assert error["code"] == "bad_setup" and "at most 15 cards a hand" in error["message"]
            say(ws, type="setup", version=version, options=HEAVIEST, **setup)
            assert until(ws, "state")["room"]["options"]


@pytest.mark.parametrize("preset", PRESETS)
def test_every_presets_deals_and_the_usual_house_rules_pass_the_bound(preset: str) -> None:
    most = Limits().max_hand_size
    plain = load_preset(preset)
    house = {
        "classic": [{"deal": "7"}, {"deal_two_players": "7"}, {"deal": "10"}],
        "action": [{"packs": "2"}, {"packs": "3"}, {"stacking": "true", "score_keeping": "true"}, {"deal": "7"}],
        "race": [{"deal": "7"}, {"deal_two_players": "10"}],
        "derange": [{"packs": "4"}, {"short_rounds": "true"}, {"rounds": "10,9,8,7,6,5,4,3,2,1"}],
        "baby-eating": [{"expanded_deck": "true"}, {"teams": "true"}],
    }[preset]
    for options in [{}, *house]:
        rules = rules_from(preset, options)
        for players in range(plain.min_players, plain.max_players + 1):
            try:
                rules.check_players(players)
            except RulesError:
                continue  # a table these rules do not seat: refused for that already
            check_hands(rules, players, most)
