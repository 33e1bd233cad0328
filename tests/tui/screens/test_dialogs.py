"""The choices a card asks for, each in its dialog (eights.tui.screens.dialogs): the suit after an 8, the player
5 makes draw, the 7's swap, the order of jacks dropped after a queen, the card buried after four in a row."""

from __future__ import annotations

from textual.pilot import Pilot

from eights.cards import Card, Suit
from eights.engine.events import CardBuried, CardsDrawn, CardsSwapped, JackDropped, SuitNamed
from eights.table.session import HUMAN
from eights.tui.screens.dialogs import BuryDialog, JackDialog, PlayerDialog, SuitDialog
from eights.tui.widgets import HandView
from tests.support.pilot import human_turn, log_words, run_app, scripted_app, table, until
from tests.support.scripting import scripted


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
