"""axe-core 4 on every page of the web server, in a real browser (tests/support/axe.py): the home page, a room's lobby
(the host's and a friend's), the table, the review, the score sheet and the lab's charts, each on a phone
and a desktop. Any serious or critical finding fails."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.axe import AxeUnavailable, assert_no_findings, axe_source
from tests.support.browser import DESKTOP, PATIENCE, PHONE, LiveServer, new_game
from tests.support.extras import missing
from tests.web.test_browser_lab import CHARTS, SMALL
from tests.web.test_browser_scorecard import start_sheet
from tests.web.test_browser_table import Watched, play

DEVICES = pytest.mark.parametrize("device", [PHONE, DESKTOP], ids=["phone", "desktop"])


@pytest.fixture(scope="module")
def axe() -> str:
    try:
        return axe_source()
    except AxeUnavailable as exc:
        missing("axe-core", exc, "npm (Debian's package) fetches it")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server for the module: a small lab, a quick review."""
    limits = ("--set-limit", "review_deals=8", "--set-limit", "review_iterations=10")
    served = LiveServer(tmp_path_factory.mktemp("axe") / "served.db", options=(*SMALL, *limits))
    yield served
    served.stop()


@pytest.fixture
def page(chromium: Any, axe: str, device: dict[str, Any]) -> Iterator[Any]:
    context = chromium.new_context(**device, bypass_csp=True)  # the policy would refuse axe's script
    yield context.new_page()
    context.close()


@DEVICES
def test_the_home_page(page: Any, server: LiveServer) -> None:
    page.goto(f"{server.base}/")
    page.wait_for_selector("#home:not([hidden])")
    assert_no_findings(page, "home page")


@DEVICES
def test_the_lobby_of_the_host_and_of_a_friend(chromium: Any, page: Any, server: LiveServer) -> None:
    page.goto(f"{server.base}/")
    page.fill("#name", "Ann")
    page.click("#new-room")
    page.wait_for_selector("#lobby:not([hidden])", timeout=PATIENCE * 1000)
    assert_no_findings(page, "host's lobby")
    other = chromium.new_context(**PHONE, bypass_csp=True)
    try:
        friend = other.new_page()
        friend.goto(page.url)
        friend.wait_for_selector("#lobby:not([hidden])", timeout=PATIENCE * 1000)
        assert_no_findings(friend, "friend's lobby")
    finally:
        other.close()


@DEVICES
def test_the_table_the_end_and_the_review(page: Any, server: LiveServer) -> None:
    me = Watched(page)
    new_game(page, server.base, "classic", 2, {})
    assert_no_findings(page, "table")
    play([me])
    assert_no_findings(page, "match's end")
    page.click("#review-button")
    page.wait_for_function("() => !document.querySelector('#review').hidden", timeout=PATIENCE * 4000)
    assert_no_findings(page, "review")


@DEVICES
def test_the_score_sheet(page: Any, server: LiveServer) -> None:
    page.goto(f"{server.base}/scorecard")
    page.wait_for_selector("#start-sheet")
    assert_no_findings(page, "score sheet's start")
    start_sheet(page, server.base)
    assert_no_findings(page, "score sheet")


@DEVICES
def test_the_lab(page: Any, server: LiveServer) -> None:
    page.goto(f"{server.base}/")
    page.click("#new-test-rules")
    page.wait_for_function(
        "(n) => document.querySelectorAll('#new-lab-results .lab-chart svg').length === n",
        arg=CHARTS,
        timeout=PATIENCE * 4000,
    )
    page.click("#new-lab-results .lab-table summary")
    assert_no_findings(page, "lab's charts")


def test_a_page_with_a_serious_finding_fails(chromium: Any, axe: str) -> None:
    """The run can fail: an image without words and a button without a name are found."""
    context = chromium.new_context(**DESKTOP)
    try:
        page = context.new_page()
        page.set_content('<html lang="en"><title>t</title><main><button></button><img src="x.png"></main></html>')
        with pytest.raises(AssertionError, match="button-name"):
            assert_no_findings(page, "test page")
    finally:
        context.close()
