"""docs/rules.md section 6, ``baby-eating`` (Baby-Eating Eights): how a turn goes, with D5, D21, D30 and D44:
forced play (8s, jokers and the K of hearts may be held back) and drawing until a card plays, with no early
reshuffle (D44); the starter (D21); four in a row and the cards it buries (D30); a blocked round (D5).

Every test deals exactly with ``deal`` (tests/support/baby_eating.py: dealer 0, so seat 1 plays first); where a
shuffle matters, ``rig`` (tests/support/scripting.py) stacks it, as a stacked deck would at a real table.
"""

from __future__ import annotations

from unittest.mock import ANY

import pytest

from eights.cards import Card
from eights.engine import DRAW, PASS, errors
from eights.engine.actions import BURY, PLAY, Bury
from eights.engine.events import (
    Cancelled,
    CardBuried,
    CardPlayed,
    CardsDrawn,
    FourInARow,
    JackDropped,
    Passed,
    Reshuffled,
    StarterBuried,
    StarterTurned,
    SuicideKing,
)
from tests.support.baby_eating import deal
from tests.support.scripting import act, cards, legal, of, plays, rig, snapshot

# ----- forced play and drawing ------------------------------------------------------------------------------


def test_forced_play_a_player_holding_a_playable_card_must_play_it():
    game = deal(["4S 5S", "4H 5C", "7S 7D"], "9H", "2C")
    assert legal(game) == plays("4H")
    before = snapshot(game)
    with pytest.raises(errors.MustPlay):
        game.play(DRAW, seat=1)
    assert snapshot(game) == before


@pytest.mark.parametrize("held", ["8C", "JK", "GJ", "KH"])
def test_forced_play_eights_jokers_and_the_suicide_king_may_be_held_back(held):
    game = deal(["4S 5S", f"{held} 4C", "7S 7D"], "9H", "5C 9D")
    assert legal(game) == {PLAY[Card(held)], DRAW}
    act(game, 1, "draw")  # 5C: unplayable, draw on
    assert game.turn == 1 and legal(game) == {PLAY[Card(held)], DRAW}
    act(game, 1, "draw")  # 9D plays on 9H: now a card must be played
    assert legal(game) == {PLAY[Card(held)], PLAY[Card("9D")]}


def test_forced_play_the_held_back_card_is_not_forced_even_with_nothing_to_draw():
    game = deal(["4S 5S", "8C 4C", "7S 7D"], "9H")
    assert legal(game) == {PLAY[Card("8C")], PASS}


def test_drawing_goes_on_until_a_playable_card_comes_which_must_be_played():
    game = deal(["4S 5S", "4C 5C", "7S 7D"], "9H", "4D 5D JH 2C")
    assert legal(game) == {DRAW}
    act(game, 1, "draw", "draw")
    assert game.turn == 1 and legal(game) == {DRAW}
    act(game, 1, "draw")  # JH plays
    assert legal(game) == plays("JH")
    with pytest.raises(errors.MustPlay):
        game.play(DRAW, seat=1)
    act(game, 1, "play JH")
    assert game.turn == 2 and game.stock == cards("2C")


def test_drawing_an_eight_a_player_may_draw_on():
    game = deal(["4S 5S", "4C 5C", "7S 7D"], "9H", "8D JH")
    act(game, 1, "draw")
    assert legal(game) == {PLAY[Card("8D")], DRAW}
    act(game, 1, "draw")
    assert legal(game) == plays("8D JH")


def test_nothing_to_draw_the_player_passes():
    game = deal(["4S 5S", "4C 5C", "7S 7D"], "9H")
    assert legal(game) == {PASS}
    events = act(game, 1, "pass")
    assert of(events, Passed) == [Passed(1)]
    assert game.turn == 2


def test_d44_no_early_reshuffle_the_draw_pile_is_refilled_only_when_empty():
    game = deal(["4S 5S", "JH 6C", "4C 5C"], "9H", "4D")
    act(game, 1, "play JH")
    events = act(game, 2, "draw")  # the last card of the draw pile, no reshuffle
    assert not of(events, Reshuffled) and game.stock == []
    assert game.discard == cards("9H JH")
    events = act(game, 2, "draw")
    assert of(events, Reshuffled) == [Reshuffled(1)]
    assert of(events, CardsDrawn) == [CardsDrawn(2, 1, "draw", (Card("9H"),), lacking=ANY)]
    assert game.discard == cards("JH")


# ----- the starter (D21) ----------------------------------------------------------------------------------


@pytest.mark.parametrize("joker", ["JK", "GJ"])
def test_d21_a_joker_starter_is_buried_and_the_next_card_turned(joker):
    game = deal(["4S 5S", "4C 5C", "7S 7D"], f"{joker} 9H", "2C 2D 2H")
    turned = [str(e.card) for e in game.log if isinstance(e, StarterTurned)]
    assert turned == [joker, "9H"]
    assert of(game.log, StarterBuried) == [StarterBuried(Card(joker))]
    assert game.discard == cards("9H")
    assert Card(joker) in game.stock
    assert game.turn == 1


@pytest.mark.parametrize("starter", ["AH", "AS", "2H", "4H", "5H", "7H", "8H", "10H", "QH", "KS", "KH"])
def test_d21_any_other_starter_has_no_effect(starter):
    game = deal(["4C 5C", "4D 5D", "7C 7D"], starter, "2C 2D 3C 3D 6C 6D")
    assert game.turn == 1 and game.phase_name == "play" and game.direction == 1
    assert [len(h) for h in game.hands] == [2, 2, 2]
    assert len(game.stock) == 6
    assert game.discard == cards(starter)
    assert game.cancel == 0


def test_d21_a_starter_three_cancels_the_first_card_played_on_it():
    game = deal(["4C 5C", "AH 5D", "7C 7D"], "3H", "2C 2D")
    assert game.cancel == 1
    events = act(game, 1, "play AH")
    assert of(events, Cancelled) == [Cancelled(Card("AH"))]
    assert not of(events, CardsDrawn)
    assert game.turn == 2


def test_d21_the_starter_does_not_count_towards_four_in_a_row():
    game = deal(["9H 4C 5C", "6C 6H 4D", "9C 5D 4H"], "6D", "2C 2D")
    act(game, 1, "play 6C")
    act(game, 2, "play 9C")
    events = act(game, 0, "play 9H")  # three played on a 6 starter: not four
    assert not of(events, FourInARow)
    assert game.run_len == 3 and game.turn == 1


# ----- four in a row (D30) ---------------------------------------------------------------------------------


def test_d30_six_and_nine_count_as_one_number_for_four_in_a_row():
    game = deal(["9H 4C 5C", "6C 6H 4D", "9C 5D 4H"], "6D", "2C 2D")
    act(game, 1, "play 6C")
    act(game, 2, "play 9C")
    act(game, 0, "play 9H")
    events = act(game, 1, "play 6H")
    assert of(events, FourInARow) == [FourInARow(1, 6)]
    assert game.phase_name == "bury" and game.to_act == 1 and game.turn == 1


def test_d30_four_in_a_row_buries_before_the_fourth_cards_effect():
    game = deal(
        ["AS 4C 5C", "AC 4D 5D", "AD 6C 6D", "AH 7C 7D"],
        "JC",
        "2C 2D 2H 2S 3C 3D 3H 3S 10C 10D 10H 10S",
    )
    act(game, 1, "play AC")
    act(game, 2, "play AD")
    act(game, 3, "play AH")
    mark = len(game.log)
    act(game, 0, "play AS")
    assert game.phase_name == "bury" and game.turn == 0
    assert [game.to_act, *game.queue[1:]] == [0, 1, 2, 3]  # the fourth card's player first, then in turn order
    assert legal(game) == {BURY[c] for c in game.hands[0]}
    act(game, 0, "bury 4C")
    assert game.to_act == 1
    act(game, 1, "bury 4D")
    act(game, 2, "bury 6C")
    act(game, 3, "bury 7C")
    kinds = [type(e) for e in game.log[mark:]]
    assert kinds == [CardPlayed, FourInARow, CardBuried, CardBuried, CardBuried, CardBuried, CardsDrawn]
    buried = [(e.seat, str(e.card)) for e in game.log[mark:] if isinstance(e, CardBuried)]
    assert buried == [(0, "4C"), (1, "4D"), (2, "6C"), (3, "7C")]
    # each buried card goes under the discard pile; the ace of spades stays on top
    assert game.discard[:4] == cards("7C 6C 4D 4C") and game.top == Card("AS")
    # then the ace of spades: the next player draws 4 and plays
    (drawn,) = of(game.log[mark:], CardsDrawn)
    assert (drawn.seat, drawn.count, drawn.reason) == (1, 4, "penalty")
    assert game.turn == 1 and game.phase_name == "play"


def test_d30_burying_goes_in_the_current_direction_then_the_fourth_card_reverses():
    game = deal(["4C 4S 5C 6C", "4H 4D 5D 6S", "6D 7C 7D 8D", "6H 7H 9C 8C"], "9H", "2C")
    act(game, 1, "play 4H")
    act(game, 0, "play 4C")
    act(game, 1, "play 4D")
    assert game.direction == -1
    act(game, 0, "play 4S")
    assert game.phase_name == "bury"
    order = []
    while game.phase_name == "bury":
        seat = game.to_act
        order.append(seat)
        act(game, seat, f"bury {game.hands[seat][-1]}")
    assert order == [0, 3, 2, 1]
    # the fourth 4's reverse resolves after the burying: clockwise again, seat 1 next
    assert game.direction == 1 and game.turn == 1


def test_d30_the_first_player_whose_hand_empties_while_burying_wins():
    # seat 0 lays the fourth card with two cards left; seat 1, next to bury, holds one
    game = deal(["4C 5C", "6C 4D", "9C 5D", "9S 5H"], "6D", "6S 7D")
    act(game, 1, "play 6C")
    act(game, 2, "play 9C")
    act(game, 3, "play 9S")
    act(game, 0, "draw")  # 6S plays
    assert legal(game) == plays("6S")
    act(game, 0, "play 6S")
    assert game.phase_name == "bury" and game.to_act == 0
    act(game, 0, "bury 4C")
    assert not game.is_over
    act(game, 1, "bury 4D")
    assert game.is_over
    assert game.last_round.reason == "out" and game.last_round.winners == (1,)


def test_d30_the_run_starts_again_from_zero_after_four_in_a_row():
    game = deal(["9H 9S 4C 5C", "6C 6H 4D 5D", "9C 6S 4H 5H"], "JC", "2C 2D")
    act(game, 1, "play 6C")
    act(game, 2, "play 9C")
    act(game, 0, "play 9H")
    act(game, 1, "play 6H")
    for seat in (1, 2, 0):
        act(game, seat, f"bury {game.hands[seat][-1]}")
    assert game.run_len == 0 and game.turn == 2
    events = act(game, 2, "play 6S")
    assert not of(events, FourInARow)
    assert game.run_len == 1


def test_d30_jacks_dropped_after_a_queen_count_and_a_buried_jack_need_not_be_dropped():
    # expanded deck: two packs, so eight jacks; seat 1 (the queen's player) holds the second JC
    game = deal(
        ["JH 4C 5C 6H", "QH JC 4D 5D", "JC JD 6C 6D", "JS 7C 7D 4H"],
        "9H",
        "2C 2D",
        options=("expanded_deck=true",),
    )
    act(game, 1, "play QH")
    act(game, 2, "play JC", "play JD")
    act(game, 3, "play JS")
    events = act(game, 0, "play JH")
    assert of(events, FourInARow) == [FourInARow(0, 11)]
    assert game.phase_name == "bury" and game.to_act == 0 and game.turn == 1
    act(game, 0, "bury 4C")
    act(game, 1, "bury JC")  # the queen's player buries its jack instead of dropping it
    act(game, 2, "bury 6C")
    act(game, 3, "bury 7C")
    assert not [e for e in game.log if isinstance(e, JackDropped) and e.seat == 1]
    # the drop is over: the player after the queen's player matches the last jack dropped
    assert game.phase_name == "play" and game.turn == 2
    assert game.top == Card("JH")


def test_d30_four_tens_in_one_turn_bury_then_the_last_tens_draw_and_extra_card():
    game = deal(["4S 5S 6S 7S 9S JS", "10C 10D 10H 10S 4C 5C", "4H 5H 6H 7H 9H JH"], "9C", "2C 2D 2H 2S 3C 3D")
    act(game, 1, "play 10C", "play 10D", "play 10H")
    assert len(game.hands[2]) == 9
    events = act(game, 1, "play 10S")
    assert of(events, FourInARow) == [FourInARow(1, 10)] and not of(events, CardsDrawn)
    act(game, 1, "bury 5C")
    act(game, 2, "bury JH")
    events = act(game, 0, "bury JS")
    assert of(events, CardsDrawn) == [CardsDrawn(2, 1, "penalty", (Card("2S"),))]
    assert game.phase_name == "extra_card" and game.to_act == 1
    assert legal(game) == {PASS}  # the 4 of clubs does not match the 10 of spades: the turn just ends


def test_d30_a_suicide_king_that_makes_four_in_a_row_does_not_count_again_after_its_deal():
    # expanded deck: the second pack's KS, KC, KD come back to seat 2 in the Suicide King's deal
    game = deal(
        ["4C 5C 6C 7C JC 9C", "KS KC KD KH 4D 5D", "4S 5S 6S 7S JS 9D"],
        "9S",
        "KS KC KD 2C 2D 2H 2S 3C 3D",
        options=("expanded_deck=true",),
    )
    act(game, 1, "play KS", "play KC", "play KD")  # D28: with three players the K's player goes again
    events = act(game, 1, "play KH")
    assert of(events, FourInARow) == [FourInARow(1, 13)]
    rig(game, "KS 2C 2D KC 2H 2S KD")
    act(game, 1, "bury 4D")
    act(game, 2, "bury 4S")
    act(game, 0, "bury 4C")
    assert of(game.log[-3:], SuicideKing)
    assert game.hands[2][:3] == cards("KS KC KD")
    assert game.run_len == 0  # "the run then starts again from zero": the K of hearts has been counted
    events = act(game, 2, "play KS", "play KC", "play KD")
    assert not of(events, FourInARow)  # only three kings since the last four in a row
    assert game.run_len == 3


def test_kings_before_a_suicide_king_deal_do_not_make_four_in_a_row_with_kings_after_it():
    # open case: the deal leaves the K of hearts alone on the pile, so the run starts again from it
    hands = ["KC 4C 5C 6C 7C 9C", "KS 4D 5D 6D 7D 9D", "JS 5S 6S 7S 8D JD", "KH 4S 4H 5H 6H 7H"]
    game = deal(hands, "9S", "2C 2D 2H 2S 3C 3D 3H 3S KD")
    act(game, 1, "play KS")  # seats 2 and 3 skipped
    act(game, 0, "play KC")  # seats 1 and 2 skipped
    rig(game, "2C 2D 2H 2S 3C 3D 3H 3S KD")
    act(game, 3, "play KH")
    assert game.run_len == 1
    # the deal: seat 0 first; the ninth card, KD, goes to seat 0 in the third pass
    assert Card("KD") in game.hands[0]
    events = act(game, 0, "play KD")
    assert not of(events, FourInARow)
    assert game.run_len == 2


# ----- blocked round (D5) ----------------------------------------------------------------------------------


def test_d5_blocked_round_the_fewest_cards_win():
    game = deal(["4D 7S", "8S 4C", "4S 5C"], "5D")
    act(game, 1, "play 8S", "suit H")
    act(game, 2, "draw")  # the 5 of diamonds: no heart
    act(game, 2, "pass")
    act(game, 0, "pass")
    act(game, 1, "pass")
    assert not game.is_over
    act(game, 2, "pass")
    assert game.is_over
    assert game.last_round.reason == "blocked"
    assert [len(h) for h in game.hands] == [2, 1, 3]
    assert game.last_round.winners == (1,) and game.outcome.winners == (1,)


def test_d5_blocked_round_ties_for_fewest_cards_share_the_win():
    game = deal(["4D 7S", "8S 4C", "4S 5C", "9H 7C"], "5D")
    act(game, 1, "play 8S", "suit H")
    act(game, 2, "draw", "pass")
    act(game, 3, "play 9H")
    act(game, 0, "draw")  # the 8 of spades, which may be held back
    assert legal(game) == {PLAY[Card("8S")], PASS}
    act(game, 0, "pass")
    for seat in (1, 2, 3, 0):
        assert not game.is_over
        act(game, seat, "pass")
    assert game.is_over and game.last_round.reason == "blocked"
    assert [len(h) for h in game.hands] == [3, 1, 3, 1]
    assert game.outcome.winners == (1, 3)


def test_bury_refuses_a_card_not_in_hand():
    game = deal(["9H 4C 5C", "6C 6H 4D", "9C 5D 4H"], "6D", "2C 2D")
    act(game, 1, "play 6C")
    act(game, 2, "play 9C")
    act(game, 0, "play 9H")
    act(game, 1, "play 6H")
    before = snapshot(game)
    with pytest.raises(errors.CardNotInHand):
        game.play(Bury(Card("5C")), seat=1)
    with pytest.raises(errors.MustBury):
        game.play(DRAW, seat=1)
    assert snapshot(game) == before
