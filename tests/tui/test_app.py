"""`eights play`'s Textual app (eights.tui.app) driven by the Pilot, screen after screen: whole matches from the
keyboard, and a table that starts without the setup. Each screen's own tests: tests/tui/screens; `--plain`:
tests/tui/test_plain.py."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from eights.engine import Draw
from eights.table.session import HUMAN, build_config
from eights.tui.app import EightsApp
from eights.tui.screens.dialogs import ChoiceDialog, PlayerDialog, SuitDialog
from eights.tui.screens.match_end import MatchEndScreen
from eights.tui.screens.round_end import RoundEndScreen
from eights.tui.screens.table import TableScreen
from eights.tui.widgets import HandView, SeatsPanel
from tests.support.pilot import INSTANT, human_turn, message, run_app, scripted_app, table, until
from tests.support.scripting import scripted

# ----- a whole match ------------------------------------------------------------------------------------------


def test_a_match_against_computers_reaches_round_end_and_match_end():
    config = build_config("derange", options=["rounds=2,1"], players=3, bots="easy,normal", seed=3, speed=INSTANT)
    app = EightsApp(config)
    seen: set[str] = set()

    async def script(pilot: Pilot[None]) -> None:
        for _ in range(300):
            await until(
                pilot,
                lambda: (
                    human_turn(app)
                    or isinstance(app.screen, RoundEndScreen | MatchEndScreen | SuitDialog | PlayerDialog)
                ),
            )
            screen = app.screen
            seen.add(type(screen).__name__)
            if isinstance(screen, MatchEndScreen):
                session = screen.session
                assert session.game.is_over
                text = str(screen.query_one("#match-title").render())
                winners = session.game.outcome.winners
                assert text.startswith("Game over: ") and session.names[winners[0]] in text
                return
            if isinstance(screen, RoundEndScreen):
                assert "Round 1 over" in str(screen.query_one("#round-title").render())
                assert "Next: round 2, 1 card each" in str(screen.query_one("#round-next").render())
                await pilot.press("enter")
            elif isinstance(screen, SuitDialog):
                await pilot.press("h")
            else:
                view = table(app).current_view()
                hand = table(app).query_one(HandView)
                if hand.playable:
                    await pilot.press("enter")
                elif Draw() in view.legal:
                    await pilot.press("d")
                else:
                    await pilot.press("p")
            await pilot.pause()
        raise AssertionError("the match did not end")

    run_app(app, script)
    assert {"RoundEndScreen", "MatchEndScreen"} <= seen


# ----- every preset -----------------------------------------------------------------------------------------

SHORT_MATCH = {
    "classic": [],
    "action": [],
    "race": ["target_per_player=1"],
    "derange": ["rounds=2,1"],
    "baby-eating": [],
}


@pytest.mark.parametrize("preset", list(SHORT_MATCH))
def test_every_preset_plays_to_its_match_end_from_the_keyboard_on_80x24(preset):
    config = build_config(preset, options=SHORT_MATCH[preset], players=3, bots="easy", seed=21, speed=INSTANT)
    app = EightsApp(config)
    dialogs = ChoiceDialog | RoundEndScreen | MatchEndScreen
    moves = 0

    async def script(pilot: Pilot[None]) -> None:
        nonlocal moves
        for _ in range(400):
            await until(pilot, lambda: human_turn(app) or isinstance(app.screen, dialogs))
            screen = app.screen
            if isinstance(screen, MatchEndScreen):
                outcome = screen.session.game.outcome
                assert outcome is not None
                title = str(screen.query_one("#match-title").render())
                assert all(screen.session.names[seat] in title for seat in outcome.winners)
                return
            if isinstance(screen, RoundEndScreen):
                await pilot.press("enter")
            elif isinstance(screen, ChoiceDialog):
                await pilot.press("1")
            else:
                hand = screen.query_one(HandView)
                assert hand.region.bottom <= 24 - 1  # the hand is on screen, above the footer
                view = screen.current_view()
                before = len(screen.session.game.actions)
                if hand.playable:
                    assert hand.cards[hand.cursor] in hand.playable
                    await pilot.press("enter")
                else:
                    await pilot.press("d" if Draw() in view.legal else "p")
                await pilot.pause()
                assert "Not allowed" not in message(screen)
                assert len(screen.session.game.actions) > before
                moves += 1
        raise AssertionError("the match did not end")

    run_app(app, script, size=(80, 24))
    assert moves > 0


def test_the_bots_option_skips_the_setup_and_every_level_is_shown():
    game = scripted(
        "derange", hands=["5C 9H 3D 4D", "9D 9S 2H 10S", "6C 7C 8C 9C", "2D 4S 5S 6S"], starter="7S", dealer=3
    )
    app = scripted_app(game, (HUMAN, "normal", "hard", "expert"))

    async def script(pilot: Pilot[None]) -> None:
        assert isinstance(app.screen, TableScreen) and human_turn(app)
        seats = str(app.screen.query_one(SeatsPanel).render())
        assert "Bram (normal)" in seats and "Cleo (hard)" in seats and "Dev (expert)" in seats
        assert "▶ You" in seats and "Play goes clockwise ↓" in seats and "dealer" in seats

    run_app(app, script)
