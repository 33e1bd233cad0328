"""Hot-seat (eights.tui.screens.pass_device): a hand shown only to the person whose turn it is, after the device
is passed and they press Enter; hidden while the computers play, and from keys typed before the screen is ready."""

from __future__ import annotations

from textual import events
from textual.pilot import Pilot
from textual.widgets import Button

from eights.engine import Game
from eights.table.session import HUMAN
from eights.tui.app import EightsApp
from eights.tui.screens.pass_device import PassDeviceScreen
from eights.tui.screens.table import TableScreen
from eights.tui.widgets import HandView, SeatsPanel
from tests.support.pilot import HeldBot, human_turn, log_words, run_app, scripted_app, table, until
from tests.support.scripting import scripted


def pass_screen_up(app: EightsApp) -> bool:
    """The pass screen is on top with its widgets mounted (on a busy machine they come a moment later)."""
    return isinstance(app.screen, PassDeviceScreen) and bool(app.screen.query("#pass-title"))


async def take_device(pilot: Pilot[None]) -> None:
    """Hot-seat: wait for the pass screen to take keys (it ignores them at first), then press Enter."""
    app = pilot.app
    await until(pilot, lambda: isinstance(app.screen, PassDeviceScreen) and app.screen.armed)
    await pilot.press("enter")


def two_people() -> tuple[Game, EightsApp]:
    """Hot-seat: Player 1, then Player 2."""
    game = scripted("classic", hands=["5C 9S 3D 4D 6D", "9D 2S 2H 10S KD"], starter="7S", stock="KH QH", dealer=1)
    return game, scripted_app(game, (HUMAN, HUMAN))


def two_people_and_a_computer() -> tuple[Game, EightsApp]:
    """Hot-seat: Player 1 (first to act), a computer, Player 2."""
    game = scripted(
        "classic",
        hands=["5C 9S 3D 4D 6D", "9D 2S 2H 10S KD", "7C 9H JD QC AC"],
        starter="7S",
        stock="KH QH",
        dealer=2,
    )
    return game, scripted_app(game, (HUMAN, "easy", HUMAN))


async def first_persons_turn(pilot: Pilot[None], held: HeldBot) -> TableScreen:
    """Player 1 takes the device; the computer after them thinks until the test lets it answer."""
    app = pilot.app
    screen = table(app)
    screen.session.bots[1] = held
    await take_device(pilot)
    await until(pilot, lambda: screen.viewer == 0 and human_turn(app))
    return screen


def test_hot_seat_hides_the_last_hand_while_a_computer_plays():
    game, app = two_people_and_a_computer()
    held = HeldBot()

    def hand_area(screen: TableScreen) -> str:
        return str(screen.query_one(HandView).render())

    async def script(pilot: Pilot[None]) -> None:
        screen = await first_persons_turn(pilot, held)
        first = tuple(game.hands[0])
        assert all(card.pretty() in hand_area(screen) for card in first)
        await pilot.press("enter")  # Player 1 plays 9♠; then the computer thinks
        await until(pilot, held.thinking.is_set)
        await pilot.pause()
        assert game.to_act == 1 and app.screen is screen
        shown = hand_area(screen)
        assert not any(card.pretty() in shown for card in first), shown
        assert screen.viewer is None and not screen.query_one(HandView).cards
        assert "4 cards" in str(screen.query_one(SeatsPanel).render())  # counts only
        held.go.set()
        await until(pilot, lambda: pass_screen_up(app))
        assert "Player 2" in str(app.screen.query_one("#pass-title").render())
        assert screen.viewer is None
        await take_device(pilot)
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and screen.viewer == 2)
        shown = hand_area(screen)
        assert all(card.pretty() in shown for card in game.hands[2])
        assert set(screen.query_one(HandView).cards) == set(game.hands[2])

    run_app(app, script)


def test_hot_seat_hides_the_hands_between_people():
    game, app = two_people()

    async def script(pilot: Pilot[None]) -> None:
        screen = table(app)
        await until(pilot, lambda: pass_screen_up(app))
        assert screen.viewer is None and screen.query_one(HandView).hidden
        assert "Player 1" in str(app.screen.query_one("#pass-title").render())
        await take_device(pilot)
        await until(pilot, lambda: screen.viewer == 0 and human_turn(app))
        await pilot.press("d")  # Player 1 draws K♥, then plays 9♠
        assert "Player 1 draws 1 card (K♥) — " in log_words(screen)
        await pilot.press("enter")
        await until(pilot, lambda: pass_screen_up(app))
        assert screen.query_one(HandView).hidden
        await take_device(pilot)
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and screen.viewer == 1)
        hand = screen.query_one(HandView)
        assert not hand.hidden and set(hand.cards) == set(game.hands[1])
        text = log_words(screen)
        assert "Player 1 draws 1 card — " in text and "K♥" not in text

    run_app(app, script)


def test_hot_seat_a_key_pressed_while_the_computers_play_does_not_show_the_next_hand():
    game, app = two_people_and_a_computer()
    held = HeldBot()

    def pass_screen() -> PassDeviceScreen:
        assert isinstance(app.screen, PassDeviceScreen), app.screen
        return app.screen

    async def script(pilot: Pilot[None]) -> None:
        screen = await first_persons_turn(pilot, held)
        await pilot.press("enter")  # Player 1 plays 9♠; the computer thinks
        await until(pilot, held.thinking.is_set)
        early = events.Key("enter", "\r")  # typed now, delivered once the pass screen is ready
        await pilot.press("enter", "space")  # hurrying the computer along
        held.go.set()
        await until(pilot, lambda: pass_screen_up(app))
        await pilot.press("enter", "space", "enter")  # right as the pass screen appears
        await pilot.click("#ready")  # a click before it is ready does nothing either
        await pilot.pause()
        assert pass_screen() and screen.viewer is None
        assert screen.query_one(HandView).hidden and not screen.query_one(HandView).cards
        await until(pilot, lambda: pass_screen().armed)
        app.post_message(early)
        await pilot.pause()
        assert pass_screen() and screen.viewer is None  # a key typed before it was ready is ignored
        await until(pilot, lambda: pass_screen().armed)
        assert "press Enter" in str(pass_screen().query_one("#pass-text").render())
        await pilot.press("space")  # not the key that shows the hand
        await pilot.pause()
        assert screen.viewer is None
        await take_device(pilot)
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and screen.viewer == 2)
        assert set(screen.query_one(HandView).cards) == set(game.hands[2])

    run_app(app, script)


def test_hot_seat_a_held_enter_does_not_show_the_next_hand():
    # A held key starts repeating after a pause (660 ms by default under X11): the first repeat of the Enter that
    # played Player 1's card must find the pass screen still ignoring keys.
    _, app = two_people()

    async def script(pilot: Pilot[None]) -> None:
        screen = table(app)
        await take_device(pilot)
        await until(pilot, lambda: screen.viewer == 0 and human_turn(app))
        held = events.Key("enter", "\r")
        app.post_message(held)  # Player 1 plays 9♠ and keeps the key down
        await until(pilot, lambda: isinstance(app.screen, PassDeviceScreen) and app.screen.armed)
        repeat = events.Key("enter", "\r")
        repeat.time = held.time + 0.66
        app.post_message(repeat)
        await pilot.pause()
        assert isinstance(app.screen, PassDeviceScreen) and screen.viewer != 1
        assert screen.query_one(HandView).hidden

    run_app(app, script)


def test_hot_seat_the_pass_screen_can_be_clicked_once_ready():
    game, app = two_people()

    async def script(pilot: Pilot[None]) -> None:
        screen = table(app)
        await until(pilot, lambda: isinstance(app.screen, PassDeviceScreen) and app.screen.armed)
        assert not app.screen.query_one("#ready", Button).disabled
        await pilot.click("#ready")
        await until(pilot, lambda: screen.viewer == 0 and human_turn(app))
        assert set(screen.query_one(HandView).cards) == set(game.hands[0])

    run_app(app, script)
