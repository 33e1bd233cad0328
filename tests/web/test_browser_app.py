"""The app that plays with no server (issue 39), in a real browser: ``eights serve`` serves it at /app/; a phone
opens it once online, then the server is stopped and the browser cut off the network, and the app opens
again and plays a whole match of every preset against the computer, and one passing the phone; a match
closed midway continues where it stood; a record downloaded in the browser replays in ``eights replay``; the
app and the score sheet pass Chromium's installability check; and the browser's Python (Pyodide) plays 200
games exactly as CPython does.

"No server" is the server process stopped and the browser context set offline, as a phone on a plane.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from eights.web.site import runtime_dir
from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, PATIENCE, PHONE, LiveServer, post
from tests.support.lockstep import run
from tests.web.test_browser_table import NEXT, SHORT

WAIT = PATIENCE * 1000
#: The app's address with computers that move at once (a person's pace is 0.7 s a move).
QUICK = "/app/?pace=0"
#: Modules the browser's Python must never load: validation, web server, database, Redis, the server's sockets.
FORBIDDEN = ("pydantic", "fastapi", "starlette", "redis", "psycopg", "sqlite3", "websockets", "eights.store")


class Phone:
    """One phone's browser context, the app opened once online, then offline with the server stopped."""

    def __init__(self, context: Any, server: LiveServer) -> None:
        self.context = context
        self.server = server
        self.base = server.base
        self.installability: dict[str, list[Any]] = {}

    def page(self) -> Any:
        page = self.context.new_page()
        page.on("pageerror", lambda problem: pytest.fail(f"the page failed: {problem}"))
        return page

    def open_app(self, page: Any) -> None:
        page.goto(self.base + QUICK)
        page.wait_for_selector("#new-game", state="visible", timeout=WAIT)


@pytest.fixture(scope="module")
def phone(chromium: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Phone]:
    runtime_dir()  # fetched once into the user's cache (npm), before the server builds the app from it
    server = LiveServer(tmp_path_factory.mktemp("app") / "served.db")
    # a profile on disk, as a phone's browser has: Chromium installs no app from an incognito window
    profile = tmp_path_factory.mktemp("profile")
    context = chromium.browser_type.launch_persistent_context(
        profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS, **PHONE
    )
    try:
        phone = Phone(context, server)
        page = phone.page()
        phone.open_app(page)
        page.evaluate("async () => { await navigator.serviceWorker.ready; }")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=WAIT)
        cdp = context.new_cdp_session(page)
        phone.installability["app"] = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        page.goto(f"{server.base}/scorecard")
        page.wait_for_selector('body[data-offline="ready"]', state="attached", timeout=WAIT)
        phone.installability["scorecard"] = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        page.close()
        server.stop()
        context.set_offline(True)
        yield phone
    finally:
        context.close()
        server.stop()


def start_game(page: Any, preset: str, players: int, options: dict[str, str], seats: list[str]) -> None:
    """A new game from the app's home page: the preset, the players, each other seat (a level, or "here" for a
    person passing the phone), the options."""
    page.fill("#name", "Ann")
    page.check(f"#new-preset-{preset}")
    page.select_option("#new-players", str(players))
    for seat, who in enumerate(seats, 1):
        page.select_option(f"#new-seat-{seat}", who)
    for key, value in options.items():
        field = f"#new-option-{key}"
        if not page.is_visible(field):
            page.click(".more-options summary")
        if page.get_attribute(field, "type") == "checkbox":
            page.set_checked(field, value == "true")
        else:
            page.fill(field, value)
            page.press(field, "Tab")
    page.click("#play-now")
    page.wait_for_selector("#hand .card, #pass:not([hidden])", timeout=WAIT)


def play_to_end(page: Any, moves: int | None = None) -> int:
    """Tap through the match as a person would (a round's end closed, a dialog's first choice, the first
    marked card or move, the phone passed on) until its end, or until ``moves`` moves were made. The moves."""
    made = 0
    for _ in range(3000):
        if not page.is_hidden("#pass"):
            page.click("#pass-ready")
            continue
        what = page.evaluate(NEXT)
        if what == "end" or (moves is not None and made >= moves and what == "turn"):
            return made
        if what == "dialog":
            choice = page.locator("#dialog .suit-choice, #dialog .move-choice").first
            page.click("#dialog-close") if not choice.count() else choice.click()
        elif what == "turn":
            page.locator("#hand .card.marked, #moves button").first.click()
            made += 1
        page.wait_for_timeout(20)
    raise AssertionError("the match did not end")


def hand_and_top(page: Any) -> dict[str, Any]:
    return dict(
        page.evaluate(
            """() => ({
              hand: [...document.querySelectorAll("#hand .card")].map((c) => c.dataset.code),
              top: document.querySelector("#top-card .card").getAttribute("aria-label"),
              round: document.querySelector("#round").textContent,
              seats: [...document.querySelectorAll("#seats .count")].map((c) => c.textContent),
            })"""
        )
    )


def test_the_app_and_the_score_sheet_are_installable(phone: Phone) -> None:
    assert phone.installability == {"app": [], "scorecard": []}


@pytest.mark.parametrize("preset", SHORT)
def test_a_whole_match_offline_in_every_preset_and_its_record_replays(
    phone: Phone, preset: str, tmp_path: Path
) -> None:
    players, options = SHORT[preset]
    page = phone.page()
    try:
        phone.open_app(page)
        assert "need the server" in page.inner_text("#new-game")  # rooms with friends: said plainly
        start_game(page, preset, players, options, ["easy"] * (players - 1))
        assert play_to_end(page) > 0
        heading = page.text_content("#result h2") or ""
        with page.expect_download() as download:
            page.click("#tool-record")
        record = tmp_path / "record.json"
        download.value.save_as(record)
        kept = json.loads(record.read_text())
        names = kept.get("names") or []
        winners = [names[seat] for seat in kept["result"]["winners"]]
        assert winners and all(name in heading for name in winners), (heading, winners)
        replayed = subprocess.run(
            [sys.executable, "-m", "eights.cli", "replay", str(record)], capture_output=True, text=True, check=True
        )
        assert "The replay matches the record." in replayed.stdout
        if preset == "classic":  # the record watched in the app, to the same end; and a rematch, offline too
            watcher = phone.page()
            phone.open_app(watcher)
            watcher.set_input_files("#watch-file", record)
            watcher.wait_for_selector("#result:not([hidden]) h2", timeout=WAIT)
            assert watcher.text_content("#result h2") == heading
            assert watcher.is_visible("#watching")
            watcher.close()
            page.click("#rematch")
            page.wait_for_function(
                "() => document.querySelector('#result').hidden && document.querySelectorAll('#hand .card').length"
            )
    finally:
        page.close()


def test_pass_and_play_offline(phone: Phone) -> None:
    page = phone.page()
    try:
        phone.open_app(page)
        start_game(page, "classic", 3, {}, ["here", "easy"])
        play_to_end(page)
        assert page.text_content("#result h2")
    finally:
        page.close()


def test_a_match_closed_midway_continues_where_it_stood(phone: Phone) -> None:
    page = phone.page()
    phone.open_app(page)
    start_game(page, "race", 2, {"target_per_player": "10"}, ["normal"])
    play_to_end(page, moves=3)
    before = hand_and_top(page)
    page.close()
    page = phone.page()
    try:
        phone.open_app(page)
        page.click("#saved-games .continue")
        page.wait_for_function("() => document.querySelectorAll('#hand .card').length > 0", timeout=WAIT)
        page.wait_for_timeout(300)
        assert hand_and_top(page) == before
    finally:
        page.close()


def test_the_browsers_python_plays_as_cpython_does(phone: Phone) -> None:
    """200 games, every preset and player count, in the app's own Python on Pyodide and in CPython: the same
    digests of states and events, the same outcomes; and the app's Python loads no server module."""
    page = phone.page()
    try:
        phone.open_app(page)
        source = (Path(__file__).parents[1] / "support" / "lockstep.py").read_text()
        answer = page.evaluate(
            """async (source) => {
              const { loadPyodide } = await import("./pyodide/pyodide.mjs");
              const pyodide = await loadPyodide({ indexURL: new URL("./pyodide/", location.href).href });
              const zip = await (await fetch("./eights.zip")).arrayBuffer();
              pyodide.unpackArchive(zip, "zip", { extractDir: "/eights" });
              pyodide.runPython("import sys; sys.path.insert(0, '/eights'); import eights.web.offline");
              const modules = pyodide.runPython("import json; json.dumps(sorted(sys.modules))");
              pyodide.globals.set("source", source);
              const games = pyodide.runPython(
                "space = {'__name__': 'lockstep'}\\nexec(source, space)\\nspace['run'](list(range(200)))"
              );
              return { modules: JSON.parse(modules), games: JSON.parse(games) };
            }""",
            source,
        )
        loaded = [m for m in answer["modules"] if any(m == f or m.startswith(f + ".") for f in FORBIDDEN)]
        assert loaded == []
        assert "eights.web.rooms.room" in answer["modules"]
        expected = json.loads(run(list(range(200))))
        assert answer["games"] == expected
        assert {(g["preset"], g["players"]) for g in expected} == {(g["preset"], g["players"]) for g in answer["games"]}
        assert len({g["preset"] for g in expected}) == 5
    finally:
        page.close()


def test_the_lobby_warns_when_its_link_opens_on_this_machine_only(chromium: Any, live_server: LiveServer) -> None:
    """A server on 127.0.0.1 (no --public-url) makes links that say localhost: the lobby shows that link (the
    one its QR code carries) and says it opens here only."""
    room = post(live_server.base, "/api/rooms", {"name": "Ann", "seats": ["me", "open"]})
    context = chromium.new_context(**PHONE)
    try:
        page = context.new_page()
        page.goto(f"{live_server.base}/r/{room['code']}")
        link = f"http://localhost:{live_server.port}/r/{room['code']}"
        page.wait_for_function("(link) => document.querySelector('#lobby-share .link')?.textContent === link", arg=link)
        assert "this machine only" in (page.text_content("#lobby-local") or "")
    finally:
        context.close()
