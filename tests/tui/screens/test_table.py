"""The table (eights.tui.screens.table) and its widgets (eights.tui.widgets): cards, keys and clicks, a hint, the
rules and the pace, a table that answers while a computer thinks, seats and log at 80x24, and leaving."""

from __future__ import annotations

from textual.pilot import Pilot

from eights.cards import Card
from eights.engine.events import CardPlayed
from eights.table.session import HUMAN, build_config
from eights.tui.app import EightsApp
from eights.tui.screens.rules import RulesScreen
from eights.tui.screens.table import TableScreen
from eights.tui.widgets import GameLog, HandView, PileView, SeatsPanel
from tests.support.pilot import INSTANT, HeldBot, human_turn, log_words, message, run_app, scripted_app, table, until
from tests.support.scripting import scripted


def test_clicking_an_unplayable_card_says_why_it_is_not_playable():
    game = scripted("classic", hands=["5C 9H 3D 4D 6D", "9D 9S 2H 10S KD"], starter="7S", stock="KS QH", dealer=1)
    app = scripted_app(game, (HUMAN, "easy"))

    async def script(pilot: Pilot[None]) -> None:
        screen = table(app)
        hand = screen.query_one(HandView)
        assert hand.cards[0] == Card("5C") and not hand.playable
        await pilot.click(HandView, offset=(3, 2))  # the first card's face
        await pilot.pause()
        assert "Not allowed: 5♣ does not match" in message(screen)
        assert len(game.hands[0]) == 5

    run_app(app, script)


def test_d11_marked_cards_are_stacked_under_the_card_played():
    game = scripted(
        "action",
        hands=["QH QS 3C 4C 5C", "9D 9S 2H 10S KD"],
        starter="7H",
        stock="KS JH 6D",
        dealer=1,
        options=["stacking=true"],
    )
    app = scripted_app(game, (HUMAN, "easy"))

    async def script(pilot: Pilot[None]) -> None:
        hand = table(app).query_one(HandView)
        assert hand.cards == tuple(Card(c) for c in ("3C", "4C", "5C", "QH", "QS"))
        assert "space marks cards to lay under it" in str(table(app).query_one("#prompt").render())
        await pilot.press("5", "space", "4", "enter")
        await until(pilot, lambda: any(isinstance(e, CardPlayed) for e in game.log))
        played = next(e for e in game.log if isinstance(e, CardPlayed))
        assert (played.card, played.stack) == (Card("QH"), (Card("QS"),))

    run_app(app, script)


def test_keys_move_the_cursor_draw_and_refuse_a_pass():
    game = scripted("classic", hands=["5C 9H 3D 4D 6D", "9D 9S 2H 10S KD"], starter="7S", stock="KS QH", dealer=1)
    app = scripted_app(game, (HUMAN, "easy"))

    async def script(pilot: Pilot[None]) -> None:
        screen = table(app)
        hand = screen.query_one(HandView)
        await pilot.press("3")
        assert hand.cursor == 2
        await pilot.press("right", "right")
        assert hand.cursor == 4
        await pilot.press("p")
        assert "Not allowed" in message(screen) and "cannot pass" in message(screen)
        await pilot.press("d")
        await pilot.pause()
        assert Card("KS") in game.hands[0]
        assert hand.playable == {Card("KS")}

    run_app(app, script)


def test_hint_rules_and_speed_keys():
    config = build_config("race", players=2, seed=5, speed=3)
    app = EightsApp(config)

    async def script(pilot: Pilot[None]) -> None:
        screen = table(app)
        await pilot.press("plus")
        assert screen.session.speed == 4
        await pilot.press("minus", "minus")
        assert screen.session.speed == 2
        screen.session.speed = INSTANT
        screen.advance()
        await until(pilot, lambda: human_turn(app))
        await pilot.press("h")
        assert message(screen).startswith("Hint: ")
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, RulesScreen))
        titles = [str(label.render()) for label in app.screen.query(".rules-section")]
        assert "Special cards" in titles and "Scoring" in titles
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, TableScreen))

    run_app(app, script)


def test_the_table_stays_responsive_while_a_computer_thinks():
    game = scripted("classic", hands=["5C 9S 3D 4D 6D", "9D 2S 2H 10S KD"], starter="7S", stock="KH QH", dealer=1)
    app = scripted_app(game, (HUMAN, "easy"))
    held = HeldBot()

    async def script(pilot: Pilot[None]) -> None:
        table(app).session.bots[1] = held
        await pilot.press("enter")  # 9♠; then seat 1 thinks
        await until(pilot, held.thinking.is_set)
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, RulesScreen))
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, TableScreen))
        assert game.to_act == 1 and game.top == Card("9S")  # seat 1 has not played yet
        held.go.set()
        await until(pilot, lambda: human_turn(app))
        played = [e for e in game.log if isinstance(e, CardPlayed)]
        assert (played[-1].seat, played[-1].card) == (1, Card("9D"))

    run_app(app, script)


def test_sixteen_seats_go_in_columns_so_the_hand_fits_80x24():
    config = build_config("baby-eating", players=16, bots="normal", seed=2, speed=1)
    app = EightsApp(config)

    async def script(pilot: Pilot[None]) -> None:
        screen = table(app)
        lines = str(screen.query_one(SeatsPanel).render()).splitlines()
        assert len(lines) == 1 + 8  # the order of play, then two columns of eight
        assert "You" in lines[1] and "Iris (normal)" in lines[1]
        hand = screen.query_one(HandView)
        assert len(hand.cards) >= 6 and hand.region.height >= 4 and hand.region.bottom <= 23

    run_app(app, script, size=(80, 24))


def test_the_log_keeps_its_latest_line_in_sight_when_a_refusal_is_shown():
    game = scripted(
        "derange",
        hands=["3H 3C 5C 9S KD", "4D 6C 8S JC 2D", "7H 9C 10S AD QS"],
        starter="6H",
        stock="KH QD JD 9S 8D 7C",
        dealer=2,
    )
    app = scripted_app(game, (HUMAN, "easy", "easy"))

    async def script(pilot: Pilot[None]) -> None:
        screen = table(app)
        log = screen.query_one(GameLog)
        await pilot.press("enter", "enter")  # 3♥, then 3♣: follow with clubs
        await pilot.press("3", "enter")  # 9♠ does not follow
        await pilot.pause()
        assert "Not allowed: 9♠ does not follow 3♣" in message(screen)
        assert log.max_scroll_y > 0 and log.scroll_y == log.max_scroll_y
        assert "You play 3♣ and must follow it." in log.lines[-1].text

    run_app(app, script, size=(80, 24))


def test_clicking_the_stock_draws():
    game = scripted("classic", hands=["5C 9H 3D 4D 6D", "9D 9S 2H 10S KD"], starter="7S", stock="KS QH", dealer=1)
    app = scripted_app(game, (HUMAN, "easy"))

    async def script(pilot: Pilot[None]) -> None:
        await pilot.click(PileView, offset=(3, 2))  # the stock's count
        await pilot.pause()
        assert game.hands[0][-1] == Card("KS")
        assert "You draw 1 card (K♠) — " in log_words(table(app))

    run_app(app, script)


def test_q_asks_before_leaving_and_says_the_match_is_saved(tmp_path):
    from eights.store import Store, database_url
    from eights.tui.screens.dialogs import ConfirmDialog

    store = Store(database_url(str(tmp_path / "m.db")))
    app = EightsApp(build_config("classic", players=2, seed=3, speed=INSTANT), store=store)

    async def script(pilot: Pilot[None]) -> None:
        await until(pilot, lambda: human_turn(app))
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        text = str(app.screen.query_one("#dialog-text").render())
        assert "saved (match 1 in" in text and "eights play --resume" in text
        # Issue 29, item 15: centred and as tall as its words, like the other dialogs, not a full-height
        # box in the top-left corner hiding the table.
        box, screen = app.screen.query_one("#dialog").region, app.screen.region
        assert box.height < screen.height // 2
        assert abs(box.x - (screen.width - box.right)) <= 1 and abs(box.y - (screen.height - box.bottom)) <= 1
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, TableScreen))
        assert app.is_running
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        await pilot.press("y")
        await until(pilot, lambda: not app.is_running)

    run_app(app, script)
    assert store.last_unfinished() == 1
    store.close()


def test_ctrl_c_at_the_table_opens_the_games_leave_dialog_and_leaving_says_where_the_match_is(tmp_path):
    """Issue 40, item 11: Ctrl-C showed the toolkit's "Press ctrl+q to quit the app", and leaving the full-screen
    game printed nothing; the app keeps the match at its table for the line said after it."""
    from eights.store import Store, database_url
    from eights.table.saved import kept_words
    from eights.tui.screens.dialogs import ConfirmDialog

    store = Store(database_url(str(tmp_path / "m.db")))
    app = EightsApp(build_config("classic", players=2, seed=3, speed=INSTANT), store=store)

    async def script(pilot: Pilot[None]) -> None:
        await until(pilot, lambda: human_turn(app))
        await pilot.press("ctrl+c")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        assert "saved (match 1 in" in str(app.screen.query_one("#dialog-text").render())
        await pilot.press("y")
        await until(pilot, lambda: not app.is_running)

    run_app(app, script)
    assert app.session is not None and not app.session.game.is_over
    assert kept_words(app.session) == (
        f"the match is saved (match 1 in {tmp_path / 'm.db'}); take it up again with `eights play --resume`."
    )
    store.close()
