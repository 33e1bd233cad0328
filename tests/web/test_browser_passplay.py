"""Pass and play on one phone to the match's end, in a real browser against a real server (tests/support/browser.py):
no card flies over the pass-the-phone screen; at the end the screen is the host's, with her Rematch; each
person here puts their own result on screen and reviews their own decisions; the rematch deals again."""

from __future__ import annotations

import time
from typing import Any

from tests.support.browser import PATIENCE, PHONE, LiveServer
from tests.web.test_browser_table import Watched

#: Counts, from the page's start, the changes after which a card is in flight while the pass-the-phone
#: screen shows.
FLIGHTS_OVER_PASS = """
window.overPass = 0;
new MutationObserver(() => {
  const pass = document.querySelector("#pass");
  if (pass && !pass.hidden && document.querySelector(".flying")) window.overPass += 1;
}).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["hidden", "class"] });
"""


def test_pass_and_play_to_the_end_every_person_here_sees_their_result(chromium: Any, tmp_path: Any) -> None:
    server = LiveServer(
        tmp_path / "served.db", options=("--set-limit", "review_deals=8", "--set-limit", "review_iterations=10")
    )
    context = chromium.new_context(**PHONE)
    try:
        me = Watched(context.new_page(), touch=True)
        page = me.page
        page.add_init_script(FLIGHTS_OVER_PASS)
        page.goto(f"{server.base}/")
        page.fill("#name", "Ann")
        page.check("#new-preset-classic")
        page.select_option("#new-players", "3")
        page.select_option("#new-seat-1", "easy")
        page.select_option("#new-seat-2", "here")
        page.fill("#new-seat-name-2", "Ben")
        page.click("#play-now")
        page.wait_for_selector("#table:not([hidden]), #pass:not([hidden])", timeout=PATIENCE * 1000)
        passes = 0
        deadline = time.monotonic() + 150
        while me.next() != "end":
            assert time.monotonic() < deadline, "the match did not end in time"
            if page.is_visible("#pass"):
                passes += 1
                page.locator("#pass-ready").tap()
                page.wait_for_selector("#pass", state="hidden")
                continue
            what = me.next()
            if what == "dialog":
                page.locator("#dialog .suit-choice, #dialog .move-choice, #dialog-close").first.tap()
            elif what == "turn":
                page.locator("#hand .card.marked, #moves button").first.tap()
            page.wait_for_timeout(40)
        assert passes >= 2
        assert page.evaluate("() => window.overPass") == 0  # no card flew over the screen that hides the hands
        # The end is on the host's screen (Ann's, seat 1), with her Rematch, and each person here is offered.
        page.wait_for_function("() => document.querySelector('#here-0')?.getAttribute('aria-pressed') === 'true'")
        assert page.is_visible("#rematch")
        assert "(you)" in (page.text_content("#seats .seat:nth-child(1)") or "")
        assert page.locator(".people-here button").all_text_contents() == ["Ann", "Ben"]
        # Ben puts his own result on screen and reviews his own decisions (his token: the server answers for
        # his seat), and the Rematch is still there for the host holding the phone.
        page.locator("#here-2").tap()
        page.wait_for_function("() => document.querySelector('#here-2').getAttribute('aria-pressed') === 'true'")
        assert "(you)" in (page.text_content("#seats .seat:nth-child(3)") or "")
        assert page.is_visible("#rematch")
        with page.expect_response(
            lambda answer: answer.url.endswith("/review") and answer.request.method == "POST"
        ) as asked:
            page.locator("#review-button").tap()
        assert asked.value.status in (200, 202)
        page.wait_for_function("() => !document.querySelector('#review').hidden", timeout=PATIENCE * 4000)
        review = me.page.text_content("#review-body") or ""
        assert review
        page.locator("#review-close").tap()
        # Back to Ann, and the rematch (sent on the host's connection) deals again.
        page.locator("#here-0").tap()
        page.locator("#rematch").tap()
        page.wait_for_function(  # a new deal: this seat's table, or the phone passed to Ben if he is first
            "() => !document.querySelector('#pass').hidden || document.querySelector('#result').hidden",
            timeout=PATIENCE * 1000,
        )
        assert me.states[-1]["room"]["phase"] == "playing" and me.states[-1]["table"]["result"] is None
    finally:
        context.close()
        server.stop()
