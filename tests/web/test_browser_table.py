"""The web table in a real browser against a real server (tests/support/browser.py): a whole match in every preset
on a phone by touch, a match by keys only, a room of two people, a computer and a spectator, a reload, a
server restart, and the page's accessibility.

Each person is a browser context of their own. A page is driven by polling what it shows (``NEXT``) and
doing what a person would: close a round's end, answer a dialog, play a marked card or the first move.
What the server sent each page is read from its WebSocket frames, to check the page against it.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

from eights.engine import DRAW, Game, parse_action, view
from eights.record import GameRecord
from eights.table import HUMAN, PlayConfig, Session
from eights.web.tableview import table_json
from tests.support.browser import DESKTOP, PATIENCE, PHONE, LiveServer, new_game
from tests.support.moves import kinds, moves
from tests.support.scripting import scripted

#: What the page shows now: "dialog" (open), "end" (the match's end), "turn" (this seat may act, with no
#: move of its own on the way), or "" (waiting for others).
NEXT = """() => {
  if (document.querySelector("#dialog").open) return "dialog";
  if (!document.querySelector("#result").hidden) return "end";
  const table = document.querySelector("#table");
  if (table.hidden || table.classList.contains("busy")) return "";
  const turn = document.querySelector("#seats .seat.turn");
  if (!turn || !turn.textContent.includes("(you)")) return "";
  return document.querySelector("#hand .card.marked, #moves button") ? "turn" : "";
}"""

#: Every card label the engine says ("eight of hearts", "ten of clubs", "a joker" ...).
CARD_WORDS = re.compile(
    r"\b(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king) of (clubs|diamonds|hearts|spades)\b"
    r"|\bthe (Guarantee )?[Jj]oker\b"
)

#: The options that keep each preset's match short (and, in derange and race, more than one round).
SHORT: dict[str, tuple[int, dict[str, str]]] = {
    "classic": (2, {}),
    "action": (3, {"score_keeping": "false"}),
    "race": (2, {"target_per_player": "10"}),
    "derange": (3, {"rounds": "2,1"}),
    "baby-eating": (2, {}),
}

#: A name that would run a script if a page put it in as markup (names are 1-24 characters).
XSS = "<svg onload=alert(1)>"


class Watched:
    """A page and what its server sent it (the last ``state``), and what it is asked to do next."""

    def __init__(self, page: Any, touch: bool = False) -> None:
        self.page = page
        self.touch = touch
        self.states: list[dict[str, Any]] = []
        self.seen: set[str] = set()  # dialogs answered and moves made, by kind
        self.sockets = 0  # WebSockets the page opened
        self.turns = 0  # turns checked against the server's state
        page.on("websocket", self._socket)
        page.on("dialog", lambda alert: pytest.fail(f"a script ran on the page: {alert.message}"))

    def _socket(self, socket: Any) -> None:
        self.sockets += 1

        def frame(payload: str | bytes) -> None:
            message = json.loads(payload)
            if message.get("type") == "state":
                self.states.append(message)

        socket.on("framereceived", frame)

    @property
    def table(self) -> dict[str, Any]:
        table: dict[str, Any] = self.states[-1]["table"]
        return table

    def next(self) -> str:
        what: str = self.page.evaluate(NEXT)
        return what


def check_turn(watched: Watched) -> None:
    """At this seat's turn, the page shows what the server sent: the hand (as many cards as its seat's
    count says, each with its spoken label), the top card, and that it is this seat's turn."""
    page, table = watched.page, watched.table
    shown = page.evaluate(
        """() => ({
          hand: [...document.querySelectorAll("#hand .card")]
            .map((c) => [c.dataset.code, c.getAttribute("aria-label")]),
          count: document.querySelector("#seats .seat.turn .count").textContent,
          top: document.querySelector("#top-card .card").getAttribute("aria-label"),
          topText: document.querySelector("#top-card .card").textContent,
          title: document.title,
          prompt: document.querySelector("#prompt").textContent,
          backs: [...document.querySelectorAll(".card.back")]
            .filter((b) => b.hasAttribute("aria-label") || b.getAttribute("aria-hidden") !== "true").length,
        })"""
    )
    assert [code for code, _ in shown["hand"]] == [card["code"] for card in table["hand"]]
    assert shown["count"] == f"{len(table['hand'])} card{'' if len(table['hand']) == 1 else 's'}"
    for (_, label), card in zip(shown["hand"], table["hand"], strict=True):
        assert label.startswith(card["label"]) and CARD_WORDS.search(card["label"]), (label, card)
    assert shown["top"] == f"top card: {table['top']['label']}"
    assert shown["topText"].endswith(table["top"]["text"])
    assert re.search("[♣♦♥♠]", shown["topText"]) or not table["top"]["suit"]  # suits carry symbols
    assert shown["title"].startswith("Your turn")
    assert shown["prompt"] == table["prompt"] and not shown["prompt"].startswith("Waiting"), shown["prompt"]
    assert shown["backs"] == 0  # a hidden card has no label and is hidden from screen readers
    watched.turns += 1


def by_touch(watched: Watched, what: str) -> None:
    """Do what a person on a phone would: close a round's end, answer a dialog, tap a card or a move."""
    page = watched.page
    if what == "dialog":
        choice = page.locator("#dialog .suit-choice, #dialog .move-choice").first
        if choice.count():
            watched.seen.add("suit" if "suit-choice" in (choice.get_attribute("class") or "") else "list")
            cut = page.evaluate(
                """() => [...document.querySelectorAll('#dialog .suit-choice, #dialog .move-choice, #dialog')]
                .filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent)"""
            )
            assert not cut, f"cut off in the dialog: {cut}"
            if watched.touch:
                assert page.locator("#dialog kbd:visible").count() == 0  # no key badges on a touch phone
            tap(watched, choice)
        else:
            watched.seen.add(page.text_content("#dialog-title") or "")
            tap(watched, page.locator("#dialog-close"))
    elif what == "turn":
        check_turn(watched)
        move = page.locator("#hand .card.marked, #moves button").first
        watched.seen.add(move.get_attribute("id") or "card")
        tap(watched, move)


def tap(watched: Watched, locator: Any) -> None:
    """A tap on a phone, a click on a laptop."""
    if watched.touch:
        locator.tap()
    else:
        locator.click()


def by_keys(watched: Watched, what: str) -> None:
    """Do it by keys only (the keys the page documents): Esc closes a round's end, C/D/H/S name a suit,
    1-9 take a move of a list; the arrows and Enter play a marked card; d draws; Tab reaches the moves."""
    page = watched.page
    if what == "dialog":
        if page.locator("#dialog .suit-choice").count():
            watched.seen.add("suit")
            page.keyboard.press(page.text_content("#dialog .suit-choice kbd") or "")
        elif page.locator("#dialog .move-choice").count():
            watched.seen.add("list")
            page.keyboard.press("1")
        else:
            watched.seen.add("closed")
            page.keyboard.press("Escape")
        return
    if what != "turn":
        return
    check_turn(watched)
    marked = page.evaluate(
        """() => [...document.querySelectorAll("#hand .card")].findIndex((c) => c.classList.contains("marked"))"""
    )
    if marked < 0:
        offered = kinds(watched.table)
        key = "d" if "draw" in offered else "p" if "pass" in offered else None
        if key:
            watched.seen.add(key)
            page.keyboard.press(key)
        else:  # a list of moves (a player, a stack): Tab to its button, Enter
            reach(page, "#moves button")
            watched.seen.add("list-button")
            page.keyboard.press("Enter")
        return
    reach(page, "#hand .card")
    at = page.evaluate("""() => [...document.querySelectorAll("#hand .card")].indexOf(document.activeElement)""")
    for _ in range(abs(marked - at)):
        page.keyboard.press("ArrowRight" if marked > at else "ArrowLeft")
    assert page.evaluate("() => document.activeElement.classList.contains('marked')")
    watched.seen.add("card")
    page.keyboard.press("Enter")


def reach(page: Any, selector: str) -> None:
    """Tab until the focus is on one of ``selector``."""
    for _ in range(40):
        if page.evaluate("(s) => document.activeElement?.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reaches {selector}")


def play(players: list[Watched], act: Any = by_touch, until: str = "end", moves: int = 0) -> None:
    """Drive every page until each shows the match's end (``until="end"``), or until the first page's
    turn after it made ``moves`` moves (``until="turn"``)."""
    deadline = time.monotonic() + 150
    made = 0
    while time.monotonic() < deadline:
        shown = [watched.next() for watched in players]
        if (until == "end" and set(shown) == {"end"}) or (until == "turn" and shown[0] == "turn" and made >= moves):
            return
        for watched, what in zip(players, shown, strict=True):
            if what != "end":
                act(watched, what)
        made += shown[0] == "turn"
        players[0].page.wait_for_timeout(40)
    raise AssertionError(f"the match did not reach {until!r} in time: {[p.next() for p in players]}")


def check_end(watched: Watched) -> None:
    """The match's end shows the server's result and who won."""
    result = watched.table["result"]
    assert result is not None
    heading = watched.page.text_content("#result h2")
    assert heading == result["lines"][0]
    winners = [watched.table["names"][seat] for seat in result["winners"]]
    assert winners and all(name in heading for name in winners)


@pytest.mark.parametrize("preset", SHORT)
def test_a_whole_match_on_a_phone_by_touch_then_a_rematch(chromium: Any, live_server: Any, preset: str) -> None:
    players, options = SHORT[preset]
    # the narrowest phones for some presets (a suit dialog's four choices must fit 320 px)
    narrow = preset in ("classic", "baby-eating")
    context = chromium.new_context(**{**PHONE, "viewport": {"width": 320, "height": 640}} if narrow else PHONE)
    try:
        me = Watched(context.new_page(), touch=True)
        new_game(me.page, live_server.base, preset, players, options)
        play([me])
        check_end(me)
        assert me.turns > 0
        if preset == "derange":  # two rounds, of 2 cards then 1: the end tells of the last round
            assert me.table["result"]["rounds"] == 2
            assert any(seen.startswith("Round 1 over") for seen in me.seen), me.seen
            assert (me.page.text_content("#round") or "").startswith("Round 2 of 2: 1 card dealt")
        me.page.locator("#rematch").tap()
        me.page.wait_for_function(
            "() => document.querySelector('#result').hidden && document.querySelectorAll('#hand .card').length > 0"
        )
        assert me.table["result"] is None and me.table["round"] == 1
    finally:
        context.close()


def test_a_match_by_keys_only(chromium: Any, live_server: Any) -> None:
    # baby-eating asks every kind of question: a suit, a player, jacks to drop, a card to bury
    context = chromium.new_context(**DESKTOP)
    try:
        me = Watched(context.new_page())
        new_game(me.page, live_server.base, "baby-eating", 3, {})
        for _ in range(4):
            play([me], act=by_keys)
            if {"suit", "d", "list", "closed"} <= me.seen:
                break
            me.page.keyboard.press("Tab")  # the rematch, by keys too
            reach(me.page, "#rematch")
            me.page.keyboard.press("Enter")
            me.page.wait_for_function("() => document.querySelector('#result').hidden")
        check_end(me)
        assert {"suit", "d", "list", "closed", "card"} <= me.seen, me.seen
    finally:
        context.close()


def open_room(chromium: Any, base: str, seats: int = 3) -> tuple[Any, Watched, str]:
    """The host (a laptop) makes a room: seat 0 the host, seat 1 open, the rest easy computers."""
    context = chromium.new_context(**DESKTOP)
    host = Watched(context.new_page())
    host.page.goto(f"{base}/")
    host.page.fill("#name", "Ann")
    host.page.select_option("#new-players", str(seats))
    host.page.click("#new-room")
    host.page.wait_for_selector("#lobby-code:not(:empty)")
    code = host.page.text_content("#lobby-code") or ""
    for seat in range(2, seats):
        host.page.select_option(f"#room-seat-{seat}", "easy")
    return context, host, code


def sit(chromium: Any, base: str, code: str, name: str) -> tuple[Any, Watched]:
    """A friend on a phone opens the room's link, picks a name and seat 1."""
    context = chromium.new_context(**PHONE)
    friend = Watched(context.new_page(), touch=True)
    friend.page.goto(f"{base}/r/{code}")
    friend.page.fill("#sit-name", name)
    friend.page.locator("#sit-1").tap()
    friend.page.wait_for_selector("#lobby-device")
    return context, friend


def start(host: Watched) -> None:
    host.page.wait_for_function("() => !document.querySelector('#start').disabled")
    host.page.click("#start")


def hand_codes(watched: Watched) -> list[str]:
    codes: list[str] = watched.page.evaluate(
        "() => [...document.querySelectorAll('#hand .card')].map((c) => c.dataset.code)"
    )
    return codes


def labelled(page: Any) -> list[str]:
    """Every aria-label on the page."""
    labels: list[str] = page.evaluate(
        "() => [...document.querySelectorAll('[aria-label]')].map((e) => e.getAttribute('aria-label'))"
    )
    return labels


def test_a_room_of_two_people_a_computer_and_a_spectator(chromium: Any, live_server: Any) -> None:
    host_context, host, code = open_room(chromium, live_server.base)
    friend_context, friend = sit(chromium, live_server.base, code, XSS)
    watcher_context = chromium.new_context(**PHONE)
    try:
        watcher = Watched(watcher_context.new_page(), touch=True)
        watcher.page.goto(f"{live_server.base}/r/{code}")
        watcher.page.wait_for_selector("#lobby-seats .seat-list")
        assert XSS in (watcher.page.text_content("#lobby-seats") or "")  # the name as text, never markup
        start(host)
        watcher.page.wait_for_selector("#table:not([hidden])")
        checked = 0
        shown: dict[int, set[str]] = {0: set(), 1: set()}  # every card each person's hand showed
        deadline = time.monotonic() + 150
        while {host.next(), friend.next()} != {"end"}:
            assert time.monotonic() < deadline, "the match did not end in time"
            for person, other in ((host, friend), (friend, host)):
                what = person.next()
                shown[person.table["seat"]] |= set(hand_codes(person))
                if what == "turn":
                    # the other's cards are nowhere on this page, and the spectator sees none at all
                    theirs = set(hand_codes(other))
                    assert not theirs & set(hand_codes(person))
                    assert not theirs & set(
                        person.page.evaluate(
                            "() => [...document.querySelectorAll('[data-code]')].map((e) => e.dataset.code)"
                        )
                    )
                    their_labels = {
                        label.partition(",")[0] for label in labelled(other.page) if CARD_WORDS.search(label)
                    }
                    mine = {label.partition(",")[0] for label in labelled(person.page) if CARD_WORDS.search(label)}
                    assert not (their_labels - {f"top card: {person.table['top']['label']}"}) & mine
                    watched_labels = [label for label in labelled(watcher.page) if CARD_WORDS.search(label)]
                    assert all(label.startswith("top card: ") for label in watched_labels), watched_labels
                    assert watcher.page.locator("#hand .card").count() == 0 and watcher.page.is_visible("#watching")
                    assert person.page.locator("#tool-record").count() == 0  # no record while the match is in play
                    top = f"top card: {person.table['top']['label']}"  # the spectator follows the play
                    watcher.page.wait_for_function(
                        "(top) => document.querySelector('#top-card .card')?.getAttribute('aria-label') === top",
                        arg=top,
                    )
                    checked += 1
                if what != "end":
                    by_touch(person, what)
            host.page.wait_for_timeout(40)
        check_end(host)
        check_end(friend)
        assert checked > 4
        assert XSS in (host.page.text_content("#seats") or "") and host.page.locator("#seats svg").count() == 0
        # the spectator followed the play to the same end
        watcher.page.wait_for_selector("#result:not([hidden])")
        assert watcher.page.text_content("#result h2") == host.page.text_content("#result h2")
        assert watcher.page.locator("#log li").count() > 5
        assert "The host may start a rematch" in (friend.page.text_content("#result") or "")
        # each person's hand showed only cards the record says that seat held
        # (the record is offered only now, only to the players: its seed deals every hand)
        assert watcher.page.locator("#tool-record").count() == 0
        with host.page.expect_download() as download:
            host.page.click("#tool-record")
        record = GameRecord.from_json(Path(download.value.path()).read_text())
        game = Game(record.rules, record.players, record.seed, deck=record.deck, dealer=record.dealer)
        held: dict[int, set[str]] = {0: set(), 1: set()}
        for action in [*record.actions, None]:
            for seat in held:
                held[seat] |= {str(card) for card in view(game, seat).hand}
            if action is not None:
                game.play(parse_action(action))
        assert game.outcome is not None and game.outcome.winners == tuple(host.table["result"]["winners"])
        assert shown[0] and shown[0] <= held[0] and shown[1] and shown[1] <= held[1], (shown, held)
    finally:
        for context in (host_context, friend_context, watcher_context):
            context.close()


def test_a_reload_mid_round_keeps_the_seat(chromium: Any, live_server: Any) -> None:
    context = chromium.new_context(**PHONE)
    try:
        me = Watched(context.new_page(), touch=True)
        new_game(me.page, live_server.base, "classic", 3, {})
        play([me], until="turn", moves=4)
        before = hand_codes(me)
        seat = me.table["seat"]
        told = me.page.locator("#log li").all_text_contents()  # put together a little at a time
        me.page.reload()
        play([me], until="turn")
        assert hand_codes(me) == before and me.table["seat"] == seat
        assert me.page.locator("#log li").all_text_contents() == told  # all at once: the same lines
        scrolled = me.page.evaluate(
            "() => { const b = document.getElementById('log-box');"
            " return [b.scrollHeight > b.clientHeight, b.scrollHeight - b.scrollTop - b.clientHeight]; }"
        )
        assert scrolled[0] and scrolled[1] < 2, f"the newest line is in sight after the reload: {scrolled}"
        assert me.page.locator("#seats .seat").nth(seat).text_content().find("(you)") >= 0
        version = me.states[-1]["version"]
        by_touch(me, "turn")  # it can still act
        deadline = time.monotonic() + PATIENCE
        while me.states[-1]["version"] == version:
            assert time.monotonic() < deadline, "the move after the reload was not taken"
            me.page.wait_for_timeout(40)
        assert not [s for s in me.states if s.get("type") == "error"]
    finally:
        context.close()


def test_a_server_restart_mid_match_both_browsers_reconnect(chromium: Any, live_server: Any) -> None:
    host_context, host, code = open_room(chromium, live_server.base)
    friend_context, friend = sit(chromium, live_server.base, code, "Bea")
    try:
        start(host)
        play([host, friend], until="turn", moves=2)  # the host's turn: nobody else moves
        hands = hand_codes(host), hand_codes(friend)
        top = host.page.get_attribute("#top-card .card", "aria-label")
        sockets, sent = (host.sockets, friend.sockets), (len(host.states), len(friend.states))
        live_server.restart()
        deadline = time.monotonic() + PATIENCE
        while not all(
            p.sockets > n and len(p.states) > m for p, n, m in zip((host, friend), sockets, sent, strict=True)
        ):
            assert time.monotonic() < deadline, "the pages did not reconnect by themselves"
            host.page.wait_for_timeout(100)
        for person in (host, friend):
            person.page.wait_for_selector("#connection", state="hidden")
        play([host, friend], until="turn")
        assert (hand_codes(host), hand_codes(friend)) == hands
        assert host.page.get_attribute("#top-card .card", "aria-label") == top
        assert friend.page.get_attribute("#top-card .card", "aria-label") == top
        play([host, friend])
        check_end(host)
        check_end(friend)
    finally:
        host_context.close()
        friend_context.close()


def test_accessibility(chromium: Any, live_server: Any) -> None:
    calm = chromium.new_context(**DESKTOP, reduced_motion="reduce")
    lively = chromium.new_context(**DESKTOP)
    try:
        moving = """() => [...document.querySelectorAll("*")].filter((e) => {
            const style = getComputedStyle(e);
            return style.transitionDuration.split(",").some((d) => parseFloat(d) > 0) || style.animationName !== "none";
          }).length"""
        # what 0 means is said beside each box where 0 is no count, and read with it
        form = calm.new_page()
        form.goto(live_server.base + "/")
        form.wait_for_selector("#new-option-target", state="attached")
        described = form.evaluate(
            """() => { const box = document.getElementById('new-option-target');
                 return document.getElementById(box.getAttribute('aria-describedby')).textContent; }"""
        )
        assert described == "The match ends when someone reaches it. 0: no target score"
        form.close()
        pages = []
        for context in (calm, lively):
            me = Watched(context.new_page())
            new_game(me.page, live_server.base, "classic", 2, {})
            play([me], until="turn")
            pages.append(me)
        calm_page, lively_page = pages
        # a card that can be played rises with a transition, unless motion is reduced
        rising = """() => {
            const card = Object.assign(document.createElement("button"), { className: "card marked" });
            document.querySelector("#hand").append(card);
            const duration = getComputedStyle(card).transitionDuration;
            card.remove();
            return duration;
          }"""
        assert lively_page.page.evaluate(rising) != "0s" and calm_page.page.evaluate(rising) == "0s"
        assert calm_page.page.evaluate(moving) == 0  # nothing on the calm page moves
        # suits carry symbols as well as colour
        pips = calm_page.page.evaluate(
            "() => [...document.querySelectorAll('#hand .card .pip')].map((p) => p.textContent)"
        )
        assert pips and all(pip in "♣♦♥♠" for pip in pips)
        # the keys are documented on the page
        page = calm_page.page
        page.keyboard.press("?")
        page.wait_for_selector("#dialog[open]")
        assert page.text_content("#dialog-title") == "Keys"
        keys = page.evaluate("() => [...document.querySelectorAll('#dialog dl.keys kbd')].map((k) => k.textContent)")
        assert {"d", "p", "h", "r", "?", "Esc", "C", "D", "H", "S"} <= set(keys)
        page.keyboard.press("Escape")
        page.wait_for_selector("#dialog:not([open])", state="attached")
    finally:
        calm.close()
        lively.close()


def test_a_stack_from_a_hundred_cards_of_four_packs(chromium: Any, tmp_path: Path) -> None:
    """Derange with four packs, stacking and a 100-card deal: the page makes of each state's few moves every way
    to play (tests/support/moves.py, itself checked against the engine, reads them alike; the card drawn under another,
    too), offers a card's ways in its list, in the server's words, and the stack chosen there is played."""
    # a server whose operator allows hands this large (the default limit deals 15 cards at most)
    server = LiveServer(tmp_path / "served.db", options=("--set-limit", "max_hand_size=100"))
    context = chromium.new_context(**DESKTOP)
    try:
        me = Watched(context.new_page())
        sent: list[dict[str, Any]] = []
        me.page.on("websocket", lambda ws: ws.on("framesent", lambda text: sent.append(json.loads(text))))
        new_game(me.page, server.base, "derange", 2, {"packs": "4", "stacking": "true", "rounds": "100"})
        for _ in range(10):  # turns until one may stack (a turn after a 3 or a 10 may not)
            play([me], until="turn")
            ways = moves(me.table)
            if any(len(way["cards"]) > 1 for way in ways):
                break
            by_touch(me, "turn")
        table, version = me.table, me.states[-1]["version"]
        stacked = [way for way in ways if len(way["cards"]) > 1]
        assert stacked and len(table["legal"]) < 40 < len(ways), (len(table["legal"]), len(ways))
        assert me.page.text_content("#move-stack") == f"Play several cards… ({len(stacked)})"
        game = scripted(
            "action", ["4S 9C 7D", "KC QC JC"], "4H", "4C 2D 3D", dealer=1, stacking=True, draw_at_will=True
        )
        drawn = Session(PlayConfig(game.rules, (HUMAN, HUMAN), seed=0, people=("Ann", "Bob")), game=game)
        drawn.play(DRAW, 0)  # the 4C drawn: under the 4S, it is a card the stack must hold
        tables = [state["table"] for state in me.states if state["table"]] + [table_json(drawn, 0)]
        read = me.page.evaluate(
            "async (tables) => { const { movesOf } = await import('/static/table.js'); return tables.map(movesOf); }",
            tables,
        )
        assert read == [moves(t) for t in tables]
        # the card with the most ways: its list is every way that lays it, in the server's words
        counts = {card["code"]: sum(card["code"] in way["cards"] for way in ways) for card in table["hand"]}
        code = max(counts, key=lambda c: counts[c])
        mine = [way for way in ways if code in way["cards"]]
        me.page.click(f"#hand .card[data-code='{code}']")
        me.page.wait_for_selector("#dialog[open] .move-choice")
        assert me.page.locator("#dialog .move-choice").all_text_contents() == [
            f"{n}{' ' if n else ''}{way['words']}"
            for n, way in ((str(i + 1) if i < 9 else "", way) for i, way in enumerate(mine))
        ]
        me.page.locator("#dialog .move-choice").last.click()
        deadline = time.monotonic() + PATIENCE
        while not any(s["version"] > version for s in me.states):
            assert time.monotonic() < deadline, "the stack was not taken"
            me.page.wait_for_timeout(40)
        assert [m["action"] for m in sent if m["type"] == "act"][-1] == mine[-1]["action"]
        after = next(s for s in me.states if s["version"] > version)["table"]
        assert len(after["hand"]) == len(table["hand"]) - len(mine[-1]["cards"])
    finally:
        context.close()
        server.stop()
