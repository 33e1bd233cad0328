"""The learned computer player at the web table, in a real browser against a real server (tests/support/browser.py):
the home page offers it in a player's words, between normal and hard, and deals a game against it."""

from __future__ import annotations

from typing import Any

from tests.support.browser import DESKTOP, new_game


def test_the_home_page_offers_the_learned_player_and_deals_a_game_against_it(chromium: Any, live_server: Any) -> None:
    context = chromium.new_context(**DESKTOP)
    try:
        page = context.new_page()
        page.goto(f"{live_server.base}/")
        page.check("#new-preset-classic")
        page.select_option("#new-players", "2")
        choices = page.eval_on_selector_all("#new-seat-1 option", "(os) => os.map((o) => [o.value, o.textContent])")
        values = [value for value, _ in choices]
        assert values[values.index("normal") + 1 : values.index("hard")] == ["learned"], values
        assert ["learned", "computer: learned (trained against normal)"] in choices
        new_game(page, live_server.base, "classic", 2, {}, level="learned")
        assert page.locator("#hand .card").count() >= 5  # dealt, and the page shows the hand
    finally:
        context.close()
