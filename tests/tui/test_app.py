"""`eights play`: the Textual app driven by the Pilot (`--plain`: tests/tui/test_plain.py)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from typing import Any

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import Button

from eights.bots import Hint
from eights.cards import Card, Suit
from eights.engine import Action, Draw, Game, View
from eights.engine.events import CardBuried, CardPlayed, CardsDrawn, CardsSwapped, JackDropped, SuitNamed
from eights.table.saved import start_saved
from eights.table.session import HUMAN, PlayConfig, build_config
from eights.tui.app import EightsApp
from eights.tui.screens.dialogs import BuryDialog, ChoiceDialog, JackDialog, PlayerDialog, SuitDialog
from eights.tui.screens.match_end import MatchEndScreen
from eights.tui.screens.pass_device import PassDeviceScreen
from eights.tui.screens.round_end import RoundEndScreen
from eights.tui.screens.rules import RulesScreen
from eights.tui.screens.setup import SetupScreen
from eights.tui.screens.table import TableScreen
from eights.tui.widgets import GameLog, HandView, PileView, SeatsPanel
from tests.support.scripting import scripted

INSTANT = 5


def run_app(
    app: EightsApp,
    script: Callable[[Pilot[None]], Coroutine[Any, Any, None]],
    size: tuple[int, int] = (130, 45),
) -> None:
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(main())


async def until(pilot: Pilot[None], condition: Callable[[], bool], limit: int = 3000) -> None:
    """Wait for the app (computers think in worker threads, so real time passes too)."""
    for _ in range(limit):
        if condition():
            return
        await pilot.pause(0.002)
    raise AssertionError("the app never reached the expected state")


def pass_screen_up(app: EightsApp) -> bool:
    """The pass screen is on top with its widgets mounted (on a busy machine they come a moment later)."""
    return isinstance(app.screen, PassDeviceScreen) and bool(app.screen.query("#pass-title"))


async def take_device(pilot: Pilot[None]) -> None:
    """Hot-seat: wait for the pass screen to take keys (it ignores them at first), then press Enter."""
    app = pilot.app
    await until(pilot, lambda: isinstance(app.screen, PassDeviceScreen) and app.screen.armed)
    await pilot.press("enter")


def table(app: EightsApp) -> TableScreen:
    return next(s for s in reversed(app.screen_stack) if isinstance(s, TableScreen))


def scripted_app(game: Game, seats: tuple[str, ...]) -> EightsApp:
    return EightsApp(PlayConfig(game.rules, seats, seed=0, speed=INSTANT), game=game)


def log_text(screen: TableScreen) -> str:
    return "\n".join(line.text for line in screen.query_one(GameLog).lines)


def log_words(screen: TableScreen) -> str:
    """The narration as one text, its lines unwrapped."""
    return " ".join(log_text(screen).split())


def message(screen: TableScreen) -> str:
    return str(screen.query_one("#message").render())


def human_turn(app: EightsApp) -> bool:
    screen = app.screen
    if not isinstance(screen, TableScreen):
        return False
    game = screen.session.game
    return not game.is_over and game.to_act == screen.viewer


# ----- the app: a whole match ------------------------------------------------------------------------------


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


# ----- the app: cards, keys and clicks ------------------------------------------------------------------------


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


def test_d3_a_suit_is_named_in_the_dialog_after_an_8():
    game = scripted("classic", hands=["8H 2C 3C 4C 5C", "9D 9S 9H 10S KD"], starter="7S", stock="KS QH JH", dealer=1)
    app = scripted_app(game, (HUMAN, "easy"))

    async def script(pilot: Pilot[None]) -> None:
        screen = table(app)
        hand = screen.query_one(HandView)
        assert hand.playable == {Card("8H")} and hand.cards[hand.cursor] == Card("8H")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, SuitDialog))
        await pilot.press("s")
        await until(pilot, lambda: any(isinstance(e, SuitNamed) for e in game.log))
        named = next(e for e in game.log if isinstance(e, SuitNamed))
        assert named.seat == 0 and named.suit == Suit.SPADES
        assert "You play 8♥ and name spades ♠ — an 8 is wild" in log_words(screen)

    run_app(app, script)


def test_5_the_player_to_draw_is_chosen_in_the_dialog():
    game = scripted(
        "baby-eating", hands=["5D 9C 4S 4H 6H 10C", "3C 4C 6C 7C 9S 10S"], starter="7D", stock="KS QH JH", dealer=1
    )
    app = scripted_app(game, (HUMAN, "easy"))

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("enter")  # the 5♦, the only playable card
        await until(pilot, lambda: isinstance(app.screen, PlayerDialog))
        labels = [str(b.label) for b in app.screen.query("Button")]
        assert labels == ["1. yourself: 5 cards", "2. Bram (easy): 6 cards"]
        await pilot.press("2")
        await until(pilot, lambda: any(isinstance(e, CardsDrawn) and e.reason == "chosen" for e in game.log))
        drawn = next(e for e in game.log if isinstance(e, CardsDrawn) and e.reason == "chosen")
        assert drawn.seat == 1 and drawn.count == 1

    run_app(app, script)


def test_7_the_swap_dialog_offers_only_opponents():
    game = scripted(
        "baby-eating",
        hands=["7D 9C 4S 4H 6H 10C", "3C 4C 6C 8C 9S 10S", "2C 5C 6S 8S 9H 10D"],
        starter="5D",
        stock="KS QH JH",
        dealer=2,
    )
    app = scripted_app(game, (HUMAN, "easy", "easy"))

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, PlayerDialog))
        labels = [str(b.label) for b in app.screen.query("Button")]
        assert labels == ["1. Bram (easy): 6 cards", "2. Cleo (easy): 6 cards"]
        await pilot.press("2")
        await until(pilot, lambda: any(isinstance(e, CardsSwapped) for e in game.log))
        swap = next(e for e in game.log if isinstance(e, CardsSwapped))
        assert (swap.seat, swap.target) == (0, 2)

    run_app(app, script)


def test_q_jacks_are_dropped_in_the_order_chosen_in_the_dialog():
    game = scripted(
        "baby-eating", hands=["QD JH JS 4C 9C 10S", "3C 5C 6C 7C 9S 10H"], starter="7D", stock="KS QH 2H", dealer=1
    )
    app = scripted_app(game, (HUMAN, "easy"))

    async def script(pilot: Pilot[None]) -> None:
        hand = table(app).query_one(HandView)
        assert hand.cards[hand.cursor] == Card("QD")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, JackDialog))
        labels = [str(b.label) for b in app.screen.query("Button")]
        assert labels == ["1. drop J♥", "2. drop J♠"]
        await pilot.press("2")
        await until(pilot, lambda: isinstance(app.screen, JackDialog) and len(app.screen.options) == 1)
        await pilot.press("1")
        await until(pilot, lambda: sum(isinstance(e, JackDropped) for e in game.log) == 2)
        dropped = [e.card for e in game.log if isinstance(e, JackDropped)]
        assert dropped == [Card("JS"), Card("JH")]

    run_app(app, script)


def test_d30_a_card_is_buried_from_the_dialog_after_four_in_a_row():
    game = scripted(
        "baby-eating", hands=["2D 2S 2H 2C 9H 5S", "3C 4C 6C 7C 9S 10H"], starter="7D", stock="KS QH 8H", dealer=1
    )
    app = scripted_app(game, (HUMAN, "easy"))

    async def script(pilot: Pilot[None]) -> None:
        hand = table(app).query_one(HandView)
        for _ in range(4):  # D26: with two players each 2 (a skip) gives another turn
            await until(pilot, lambda: human_turn(app))
            two = next(i for i, card in enumerate(hand.cards) if card.rank == 2 and card in hand.playable)
            await pilot.press(str(two + 1), "enter")
        await until(pilot, lambda: isinstance(app.screen, BuryDialog))
        labels = [str(b.label) for b in app.screen.query("Button")]
        assert labels == ["1. bury 9♥", "2. bury 5♠"]
        await pilot.press("2")
        await until(pilot, lambda: sum(isinstance(e, CardBuried) for e in game.log) == 2)
        buried = [e for e in game.log if isinstance(e, CardBuried)]
        assert (buried[0].seat, buried[0].card) == (0, Card("5S"))
        assert buried[1].seat == 1
        assert game.discard[0] == buried[1].card and game.discard[1] == Card("5S")

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


class HeldBot:
    """A computer that thinks until the test lets it answer: the first legal action."""

    name = "held"

    def __init__(self) -> None:
        self.go = threading.Event()
        self.thinking = threading.Event()

    def choose(self, view: View) -> Action:
        self.thinking.set()
        self.go.wait(10)
        return view.legal[0]

    def hint(self, view: View) -> Hint:
        return Hint(view.legal[0], "the first legal move")


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


# ----- the app: hot-seat and setup ---------------------------------------------------------------------------------


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


# ----- the app: every preset, the table at 80x24, the match end --------------------------------------------------

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


# ----- saved matches ---------------------------------------------------------------------------------


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
