"""The table's words (eights.table.phrases): a lone person called you, hints, cards in the engine's messages,
and a chosen draw."""

from __future__ import annotations

from eights.bots import Hint
from eights.cards import Card
from eights.engine import Play
from eights.engine.events import CardsDrawn
from eights.table.phrases import event_words, fix_you, hint_words, pretty_cards
from eights.table.session import Session, build_config


def test_a_lone_person_is_you_in_every_sentence():
    assert fix_you("You plays 8♥.") == "You play 8♥."
    assert fix_you("You is skipped.") == "You are skipped."
    assert fix_you("Round 2: You deals 5 cards each.") == "Round 2: You deal 5 cards each."
    assert fix_you("Ada and You swap a random card each.") == "Ada and You swap a random card each."


def test_a_hint_names_the_move_once():
    view = Session(build_config("classic", players=2, seed=1)).view(0)
    names = ("You", "Bram")
    play = Play(Card("8H"))
    assert hint_words(Hint(play, "play 8♥ and go out"), view, names) == "Hint: play 8♥ and go out."
    assert hint_words(Hint(play, "a random legal move"), view, names) == "Hint: play 8♥ (a random legal move)."


def test_engine_messages_show_cards_with_suit_symbols():
    assert pretty_cards("10H does not match. Legal now: play KC, draw (D9).") == (
        "10♥ does not match. Legal now: play K♣, draw (D9)."
    )


def test_a_chosen_draw_says_the_player_was_chosen():
    names = ("You", "Bram")
    assert event_words(CardsDrawn(1, 1, "chosen"), names) == "Bram is chosen to draw 1 card."
    assert event_words(CardsDrawn(0, 1, "chosen", (Card("5S"),)), names) == "You are chosen to draw 1 card (5♠)."
    assert event_words(CardsDrawn(0, 1, "draw", (Card("5S"),)), names) == "You draw 1 card (5♠)."
