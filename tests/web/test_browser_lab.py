"""'Test these rules' in a real browser against a real server (tests/support/browser.py), on a 320 px phone: the
button in the new-game setup and in a room's setup, the progress while the lab plays, and the charts
(bars with their intervals, labelled for screen readers) with the figures as a table, under the page's
content security policy. The server plays a lab of two games of each kind (``--set-limit``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.browser import PATIENCE, LiveServer

#: A small lab: two games of each kind, the expert searching three iterations a move.
SMALL = ("--set-limit", "lab_games=2", "--set-limit", "lab_budget=3")
#: The narrowest phone the page is made for.
NARROW: dict[str, Any] = {"viewport": {"width": 320, "height": 720}, "has_touch": True, "is_mobile": True}
#: The charts of a lab (eights.lab.report.panels).
CHARTS = 9


@pytest.fixture
def lab_server(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path / "lab.db", options=SMALL)
    yield server
    server.stop()


def watched_page(chromium: Any) -> tuple[Any, Any, list[str]]:
    """A phone's page, and the errors its console shows (a script or style the policy refused among them)."""
    context = chromium.new_context(**NARROW)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return context, page, errors


def charts_shown(page: Any, prefix: str) -> None:
    """Press the form's button; the progress shows, then the charts."""
    page.click(f"#{prefix}test-rules")
    page.wait_for_function(f"() => !document.querySelector('#{prefix}lab-progress').hidden", timeout=PATIENCE * 1000)
    page.wait_for_function(
        f"(n) => document.querySelectorAll('#{prefix}lab-results .lab-chart svg').length === n",
        arg=CHARTS,
        timeout=PATIENCE * 4000,
    )
    assert page.is_hidden(f"#{prefix}lab-progress")


def test_test_these_rules_in_the_new_game_setup(chromium: Any, lab_server: LiveServer) -> None:
    context, page, errors = watched_page(chromium)
    page.goto(f"{lab_server.base}/")
    page.check("#new-preset-action")
    page.select_option("#new-players", "3")
    if not page.is_visible("#new-option-stacking"):
        page.click(".more-options summary")
    page.set_checked("#new-option-stacking", True)
    charts_shown(page, "new-")
    results = "#new-lab-results"
    assert page.text_content("#new-lab-status") == "Done: 12 games played."
    legend = page.locator(f"{results} .lab-legend li").all_text_contents()
    assert legend == ["your rules: stacking=true", "action as it comes"]
    assert "Your rules (stacking=true) against action as it comes, 3 players." in page.text_content(results)
    budget = page.text_content(f"{results} .lab-budget")
    assert "2 games of each kind" in budget and "searching 3 iterations a move" in budget
    assert "eights lab house.toml action --players 3 --games 2 --budget 3 --seed 1" in budget
    # Each chart: a picture named by its caption and described in words, bars of both rule sets with intervals.
    titles = page.locator(f"{results} figcaption").all_text_contents()
    assert titles[2:6] == ["Rounds per game", "Minutes at a person's pace", "Who wins", "Luck against skill"]
    seats = page.locator(f"{results} .lab-chart").nth(4)
    assert seats.locator("svg").get_attribute("role") == "img"
    described = seats.locator("desc").text_content()
    assert described is not None and "first to act: your rules" in described and "action" in described
    assert seats.locator("rect.bar.series-0").count() == 4 and seats.locator("rect.bar.series-1").count() == 4
    assert seats.locator("line.interval").count() == 4 * 6 and seats.locator("line.reference").count() == 1
    # A figure the rules fix (one round a match): its bar marked, without whiskers.
    rounds = page.locator(f"{results} .lab-chart").nth(2)
    assert rounds.locator("text", has_text="fixed").count() == 2 and rounds.locator("line.interval").count() == 0
    assert "1.00 (by the rules)" in (rounds.locator("desc").text_content() or "")
    # The same figures as a table: a row per figure, a column per rule set.
    page.click(f"{results} .lab-table summary")
    heads = page.locator(f"{results} thead th").all_text_contents()
    assert heads == ["figure", "your rules", "action"]
    rows = page.locator(f"{results} tbody tr")
    assert rows.count() == 4 + 1 + 3 + 7  # length, the first to act's and each seat's wins, the rest
    assert rows.first.locator("th").text_content() == "turns per game"
    notes = page.locator(f"{results} .lab-note").all_text_contents()
    assert any(line.startswith("Power: 2 games can see") for line in notes)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 320
    # Rules changed after the test: the figures are marked as those of the rules before.
    page.set_checked("#new-option-stacking", False)
    assert "changed since this test" in (page.text_content("#new-lab-status") or "")
    assert errors == []
    context.close()


def test_test_these_rules_in_a_room_s_setup(chromium: Any, lab_server: LiveServer) -> None:
    context, page, errors = watched_page(chromium)
    page.goto(f"{lab_server.base}/")
    page.fill("#name", "Ann")
    page.click("#new-room")
    page.wait_for_selector("#room-test-rules", timeout=PATIENCE * 1000)
    charts_shown(page, "room-")
    legend = page.locator("#room-lab-results .lab-legend li").all_text_contents()
    assert legend == ["classic as it comes"]  # nothing changed: the plain preset alone, and said so
    assert "nothing to compare" in page.text_content("#room-lab-results")
    assert page.locator("#room-lab-results rect.bar.series-1").count() == 0
    assert errors == []
    context.close()
