"""The web table's server through its real HTTP and WebSocket interface (Starlette's test client): a game
against the computer, rooms with friends, every kind of bad message (the room unchanged after each),
rejoining, away players, and a restart that loses nothing."""

from __future__ import annotations

import gc
import json
import time
import weakref
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from eights.engine import view
from eights.store import Store, database_url
from eights.web.app import create_app
from eights.web.protocol import CLOSE_FLOOD, MAX_FRAME
from eights.web.settings import Limits, Settings
from tests.support.moves import first_move

#: Scripted clients send far faster than people.
SCRIPTED = Settings(limits=Limits(messages_per_second=10_000, message_burst=20_000))


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "web.db")


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    store = Store(database_url(db))
    with TestClient(create_app(store, pace=0, settings=SCRIPTED)) as test_client:
        yield test_client
    store.close()


@pytest.fixture
def stack(client: TestClient) -> Iterator[ExitStack]:
    """Sockets a test opens, closed before its client."""
    with ExitStack() as sockets:
        yield sockets


def send(ws: WebSocketTestSession, **message: Any) -> None:
    ws.send_text(json.dumps(message))


def until(ws: WebSocketTestSession, kind: str, check: Any = None) -> dict[str, Any]:
    """The next message of ``kind`` (that passes ``check``), skipping others."""
    for _ in range(5000):
        message = ws.receive_json()
        if message["type"] == kind and (check is None or check(message)):
            return message
    raise AssertionError(f"no {kind} message came")


def my_turn(message: dict[str, Any]) -> bool:
    table = message["table"]
    return table is not None and (bool(table["legal"]) or table["result"] is not None)


def friends_room(
    client: TestClient, stack: ExitStack
) -> tuple[dict[str, Any], WebSocketTestSession, WebSocketTestSession, str]:
    """A room of two people (Ann hosts, Bob sits) and a computer, started; the sockets close with ``stack``."""
    room = client.post("/api/rooms", json={"name": "Ann", "preset": "race", "seats": ["me", "open", "easy"]}).json()
    ann = stack.enter_context(client.websocket_connect("/ws"))
    send(ann, type="hello", room=room["code"], token=room["token"])
    until(ann, "state")
    bob = stack.enter_context(client.websocket_connect("/ws"))
    send(bob, type="hello", room=room["code"], token=None)
    lobby = until(bob, "state")
    assert lobby["room"]["phase"] == "lobby" and [s["kind"] for s in lobby["room"]["seats"]] == [
        "person",
        "open",
        "computer",
    ]
    send(bob, type="sit", seat=1, name="Bob")
    welcome = until(bob, "welcome")
    assert welcome["seat"] == 1 and welcome["token"]
    version = until(ann, "state", lambda m: m["room"]["seats"][1]["kind"] == "person")["version"]
    send(ann, type="start", version=version)  # the states of the match are left for the test to read
    return room, ann, bob, welcome["token"]


def test_a_game_against_the_computer_to_the_end(client: TestClient) -> None:
    room = client.post(
        "/api/rooms",
        json={
            "name": "Ann",
            "preset": "derange",
            "options": {"short_rounds": "true"},
            "seats": ["me", "easy", "normal"],
            "start": True,
        },
    ).json()
    with client.websocket_connect("/ws") as ws:
        send(ws, type="hello", room=room["code"], token=room["token"])
        assert until(ws, "welcome") == {"type": "welcome", "room": room["code"], "seat": 0, "host": True}
        moves = 0
        while True:
            state = until(ws, "state", my_turn)
            table = state["table"]
            if table["result"] is not None:
                break
            assert all(card["label"] for card in table["hand"])
            send(ws, type="act", version=state["version"], action=first_move(table))
            moves += 1
        assert moves > 5 and len(table["result"]["winners"]) >= 1
    record = client.get(f"/api/rooms/{room['code']}/record", headers={"X-Seat-Token": room["token"]})
    assert record.status_code == 200 and '"format": "eights-record/1"' in record.text


def test_bad_messages_are_refused_and_change_nothing(client: TestClient, stack: ExitStack) -> None:
    room, ann, bob, _ = friends_room(client, stack)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    live = hub.rooms[room["code"]]
    for _ in range(10_000):  # the deal, and the computer's turn if it plays first
        if live.session is not None and live.session.game.to_act != 2:
            break
        time.sleep(0.001)
    game = live.session.game
    acting, waiting = (ann, bob) if game.to_act == 0 else (bob, ann)
    state = until(acting, "state", my_turn)
    before = (live.version, len(game.actions), [view(game, s) for s in range(3)])
    version = state["version"]
    hand = {c["code"] for c in state["table"]["hand"]}
    not_held = next(code for code in ("AS", "AH", "AD", "AC", "KS", "KH") if code not in hand)
    cases = [
        ("{not json", "bad_message"),
        ("[1, 2]", "bad_message"),
        (json.dumps({"type": "shout"}), "bad_message"),
        (json.dumps({"type": "act", "version": "seven", "action": "draw"}), "bad_message"),
        (json.dumps({"type": "act", "version": version, "action": "draw", "extra": 1}), "bad_message"),
        ("x" * (MAX_FRAME + 1), "too_big"),
        (json.dumps({"type": "act", "version": version - 1, "action": "draw"}), "stale"),
        (json.dumps({"type": "act", "version": version, "action": "fly away"}), "bad_message"),
        (json.dumps({"type": "act", "version": version, "action": not_held}), "illegal"),
        (json.dumps({"type": "start", "version": version}), "not_host" if acting is bob else "wrong_phase"),
        (json.dumps({"type": "sit", "seat": 2, "name": "Eve"}), "wrong_phase"),
    ]
    for frame, code in cases:
        acting.send_text(frame)
        answer = until(acting, "error")
        assert answer["code"] == code, (frame[:40], answer)
    send(waiting, type="act", version=version, action="draw")
    assert until(waiting, "error")["code"] == "not_your_turn"
    assert (live.version, len(game.actions), [view(game, s) for s in range(3)]) == before


def test_a_flood_is_refused_then_cut_off(db: str) -> None:
    store = Store(database_url(db))
    # Next to no refill: the count of messages, not the machine's speed, decides (a burst of 40).
    with TestClient(create_app(store, pace=0, settings=Settings(limits=Limits(messages_per_second=0.001)))) as client:
        flood(client)
    store.close()


def flood(client: TestClient) -> None:
    room = client.post("/api/rooms", json={"name": "Ann", "seats": ["me", "open"]}).json()
    with client.websocket_connect("/ws") as ws:
        send(ws, type="hello", room=room["code"], token=room["token"])
        until(ws, "state")
        for _ in range(300):
            send(ws, type="ping")
        codes = []
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(400):
                message = ws.receive_json()
                codes.append(message.get("code") or message["type"])
        assert closed.value.code == CLOSE_FLOOD
        assert "too_fast" in codes and codes.count("pong") == 39  # the burst, less the hello
    assert client.get(f"/api/rooms/{room['code']}").json()["phase"] == "lobby"


def test_rejoining_twice_keeps_the_seat_and_drops_the_old_connection(client: TestClient, stack: ExitStack) -> None:
    room, _ann, bob, bob_token = friends_room(client, stack)
    again = stack.enter_context(client.websocket_connect("/ws"))
    send(again, type="hello", room=room["code"], token=bob_token)
    assert until(again, "welcome")["seat"] == 1
    assert until(bob, "replaced") == {"type": "replaced"}
    third = stack.enter_context(client.websocket_connect("/ws"))
    send(third, type="hello", room=room["code"], token=bob_token)
    assert until(third, "welcome")["seat"] == 1
    state = until(third, "state")
    assert [s["name"] for s in state["room"]["seats"]][:2] == ["Ann", "Bob"]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    seat_connections = [c for c in hub.rooms[room["code"]].connections if c.seat == 1]
    assert len(seat_connections) == 1


def test_a_spectator_sees_no_hand_and_cannot_act(client: TestClient, stack: ExitStack) -> None:
    room, _ann, _bob, _ = friends_room(client, stack)
    with client.websocket_connect("/ws") as watcher:
        send(watcher, type="hello", room=room["code"], token=None)
        assert until(watcher, "welcome")["seat"] is None
        state = until(watcher, "state")
        assert state["table"]["hand"] == [] and state["table"]["legal"] == []
        send(watcher, type="act", version=state["version"], action="draw")
        assert until(watcher, "error")["code"] == "not_seated"


def test_names_and_tokens_are_checked(client: TestClient) -> None:
    assert client.post("/api/rooms", json={"name": "  "}).status_code == 400
    bad = client.post("/api/rooms", json={"name": "Ann", "seats": ["me", "wizard"]})
    assert bad.status_code == 400 and "wizard" in bad.json()["error"]
    room = client.post("/api/rooms", json={"name": "Ann", "seats": ["me", "open", "open"]}).json()
    with client.websocket_connect("/ws") as ws:
        send(ws, type="hello", room=room["code"], token="forged")
        assert until(ws, "error")["code"] == "bad_token"
        send(ws, type="hello", room=room["code"], token=None)
        until(ws, "state")
        send(ws, type="sit", seat=1, name="ann")
        assert until(ws, "error")["code"] == "bad_name"
        send(ws, type="sit", seat=0, name="Eve")
        assert until(ws, "error")["code"] == "seat_taken"
        send(ws, type="sit", seat=1, name="<b>Eve</b>")
        assert until(ws, "welcome")["seat"] == 1
        state = until(ws, "state")
        assert state["room"]["seats"][1]["name"] == "<b>Eve</b>"  # sent as text; the page shows it as text


def test_a_restarted_server_takes_every_room_up_again(db: str) -> None:
    store = Store(database_url(db))
    with TestClient(create_app(store, pace=0, settings=SCRIPTED)) as client:
        room = client.post(
            "/api/rooms", json={"name": "Ann", "preset": "action", "seats": ["me", "normal", "easy"], "start": True}
        ).json()
        with client.websocket_connect("/ws") as ws:
            send(ws, type="hello", room=room["code"], token=room["token"])
            for _ in range(3):
                state = until(ws, "state", my_turn)
                send(ws, type="act", version=state["version"], action=first_move(state["table"]))
            state = until(ws, "state", my_turn)
        before = client.app.state.hub.rooms[room["code"]].session.game  # type: ignore[attr-defined]
        views = [view(before, s) for s in range(3)]
    store.close()

    store = Store(database_url(db))
    with TestClient(create_app(store, pace=0)) as client:
        after = client.app.state.hub.get(room["code"]).session.game  # type: ignore[attr-defined]  # taken up now
        assert [view(after, s) for s in range(3)] == views
        with client.websocket_connect("/ws") as ws:
            send(ws, type="hello", room=room["code"], token=room["token"])
            assert until(ws, "welcome")["seat"] == 0
            again = until(ws, "state")
            assert again["table"]["hand"] == state["table"]["hand"]
            assert again["version"] > state["version"]  # never back: a late message from before cannot match
            send(ws, type="act", version=again["version"], action=first_move(again["table"]))
            until(ws, "state", lambda m: m["version"] > again["version"])
    store.close()


def test_presets_and_rules_come_from_the_rule_sets(client: TestClient) -> None:
    presets = client.get("/api/presets").json()
    assert [p["name"] for p in presets["presets"]] == ["classic", "action", "race", "derange", "baby-eating"]
    derange = next(p for p in presets["presets"] if p["name"] == "derange")
    keys = {o["key"]: o for o in derange["options"]}
    assert keys["short_rounds"]["kind"] == "bool" and keys["packs"]["kind"] == "int"
    rules = client.get("/api/rules", params={"preset": "action", "option": "stacking=true"}).json()
    stacking = next(s for s in rules["sections"] if s["title"] == "Stacking")
    assert stacking["lines"][0].startswith("On: you may lay several cards of one rank")
    assert client.get("/api/rules", params={"preset": "action", "option": "stacking=maybe"}).status_code == 400
    assert client.get("/api/rooms/NOPE9").status_code == 404


def test_a_closed_connection_is_freed_without_waiting_for_a_full_collection(client: TestClient) -> None:
    """Nothing holds a closed connection in a reference cycle: ``eights serve`` makes Python's full
    collections rare, and a cycle would keep each closed connection (its compression state with it) until one."""
    made = client.post("/api/rooms", json={"name": "Ann", "seats": ["me", "open"]}).json()
    room = client.app.state.hub.get(made["code"])  # type: ignore[attr-defined]
    gc.collect()
    gc.disable()
    try:
        with client.websocket_connect("/ws") as ws:
            send(ws, type="hello", room=made["code"], token=made["token"])
            until(ws, "state")
            connection = weakref.ref(room.connections[0])
        for _ in range(500):
            if connection() is None:
                break
            time.sleep(0.01)  # the server's side of the socket is still closing
        assert connection() is None, gc.get_referrers(connection())
    finally:
        gc.enable()


def test_the_state_says_who_the_last_card_skipped_how_often_it_reversed_and_the_chain_pending() -> None:
    """What the page marks, turns and pops comes from the game itself, not from reading the narration: the
    seats the last card to reach the pile made lose their turn (action: queens skip), the times it reversed
    the direction (action: aces reverse, two stacked ones twice) and the chain of 2s pending (race: 2s
    chain), in random games at four players."""
    import random

    from eights.engine import Game
    from eights.engine.events import CardPlayed, DirectionReversed, PlayerSkipped, StarterTurned
    from eights.rules import load_preset
    from eights.web.tableview import last_card_effects

    skips = chains = 0
    reverses: set[int] = set()
    for preset, options in (("action", {}), ("action", {"stacking": "true"}), ("race", {})):
        rules = load_preset(preset).with_options(options)
        for seed in range(20):
            game = Game(rules, 4, seed)
            rng = random.Random(seed)
            while not game.is_over and len(game.actions) < 400:
                events = game.play(rng.choice(game.legal_actions()))
                seen = view(game, 0)
                cards = [i for i, e in enumerate(events) if isinstance(e, CardPlayed | StarterTurned)]
                if cards:
                    after = events[cards[-1] :]
                    expected = [e.seat for e in after if isinstance(e, PlayerSkipped)]
                    turned = sum(isinstance(e, DirectionReversed) for e in after)
                    assert last_card_effects(seen) == {"skipped": expected, "reversed": turned}
                    skips += bool(expected)
                    reverses.add(turned)
                chains += seen.chain > 2
    assert skips > 0 and chains > 0, "the games held skips and chains grown past one 2"
    assert {0, 1, 2} <= reverses, f"the games held single and double reverses: {reverses}"


def test_my_rooms_are_told_by_their_tokens_and_a_stranger_learns_nothing(client: TestClient) -> None:
    """POST /api/rooms/mine (the home page's Continue): a room held with its seat's token is offered with its
    game; a wrong token, another room's token or a code that leads nowhere are all "gone" alike; at most 8."""
    mine = client.post("/api/rooms", json={"name": "Ann", "seats": ["me", "easy"], "start": True}).json()
    other = client.post("/api/rooms", json={"name": "Bob", "seats": ["me", "open"]}).json()
    asked = [
        {"code": mine["code"], "token": mine["token"]},
        {"code": mine["code"].lower(), "token": other["token"]},
        {"code": other["code"], "token": "not-a-token"},
        {"code": "NOPE9", "token": mine["token"]},
    ]
    answer = client.post("/api/rooms/mine", json={"rooms": asked})
    assert answer.status_code == 200
    body = answer.json()
    assert body["games"] == [
        {
            "code": mine["code"],
            "phase": "playing",
            "title": "Classic Crazy Eights",
            "seat": 0,
            "name": "Ann",
            "others": ["computer (easy)"],
        }
    ]
    assert body["gone"] == [mine["code"].lower(), other["code"], "NOPE9"]
    nine = [{"code": mine["code"], "token": mine["token"]}] * 9
    refused = client.post("/api/rooms/mine", json={"rooms": nine})
    assert refused.status_code == 400 and "rooms" in refused.json()["error"]
