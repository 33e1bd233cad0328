"""docs/rules.md section 4, ``race`` (the rules card), with D9, D10, D12, D13, D38, D39
and the worked value of section 8."""

from __future__ import annotations

import pytest

from eights.cards import Card, Suit
from eights.engine import DRAW, Game, Play, errors
from eights.engine.events import (
    CardsDrawn,
    ChainGrew,
    DirectionReversed,
    GameOver,
    PlayerSkipped,
    Reshuffled,
    RoundStarted,
    StarterBuried,
)
from eights.rules import RulesError, load_preset
from tests.support.scripting import cards, events_of, scripted, snapshot

RACE = load_preset("race")


# ----- players and deal ----------------------------------------------------------------


@pytest.mark.parametrize(("players", "hand"), [(2, 7), (3, 5), (4, 5), (7, 5)])
def test_race_one_pack_seven_each_with_two_players_five_with_more(players, hand):
    game = Game(RACE, players, seed=players)
    assert game.packs == 1
    assert sum(map(len, game.hands)) + len(game.stock) + len(game.discard) == 52
    assert [len(h) for h in game.hands] == [hand] * players


@pytest.mark.parametrize("players", [1, 8])
def test_race_seats_two_to_seven(players):
    with pytest.raises(RulesError, match="2-7"):
        Game(RACE, players, seed=1)


# ----- card effects ------------------------------------------------------------------


def test_race_eight_is_wild_and_names_a_suit():
    game = scripted("race", ["3C 4C", "8S 5S", "9H 6D"], "7H", "KS KD", dealer=0)
    game.play("play 8S")
    assert game.phase_name == "name_suit"
    game.play("suit D")
    assert game.turn == 2 and game.active_suit == Suit.DIAMONDS
    assert game.legal_actions() == [Play("6D")]


def test_race_four_reverses():
    game = scripted("race", ["3C 4C", "4H 5S", "9H 6H"], "7H", "KS KD", dealer=0)
    game.play("play 4H")
    assert events_of(game, DirectionReversed) == [DirectionReversed(-1)]
    assert game.turn == 0


def test_race_jack_skips_the_next_player():
    game = scripted("race", ["3C 4C", "JH 5S", "9H 6H"], "7H", "KS KD", dealer=0)
    game.play("play JH")
    assert events_of(game, PlayerSkipped) == [PlayerSkipped(2)]
    assert game.turn == 0


def test_race_queen_and_ace_have_no_effect():
    game = scripted("race", ["3C 4C", "QH AH", "9H 6H"], "7H", "KS KD", dealer=0)
    game.play("play QH")
    assert game.turn == 2
    game = scripted("race", ["3C 4C", "QH AH", "9H 6H"], "7H", "KS KD", dealer=0)
    game.play("play AH")
    assert game.turn == 2 and game.direction == 1


# ----- chains of 2s (D12, D13, D38) ---------------------------------------------------------


def test_d12_drawing_a_chain_of_2s_ends_that_players_turn():
    game = scripted("race", ["3C 4C", "2H 5S", "9H 6H"], "7H", "KS KD QC", dealer=0)
    game.play("play 2H")
    assert events_of(game, ChainGrew) == [ChainGrew(2)]
    assert game.chain == 2 and game.turn == 2
    game.play("draw")
    assert events_of(game, CardsDrawn) == [CardsDrawn(2, 2, "chain", (Card("KS"), Card("KD")))]
    assert game.hands[2] == cards("9H 6H KS KD")
    assert game.chain == 0
    assert game.turn == 0  # 9H and 6H would have matched: the turn is over all the same


def test_race_chain_two_2s_make_the_next_player_draw_four():
    game = scripted("race", ["3C 4C", "2H 5S", "2C 6H"], "7H", "KS KD QC JC 10C", dealer=0)
    game.play("play 2H")
    game.play("play 2C")  # any 2 answers, whatever its suit
    assert events_of(game, ChainGrew) == [ChainGrew(2), ChainGrew(4)]
    assert game.chain == 4 and game.turn == 0
    game.play("draw")
    assert events_of(game, CardsDrawn) == [CardsDrawn(0, 4, "chain", tuple(cards("KS KD QC JC")))]
    assert game.hands[0] == cards("3C 4C KS KD QC JC")
    assert game.turn == 1 and game.chain == 0


def test_race_chain_three_2s_make_six():
    game = scripted("race", ["3D 4D", "2H 5S", "2C 6H", "2S 4C"], "7H", "KS KD QC JC 10C 9C", dealer=0)
    game.play("play 2H")
    game.play("play 2C")
    game.play("play 2S")
    assert events_of(game, ChainGrew) == [ChainGrew(2), ChainGrew(4), ChainGrew(6)]
    assert game.chain == 6 and game.turn == 0
    game.play("draw")
    assert game.hands[0] == cards("3D 4D KS KD QC JC 10C 9C")
    assert game.turn == 1


def test_d13_only_a_two_answers_a_chain():
    game = scripted("race", ["3C 4C", "2H 5S", "8C 6H"], "7H", "KS KD", dealer=0)
    game.play("play 2H")
    assert game.legal_actions() == [DRAW]  # 6H matches the 2H's suit, the 8 is wild: neither answers
    before = snapshot(game)
    with pytest.raises(errors.MustAnswerChain) as info:
        game.play("play 6H")
    assert "2" in str(info.value)
    with pytest.raises(errors.MustAnswerChain):
        game.play("play 8C")  # an 8 does not stop a chain (D13)
    assert snapshot(game) == before


def test_d13_a_two_answers_the_chain_and_nothing_else_is_legal_with_it():
    game = scripted("race", ["3C 4C", "2H 5S", "2D 8C"], "7H", "KS KD", dealer=0)
    game.play("play 2H")
    assert set(game.legal_actions()) == {Play("2D"), DRAW}


def test_d38_a_player_holding_a_2_may_still_draw_the_chain():
    game = scripted("race", ["3C 4C", "2H 5S", "2D 6H"], "7H", "KS KD QC", dealer=0)
    game.play("play 2H")
    assert DRAW in game.legal_actions()
    game.play("draw")
    assert game.hands[2] == cards("2D 6H KS KD")
    assert game.turn == 0 and game.chain == 0


def test_race_a_chain_is_drawn_only_as_far_as_the_piles_go():
    game = scripted("race", ["3C 4C", "2H 5S", "9D 6D"], "7H", "KS", dealer=0)
    game.play("play 2H")
    game.play("draw")  # the stock holds KS; the 7H under the 2H is reshuffled in
    drawn = events_of(game, CardsDrawn)
    assert [(e.seat, e.count, e.reason) for e in drawn] == [(2, 2, "chain")]
    assert sorted(game.hands[2]) == sorted(cards("9D 6D KS 7H"))
    assert events_of(game, Reshuffled) == [Reshuffled(1)]


# ----- D9 and D39: drawing ------------------------------------------------------------------


def test_d9_race_the_drawn_card_waits_even_when_it_plays():
    game = scripted("race", ["3C 4C", "5S 6S", "9H 6H"], "7H", "KH KD", dealer=0)
    assert game.legal_actions() == [DRAW]
    game.play("draw")
    assert game.hands[1] == cards("5S 6S KH")
    assert game.turn == 2 and game.phase_name == "play"
    assert game.top == Card("7H")


def test_d9_race_drawing_while_holding_a_playable_card_is_refused():
    game = scripted("race", ["3C 4C", "5H 6S", "9H 6H"], "7H", "KS KD", dealer=0)
    before = snapshot(game)
    with pytest.raises(errors.MustPlay):
        game.play("draw")
    with pytest.raises(errors.CannotPass):
        game.play("pass")
    assert snapshot(game) == before


def test_d39_race_reshuffles_when_the_draw_pile_runs_out():
    game = scripted("race", ["3C 4C", "7S 6S", "9D 6D"], "7H", "", dealer=0)
    game.play("play 7S")
    game.play("draw")
    assert events_of(game, Reshuffled) == [Reshuffled(1)]
    assert game.hands[2] == cards("9D 6D 7H")
    assert game.discard == cards("7S")
    assert game.turn == 0


# ----- D10: the starter ----------------------------------------------------------------------


def test_d10_race_starter_eight_is_buried():
    game = scripted("race", ["3C 4C", "5S 6S", "9H 6H"], "8C 7H", "KS KD QC JC", dealer=0)
    assert game.top == Card("7H")
    assert events_of(game, StarterBuried) == [StarterBuried(Card("8C"))]
    assert game.turn == 1


def test_d10_race_starter_jack_skips_the_dealers_left():
    game = scripted("race", ["3C 4C", "5S 6S", "9H 6H"], "JH", "KS KD", dealer=0)
    assert events_of(game, PlayerSkipped) == [PlayerSkipped(1)]
    assert game.turn == 2


def test_d10_race_starter_four_sends_play_to_the_dealers_right():
    game = scripted("race", ["3C 4C", "5S 6S", "9H 6H"], "4H", "KS KD", dealer=0)
    assert game.direction == -1 and game.turn == 2


def test_d10_race_starter_two_starts_a_chain_of_two_for_the_first_player():
    game = scripted("race", ["3C 4C", "5S 6H", "9H 6D"], "2H", "KS KD QC", dealer=0)
    assert game.turn == 1 and game.chain == 2
    assert game.legal_actions() == [DRAW]
    game.play("draw")
    assert game.hands[1] == cards("5S 6H KS KD")
    assert game.turn == 2 and game.chain == 0


def test_d10_race_starter_two_may_be_answered_by_the_first_player():
    game = scripted("race", ["3C 4C", "2S 6H", "9H 6D"], "2H", "KS KD QC JC", dealer=0)
    game.play("play 2S")
    assert game.chain == 4 and game.turn == 2
    game.play("draw")
    assert game.hands[2] == cards("9H 6D KS KD QC JC")


def test_d10_race_two_players_a_starter_two_is_a_chain_for_the_dealers_left():
    game = scripted("race", ["3C 4C", "5S 6S"], "2H", "KS KD", dealer=1)
    assert game.turn == 0 and game.chain == 2
    game.play("draw")
    assert game.hands[0] == cards("3C 4C KS KD")
    assert game.turn == 1


@pytest.mark.parametrize("starter", ["JH", "4H"])
def test_d10_race_two_players_a_starter_skip_or_reverse_lets_the_dealer_play_first(starter):
    game = scripted("race", ["3C 4C", "5S 6S"], starter, "KS KD", dealer=1)
    assert game.turn == 1


# ----- D4 in race ----------------------------------------------------------------------------


def test_d4_race_going_out_on_a_2_makes_no_one_draw():
    game = scripted("race", ["3C", "2H", "9D"], "7H", "KS KD", dealer=0)
    game.play("play 2H")
    assert game.last_round.winners == (1,)
    assert events_of(game, CardsDrawn) == []
    assert game.last_round.hands[2] == (Card("9D"),)


# ----- scoring and the race to the target -------------------------------------------------


def test_race_score_values_8_50_faces_10_ace_1_pips_face():
    expected = {"8": 50, "K": 10, "Q": 10, "J": 10, "A": 1, **{str(r): r for r in (2, 3, 4, 5, 6, 7, 9, 10)}}
    for rank, value in expected.items():
        for suit in "CDHS":
            assert RACE.card_value(Card(rank + suit)) == value


def test_section_8_race_hand_10_2_a_is_worth_13():
    assert [RACE.card_value(Card(c)) for c in ("10H", "2H", "AH")] == [10, 2, 1]
    # Seat 1 goes out in one turn by skips (D26 with two players): JS, JC, 5C.
    game = scripted("race", ["10H 2H AH", "JS JC 5C"], "9S", "KS KD", dealer=0)
    game.play("play JS")
    game.play("play JC")
    game.play("play 5C")
    over = game.last_round
    assert over.reason == "out" and over.winners == (1,)
    assert over.points == (0, 13)
    assert game.totals == [0, 13]
    assert not game.is_over  # 13 of 100


def test_race_winner_collects_from_each_other_player():
    game = scripted("race", ["3C 4C", "5H 6H", "KD QS"], "7H", "JD JC", dealer=0)
    game.play("play 5H")
    game.play("draw")  # seat 2 draws JD
    game.play("draw")  # seat 0 draws JC
    game.play("play 6H")  # seat 1 goes out
    over = game.last_round
    assert over.winners == (1,)
    # 3C 4C JC = 17 and KD QS JD = 30
    assert over.points == (0, 47, 0)
    assert game.totals == [0, 47, 0]


@pytest.mark.parametrize("players", range(2, 8))
def test_race_target_is_50_per_player(players):
    assert RACE.match_target(players) == 50 * players


def test_race_a_player_reaching_the_target_wins():
    # Two players, target 100: seat 1 goes out on JS 5S and collects 8C 8D = 100.
    game = scripted("race", ["8C 8D", "JS 5S"], "9S", "KS KD", dealer=0)
    game.play("play JS")
    game.play("play 5S")
    assert game.is_over
    assert game.outcome.totals == (0, 100)
    assert game.outcome.winners == (1,)
    assert isinstance(game.log[-1], GameOver)


def test_race_below_the_target_the_next_round_is_dealt():
    game = scripted("race", ["8C 7D", "JS 5S"], "9S", "KS KD", dealer=0)
    game.play("play JS")
    game.play("play 5S")
    assert not game.is_over
    assert game.totals == [0, 57]
    assert events_of(game, RoundStarted)[-1].round == 2
    assert game.dealer == 1


def test_race_plays_rounds_until_a_total_reaches_50_per_player():
    game = scripted("race", ["8C 7D", "JS 5S"], "9S", "KS KD", dealer=0)
    game.play("play JS")
    game.play("play 5S")
    seen = 1
    previous = game.last_round
    while not game.is_over:
        game.play(game.legal_actions()[0])
        if game.last_round is not previous:
            previous = game.last_round
            seen += 1
            if not game.is_over:
                assert max(previous.totals) < 100
    outcome = game.outcome
    assert max(outcome.totals) >= 100
    high = max(outcome.totals)
    assert outcome.winners == tuple(s for s, t in enumerate(outcome.totals) if t == high)
    assert len(outcome.winners) == 1


# ----- refused actions --------------------------------------------------------------------------


def test_race_answering_a_chain_with_a_non_two_is_refused_and_changes_nothing():
    game = scripted("race", ["3C 4C", "2H 5S", "7D 6H"], "7H", "KS KD", dealer=0)
    game.play("play 2H")
    before = snapshot(game)
    for text in ("play 7D", "play 6H"):
        with pytest.raises(errors.MustAnswerChain):
            game.play(text)
    with pytest.raises(errors.CannotPass):
        game.play("pass")
    assert snapshot(game) == before
