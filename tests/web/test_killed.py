"""A killed web server loses no saved game: ``eights serve`` in a process of its own is killed with SIGKILL
(no clean shutdown) on a person's turn, started again on the same database, and the person's browser
connection, coming back with its seat token, finds the same seat, hand and record, and plays on."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

from tests.support.browser import PATIENCE, LiveServer, post, saved_moves
from tests.support.moves import first_move


def act(ws: ClientConnection, state: dict[str, Any]) -> None:
    """The first legal move, at the version this seat saw."""
    move = first_move(state["table"])
    ws.send(json.dumps({"type": "act", "version": state["version"], "action": move}))


def my_turn(ws: ClientConnection) -> dict[str, Any]:
    """The next state in which this seat is to act."""
    while True:
        message = json.loads(ws.recv(timeout=PATIENCE))
        table = message.get("table") if message["type"] == "state" else None
        if table and table["legal"]:
            return message


def test_a_killed_server_loses_no_saved_game(tmp_path: Path) -> None:
    server = LiveServer(tmp_path / "served.db", pace=0)
    try:
        seats = ["me", "normal", "easy"]
        room = post(server.base, "/api/rooms", {"name": "Ann", "preset": "race", "seats": seats, "start": True})
        ws_url = server.base.replace("http", "ws") + "/ws"
        with connect(ws_url) as ws:
            ws.send(json.dumps({"type": "hello", "room": room["code"], "token": room["token"]}))
            for _ in range(4):
                state = my_turn(ws)
                act(ws, state)
            state = my_turn(ws)  # the computers wait for Ann: nothing moves until she does
            before = saved_moves(server.db, room["code"])
            server.restart(kill=True)
        assert len(before) >= 4
        with connect(ws_url) as ws:
            ws.send(json.dumps({"type": "hello", "room": room["code"], "token": room["token"]}))
            welcome = json.loads(ws.recv(timeout=PATIENCE))
            assert welcome["type"] == "welcome" and welcome["seat"] == 0
            again = my_turn(ws)
            assert again["version"] > state["version"]  # a state version never goes back, even after a SIGKILL
            assert saved_moves(server.db, room["code"]) == before
            assert again["table"]["hand"] == state["table"]["hand"]
            assert again["table"]["top"] == state["table"]["top"]
            act(ws, again)
            my_turn(ws)
        assert len(saved_moves(server.db, room["code"])) > len(before), "the match goes on, and is saved"
    finally:
        server.stop()
