"""The new game screen (eights.tui.screens.setup): the game it describes started, why a table cannot play, each
preset's options with their defaults, and a saved match taken up."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from eights.table.saved import start_saved
from eights.table.session import HUMAN, build_config
from eights.tui.app import EightsApp
from eights.tui.screens.setup import SetupScreen
from eights.tui.screens.table import TableScreen
from tests.support.pilot import INSTANT, human_turn, run_app, table, until


def test_the_setup_screen_starts_the_game_it_describes():
    app = EightsApp(defaults=build_config("classic", speed=INSTANT))

    async def script(pilot: Pilot[None]) -> None:
        await until(pilot, lambda: isinstance(app.screen, SetupScreen))
        screen = app.screen
        screen.query_one("#preset").value = "derange"
        await until(pilot, lambda: bool(screen.query("#opt-short_rounds-2")))
        screen.query_one("#players").value = 3
        await until(pilot, lambda: bool(screen.query("#seat-2-3 #label")))  # mounted, not only composed
        screen.query_one("#seat-2-3").value = "hard"
        screen.query_one("#opt-short_rounds-3").value = "true"
        screen.query_one("#seed").value = "42"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, TableScreen))
        session = app.screen.session
        assert session.rules.name == "derange" and session.rules.short_rounds
        assert session.config.seats == (HUMAN, "normal", "hard")
        assert session.game.seed == 42 and session.game.hand_size == 4

    run_app(app, script)


def test_the_setup_screen_shows_why_a_table_cannot_play():
    app = EightsApp(defaults=build_config("classic", speed=INSTANT))

    async def script(pilot: Pilot[None]) -> None:
        await until(pilot, lambda: isinstance(app.screen, SetupScreen))
        screen = app.screen
        screen.query_one("#opt-deal-1").value = "20"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        assert "deal" in str(screen.query_one("#setup-error").render())

    run_app(app, script)


@pytest.mark.parametrize(
    ("preset", "shown"),
    [
        ("classic", {"deal": "5", "target": "0"}),
        ("action", {"packs": "auto", "stacking": "false", "score_keeping": "false", "target": "500"}),
        ("race", {"target_per_player": "50"}),
        ("derange", {"short_rounds": "false", "rounds": "8,7,6,5,4,3,2,1,2,3,4,5,6,7,8"}),
        ("baby-eating", {"expanded_deck": "auto", "teams": "false"}),
    ],
)
def test_the_setup_screen_shows_each_presets_options_with_their_defaults(preset, shown):
    app = EightsApp(defaults=build_config(preset, speed=INSTANT))

    async def script(pilot: Pilot[None]) -> None:
        await until(
            pilot, lambda: isinstance(app.screen, SetupScreen) and bool(app.screen.query("#option-rows Horizontal"))
        )
        screen = app.screen
        for field, value in shown.items():
            assert screen.query_one(f"#opt-{field}-1").value == value
        assert [s.value for s in screen.query("#seat-rows Select")] == [HUMAN, "normal", "normal", "normal"]

    run_app(app, script)


def test_new_game_screen_continues_the_saved_match(tmp_path):
    from eights.engine import view
    from eights.store import Store, database_url

    store = Store(database_url(str(tmp_path / "m.db")))
    config = build_config("race", players=3, bots="easy", seed=21, speed=INSTANT)
    saved = start_saved(store, config)
    while len(saved.game.actions) < 12:
        seat = saved.game.to_act
        saved.play(saved.view(seat).legal[0], seat) if saved.is_human(seat) else saved.bot_move()
    while saved.is_human(saved.game.to_act) is False:
        saved.bot_move()
    before = [view(saved.game, seat) for seat in range(3)]
    app = EightsApp(defaults=config, store=store)

    async def script(pilot: Pilot[None]) -> None:
        await until(pilot, lambda: isinstance(app.screen, SetupScreen) and bool(app.screen.query("#continue")))
        about = str(app.screen.query_one("#continue-about").render())
        assert "race" in about and "12 moves in" in about
        await pilot.click("#continue")
        await until(pilot, lambda: human_turn(app))
        session = table(app).session
        assert [view(session.game, seat) for seat in range(3)] == before
        assert session.log is not None and session.log.where().startswith("match 1 in ")

    run_app(app, script)
    store.close()


def test_continue_offers_every_unfinished_match_and_its_words_wrap(tmp_path):
    """Issue 29, item 7: Continue took up only the newest unfinished match, and its words were cut at
    the screen's edge."""
    from textual.widgets import Select

    from eights.store import Store, database_url

    store = Store(database_url(str(tmp_path / "m.db")))
    names = "Annabelle Longname"
    older = start_saved(store, build_config("race", players=4, bots="easy", seed=5, speed=INSTANT, names=names))
    start_saved(store, build_config("classic", players=4, bots="easy", seed=6, speed=INSTANT, names=names))
    store.writer.settle()
    app = EightsApp(defaults=older.config, store=store)

    async def script(pilot: Pilot[None]) -> None:
        await until(pilot, lambda: isinstance(app.screen, SetupScreen) and bool(app.screen.query("#continue")))
        chooser = app.screen.query_one("#continue-match", Select)
        assert chooser.value == 2  # the newest first
        chooser.value = 1
        await pilot.pause()
        await pilot.click("#continue")
        await until(pilot, lambda: human_turn(app))
        session = table(app).session
        assert session.config.rules.name == "race" and session.log is not None
        assert session.log.where().startswith("match 1 in ")

    run_app(app, script)
    store.close()

    store = Store(database_url(str(tmp_path / "one.db")))
    start_saved(store, build_config("race", players=4, bots="hard@20", seed=5, speed=INSTANT, names=names))
    store.writer.settle()
    app = EightsApp(defaults=older.config, store=store)

    async def one(pilot: Pilot[None]) -> None:
        await until(pilot, lambda: isinstance(app.screen, SetupScreen) and bool(app.screen.query("#continue")))
        about = app.screen.query_one("#continue-about")
        words = str(about.render())
        assert words.endswith("0 moves in") and "hard@20" in words
        assert about.region.right <= app.screen.region.width and about.region.height >= 2  # wrapped, not cut

    run_app(app, one, size=(100, 30))
    store.close()
