"""The match end (eights.tui.screens.match_end): the final table, play again on the next seed, a new game."""

from __future__ import annotations

from textual.pilot import Pilot

from eights.table.session import build_config
from eights.tui.app import EightsApp
from eights.tui.screens.match_end import MatchEndScreen
from eights.tui.screens.setup import SetupScreen
from tests.support.pilot import INSTANT, run_app, table, until


def test_play_again_deals_the_next_seed():
    config = build_config("classic", players=2, humans=0, seed=10, speed=INSTANT)
    app = EightsApp(config)

    async def script(pilot: Pilot[None]) -> None:
        await until(pilot, lambda: isinstance(app.screen, MatchEndScreen))
        first = table(app)
        await pilot.press("a")
        await until(pilot, lambda: table(app) is not first)
        assert table(app).session.game.seed == 11
        assert first not in app.screen_stack

    run_app(app, script)


def test_the_match_end_shows_the_final_table_and_enter_does_not_deal_again():
    config = build_config("derange", options=["rounds=1"], players=3, humans=0, seed=4, speed=INSTANT)
    app = EightsApp(config)

    async def script(pilot: Pilot[None]) -> None:
        await until(pilot, lambda: isinstance(app.screen, MatchEndScreen))
        screen = app.screen
        session = screen.session
        outcome = session.game.outcome
        final = str(screen.query_one("#match-totals").render())
        assert "Final totals after 1 round (lowest total wins)." in final
        for seat in range(3):
            mark = "★" if seat in outcome.winners else " "
            assert f"{mark} {session.label(seat)}" in final
            assert str(outcome.totals[seat]) in final
        await pilot.press("enter")  # an Enter meant for the table: nothing happens
        await pilot.pause()
        assert app.screen is screen
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, SetupScreen))
        setup = app.screen
        assert setup.query_one("#preset").value == "derange" and setup.query_one("#players").value == 3
        assert app.focused is setup.query_one("#preset")

    run_app(app, script)
