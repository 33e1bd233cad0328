"""A store that blinks changes no game: a move is played only once PostgreSQL has it, a move it could not
keep leaves the table as it was (also across a SIGKILL of the server), an answer lost after COMMIT neither
wedges the room nor loses the move, and the room goes on by itself when the store is back.

Real parts: ``eights serve`` in a process of its own, a throwaway PostgreSQL server stopped and started
under it (tests/support/postgres.py), and a cable to it that can cut a connection right after COMMIT
(tests/support/pg_proxy.py). Every state the player was sent is held against a replay of what the store kept
(tests/support/store_check.py)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.support.browser import Browser, LiveServer, play, post
from tests.support.pg_proxy import proxied
from tests.support.store_check import check_seen


def new_room(server: LiveServer) -> tuple[str, Browser]:
    """A classic match of a person (Ann) and two computers, started; Ann's page, connected."""
    seats = ["me", "normal", "easy"]
    room = post(server.base, "/api/rooms", {"name": "Ann", "preset": "classic", "seats": seats, "start": True})
    ann = Browser([server.base], room["code"], room["token"])
    ann.open()
    return room["code"], ann


def next_message(ann: Browser, kind: str) -> dict[str, Any]:
    """The next message of ``kind``; every message before it must be of no other kind that changes the
    table (a state in between fails)."""
    while (message := ann.next())["type"] != kind:
        assert message["type"] not in ("state", "error"), f"{message['type']} came before the {kind}: {message}"
    return message


def to_the_end(ann: Browser, state: dict[str, Any]) -> None:
    """Play on from ``state`` (the last one Ann was sent) to the match's end."""
    if state["room"]["phase"] != "over":
        if state["table"]["legal"]:
            ann.act(state)
        play([ann], 10_000)
    assert ann.seen[-1]["room"]["phase"] == "over"


def quiet(ann: Browser) -> None:
    """Nothing is on its way to Ann: a ping's pong comes with no state before it."""
    ann.send({"type": "ping"})
    next_message(ann, "pong")


def failed_to_save(server: LiveServer) -> None:
    """Wait (a few seconds at most) until the server has logged that the store failed it."""
    for _ in range(300):
        if "the store failed" in server.logged():
            return
        time.sleep(0.05)
    raise AssertionError(f"the server never logged that the store failed: {server.logged()[-2000:]!r}")


def test_a_move_postgresql_could_not_keep_is_not_played_and_the_room_goes_on(postgres: Any, tmp_path: Path) -> None:
    server = LiveServer(postgres.url, pace=0)
    code, ann = new_room(server)
    try:
        play([ann], 3)
        state = ann.my_turn()
        quiet(ann)
        postgres.stop()
        move = ann.act(state)
        refused = next_message(ann, "error")
        assert refused["code"] == "unsaved", refused
        assert "not played" in refused["message"]
        quiet(ann)  # nobody was sent a table with the move on it
        ann.close()
        ann.ws = None
        again = ann.state()  # a reload shows the table as it was
        assert again["version"] == state["version"]
        assert again["table"]["hand"] == state["table"]["hand"]
        ann.send({"type": "act", "version": state["version"], "action": move})
        assert next_message(ann, "error")["code"] == "unsaved", "while the store is down, no move is played"
        postgres.start()
        # The server is killed before it saves anything more: the table it takes up again is the one shown.
        server.restart(kill=True)
        ann.ws = None
        taken_up = ann.state()
        assert taken_up["table"]["hand"] == state["table"]["hand"]
        assert taken_up["table"]["top"] == state["table"]["top"]
        to_the_end(ann, taken_up)  # and the match goes on to its end
        assert check_seen(postgres.url, code, {0: ann.seen}) > 5
    finally:
        ann.close()
        server.stop()


def test_the_room_goes_on_by_itself_when_the_store_is_back(postgres: Any, tmp_path: Path) -> None:
    """The computers' moves wait for the store and are played once it answers again; nobody has to act."""
    server = LiveServer(postgres.url, pace=1.0)  # a second between computer moves: time to stop the store
    code, ann = new_room(server)
    try:
        taken = ann.my_turn()
        while taken["table"]["to_act"] == 0:  # (a draw in classic leaves Ann to move again)
            ann.act(taken)
            taken = ann.state()
        assert taken["room"]["phase"] == "playing", "Ann's move is played: the computers are to move"
        postgres.stop()
        failed_to_save(server)  # a computer's move came while the store was down
        quiet(ann)
        assert ann.seen[-1] is taken, "while the store is down, the computers' moves are not played"
        postgres.start()
        later = ann.my_turn()  # with nobody acting, the computers' turns come, and then Ann's
        assert later["version"] > taken["version"]
        to_the_end(ann, later)
        check_seen(postgres.url, code, {0: ann.seen})
    finally:
        ann.close()
        server.stop()


def test_an_answer_lost_after_commit_neither_wedges_the_room_nor_loses_the_move(postgres: Any, tmp_path: Path) -> None:
    with proxied(postgres.folder) as cable:
        server = LiveServer(cable.url, pace=0)
        code, ann = new_room(server)
        try:
            play([ann], 3)
            state = ann.my_turn()
            quiet(ann)
            cable.refuse()  # the writer cannot ask again at once on a new connection
            cable.cut_after_commit()
            ann.act(state)
            refused = next_message(ann, "error")
            assert refused["code"] == "unsaved", refused
            assert cable.cuts == 1
            cable.accept()
            # The store had kept the move: once it answers, the table shows it, with nobody acting again.
            shown = ann.state()
            while shown["version"] == state["version"]:
                shown = ann.state()
            # (Not only the hand or the top card: naming the suit after an 8 changes neither.)
            assert shown["table"] != state["table"]
            to_the_end(ann, shown)  # and every later move is saved: the match ends, its record whole
            check_seen(cable.url, code, {0: ann.seen})
        finally:
            ann.close()
            server.stop()


def test_a_commit_retried_after_a_lost_answer_is_kept_once(postgres: Any, redis_url: str) -> None:
    """When the writer can ask again at once, the move it had committed is found and counted as kept (here
    in a room of an instance of many, whose every write checks its fence)."""
    with proxied(postgres.folder) as cable:
        server = LiveServer(cable.url, pace=0, options=("--redis", redis_url))
        code, ann = new_room(server)
        try:
            play([ann], 3)
            state = ann.my_turn()
            quiet(ann)
            cable.cut_after_commit()
            ann.act(state)
            shown = ann.state()
            assert shown["version"] > state["version"], "the move is played: the retry found it kept"
            assert cable.cuts == 1
            to_the_end(ann, shown)
            check_seen(cable.url, code, {0: ann.seen})
        finally:
            ann.close()
            server.stop()
