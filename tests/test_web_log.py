"""The web table's narration: told by the table layer's Narrator (as in the terminal), so one player's
draws in a row are one line, and sent a little at a time so that the lines a browser puts together are
the lines a newcomer gets at once."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from eights.store import Store, database_url
from eights.web.app import create_app
from eights.web.settings import Limits, Settings

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
                draw = next((m for m in table["legal"] if m["kind"] == "draw"), table["legal"][0])
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
