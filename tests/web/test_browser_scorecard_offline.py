"""The score sheet offline, in a real browser (issue 30): installable (manifest, icons, service worker); a phone
that opened /scorecard once opens it again with no server, keeps a whole derange match there (rounds entered,
one edited, one undone) with the totals computed on the phone, and sends it when the server is back, where
the server's totals equal the phone's; and a sheet changed on another device while the phone was offline
is not overwritten: the phone says so and shows the server's sheet.

"No server" here is the server process stopped (its port refuses), which a phone meets as a network down.
"""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

from tests.support.browser import PHONE
from tests.web.test_browser_scorecard import (
    PLAYERS,
    ROUNDS,
    TOTALS,
    WAIT,
    fill_new_sheet,
    fill_round,
    keep_the_match,
    pick,
    save,
    shown_totals,
    start_sheet,
)

#: What the page sets once this phone can open it and keep score with no network.
READY = 'body[data-offline="ready"]'


def get(url: str) -> tuple[str, Any]:
    with urllib.request.urlopen(url) as answer:
        return answer.headers["Content-Type"], answer.read()


def open_once(page: Any, base: str) -> None:
    """Open /scorecard with the server up, as a phone does once, until the page says it can keep score offline
    (its service worker active with the files kept, and every preset's scoring kept by the page)."""
    page.goto(f"{base}/scorecard")
    page.wait_for_selector(READY, state="attached", timeout=WAIT)
    assert page.inner_text("#offline-state").startswith("This phone now keeps score with no network too")


def test_the_sheet_is_an_installable_app(live_server: Any) -> None:
    kind, body = get(f"{live_server.base}/scorecard.webmanifest")
    assert kind == "application/manifest+json"
    manifest = json.loads(body)
    assert manifest["start_url"] == "/scorecard" and manifest["display"] == "standalone"
    assert manifest["scope"] == "/" and manifest["name"] and manifest["short_name"] == "Score sheet"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512", "any"} <= sizes
    for icon in manifest["icons"]:
        kind, data = get(live_server.base + icon["src"])
        assert kind == icon["type"]
        if icon["type"] == "image/png":
            width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
            assert f"{width}x{height}" == icon["sizes"]
    kind, body = get(f"{live_server.base}/scorecard-sw.js")
    assert kind.startswith("text/javascript") and b'addEventListener("fetch"' in body
    _, page = get(f"{live_server.base}/scorecard")
    assert b'<link rel="manifest" href="/scorecard.webmanifest">' in page


def test_the_page_says_it_works_offline_only_once_it_has_kept_what_it_needs(chromium: Any, live_server: Any) -> None:
    """A first visit whose download of one rules' scoring is cut says the phone is not ready to work offline;
    the next visit keeps it and says it is. The worker's scope is the whole site."""
    context = chromium.new_context(**PHONE)
    try:
        page = context.new_page()
        cut = "**/api/scoring?preset=baby-eating"
        page.route(cut, lambda route: route.abort("connectionreset"))
        page.goto(f"{live_server.base}/scorecard")
        page.wait_for_selector('body[data-offline="missing"]', state="attached", timeout=WAIT)
        assert page.inner_text("#offline-state") == (
            "This phone could not keep everything it needs to keep score with no network: "
            "open this page again while it is connected."
        )
        scope = page.evaluate("() => navigator.serviceWorker.getRegistration().then((r) => r.scope)")
        assert scope == f"{live_server.base}/"
        page.unroute(cut)
        page.reload()
        page.wait_for_selector(READY, state="attached", timeout=WAIT)
        kept = page.evaluate("() => Object.keys(localStorage).filter((k) => k.startsWith('eights-scoring-')).sort()")
        _, body = get(f"{live_server.base}/api/presets")
        names = sorted(preset["name"] for preset in json.loads(body)["presets"])
        assert kept == [f"eights-scoring-/api/scoring?preset={name}" for name in names]
    finally:
        context.close()


def test_over_plain_http_from_another_machine_the_page_says_it_needs_https(chromium: Any, live_server: Any) -> None:
    """A browser keeps a site for offline use only from a secure origin: the page opened by plain HTTP under a
    name that is not this machine (every request answered by the real server) has no service worker, and
    says that offline use needs HTTPS instead of promising it; the sheet still works online."""
    context = chromium.new_context(**PHONE)
    try:
        page = context.new_page()
        elsewhere = "http://eights.example"
        context.route(
            f"{elsewhere}/**",
            lambda route: route.fulfill(
                response=route.fetch(url=route.request.url.replace(elsewhere, live_server.base))
            ),
        )
        page.goto(f"{elsewhere}/scorecard")
        page.wait_for_selector('body[data-offline="needs-https"]', state="attached", timeout=WAIT)
        assert page.evaluate("() => [window.isSecureContext, 'serviceWorker' in navigator]") == [False, False]
        assert page.inner_text("#offline-state") == (
            "This page keeps score with no network only when the site is opened over HTTPS: "
            "here it needs the server, so ask whoever runs it to put it behind HTTPS."
        )
        # the sheet itself works as ever: the rules came from the server (one choice per preset)
        _, body = get(f"{live_server.base}/api/presets")
        assert page.locator("#sheet-presets input").count() == len(json.loads(body)["presets"])
    finally:
        context.close()


def test_a_whole_derange_match_kept_with_no_server_is_sent_when_it_is_back(chromium: Any, live_server: Any) -> None:
    context = chromium.new_context(**PHONE)
    try:
        page = context.new_page()
        open_once(page, live_server.base)
        live_server.stop()
        page.reload()  # the page, its scripts and the rules' scoring come from the phone
        page.wait_for_selector("#preset-derange", timeout=WAIT)
        fill_new_sheet(page)
        assert re.search(r"/scorecard#kept=\w+$", page.url), page.url
        assert page.inner_text("#connection").startswith("Kept on this phone: the server has not got this sheet yet")
        keep_the_match(page, undo=3)
        assert page.inner_text("#result .winner-line") == "Bob wins"
        # A round the rules refuse is refused on the phone too, in one line, changing nothing.
        page.click("#edit-15")
        page.click("#mode-cards-2")
        pick(page, 2, ["8C"])
        page.click("#save-round")
        page.wait_for_selector("#problem:not([hidden])", timeout=WAIT)
        assert page.inner_text("#problem") == "8C is entered 3 times, but the pack holds only 2"
        page.click("#cancel-edit")
        phone = shown_totals(page)
        assert phone == TOTALS[-1]

        live_server.start()  # the phone sends the sheet by itself and shows the server's
        page.wait_for_url(re.compile(r"/s/[\w-]+$"), timeout=WAIT)
        page.wait_for_selector("#said:not([hidden])", timeout=WAIT)
        code = page.url.rsplit("/", 1)[1]
        assert page.inner_text("#said") == (
            f"Sent to the server: the sheet now has a code, {code}, and the server's totals agree with this phone's."
        )
        _, body = get(f"{live_server.base}/api/sheets/{code}")
        served = json.loads(body)
        assert tuple(served["totals"]) == phone and served["winners"] == ["Bob"] and len(served["rounds"]) == 15
        assert shown_totals(page) == phone and page.is_hidden("#problem")
        # The phone keeps the edit token: the sheet can be changed from it, live.
        assert page.is_visible("#undo") and page.is_hidden("#following")
    finally:
        context.close()


def test_a_sheet_the_server_scores_differently_is_said_and_the_servers_sheet_shown(
    chromium: Any, live_server: Any
) -> None:
    """A phone whose kept scoring is not the server's (kept from an older server: here the king of spades worth
    99) totals the round its way offline; when sent, the server's scoring counts, and the page says where the
    two differ."""
    context = chromium.new_context(**PHONE)
    try:
        page = context.new_page()
        open_once(page, live_server.base)
        live_server.stop()
        page.evaluate(
            """() => {
              const key = "eights-scoring-/api/scoring?preset=derange";
              const data = JSON.parse(localStorage.getItem(key));
              data.tables["3"].pack.find((card) => card.card === "KS").value = 99;
              localStorage.setItem(key, JSON.stringify(data));
            }"""
        )
        page.reload()
        page.wait_for_selector("#preset-derange", timeout=WAIT)
        fill_new_sheet(page)
        fill_round(page, *ROUNDS[0])
        save(page, 1)
        assert shown_totals(page) == (0, 149, 14)
        live_server.start()
        page.wait_for_url(re.compile(r"/s/[\w-]+$"), timeout=WAIT)
        page.wait_for_selector("#problem:not([hidden])", timeout=WAIT)
        assert page.inner_text("#problem") == (
            "The server scored this sheet differently from this phone (here: Ann 0, Bob 149, Cid 14; "
            "on the server: Ann 0, Bob 70, Cid 14). This is the server's sheet, which counts."
        )
        assert shown_totals(page) == TOTALS[0] and page.is_hidden("#connection")
    finally:
        context.close()


def test_a_sheet_changed_elsewhere_while_the_phone_was_offline_shows_the_servers_sheet(
    chromium: Any, live_server: Any
) -> None:
    context = chromium.new_context(**PHONE)
    try:
        page = context.new_page()
        open_once(page, live_server.base)
        code = start_sheet(page, live_server.base)
        fill_round(page, *ROUNDS[0])
        save(page, 1)
        page.wait_for_selector(READY, state="attached", timeout=WAIT)
        token = page.evaluate("(code) => localStorage.getItem(`eights-sheet-${code}`)", code)
        context.set_offline(True)
        page.reload()
        page.wait_for_selector("#entry:not([hidden])", timeout=WAIT)
        assert page.inner_text("#connection").startswith("The server cannot be reached: changes are kept on this phone")
        fill_round(page, *ROUNDS[1])
        save(page, 2)
        assert shown_totals(page) == TOTALS[1]
        # Meanwhile another phone enters a different round 2 on the server.
        request = urllib.request.Request(
            f"{live_server.base}/api/sheets/{code}/rounds",
            data=json.dumps({"token": token, "out": "Cid", "left": {"Ann": 1, "Bob": 2}}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request) as answer:
            assert tuple(json.load(answer)["totals"]) == (1, 72, 14)
        context.set_offline(False)
        page.wait_for_selector("#problem:not([hidden])", timeout=WAIT)
        assert page.inner_text("#problem") == (
            "This sheet was changed on another device while this phone was offline: 1 change made on this phone "
            "was not sent. This is the server's sheet."
        )
        page.wait_for_function("() => document.body.dataset.kept === ''", timeout=WAIT)
        assert shown_totals(page) == (1, 72, 14)
        assert page.is_hidden("#connection")
    finally:
        context.close()


def test_a_sheet_kept_offline_that_the_server_refuses_stays_on_the_phone(chromium: Any, live_server: Any) -> None:
    """The name rule is the server's: a name it refuses, taken offline, is refused when the sheet is sent, in
    one line, and the sheet stays on the phone as it was."""
    context = chromium.new_context(**PHONE)
    try:
        page = context.new_page()
        open_once(page, live_server.base)
        live_server.stop()
        page.reload()
        page.wait_for_selector("#preset-derange", timeout=WAIT)
        page.fill("#player-0", "Ann\u200b")
        page.fill("#player-1", "Bob")
        page.click("#start-sheet")
        page.wait_for_selector("#entry:not([hidden])", timeout=WAIT)
        fill_round(page, "Bob", {"Ann": 12})
        save(page, 1)
        live_server.start()
        page.wait_for_selector("#problem:not([hidden])", timeout=WAIT)
        assert page.inner_text("#problem") == (
            "The server refused this sheet: player 1: name: 'Ann\\u200b' holds an invisible or control character "
            "(U+200B); use letters. It stays on this phone."
        )
        assert "/scorecard#kept=" in page.url and page.evaluate("() => document.body.dataset.rounds") == "1"
    finally:
        context.close()


assert PLAYERS == ("Ann", "Bob", "Cid")
