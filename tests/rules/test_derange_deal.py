"""docs/rules.md section 5, ``derange`` (Derange Order of Eight), with D1, D3, D4, D9, D12-D20,
D26, D38, D40-D42, the derange worked value of section 8 and the derange scoring table.

Derange plays two packs by default, so a scripted hand may hold the same card twice.
"""

from __future__ import annotations

import random
from unittest.mock import ANY

import pytest

from eights.cards import Card, Suit
from eights.engine import DRAW, PASS, Game, Play, errors
from eights.engine.actions import NAME_SUIT
from eights.engine.events import (
    CardPlayed,
    CardsDrawn,
    ChainGrew,
    DirectionReversed,
    FollowMe,
    GameOver,
    Passed,
    Reshuffled,
    RoundOver,
    RoundStarted,
    StarterTurned,
    SuitNamed,
)
from eights.rules import RulesError, load_preset
from tests.support.scripting import cards, events_of, pack_size, scripted, snapshot

DERANGE = load_preset("derange")
FULL_SCHEDULE = (8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8)


def plays(text: str) -> set[Play]:
    return {Play(c) for c in cards(text)}


def since(game: Game, mark: int) -> list:
    return list(game.log[mark:])


def play_out(game: Game) -> None:
    """Finish the game with a fixed policy: always the first legal action."""
    while not game.is_over:
        game.apply(game.legal_actions()[0])


# ----- packs and players -------------------------------------------------------------------------------


def test_derange_two_packs_by_default():
    game = Game(DERANGE, 4, seed=3)
    assert DERANGE.packs == 2 and game.packs == 2
    assert pack_size(game) == 104
    every = [c for hand in game.hands for c in hand] + game.stock + game.discard
    assert sorted(every) == sorted(list(range(52)) * 2)


@pytest.mark.parametrize("packs", [1, 2, 3, 4])
def test_derange_packs_one_to_four_by_option(packs):
    rules = DERANGE.with_options([f"packs={packs}"])
    game = Game(rules, 4, seed=packs)
    assert game.packs == packs
    assert pack_size(game) == 52 * packs
    assert [len(h) for h in game.hands] == [8] * 4


@pytest.mark.parametrize("packs", [5, 6])
def test_derange_more_than_four_packs_refused(packs):
    with pytest.raises(RulesError, match="packs"):
        DERANGE.with_options([f"packs={packs}"])


@pytest.mark.parametrize(("players", "packs"), [(p, k) for p in range(2, 9) for k in (2, 3, 4)])
def test_derange_two_to_eight_players_on_two_to_four_packs(players, packs):
    game = Game(DERANGE.replace(packs=packs), players, seed=players)
    assert [len(h) for h in game.hands] == [8] * players
    assert pack_size(game) == 52 * packs


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_derange_one_pack_seats_up_to_six_with_eight_cards_each(players):
    game = Game(DERANGE.replace(packs=1), players, seed=1)
    assert [len(h) for h in game.hands] == [8] * players
    assert pack_size(game) == 52


def test_derange_one_pack_seats_eight_with_short_rounds():
    game = Game(DERANGE.with_options(["packs=1", "short_rounds=true"]), 8, seed=1)
    assert [len(h) for h in game.hands] == [4] * 8


@pytest.mark.parametrize("players", [1, 9, 10])
def test_derange_seats_two_to_eight(players):
    with pytest.raises(RulesError, match="valid: 2-8"):
        Game(DERANGE, players, seed=1)


# ----- rounds (D14) ------------------------------------------------------------------------------------


def test_d14_derange_schedule_is_8_down_to_1_and_back_up_to_8():
    assert DERANGE.schedule == FULL_SCHEDULE
    assert len(DERANGE.schedule) == 15


@pytest.mark.parametrize("players", [2, 3, 8])
def test_d14_derange_full_game_plays_fifteen_rounds_of_the_schedule(players):
    game = Game(DERANGE, players, seed=11)
    assert [len(h) for h in game.hands] == [8] * players
    play_out(game)
    started = events_of(game, RoundStarted)
    assert [e.round for e in started] == list(range(1, 16))
    assert tuple(e.hand_size for e in started) == FULL_SCHEDULE
    for event in started:
        assert [len(h) for h in event.hands] == [event.hand_size] * players
    assert len(events_of(game, RoundOver)) == 15
    assert game.outcome.rounds == 15


def test_derange_short_rounds_option_plays_4_down_to_1_and_back_to_4():
    rules = DERANGE.with_options(["short_rounds=true"])
    assert rules.schedule == (4, 3, 2, 1, 2, 3, 4)
    game = Game(rules, 3, seed=2)
    assert [len(h) for h in game.hands] == [4, 4, 4]
    play_out(game)
    assert tuple(e.hand_size for e in events_of(game, RoundStarted)) == (4, 3, 2, 1, 2, 3, 4)
    assert game.outcome.rounds == 7


def test_d14_derange_any_list_of_hand_sizes():
    rules = DERANGE.with_options(["rounds=8,6,4"])
    assert rules.schedule == (8, 6, 4)
    game = Game(rules, 4, seed=5)
    assert [len(h) for h in game.hands] == [8] * 4
    play_out(game)
    started = events_of(game, RoundStarted)
    assert tuple(e.hand_size for e in started) == (8, 6, 4)
    assert [[len(h) for h in e.hands] for e in started] == [[8] * 4, [6] * 4, [4] * 4]
    assert game.outcome.rounds == 3
    assert len(events_of(game, GameOver)) == 1


@pytest.mark.parametrize("text", ["rounds=8,0,4", "rounds=0", "rounds=3,-1"])
def test_d14_derange_a_hand_size_below_one_is_refused(text):
    with pytest.raises(RulesError, match="each 1 or more"):
        DERANGE.with_options([text])


def test_derange_a_deal_that_cannot_fit_the_packs_is_refused_before_round_1():
    rules = DERANGE.with_options(["packs=1"])
    with pytest.raises(RulesError) as info:
        Game(rules, 8, seed=1)
    message = str(info.value)
    assert "rounds" in message
    assert "dealing 8 cards to 8 players plus a starter needs 65 cards" in message
    assert "1 pack holds 52" in message
    assert "deal at most 6" in message


def test_d14_derange_the_largest_deal_of_the_schedule_is_checked_before_round_1():
    # Round 1 deals 1 card each, which fits; round 2's 7 cards to 8 players (57 cards) do not fit one pack.
    rules = DERANGE.with_options(["packs=1", "rounds=1,7"])
    with pytest.raises(RulesError, match="needs 57 cards"):
        Game(rules, 8, seed=1)


@pytest.mark.parametrize(
    ("packs", "players", "fits", "too_big"),
    [(1, 3, 17, 18), (1, 7, 7, 8), (2, 2, 51, 52), (2, 8, 12, 13), (4, 8, 25, 26)],
)
def test_d14_derange_the_deal_plus_the_starter_must_fit(packs, players, fits, too_big):
    game = Game(DERANGE.replace(packs=packs, rounds=[fits]), players, seed=1)
    assert [len(h) for h in game.hands] == [fits] * players
    with pytest.raises(RulesError, match=f"needs {players * too_big + 1} cards, but {packs} pack"):
        Game(DERANGE.replace(packs=packs, rounds=[too_big]), players, seed=1)


# ----- the dealer (D1) ---------------------------------------------------------------------------------


def test_d1_derange_first_dealer_drawn_at_random_from_the_seed():
    dealers = [Game(DERANGE, 4, seed=seed).dealer for seed in range(40)]
    assert set(dealers) == {0, 1, 2, 3}
    assert dealers == [Game(DERANGE, 4, seed=seed).dealer for seed in range(40)]
    for seed in range(5):
        game = Game(DERANGE, 4, seed=seed)
        assert events_of(game, RoundStarted)[0].dealer == game.dealer


@pytest.mark.parametrize("players", [2, 5])
def test_d1_derange_dealer_moves_one_seat_clockwise_each_round(players):
    game = Game(DERANGE, players, seed=7)
    first = game.dealer
    play_out(game)
    dealers = [e.dealer for e in events_of(game, RoundStarted)]
    assert dealers == [(first + i) % players for i in range(15)]


def test_d2_derange_deal_starts_at_the_dealers_left():
    game = scripted("derange", ["4C 5C", "6D 7D", "9S JS"], "QH", "KH", dealer=1)
    assert game.hands == [cards("4C 5C"), cards("6D 7D"), cards("9S JS")]
    assert game.top == Card("QH")
    assert game.turn == 2  # the dealer's left plays first


# ----- the starter (D15) -------------------------------------------------------------------------------


def test_d15_starter_three_or_ten_is_turned_over_until_another_card_shows():
    game = scripted("derange", ["4C 5C", "6D 5D", "9S JS"], "3H 10C 3S 10D 5H", "KH QH", dealer=0)
    assert game.discard == cards("3H 10C 3S 10D 5H")
    assert [e.card for e in events_of(game, StarterTurned)] == cards("3H 10C 3S 10D 5H")
    assert game.top == Card("5H") and game.active_suit == Suit.HEARTS
    assert game.stock == cards("QH KH")  # top last
    assert game.turn == 1 and game.phase_name == "play" and game.direction == 1
    assert set(game.legal_actions()) == plays("5D")  # matches the 5H: the turned-over cards count for nothing


def test_d15_stock_running_out_while_turning_the_last_card_turned_stays_with_no_effect():
    game = scripted("derange", ["4C 5H", "6C 7D", "9S JS"], "3H 10C", "", dealer=0)
    assert game.stock == []
    assert game.discard == cards("3H 10C")
    assert [e.card for e in events_of(game, StarterTurned)] == cards("3H 10C")
    assert game.top == Card("10C")
    assert game.turn == 1 and game.phase_name == "play"
    assert events_of(game, FollowMe) == []
    # The first player matches the 10 normally and owes no follow-me.
    assert game.legal_actions() == [Play("6C")]
    game.play("play 6C", seat=1)
    assert game.turn == 2 and game.phase_name == "play" and game.top == Card("6C")


def test_d15_stock_running_out_on_a_three_leaves_the_three_with_no_effect():
    game = scripted("derange", ["4C 9D", "6S 7D"], "10S 3S", "", dealer=1)
    assert game.top == Card("3S") and game.stock == []
    assert game.turn == 0 and game.phase_name == "play" and game.direction == 1
    # Nothing matches the 3S and the only card under it reshuffles into a one-card stock.
    assert game.legal_actions() == [DRAW]


def test_d15_the_last_stock_card_turned_onto_a_three_keeps_its_effect_when_it_is_no_three_or_ten():
    # The stock empties on the 8, but a non-3/10 did show: the 8 is a starter like any other.
    game = scripted("derange", ["5S 9C", "4D 6D", "7C 9D"], "3H 8C", "", dealer=0)
    assert game.stock == [] and game.discard == cards("3H 8C")
    assert game.phase_name == "name_suit" and game.to_act == 0


def test_d15_starter_eight_the_dealer_names_the_suit_and_the_dealers_left_plays_first():
    game = scripted("derange", ["5S 9C", "4D 6D", "7C 9D"], "8H", "KH QH", dealer=2)
    assert game.top == Card("8H")
    assert game.phase_name == "name_suit" and game.to_act == 2
    assert game.legal_actions() == list(NAME_SUIT)
    before = snapshot(game)
    with pytest.raises(errors.NotYourTurn):
        game.play("suit S", seat=0)
    with pytest.raises(errors.MustNameSuit):
        game.play("play 7C")
    assert snapshot(game) == before
    game.play("suit S", seat=2)
    assert events_of(game, SuitNamed) == [SuitNamed(2, Suit.SPADES)]
    assert game.turn == 0 and game.phase_name == "play" and game.direction == 1
    assert game.active_suit == Suit.SPADES
    assert game.legal_actions() == [Play("5S")]  # D3: the named suit (or an 8) only, not the 8's hearts


def test_d15_starter_eight_two_players_the_dealer_names_the_suit_and_the_other_player_plays_first():
    game = scripted("derange", ["5S 9C", "4D 6D"], "8H", "KH QH", dealer=1)
    assert game.phase_name == "name_suit" and game.to_act == 1
    game.play("suit S", seat=1)
    assert game.turn == 0 and game.legal_actions() == [Play("5S")]


def test_d15_turned_over_three_then_an_eight_the_dealer_names_the_suit():
    game = scripted("derange", ["5S 9C", "4D 6D", "7C 9D"], "10H 3C 8S", "KH QH", dealer=0)
    assert game.discard == cards("10H 3C 8S")
    assert game.phase_name == "name_suit" and game.to_act == 0
    game.play("suit D", seat=0)
    assert game.turn == 1 and game.active_suit == Suit.DIAMONDS
    assert set(game.legal_actions()) == plays("4D 6D")


def test_d15_starter_king_reverses_and_the_dealer_plays_first():
    game = scripted("derange", ["5S 9C", "5H 6C", "7C 9D"], "KH", "QS QD", dealer=1)
    assert game.direction == -1
    assert events_of(game, DirectionReversed) == [DirectionReversed(-1)]
    assert game.turn == 1 and game.phase_name == "play"
    game.play("play 5H", seat=1)
    assert game.turn == 0  # counter-clockwise from the dealer


def test_d15_turned_over_ten_then_a_king_reverses_and_the_dealer_plays_first():
    game = scripted("derange", ["5S 9C", "5H 6C", "7C KC"], "10S KC", "QS QD", dealer=2)
    assert game.discard == cards("10S KC")
    assert game.direction == -1 and game.turn == 2
    game.play("play KC", seat=2)  # another K reverses back
    assert game.direction == 1 and game.turn == 0


def test_d26_d15_starter_king_two_players_the_dealer_plays_first():
    game = scripted("derange", ["5H 9C", "5S 6C"], "KH", "QS QD", dealer=0)
    assert game.turn == 0 and game.direction == -1
    game.play("play 5H", seat=0)
    assert game.turn == 1


def test_d15_starter_two_starts_no_chain():
    game = scripted("derange", ["5S 9C", "5H 6C", "7C 9D"], "2H", "QS QD", dealer=0)
    assert game.chain == 0 and events_of(game, ChainGrew) == []
    assert game.turn == 1
    assert set(game.legal_actions()) == plays("5H")
    game.play("play 5H")
    assert game.hands[2] == cards("7C 9D") and game.turn == 2


@pytest.mark.parametrize("starter", ["AH", "4H", "5H", "6H", "7H", "9H", "JH", "QH"])
def test_d15_other_starters_have_no_effect(starter):
    game = scripted("derange", ["5S 9C", "2C 6C", "7C 9D"], starter, "QS QD", dealer=0)
    assert game.discard == [Card(starter)]
    assert game.turn == 1 and game.direction == 1 and game.phase_name == "play" and game.chain == 0
    assert len(game.log) == 2  # RoundStarted, StarterTurned: nothing else happened


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


# ----- follow-me 3s and 10s (D17-D20) ---------------------------------------------------------------------


def test_d17_after_a_three_the_player_may_lay_more_threes_of_any_suit_one_at_a_time():
    game = scripted("derange", ["4C 5C 6C 9C 9C", "3H 3S 3C 5C 9D", "9D 6D 4D 4S 4H"], "7H", "QS QD", dealer=0)
    mark = len(game.log)
    game.play("play 3H", seat=1)
    assert game.phase_name == "follow" and game.turn == 1
    assert set(game.legal_actions()) == plays("3S 3C") | {DRAW}  # no heart, no 8: more 3s, or draw to follow
    with pytest.raises(errors.BadStack):
        game.play(Play("3C", stack=("3S",)))
    game.play("play 3S", seat=1)
    assert game.top == Card("3S") and game.active_suit == Suit.SPADES and game.turn == 1
    game.play("play 3C", seat=1)
    assert game.phase_name == "follow" and game.active_suit == Suit.CLUBS
    assert set(game.legal_actions()) == plays("5C")
    game.play("play 5C", seat=1)
    assert game.turn == 2 and game.phase_name == "play" and game.hands[1] == cards("9D")
    assert [e for e in since(game, mark) if isinstance(e, FollowMe)] == [
        FollowMe(1, Card("3H")),
        FollowMe(1, Card("3S")),
        FollowMe(1, Card("3C")),
    ]
    assert game.discard == cards("7H 3H 3S 3C 5C")


def test_d17_follow_phase_offers_exactly_more_of_the_rank_and_follow_me_cards():
    game = scripted(
        "derange", ["4C 5C 6C 4D 5D 6D", "3H 3S 10S 5H 8D 9C", "9D 6D 4D 9S 4S 6S"], "7H", "QS QD", dealer=0
    )
    game.play("play 3H", seat=1)
    assert set(game.legal_actions()) == plays("3S 5H 8D")  # not the 10S nor the 9C
    before = snapshot(game)
    with pytest.raises(errors.MustFollow):
        game.play("play 10S")  # another follow-me rank is not "more of the same rank"
    with pytest.raises(errors.MustFollow):
        game.play("play 9C")
    assert snapshot(game) == before


def test_d17_a_ten_played_by_matching_starts_follow_me():
    game = scripted("derange", ["4C 5C 6C 9C", "10D 10C 6C 9S", "9H 6H 4H 4S"], "7D", "QS QD", dealer=0)
    game.play("play 10D", seat=1)
    assert game.phase_name == "follow" and events_of(game, FollowMe) == [FollowMe(1, Card("10D"))]
    assert set(game.legal_actions()) == plays("10C") | {DRAW}
    game.play("play 10C", seat=1)
    assert set(game.legal_actions()) == plays("6C")
    game.play("play 6C", seat=1)
    assert game.turn == 2 and game.hands[1] == cards("9S")


def test_d17_the_extra_cards_are_optional_the_follow_me_card_may_come_at_once():
    game = scripted("derange", ["4C 5C 6C 7C", "3H 3S 5H 9C", "9D 6D 4D 7D"], "7H", "QS QD", dealer=0)
    game.play("play 3H", seat=1)
    game.play("play 5H", seat=1)
    assert game.turn == 2 and game.phase_name == "play"
    assert game.hands[1] == cards("3S 9C")


def test_d18_an_eight_is_a_follow_me_card():
    game = scripted("derange", ["4C 5C 6C", "3H 8C 9S", "9D 6D 4D"], "7H", "QS QD", dealer=0)
    game.play("play 3H", seat=1)
    assert set(game.legal_actions()) == plays("8C")
    game.play("play 8C", seat=1)
    assert game.phase_name == "name_suit" and game.to_act == 1
    game.play("suit D", seat=1)
    assert game.turn == 2 and game.phase_name == "play" and game.active_suit == Suit.DIAMONDS
    assert set(game.legal_actions()) == plays("9D 6D 4D")


def test_d19_a_three_or_ten_as_follow_me_card_starts_another_follow_me():
    game = scripted("derange", ["4C 5C 6C 7C 9C", "3H 10H 10S 5S 9C", "9D 6D 4D 7D 5D"], "7H", "QS QD", dealer=0)
    game.play("play 3H", seat=1)
    assert set(game.legal_actions()) == plays("10H")  # a heart: a follow-me card
    game.play("play 10H", seat=1)
    assert events_of(game, FollowMe) == [FollowMe(1, Card("3H")), FollowMe(1, Card("10H"))]
    assert game.phase_name == "follow" and game.turn == 1
    assert set(game.legal_actions()) == plays("10S") | {DRAW}  # now more 10s; no heart, no 8 to follow
    game.play("play 10S", seat=1)
    assert set(game.legal_actions()) == plays("5S")
    game.play("play 5S", seat=1)
    assert game.turn == 2 and game.hands[1] == cards("9C")
    assert game.discard == cards("7H 3H 10H 10S 5S")


def test_d19_the_same_three_from_the_second_pack_continues_follow_me():
    game = scripted("derange", ["4C 5C 6C", "3H 3H 5H", "9D 6D 4D"], "7H", "QS QD", dealer=0)
    game.play("play 3H", seat=1)
    assert set(game.legal_actions()) == plays("3H 5H")
    game.play("play 3H", seat=1)
    assert game.phase_name == "follow" and len(events_of(game, FollowMe)) == 2
    game.play("play 5H", seat=1)
    assert game.last_round.winners == (1,) and game.last_round.points == (15, 0, 19)


def test_d20_holding_a_follow_me_card_the_player_must_play_one():
    game = scripted("derange", ["4C 5C 6C", "3H 5H 9C", "9D 6D 4D"], "7H", "QS QD", dealer=0)
    game.play("play 3H", seat=1)
    assert DRAW not in game.legal_actions() and PASS not in game.legal_actions()
    before = snapshot(game)
    with pytest.raises(errors.MustFollow):
        game.play("draw")
    with pytest.raises(errors.CannotPass):
        game.play("pass")
    assert snapshot(game) == before
    assert game.legal_actions() == [Play("5H")]


# ----- D41: drawing to follow ------------------------------------------------------------------------------


def test_d41_drawn_follow_me_card_must_be_played():
    game = scripted("derange", ["4C 5C 6C", "3H 5C 9S", "9D 6D 4D"], "7H", "9H QS", dealer=0)
    game.play("play 3H", seat=1)
    assert game.legal_actions() == [DRAW]
    game.play("draw", seat=1)
    assert events_of(game, CardsDrawn) == [CardsDrawn(1, 1, "draw", (Card("9H"),), lacking=ANY)]
    assert game.phase_name == "follow_drawn" and game.turn == 1
    assert game.legal_actions() == [Play("9H")]
    before = snapshot(game)
    with pytest.raises(errors.MustPlayDrawn):
        game.play("play 5C")
    with pytest.raises(errors.CannotPass):
        game.play("pass")
    with pytest.raises(errors.MustPlayDrawn):
        game.play("draw")
    assert snapshot(game) == before
    game.play("play 9H", seat=1)
    assert game.top == Card("9H") and game.turn == 2 and game.phase_name == "play"
    assert game.hands[1] == cards("5C 9S")


def test_d41_no_follow_me_card_drawn_the_turn_ends_with_the_three_on_top():
    game = scripted("derange", ["4C 5C 6C", "3H 5C 9S", "9D 6H 4D"], "7H", "9C QS", dealer=0)
    game.play("play 3H", seat=1)
    game.play("draw", seat=1)
    assert game.hands[1] == cards("5C 9S 9C")
    assert game.top == Card("3H") and game.turn == 2 and game.phase_name == "play"
    # The next player owes no follow-me: they match the 3H normally and their turn ends.
    assert set(game.legal_actions()) == plays("6H")
    game.play("play 6H", seat=2)
    assert game.turn == 0 and game.phase_name == "play"
    assert events_of(game, FollowMe) == [FollowMe(1, Card("3H"))]


def test_d41_the_next_player_may_draw_on_the_three_when_nothing_matches():
    game = scripted("derange", ["4C 5C 6C", "3H 5C 9S", "9D 6D 4D"], "7H", "9C QS KD", dealer=0)
    game.play("play 3H", seat=1)
    game.play("draw", seat=1)
    assert game.turn == 2 and game.legal_actions() == [DRAW]
    game.play("draw", seat=2)
    assert game.hands[2] == cards("9D 6D 4D QS") and game.turn == 0


def test_d41_a_drawn_card_of_the_same_rank_in_another_suit_is_not_a_follow_me_card():
    game = scripted("derange", ["4C 5C 6C", "3H 5C 9S", "9D 6D 4D"], "7H", "3S QS", dealer=0)
    game.play("play 3H", seat=1)
    game.play("draw", seat=1)
    assert game.hands[1] == cards("5C 9S 3S")
    assert game.top == Card("3H") and game.turn == 2 and game.phase_name == "play"


def test_d41_d18_a_drawn_eight_follows_and_must_be_played():
    game = scripted("derange", ["4C 5C 6C", "3H 5C 9S", "9D 6D 4D"], "7H", "8S QS", dealer=0)
    game.play("play 3H", seat=1)
    game.play("draw", seat=1)
    assert game.phase_name == "follow_drawn" and game.legal_actions() == [Play("8S")]
    game.play("play 8S", seat=1)
    assert game.phase_name == "name_suit" and game.to_act == 1
    game.play("suit C", seat=1)
    assert game.turn == 2 and game.active_suit == Suit.CLUBS


def test_d41_d19_a_drawn_ten_of_the_suit_must_be_played_and_starts_another_follow_me():
    game = scripted("derange", ["4C 5C 6C", "3H 5C 9S", "9D 6D 4D"], "7H", "10H 9C QS", dealer=0)
    game.play("play 3H", seat=1)
    game.play("draw", seat=1)
    assert game.legal_actions() == [Play("10H")]
    game.play("play 10H", seat=1)
    assert game.phase_name == "follow" and game.turn == 1
    assert events_of(game, FollowMe) == [FollowMe(1, Card("3H")), FollowMe(1, Card("10H"))]
    assert game.legal_actions() == [DRAW]  # no heart, no 8, no other 10: draw again to follow
    game.play("draw", seat=1)
    assert game.hands[1] == cards("5C 9S 9C")
    assert game.top == Card("10H") and game.turn == 2


def test_d41_a_three_drawn_and_played_by_matching_is_followed_too():
    game = scripted("derange", ["4C 5C", "5C 9S", "9D 6D"], "7H", "3H KH QS", dealer=0)
    game.play("draw", seat=1)
    assert game.phase_name == "play_drawn"
    game.play("play 3H", seat=1)
    assert game.phase_name == "follow" and game.legal_actions() == [DRAW]
    game.play("draw", seat=1)
    assert game.phase_name == "follow_drawn" and game.legal_actions() == [Play("KH")]


def test_d41_the_next_player_playing_a_three_on_it_follows_for_themselves():
    game = scripted("derange", ["4C 5C 6C", "3H 5C 9S", "3D 6D 4S"], "7H", "9C QS", dealer=0)
    game.play("play 3H", seat=1)
    game.play("draw", seat=1)  # 9C: the turn ends with the 3H on top
    game.play("play 3D", seat=2)  # matched by rank: seat 2's own follow-me
    assert game.phase_name == "follow" and game.turn == 2
    assert set(game.legal_actions()) == plays("6D")


# ----- D42: a round cannot end on a 3 or 10 -----------------------------------------------------------------


def test_d42_a_hand_emptied_by_a_three_is_not_out():
    game = scripted("derange", ["4C", "3H", "9D"], "7H", "9C QS", dealer=0)
    game.play("play 3H", seat=1)
    assert game.last_round is None and not game.is_over
    assert game.hands[1] == [] and game.phase_name == "follow" and game.turn == 1
    assert game.legal_actions() == [DRAW]
    before = snapshot(game)
    with pytest.raises(errors.CannotPass):
        game.play("pass")
    assert snapshot(game) == before
    game.play("draw", seat=1)
    assert game.hands[1] == cards("9C")
    assert game.turn == 2 and game.top == Card("3H") and game.last_round is None


def test_d42_a_hand_emptied_by_a_ten_goes_out_on_the_drawn_follow_me_card():
    game = scripted("derange", ["4C", "10H", "9D"], "7H", "5H QS", dealer=0)
    game.play("play 10H", seat=1)
    assert game.last_round is None
    game.play("draw", seat=1)
    assert game.legal_actions() == [Play("5H")]
    game.play("play 5H", seat=1)
    over = game.last_round
    assert over.reason == "out" and over.winners == (1,)
    assert over.points == (4, 0, 9)
    assert game.outcome.winners == (1,)


def test_d42_d19_the_drawn_follow_me_card_is_a_three_again_so_the_player_draws_again():
    game = scripted("derange", ["4C", "3H", "9D"], "7H", "3H 4H QS", dealer=0)
    game.play("play 3H", seat=1)
    game.play("draw", seat=1)  # the second pack's 3H follows
    game.play("play 3H", seat=1)
    assert game.last_round is None and game.hands[1] == []
    assert game.phase_name == "follow" and game.legal_actions() == [DRAW]
    game.play("draw", seat=1)
    game.play("play 4H", seat=1)
    assert game.last_round.winners == (1,)


def test_d42_the_last_cards_three_then_more_threes_still_must_be_followed():
    game = scripted("derange", ["4C 5C", "3H 3S", "9D 6D"], "7H", "9C QS", dealer=0)
    game.play("play 3H", seat=1)
    game.play("play 3S", seat=1)
    assert game.hands[1] == [] and game.last_round is None
    assert game.active_suit == Suit.SPADES and game.legal_actions() == [DRAW]
    game.play("draw", seat=1)
    assert game.hands[1] == cards("9C") and game.turn == 2


def test_d42_going_out_on_the_follow_me_card_ends_the_round():
    game = scripted("derange", ["4C 5C", "3H 5H", "9D 6D"], "7H", "9C QS", dealer=0)
    game.play("play 3H", seat=1)
    game.play("play 5H", seat=1)
    assert game.last_round.winners == (1,) and game.last_round.points == (9, 0, 15)


def test_d4_derange_going_out_on_an_eight_names_no_suit():
    game = scripted("derange", ["4C 5C", "3H 8S", "9D 6D"], "7H", "9C QS", dealer=0)
    game.play("play 3H", seat=1)
    game.play("play 8S", seat=1)
    assert game.last_round.winners == (1,)
    assert events_of(game, SuitNamed) == []
    assert game.is_over


def test_d42_with_nothing_to_draw_the_player_stays_in_with_no_cards_and_scores_0_if_blocked():
    # Derange reshuffles (D16), so there is always a card under the 3 to draw; with the reshuffle
    # off the piles can be truly empty.
    game = scripted("derange", ["9C", "3H", "5S"], "7H", "", dealer=0, reshuffle=False)
    game.play("play 3H", seat=1)
    assert game.hands[1] == [] and game.phase_name == "follow"
    assert game.legal_actions() == [PASS]
    game.play("pass", seat=1)
    assert game.last_round is None and game.turn == 2 and game.phase_name == "play"
    game.play("pass", seat=2)
    game.play("pass", seat=0)
    assert game.last_round is None and game.turn == 1
    assert game.legal_actions() == [PASS]  # still in the round, with nothing to draw
    game.play("pass", seat=1)
    over = game.last_round
    assert over.reason == "blocked"
    assert over.points == (9, 0, 5)
    assert over.winners == (1,)
    assert game.outcome.winners == (1,)
    assert [e.seat for e in events_of(game, Passed)] == [1, 2, 0, 1]


def test_d42_the_player_with_no_cards_draws_on_the_next_turn():
    game = scripted("derange", ["9C", "3H"], "7H", "", dealer=0, reshuffle=False)
    game.play("play 3H", seat=1)
    game.play("pass", seat=1)
    game.play("pass", seat=0)
    assert game.turn == 1 and game.hands[1] == [] and game.last_round is None
    # The piles cannot refill without a reshuffle; put a card in the stock to show the next turn.
    game.stock.append(Card("5H"))
    assert game.legal_actions() == [DRAW]
    game.play("draw", seat=1)
    assert game.phase_name == "play_drawn" and game.legal_actions() == [Play("5H"), PASS]
    game.play("play 5H", seat=1)
    assert game.last_round.reason == "out" and game.last_round.winners == (1,)
    assert game.last_round.points == (9, 0)


def test_d42_the_player_with_no_cards_scores_0_when_another_goes_out_and_ties_share_the_win():
    game = scripted("derange", ["9C", "3H", "5H"], "7H", "", dealer=0, reshuffle=False)
    game.play("play 3H", seat=1)
    game.play("pass", seat=1)  # nothing to draw: seat 1 stays in with no cards
    game.play("play 5H", seat=2)
    over = game.last_round
    assert over.reason == "out" and over.winners == (2,)
    assert over.points == (9, 0, 0)
    assert game.outcome.totals == (9, 0, 0)
    assert game.outcome.winners == (1, 2)  # lowest total: seats 1 and 2 share the win


# ----- scoring ------------------------------------------------------------------------------------------------


DERANGE_VALUES = {
    "8": 50,
    "2": 30,
    "3": 30,
    "10": 30,
    "K": 20,
    "A": 15,
    "Q": 10,
    "J": 10,
    "4": 4,
    "5": 5,
    "6": 6,
    "7": 7,
    "9": 9,
}


@pytest.mark.parametrize(("rank", "value"), list(DERANGE_VALUES.items()))
def test_derange_score_value_of_each_card(rank, value):
    for suit in "CDHS":
        assert DERANGE.card_value(Card(rank + suit)) == value


def test_section_8_derange_hand_8_2_10_k_a_q_7_is_worth_162():
    hand = "8H 2H 10H KH AH QH 7H"
    assert sum(DERANGE.card_value(c) for c in cards(hand)) == 162
    # Seat 1 goes out in one turn: six 3s by follow-me (two packs), then the 5D follows the 3D.
    game = scripted("derange", [hand, "3S 3S 3C 3C 3D 3D 5D"], "9S", "KS KD", dealer=0)
    for text in ("3S", "3S", "3C", "3C", "3D", "3D", "5D"):
        game.play(f"play {text}", seat=1)
    over = game.last_round
    assert over.reason == "out" and over.winners == (1,)
    assert over.points == (162, 0)
    assert game.totals == [162, 0]
    assert game.outcome.winners == (1,) and game.outcome.totals == (162, 0)


def test_derange_each_other_player_adds_their_own_hand():
    game = scripted("derange", ["AC 8D", "5H 6H", "KS 2S", "10C QD"], "7H", "9S 9D", dealer=0)
    game.play("play 5H", seat=1)
    game.play("draw", seat=2)  # 9S: matches nothing on the 5H, the turn ends
    game.play("draw", seat=3)  # 9D
    game.play("play 8D", seat=0)
    game.play("suit H", seat=0)
    game.play("play 6H", seat=1)
    over = game.last_round
    assert over.winners == (1,)
    assert over.hands == (tuple(cards("AC")), (), tuple(cards("KS 2S 9S")), tuple(cards("10C QD 9D")))
    assert over.points == (15, 0, 20 + 30 + 9, 30 + 10 + 9)
    assert game.totals == [15, 0, 59, 49]


def test_derange_totals_add_up_over_the_rounds_and_the_lowest_total_wins():
    game = scripted("derange", ["AC 9D", "5H 6H", "KS 4S"], "7H", "9S QC", dealer=0, rounds=[2, 1, 1])
    game.play("play 5H", seat=1)
    game.play("draw", seat=2)  # 9S does not match the 5H
    game.play("draw", seat=0)  # QC
    game.play("play 6H", seat=1)
    assert game.last_round.points == (15 + 9 + 10, 0, 20 + 4 + 9)
    assert game.totals == [34, 0, 33] and not game.is_over
    started = events_of(game, RoundStarted)
    assert started[-1].round == 2 and started[-1].dealer == 1 and started[-1].hand_size == 1
    play_out(game)
    rounds = events_of(game, RoundOver)
    assert len(rounds) == 3
    totals = tuple(sum(r.points[s] for r in rounds) for s in range(3))
    assert game.outcome.totals == totals == rounds[-1].totals
    low = min(totals)
    assert game.outcome.winners == tuple(s for s in range(3) if totals[s] == low)
    assert game.outcome.rounds == 3


def test_derange_ties_for_the_lowest_total_share_the_win():
    # Nothing matches and nothing can be drawn: the round is blocked and everyone adds their own hand (D5).
    game = scripted("derange", ["5C 4D", "9D 6C", "5S 4C"], "7H", "", dealer=0)
    for seat in (1, 2, 0):
        assert game.legal_actions() == [PASS]
        game.play("pass", seat=seat)
    over = game.last_round
    assert over.reason == "blocked"
    assert over.points == (9, 15, 9)
    assert game.outcome.winners == (0, 2)
    assert game.outcome.totals == (9, 15, 9)


# ----- whole games: invariants over random legal play ----------------------------------------------------------


@pytest.mark.parametrize("seed", range(12))
def test_d42_d4_derange_random_games_never_end_a_round_on_a_three_or_ten_and_keep_every_card(seed):
    players, packs = 2 + seed % 7, 2 + seed % 3
    game = Game(DERANGE.replace(packs=packs, short_rounds=True), players, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
        assert pack_size(game) == 52 * packs
    log = game.log
    rounds = [i for i, e in enumerate(log) if isinstance(e, RoundOver)]
    assert len(rounds) == 7
    for i in rounds:
        assert log[i].reason == "out"
        j = max(k for k in range(i) if isinstance(log[k], CardPlayed))
        last = log[j]
        assert last.seat == log[i].winners[0]
        assert last.card.rank not in (3, 10)  # D42
        assert log[i].points[last.seat] == 0
        if last.card.rank == 2:  # the closing 2's chain is drawn before scoring
            after = [e for e in log[j + 1 : i] if not isinstance(e, Reshuffled)]
            assert len(after) == 1 and isinstance(after[0], CardsDrawn) and after[0].reason == "chain"
    totals = tuple(sum(log[i].points[s] for i in rounds) for s in range(players))
    assert game.outcome.totals == totals
    assert game.outcome.winners == tuple(s for s in range(players) if totals[s] == min(totals))


def test_a_finished_match_view_tells_of_its_last_round():
    """Once the match is over, a view's round and hand size are the last round's (rounds 2 then 1:
    'round 2 of 2, 1 card'), not those of a round after it."""
    from eights.bots import make_bot
    from eights.engine import view

    rules = DERANGE.with_options({"rounds": "2,1"})
    game = Game(rules, 3, seed=5)
    bots = [make_bot("easy", seat) for seat in range(3)]
    while not game.is_over:
        seat = game.to_act
        game.play(bots[seat].choose(view(game, seat)), seat=seat)
    for seat in (None, 0, 1, 2):
        seen = view(game, seat)
        assert (seen.round, seen.rounds, seen.hand_size) == (2, 2, 1)
