"""docs/rules.md section 5, ``derange`` (Derange Order of Eight): drawing and the special cards but follow-me,
with D3, D4, D9, D12, D13, D16, D26, D38, D40 and D41: drawing (D9) and the reshuffle (D16), the 8 (D3, D13), the
K's reverse (D26), chains of 2s (D12, D13, D38; going out on a 2: D4; a drawn 2 that follows: D41), and one card
a turn but for follow-me (D40).

Derange plays two packs by default, so a scripted hand may hold the same card twice.
"""

from __future__ import annotations

from unittest.mock import ANY

import pytest

from eights.cards import Card, Suit
from eights.engine import DRAW, PASS, Play, errors
from eights.engine.events import (
    CardPlayed,
    CardsDrawn,
    ChainGrew,
    DirectionReversed,
    GameOver,
    Reshuffled,
    RoundOver,
    SuitNamed,
)
from tests.support.scripting import cards, events_of, plays, scripted, since, snapshot

# ----- drawing (D9) and the reshuffle (D16) ------------------------------------------------------------


def test_d9_derange_drawing_while_holding_a_playable_card_is_refused():
    game = scripted("derange", ["4C 5C", "5H 6S", "9S JS"], "7H", "KS QS", dealer=0)
    assert DRAW not in game.legal_actions()
    before = snapshot(game)
    with pytest.raises(errors.MustPlay):
        game.play("draw")
    with pytest.raises(errors.CannotPass):
        game.play("pass")
    assert snapshot(game) == before


def test_d9_derange_a_drawn_card_that_matches_may_be_played_at_once():
    game = scripted("derange", ["4C 5C", "5D 6S", "9S JS"], "7H", "KH QS", dealer=0)
    assert game.legal_actions() == [DRAW]
    game.play("draw", seat=1)
    assert events_of(game, CardsDrawn) == [CardsDrawn(1, 1, "draw", (Card("KH"),), lacking=ANY)]
    assert game.turn == 1 and game.phase_name == "play_drawn"
    assert game.legal_actions() == [Play("KH"), PASS]
    with pytest.raises(errors.MustPlayDrawn):
        game.play("draw")
    game.play("play KH", seat=1)
    assert game.top == Card("KH") and game.hands[1] == cards("5D 6S")
    assert game.direction == -1 and game.turn == 0  # the K reverses as usual


def test_d9_derange_a_drawn_card_that_matches_may_be_kept():
    game = scripted("derange", ["4C 5C", "5D 6S", "9S JS"], "7H", "2H QS", dealer=0)
    game.play("draw", seat=1)
    game.play("pass", seat=1)
    assert game.hands[1] == cards("5D 6S 2H")
    assert game.top == Card("7H") and game.turn == 2 and game.chain == 0


def test_d9_derange_a_drawn_card_that_does_not_match_ends_the_turn():
    game = scripted("derange", ["4C 5C", "5D 6S", "9S JS"], "7H", "KS QS", dealer=0)
    game.play("draw", seat=1)
    assert game.hands[1] == cards("5D 6S KS")
    assert game.turn == 2 and game.phase_name == "play" and game.top == Card("7H")


def test_d16_derange_reshuffles_when_the_draw_pile_runs_out():
    game = scripted("derange", ["4C 5C", "7S 6S", "9D 6D"], "7H", "", dealer=0)
    game.play("play 7S", seat=1)
    assert game.stock == []
    game.play("draw", seat=2)
    assert events_of(game, Reshuffled) == [Reshuffled(1)]
    assert game.hands[2] == cards("9D 6D 7H")
    assert game.discard == cards("7S") and game.stock == []
    assert game.turn == 2 and game.phase_name == "play_drawn"  # the 7H matches the 7S


# ----- 8 wild (D3, D13) ----------------------------------------------------------------------------------


def test_derange_eight_is_wild_and_names_a_suit_for_the_next_player():
    game = scripted("derange", ["4C 5C 6C", "8C 6S 4S", "9D 6H 7C"], "QH", "QS QD", dealer=0)
    assert set(game.legal_actions()) == plays("8C")
    game.play("play 8C", seat=1)
    assert game.phase_name == "name_suit" and game.to_act == 1
    game.play("suit D", seat=1)
    assert events_of(game, SuitNamed) == [SuitNamed(1, Suit.DIAMONDS)]
    assert game.turn == 2 and game.active_suit == Suit.DIAMONDS
    assert game.legal_actions() == [Play("9D")]  # D3: not the 6H of the starter's suit, nor the 7C of the 8's


def test_d3_derange_after_an_eight_the_eights_own_suit_does_not_play():
    game = scripted("derange", ["4C 5C 6C", "8C 6S 4S", "9H 6H 7C"], "QH", "QS QD", dealer=0)
    game.play("play 8C")
    game.play("suit D")
    assert game.legal_actions() == [DRAW]
    with pytest.raises(errors.CardNotPlayable):
        game.play("play 7C")


def test_d13_derange_an_eight_does_not_stop_a_chain_of_2s():
    game = scripted("derange", ["4C 5C", "2H 6S", "8C 6H"], "7H", "KS KD QS", dealer=0)
    game.play("play 2H", seat=1)
    assert game.legal_actions() == [DRAW]
    before = snapshot(game)
    with pytest.raises(errors.MustAnswerChain):
        game.play("play 8C")
    with pytest.raises(errors.MustAnswerChain):
        game.play("play 6H")
    with pytest.raises(errors.CannotPass):
        game.play("pass")
    assert snapshot(game) == before


# ----- K reverse (D26) -----------------------------------------------------------------------------------


def test_derange_king_reverses_the_direction():
    game = scripted("derange", ["4C 5C", "KH 6S", "9D 6D"], "7H", "QS QD", dealer=0)
    game.play("play KH", seat=1)
    assert events_of(game, DirectionReversed) == [DirectionReversed(-1)]
    assert game.direction == -1 and game.turn == 0


def test_derange_king_is_played_by_matching_only():
    game = scripted("derange", ["4C 5C", "KC 6S", "9D 6D"], "7H", "QS QD", dealer=0)
    assert game.legal_actions() == [DRAW]
    with pytest.raises(errors.CardNotPlayable):
        game.play("play KC")


def test_d26_derange_king_with_two_players_gives_its_player_another_turn():
    game = scripted("derange", ["4C 5C 9C 9C", "KH KS 6S 9D"], "7H", "QS QD", dealer=0)
    game.play("play KH", seat=1)
    assert game.turn == 1 and game.phase_name == "play" and game.direction == -1
    game.play("play KS", seat=1)  # a second K: another turn again
    assert game.turn == 1 and game.direction == 1
    assert events_of(game, DirectionReversed) == [DirectionReversed(-1), DirectionReversed(1)]
    game.play("play 6S", seat=1)
    assert game.turn == 0


def test_d26_derange_king_as_follow_me_card_with_two_players_gives_another_turn():
    game = scripted("derange", ["4C 5C 9C", "3H KH 6S"], "7H", "QS QD", dealer=0)
    game.play("play 3H", seat=1)
    game.play("play KH", seat=1)
    assert game.turn == 1 and game.phase_name == "play" and game.direction == -1
    assert game.legal_actions() == [DRAW]  # 6S does not match the KH


# ----- chains of 2s (D12, D13, D38) -----------------------------------------------------------------------


def test_d12_derange_a_two_makes_the_next_player_draw_two_and_ends_their_turn():
    game = scripted("derange", ["4C 5C", "2H 6S", "9H 6H"], "7H", "KS KD QS", dealer=0)
    game.play("play 2H", seat=1)
    assert game.chain == 2 and events_of(game, ChainGrew) == [ChainGrew(2)]
    assert game.turn == 2 and game.legal_actions() == [DRAW]
    game.play("draw", seat=2)
    assert events_of(game, CardsDrawn) == [CardsDrawn(2, 2, "chain", tuple(cards("KS KD")))]
    assert game.hands[2] == cards("9H 6H KS KD")
    assert game.chain == 0 and game.turn == 0 and game.phase_name == "play"
    # Drawing ended the chain: the next player just matches the 2H.
    assert game.legal_actions() == [DRAW]
    game.play("draw", seat=0)
    assert game.hands[0] == cards("4C 5C QS")


def test_derange_a_two_is_played_by_matching_only():
    game = scripted("derange", ["4C 5C", "2C 6S", "9H 6H"], "7H", "KS KD QS", dealer=0)
    assert game.legal_actions() == [DRAW]
    with pytest.raises(errors.CardNotPlayable):
        game.play("play 2C")


def test_d13_derange_any_two_answers_the_chain():
    game = scripted("derange", ["4C 5C", "2H 6S", "2C 6H"], "7H", "KS KD QC JC 10C", dealer=0)
    game.play("play 2H", seat=1)
    assert game.legal_actions() == [Play("2C"), DRAW]
    game.play("play 2C", seat=2)
    assert game.chain == 4 and events_of(game, ChainGrew) == [ChainGrew(2), ChainGrew(4)]
    assert game.turn == 0
    game.play("draw", seat=0)
    assert game.hands[0] == cards("4C 5C KS KD QC JC")
    assert game.chain == 0 and game.turn == 1


def test_derange_chain_of_three_twos_draws_six():
    game = scripted("derange", ["4D 5D", "2H 6S", "2C 6H", "2H 4C"], "7H", "KS KD QC JC 10C 9C 8C", dealer=0)
    game.play("play 2H", seat=1)
    game.play("play 2C", seat=2)
    game.play("play 2H", seat=3)  # the second pack's 2H
    assert game.chain == 6 and game.turn == 0
    game.play("draw", seat=0)
    assert game.hands[0] == cards("4D 5D KS KD QC JC 10C 9C")
    assert game.turn == 1 and game.chain == 0


def test_d38_derange_a_player_holding_a_two_may_draw_the_chain():
    game = scripted("derange", ["4C 5C", "2H 6S", "2D 6H"], "7H", "KS KD QS", dealer=0)
    game.play("play 2H", seat=1)
    assert set(game.legal_actions()) == {Play("2D"), DRAW}
    game.play("draw", seat=2)
    assert game.hands[2] == cards("2D 6H KS KD")
    assert game.chain == 0 and game.turn == 0


def test_derange_going_out_on_a_single_two_the_next_player_still_draws_two():
    game = scripted("derange", ["4C", "2H", "9D"], "7H", "KS QD JC", dealer=0)
    mark = len(game.log)
    game.play("play 2H", seat=1)
    log = since(game, mark)
    assert [type(e) for e in log] == [CardPlayed, CardsDrawn, RoundOver, GameOver]
    assert log[1] == CardsDrawn(2, 2, "chain", tuple(cards("KS QD")))
    over = game.last_round
    assert over.reason == "out" and over.winners == (1,)
    assert over.hands[2] == tuple(cards("9D KS QD"))
    assert over.points == (4, 0, 9 + 20 + 10)
    assert game.outcome.winners == (1,)


def test_derange_going_out_on_a_two_answering_a_chain_the_next_player_draws_the_whole_chain():
    game = scripted("derange", ["4C 5D 6D", "7C 2C 6S", "3C 9C 2D"], "7H", "KS QD JC AH 9S", dealer=0)
    game.play("play 7C", seat=1)
    game.play("play 3C", seat=2)
    game.play("play 9C", seat=2)  # follow-me: seat 2 keeps only the 2D
    game.play("play 4C", seat=0)
    game.play("play 2C", seat=1)
    assert game.chain == 2 and game.turn == 2
    mark = len(game.log)
    game.play("play 2D", seat=2)
    log = since(game, mark)
    assert [type(e) for e in log] == [CardPlayed, CardsDrawn, RoundOver, GameOver]
    assert log[1] == CardsDrawn(0, 4, "chain", tuple(cards("KS QD JC AH")))
    over = game.last_round
    assert over.reason == "out" and over.winners == (2,)
    assert over.hands[0] == tuple(cards("5D 6D KS QD JC AH"))
    assert over.points == (5 + 6 + 20 + 10 + 10 + 15, 6, 0)


def test_derange_going_out_on_a_two_the_next_player_follows_the_direction():
    # A starter K: counter-clockwise, and the dealer plays first; the next player after seat 0 is seat 2.
    game = scripted("derange", ["2H", "9D", "5D"], "KH", "KS QD JC", dealer=0)
    assert game.turn == 0 and game.direction == -1
    game.play("play 2H", seat=0)
    assert events_of(game, CardsDrawn) == [CardsDrawn(2, 2, "chain", tuple(cards("KS QD")))]
    over = game.last_round
    assert over.winners == (0,)
    assert over.hands == ((), tuple(cards("9D")), tuple(cards("5D KS QD")))
    assert over.points == (0, 9, 5 + 20 + 10)


def test_derange_a_chain_longer_than_the_piles_draws_what_there_is():
    game = scripted("derange", ["4C 5C", "2H 6S", "2S 6H"], "7H", "KC", dealer=0)
    game.play("play 2H", seat=1)
    game.play("play 2S", seat=2)
    assert game.chain == 4
    game.play("draw", seat=0)
    drawn = events_of(game, CardsDrawn)
    assert [(e.seat, e.count, e.reason) for e in drawn] == [(0, 3, "chain")]
    assert events_of(game, Reshuffled) == [Reshuffled(2)]
    assert drawn[0].cards[0] == Card("KC")
    assert sorted(game.hands[0]) == sorted(cards("4C 5C KC 7H 2H"))
    assert game.discard == cards("2S") and game.stock == []
    assert game.chain == 0 and game.turn == 1


def test_derange_going_out_on_a_two_with_a_chain_longer_than_the_piles():
    game = scripted("derange", ["4C", "2H"], "7H", "", dealer=0)
    game.play("play 2H", seat=1)
    over = game.last_round
    assert over.winners == (1,)
    assert events_of(game, CardsDrawn) == [CardsDrawn(0, 1, "chain", (Card("7H"),))]  # all there is
    assert events_of(game, Reshuffled) == [Reshuffled(1)]
    assert over.hands[0] == tuple(cards("4C 7H"))
    assert over.points == (4 + 7, 0)


def test_derange_a_two_as_follow_me_card_starts_a_chain():
    game = scripted("derange", ["4C 5C 6C", "3H 2H 9C", "9D 6H 4D"], "7H", "KS QD JC", dealer=0)
    game.play("play 3H", seat=1)
    game.play("play 2H", seat=1)
    assert game.chain == 2 and events_of(game, ChainGrew) == [ChainGrew(2)]
    assert game.turn == 2 and game.phase_name == "play"
    assert game.legal_actions() == [DRAW]  # the 6H no longer answers
    game.play("draw", seat=2)
    assert game.hands[2] == cards("9D 6H 4D KS QD") and game.turn == 0


def test_derange_going_out_on_a_two_as_follow_me_card_the_next_player_still_draws_the_chain():
    game = scripted("derange", ["4C 5C", "3H 2H", "9D 6D"], "7H", "KS QD JC", dealer=0)
    game.play("play 3H", seat=1)
    game.play("play 2H", seat=1)
    over = game.last_round
    assert over.reason == "out" and over.winners == (1,)
    assert events_of(game, CardsDrawn) == [CardsDrawn(2, 2, "chain", tuple(cards("KS QD")))]
    assert over.points == (9, 0, 9 + 6 + 20 + 10)


def test_d41_a_drawn_two_that_follows_must_be_played_and_starts_a_chain():
    game = scripted("derange", ["4C 5C 6C", "3H 5C 9S", "9D 6D 4D"], "7H", "2H QS KS", dealer=0)
    game.play("play 3H", seat=1)
    game.play("draw", seat=1)
    assert game.legal_actions() == [Play("2H")]
    game.play("play 2H", seat=1)
    assert game.chain == 2 and game.turn == 2
    game.play("draw", seat=2)
    assert game.hands[2] == cards("9D 6D 4D QS KS")


# ----- D40: one card a turn, but for follow-me -----------------------------------------------------------


def test_d40_derange_only_follow_me_lays_more_than_one_card():
    game = scripted("derange", ["4C 5C 6C", "7S 7S 7D", "9D 6D 4D"], "7H", "QS QD", dealer=0)
    assert set(game.legal_actions()) == plays("7S 7D")  # no stacks offered, the equal 7S once
    before = snapshot(game)
    with pytest.raises(errors.BadStack):
        game.play(Play("7S", stack=("7D",)))
    with pytest.raises(errors.BadStack):
        game.play("play 7S 7S")
    assert snapshot(game) == before
    game.play("play 7S", seat=1)
    assert game.turn == 2 and game.hands[1] == cards("7S 7D")
