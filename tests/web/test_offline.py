"""The rooms of the app with no server (``eights.web.offline``), in CPython: the page's questions and messages
answered as the server answers them, refusals in the player's words, the hint, the record, a record watched,
and a match kept on the device taken up again where it stood. The browser runs the very same module
(tests/web/test_browser_app.py)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from eights.record import GameRecord
from eights.web.offline import Offline


class Page:
    """What the page would be: the device's keeping (a dict for IndexedDB) and the messages delivered."""

    def __init__(self, kept: dict[str, str] | None = None) -> None:
        self.kept: dict[str, str] = {} if kept is None else kept
        self.got: list[dict[str, Any]] = []
        self.rooms = Offline(
            self.kept.__setitem__, lambda _, text: self.got.append(json.loads(text)), list(self.kept.values()), pace=0.0
        )

    async def ask(self, method: str, url: str, body: Any = None, token: str = "") -> tuple[int, Any]:
        text = await self.rooms.api(method, url, "" if body is None else json.dumps(body), token)
        answer = json.loads(text)
        return answer["status"], json.loads(answer["body"])

    async def say(self, message: dict[str, Any]) -> None:
        await self.rooms.message(1, json.dumps(message))

    def last(self, kind: str) -> dict[str, Any]:
        return next(m for m in reversed(self.got) if m["type"] == kind)

    async def my_turn(self) -> dict[str, Any]:
        for _ in range(400):
            await asyncio.sleep(0.01)
            state = self.last("state")
            if state["room"]["phase"] == "over" or state["table"]["legal"]:
                return state
        raise AssertionError("no turn came")


async def new_game(page: Page, seats: list[str], preset: str = "classic") -> tuple[str, str]:
    status, body = await page.ask("POST", "/api/rooms", {"name": "Ann", "preset": preset, "seats": seats})
    assert status == 200, body
    page.rooms.open(1)
    await page.say({"type": "hello", "room": body["code"], "token": body["token"]})
    return body["code"], body["token"]


def test_refusals_name_the_problem_and_change_nothing() -> None:
    async def run() -> None:
        page = Page()
        status, body = await page.ask("POST", "/api/rooms", {"name": "Ann", "preset": "poker", "seats": ["me", "easy"]})
        assert status == 400 and body["error"].startswith("unknown preset 'poker'; valid: classic")
        status, body = await page.ask("POST", "/api/rooms", {"name": "Ann", "seats": ["me", "open"]})
        assert status == 400 and "need the server" in body["error"]
        await new_game(page, ["me", "easy"])
        state = await page.my_turn()
        await page.say({"type": "act", "version": state["version"], "action": "play XX"})
        assert (
            page.last("error")["code"] == "bad_message" and "'play XX' is not a move" in page.last("error")["message"]
        )
        await page.say({"type": "nonsense"})
        assert page.last("error")["message"].startswith("'nonsense' is not a message; valid: hello, ping, sit")
        await page.say({"type": "act"})
        assert page.last("error")["message"] == "that message is missing a field or has one of the wrong kind"
        assert page.last("state")["version"] == state["version"]

    asyncio.run(run())


def test_a_hint_a_whole_match_its_record_and_the_record_watched() -> None:
    async def run() -> None:
        page = Page()
        code, token = await new_game(page, ["me", "normal"])
        state = await page.my_turn()
        await page.say({"type": "hint", "version": state["version"]})
        await asyncio.sleep(0.05)
        assert page.last("hint")["text"].startswith("Hint: ")
        while (state := await page.my_turn())["room"]["phase"] != "over":
            await page.say({"type": "act", "version": state["version"], "action": state["table"]["legal"][0]["action"]})
        status, record = await page.ask("GET", f"/api/rooms/{code}/record", token=token)
        assert status == 200
        game = GameRecord.from_json(json.dumps(record)).replay()  # raises unless it replays to its own result
        assert game.outcome is not None and list(game.outcome.winners) == record["result"]["winners"]
        status, refused = await page.ask("GET", f"/api/rooms/{code}/record", token="not-a-token")
        assert status == 400 and refused["code"] == "not_a_player"
        status, watched = await page.ask("POST", "/api/watch", record)
        assert status == 200
        page.rooms.open(2)
        await page.rooms.message(2, json.dumps({"type": "hello", "room": watched["code"]}))
        for _ in range(400):
            await asyncio.sleep(0.01)
            if page.last("state")["room"]["phase"] == "over":
                break
        assert page.last("state")["table"]["result"]["winners"] == record["result"]["winners"]
        status, bad = await page.ask("POST", "/api/watch", {**record, "actions": ["draw", *record["actions"]]})
        assert status == 400 and bad["code"] == "bad_record"

    asyncio.run(run())


def test_a_match_kept_on_the_device_goes_on_where_it_stood() -> None:
    async def run() -> tuple[dict[str, str], str, str, dict[str, Any]]:
        page = Page()
        code, token = await new_game(page, ["me", "easy", "easy"], preset="race")
        for _ in range(3):
            state = await page.my_turn()
            await page.say({"type": "act", "version": state["version"], "action": state["table"]["legal"][0]["action"]})
        return page.kept, code, token, (await page.my_turn())["table"]

    kept, code, token, table = asyncio.run(run())

    async def again() -> dict[str, Any]:
        page = Page(dict(kept))  # a new page: the worker started again from what the device kept
        status, matches = await page.ask("GET", "/api/matches")
        assert status == 200 and matches[0]["code"] == code and matches[0]["phase"] == "playing"
        page.rooms.open(1)
        await page.say({"type": "hello", "room": code, "token": token})
        table: dict[str, Any] = (await page.my_turn())["table"]
        return table

    assert asyncio.run(again()) == table
