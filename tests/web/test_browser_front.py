"""The front door in a real browser against a real server (tests/support/browser.py): the home page and the lobby on
a phone and a desktop, Continue for a game left through the home page, and a server whose installed files
are pulled from under it (a reinstall while it runs)."""

from __future__ import annotations

import shutil
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from eights.web.app import presets_json
from tests.support.browser import DESKTOP, PATIENCE, PHONE, LiveServer, new_game
from tests.web.test_browser_table import Watched, play


def fetched(url: str, etag: str | None = None) -> tuple[int, bytes, str | None]:
    request = urllib.request.Request(url, headers={"If-None-Match": etag} if etag else {})
    try:
        with urllib.request.urlopen(request, timeout=PATIENCE) as answer:
            return answer.status, answer.read(), answer.headers.get("ETag")
    except urllib.error.HTTPError as answer:
        return answer.code, answer.read(), answer.headers.get("ETag")


#: The score sheet's own addresses, served from the same files.
SHEET_PATHS = ("/scorecard", "/s/ABC123", "/scorecard-sw.js", "/scorecard.webmanifest")


def test_a_reinstall_while_the_server_runs_breaks_no_page(chromium: Any, tmp_path: Path) -> None:
    """The server runs from an installed copy of the package; a reinstall removes its files and writes them
    again (here: removed, and one written back changed). Every page and file is served as before, the page
    still plays, and a browser's copy is confirmed by its ETag (304) instead of sent again."""
    installed = tmp_path / "site" / "eights"
    shutil.copytree(Path(__file__).resolve().parents[2] / "src" / "eights", installed)
    server = LiveServer(tmp_path / "served.db", source=installed)
    try:
        status, page, _ = fetched(f"{server.base}/")
        assert status == 200
        status, script, etag = fetched(f"{server.base}/static/app.js")
        assert status == 200 and etag
        sheet_pages = {path: fetched(f"{server.base}{path}")[:2] for path in SHEET_PATHS}
        assert all(status == 200 for status, _ in sheet_pages.values())
        shutil.rmtree(installed / "web" / "static")  # the reinstall's uninstall, mid-way
        assert fetched(f"{server.base}/")[:2] == (200, page)
        for path, answer in sheet_pages.items():  # the score sheet's page, worker and manifest too
            assert fetched(f"{server.base}{path}")[:2] == answer, path
        assert fetched(f"{server.base}/static/app.js")[:2] == (200, script)
        assert fetched(f"{server.base}/static/app.js", etag)[0] == 304
        assert fetched(f"{server.base}/static/nothing.js")[0] == 404
        context = chromium.new_context(**PHONE)
        try:
            browser_page = context.new_page()
            browser_page.goto(f"{server.base}/")
            browser_page.click("#play-now")
            browser_page.wait_for_selector("#hand .card", timeout=PATIENCE * 1000)
        finally:
            context.close()
    finally:
        server.stop()


@pytest.mark.parametrize("device", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_front_page_invites_play(chromium: Any, live_server: LiveServer, device: dict[str, Any]) -> None:
    """Each game a card (a picture of our cards, its character, its players); one tap on Play now deals
    against the computer with no name typed; the few options first, each explained, the rest behind House
    rules; the games chosen with the arrow keys."""
    context = chromium.new_context(**device)
    try:
        page = context.new_page()
        page.goto(f"{live_server.base}/")
        page.wait_for_selector("#home .preset")
        cards = page.evaluate(
            """() => [...document.querySelectorAll("#home .preset")].map((p) => ({
              pictures: p.querySelectorAll(".preset-picture .card.face-up").length,
              hidden: p.querySelector(".preset-picture").getAttribute("aria-hidden"),
              title: p.querySelector(".preset-title").textContent,
              about: p.querySelector(".about").textContent,
              players: p.querySelector(".preset-players").textContent,
            }))"""
        )
        assert [c["title"] for c in cards] == [p["title"] for p in presets_json()["presets"]]
        for card, preset in zip(cards, presets_json()["presets"], strict=True):
            assert card["pictures"] == 3 and card["hidden"] == "true"
            assert card["about"] == preset["character"] and len(card["about"]) > 30
            assert card["players"] == f"{preset['min_players']}-{preset['max_players']} players"
        # the few options that matter first, each explained beside its box; the rest closed, in groups
        shown = page.evaluate(
            """() => [...document.querySelectorAll("#new-game-rules .options :is(input, select)[id^='new-option-']")]
              .map((c) => document.getElementById(c.getAttribute("aria-describedby"))?.textContent || "")"""
        )
        assert 1 <= len(shown) <= 4 and all(len(words) > 10 for words in shown), shown
        assert not page.evaluate("() => document.querySelector('.more-options').open")
        assert page.locator(".more-options .option-group legend").count() >= 3
        page.click(".more-options summary")
        assert page.is_visible("#new-option-stacking")
        # the games by the keyboard: a radio group, the arrow moves the choice and Play now says it
        page.focus("#new-preset-classic")
        page.keyboard.press("ArrowDown")
        assert page.is_checked("#new-preset-action")
        assert (page.text_content("#play-now-about") or "").startswith(
            "Action Crazy Eights: you against 3 computers (normal)."
        )
        # one tap, no name typed: a game against the computer
        page.click("#play-now")
        page.wait_for_selector("#hand .card", timeout=PATIENCE * 1000)
        assert page.locator("#seats .seat").count() == 4
        assert "Player 1 (you)" in (page.text_content("#seats .seat.mine") or "")
    finally:
        context.close()


def test_one_tap_makes_a_room_the_host_sees_start_first_and_a_friend_its_seat(
    chromium: Any, live_server: LiveServer
) -> None:
    host_context = chromium.new_context(**PHONE)
    friend_context = chromium.new_context(**PHONE)
    try:
        host = host_context.new_page()
        host.goto(f"{live_server.base}/")
        host.fill("#name", "Ann")
        host.click("#new-room")
        host.wait_for_selector("#lobby:not([hidden]) #start", timeout=PATIENCE * 1000)
        tops = host.evaluate(
            """() => Object.fromEntries(["start", "lobby-seats", "lobby-share"].map((id) =>
              [id, document.getElementById(id).getBoundingClientRect().top]))"""
        )
        assert tops["start"] < tops["lobby-seats"] < tops["lobby-share"], tops
        assert tops["start"] < PHONE["viewport"]["height"] / 2  # Start is in sight at once
        assert host.is_visible("#lobby-qr")  # the host shows it to friends
        friend = friend_context.new_page()
        friend.goto(host.url)
        friend.wait_for_selector("#sit-1", timeout=PATIENCE * 1000)
        friend.fill("#sit-name", "Bob")
        friend.click("#sit-1")
        friend.wait_for_selector("#your-seat", timeout=PATIENCE * 1000)
        assert friend.text_content("#your-seat") == "You sit in seat 2 as Bob."
        assert friend.is_hidden("#lobby-qr")  # no QR code on a friend's phone, which is here already
        assert friend.evaluate("() => document.querySelector('#lobby-qr').getAttribute('src')") is None
    finally:
        host_context.close()
        friend_context.close()


def test_a_game_left_through_the_home_page_is_offered_again(chromium: Any, live_server: LiveServer) -> None:
    """The server knows the seat by the token the browser keeps: Continue takes it back to its table; a room
    the server no longer has for that token is forgotten."""
    context = chromium.new_context(**PHONE)
    try:
        page = context.new_page()
        code = new_game(page, live_server.base, "classic", 3, {})
        hand = page.locator("#hand .card").count()
        page.evaluate(
            """() => { localStorage.setItem("eights-token-NOSUCHRM", "not-a-token");
                       localStorage.setItem("eights-recent", JSON.stringify([...JSON.parse(
                         localStorage.getItem("eights-recent")), "NOSUCHRM"])); }"""
        )
        page.click(".brand")  # home, as a person leaving the table would
        page.wait_for_selector(f"#continue-{code}", timeout=PATIENCE * 1000)
        assert page.locator("#continue-list li").count() == 1
        words = page.text_content("#continue-list li") or ""
        assert "Classic Crazy Eights" in words and "You (Ann)" in words and "in play" in words
        assert page.evaluate("() => JSON.parse(localStorage.getItem('eights-recent'))") == [code]
        page.click(f"#continue-{code}")
        page.wait_for_selector("#hand .card", timeout=PATIENCE * 1000)
        assert page.url.endswith(f"/r/{code}")
        assert "Ann (you)" in (page.text_content("#seats .seat.mine") or "")
        assert page.locator("#hand .card").count() >= hand - 1  # the same seat's hand (a card may be played)
    finally:
        context.close()


def test_the_end_of_a_classic_match_explains_its_points_and_the_review_fits(chromium: Any, tmp_path: Path) -> None:
    """A dealer's seat reads "deals" (no leading dot); the round's end shows each hand's value, which the winner
    collects; on a desktop the review's hand stays inside its sidebar and clear of the lines below it."""
    server = LiveServer(
        tmp_path / "served.db", options=("--set-limit", "review_deals=8", "--set-limit", "review_iterations=10")
    )
    context = chromium.new_context(**DESKTOP)
    try:
        page = context.new_page()
        me = Watched(page)
        new_game(page, server.base, "classic", 2, {})
        about = page.evaluate(
            """async ([room, t]) => {
              const { drawSeats } = await import("/static/felt.js");
              drawSeats(room, { ...t, dealer: t.seat });  // this seat dealing (a person: no level before it)
              const mine = document.querySelector("#seats .seat.mine .seat-about").textContent;
              drawSeats(room, { ...t, dealer: 1 - t.seat });
              return [mine, document.querySelector("#seats .seat:not(.mine) .seat-about").textContent];
            }""",
            [me.states[-1]["room"], me.table],
        )
        assert about == ["deals", "computer, easy · deals"], about
        play([me])
        end = me.table["round_end"]
        winner = end["winners"][0]
        low = 0 if end["reason"] == "out" else end["values"][winner]  # a blocked round: the lowest hand's value off
        assert end["points"][winner] == sum(v - low for seat, v in enumerate(end["values"]) if seat != winner) > 0
        page.click("#tool-round")
        heads = page.locator("#dialog .round-end tr:first-child th").all_text_contents()
        assert heads == ["Player", "Cards left", "Value", "Points", "Total"]
        loser = 1 - winner
        row = page.locator("#dialog .round-end tr").nth(1 + loser).locator("td").all_text_contents()
        assert row[1:3] == [str(end["values"][loser]), "0"]
        assert "Scoring: the player who goes out collects the value of every other hand." in (
            page.text_content("#dialog") or ""
        )
        page.keyboard.press("Escape")
        page.click("#review-button")
        page.wait_for_function("() => !document.querySelector('#review').hidden", timeout=PATIENCE * 4000)
        for _ in range(3):
            boxes = page.evaluate(
                """() => {
                  const box = (e) => e.getBoundingClientRect();
                  const sidebar = box(document.querySelector("#review"));
                  const cards = [...document.querySelectorAll("#review-body .review-hand .card")].map(box);
                  const below = box(document.querySelector("#review-body .review-moves"));
                  return { out: cards.filter((c) => c.right > sidebar.right + 1 || c.left < sidebar.left - 1).length,
                           over: cards.filter((c) => c.bottom > below.top + 1).length, cards: cards.length };
                }"""
            )
            assert boxes["cards"] and boxes["out"] == 0 and boxes["over"] == 0, boxes
            if page.is_disabled("#review-next"):
                break
            page.click("#review-next")
    finally:
        context.close()
        server.stop()
