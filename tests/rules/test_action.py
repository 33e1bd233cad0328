"""docs/rules.md section 3, ``action`` (the action-card rules), with D9, D10, D11, D36, D37, the
stacking and score-keeping options and the worked value of section 8."""

from __future__ import annotations

import pytest

from eights.cards import Card, Suit
from eights.engine import DRAW, PASS, Game, Play, errors
from eights.engine.events import (
    CardPlayed,
    CardsDrawn,
    DirectionReversed,
    PlayerSkipped,
    Reshuffled,
    RoundOver,
    StarterBuried,
    SuitNamed,
)
from eights.rules import RulesError, load_preset, option_names
from tests.support.scripting import cards, events_of, pack_size, scripted, snapshot

ACTION = load_preset("action")


# ----- packs, players, deal (D36) ---------------------------------------------------


@pytest.mark.parametrize(
    ("players", "packs", "hand"),
    [(2, 1, 7), (3, 1, 5), (4, 1, 5), (5, 2, 7), (10, 2, 7), (11, 3, 7), (16, 3, 7)],
)
def test_d36_action_uses_the_fewest_packs_that_seat_the_players(players, packs, hand):
    game = Game(ACTION, players, seed=players)
    assert game.packs == packs
    assert pack_size(game) == 52 * packs
    assert all(len(h) == hand for h in game.hands)


def test_d36_action_two_packs_seat_two_to_ten():
    rules = ACTION.with_options(["packs=2"])
    for players in (2, 3, 10):
        game = Game(rules, players, seed=1)
        assert game.packs == 2 and pack_size(game) == 104
        assert all(len(h) == 7 for h in game.hands)  # 7 each from two packs
    with pytest.raises(RulesError, match="2-10"):
        Game(rules, 11, seed=1)


def test_d36_action_three_packs_seat_eight_to_sixteen_and_one_pack_two_to_four():
    with pytest.raises(RulesError, match="8-16"):
        Game(ACTION.with_options(["packs=3"]), 7, seed=1)
    assert Game(ACTION.with_options(["packs=3"]), 8, seed=1).packs == 3
    with pytest.raises(RulesError, match="2-4"):
        Game(ACTION.with_options(["packs=1"]), 5, seed=1)
    with pytest.raises(RulesError, match="2-16"):
        Game(ACTION, 17, seed=1)


def test_action_plays_without_jokers():
    for players in (2, 5, 12):
        game = Game(ACTION, players, seed=3)
        everything = [c for h in game.hands for c in h] + game.stock + game.discard
        assert not any(c.is_joker for c in everything)


def test_d37_no_rank_order_and_no_time_limit():
    # The first dealer comes from the seed, not from cutting for rank order, and no
    # option ends a game on a clock.
    assert {Game(ACTION, 3, seed=s).dealer for s in range(30)} == {0, 1, 2}
    assert not [name for name in option_names() if "time" in name or "rank_order" in name or "clock" in name]


# ----- card effects --------------------------------------------------------------------


def test_action_queen_skips_the_next_player():
    game = scripted("action", ["3C 4C", "QH 5S", "9H 6H"], "7H", "KS KD", dealer=0)
    game.play("play QH")
    assert events_of(game, PlayerSkipped) == [PlayerSkipped(2)]
    assert game.turn == 0
    assert game.hands[2] == cards("9H 6H")


def test_action_ace_reverses():
    game = scripted("action", ["3C 4C", "AH 5S", "9H 6H"], "7H", "KS KD", dealer=0)
    game.play("play AH")
    assert events_of(game, DirectionReversed) == [DirectionReversed(-1)]
    assert game.direction == -1
    assert game.turn == 0
    game.play("draw")  # seat 0 cannot play on AH: draws KS, no match
    assert game.turn == 2


def test_action_two_makes_the_next_player_draw_two_and_lose_the_turn():
    game = scripted("action", ["3C 4C", "2H 5S", "9H 6H"], "7H", "KS KD QC", dealer=0)
    game.play("play 2H")
    drawn = events_of(game, CardsDrawn)
    assert drawn == [CardsDrawn(2, 2, "penalty", (Card("KS"), Card("KD")))]
    assert game.hands[2] == cards("9H 6H KS KD")
    assert game.turn == 0
    assert game.chain == 0


def test_action_two_does_not_stack_a_two_in_hand_does_not_answer_it():
    game = scripted("action", ["3C 4C", "2H 5S", "2D 6D"], "7H", "KS KD QC", dealer=0)
    game.play("play 2H")
    assert game.hands[2] == cards("2D 6D KS KD")  # drew at once, could not answer with 2D
    assert game.turn == 0
    assert game.legal_actions() == [DRAW]  # seat 0: 3C 4C on 2H


def test_action_eight_is_wild_and_names_a_suit():
    game = scripted("action", ["3C 4C", "8S 5S", "9H 6D"], "7H", "KS KD", dealer=0)
    game.play("play 8S")
    assert game.phase_name == "name_suit" and game.turn == 1
    game.play("suit D")
    assert events_of(game, SuitNamed) == [SuitNamed(1, Suit.DIAMONDS)]
    assert game.turn == 2
    assert set(game.legal_actions()) == {Play("6D")}


# ----- D9: draw one, only when you cannot play -------------------------------------------


def test_d9_action_drawing_while_holding_a_playable_card_is_refused():
    game = scripted("action", ["3C 4C", "5H 6S", "9H 6H"], "7H", "KS KD", dealer=0)
    assert DRAW not in game.legal_actions()
    before = snapshot(game)
    with pytest.raises(errors.MustPlay) as info:
        game.play("draw")
    assert "you may draw only when you cannot play" in str(info.value)
    assert snapshot(game) == before


def test_d9_action_passing_when_a_draw_is_possible_is_refused():
    game = scripted("action", ["3C 4C", "5S 6S", "9H 6H"], "7H", "KS KD", dealer=0)
    assert game.legal_actions() == [DRAW]
    before = snapshot(game)
    with pytest.raises(errors.CannotPass):
        game.play("pass")
    assert snapshot(game) == before


def test_d9_action_a_drawn_playable_card_may_be_played_at_once():
    game = scripted("action", ["3C 4C", "5S 6S", "9H 6H"], "7H", "KH KD", dealer=0)
    game.play("draw")
    assert game.turn == 1 and game.phase_name == "play_drawn"
    assert game.legal_actions() == [Play("KH"), PASS]
    game.play("play KH")
    assert game.turn == 2 and game.top == Card("KH")
    assert game.hands[1] == cards("5S 6S")


def test_d9_action_a_drawn_playable_card_may_be_kept():
    game = scripted("action", ["3C 4C", "5S 6S", "9H 6H"], "7H", "KH KD", dealer=0)
    game.play("draw")
    game.play("pass")
    assert game.turn == 2 and game.top == Card("7H")
    assert game.hands[1] == cards("5S 6S KH")


def test_d9_action_after_a_draw_only_the_drawn_card_may_be_played():
    game = scripted("action", ["3C 4C", "5S 6S", "9H 6H"], "7H", "KH KD", dealer=0)
    game.play("draw")
    before = snapshot(game)
    with pytest.raises(errors.MustPlayDrawn):
        game.play("play 5S")
    with pytest.raises(errors.MustPlayDrawn):
        game.play("draw")
    assert snapshot(game) == before


def test_d9_action_a_drawn_unplayable_card_ends_the_turn():
    game = scripted("action", ["3C 4C", "5S 6S", "9H 6H"], "7H", "KD KH", dealer=0)
    game.play("draw")
    assert game.turn == 2 and game.phase_name == "play"
    assert game.hands[1] == cards("5S 6S KD")


def test_action_reshuffles_when_the_draw_pile_runs_out():
    game = scripted("action", ["3C 4C", "7S 6S", "9H 6H"], "7H", "", dealer=0)
    game.play("play 7S")
    game.play("draw")  # seat 2: the discard pile under 7S (the 7H) becomes the stock
    assert events_of(game, Reshuffled) == [Reshuffled(1)]
    assert game.hands[2] == cards("9H 6H 7H")
    assert game.discard == cards("7S")


# ----- D10: the starter --------------------------------------------------------------


def test_d10_action_starter_eight_is_buried():
    game = scripted("action", ["3C 4C", "5S 6S", "9H 6H"], "8C 7H", "KS KD QC JC", dealer=0)
    assert game.top == Card("7H")
    assert events_of(game, StarterBuried) == [StarterBuried(Card("8C"))]
    assert game.turn == 1 and game.phase_name == "play"


def test_d10_starter_queen_skips_the_dealers_left():
    game = scripted("action", ["3C 4C", "5S 6S", "9H 6H"], "QH", "KS KD", dealer=0)
    assert events_of(game, PlayerSkipped) == [PlayerSkipped(1)]
    assert game.turn == 2


def test_d10_starter_ace_sends_play_to_the_dealers_right_first():
    game = scripted("action", ["3C 4C", "5S 6S", "9H 6H"], "AH", "KS KD", dealer=0)
    assert game.direction == -1
    assert game.turn == 2
    game = scripted("action", ["3C 4C", "5S 6S", "9H 6H", "2C 2D"], "AH", "KS KD", dealer=1)
    assert game.turn == 0


def test_d10_starter_two_makes_the_first_player_draw_two_and_lose_the_turn():
    game = scripted("action", ["3C 4C", "5S 6S", "9H 6H"], "2H", "KS KD QC", dealer=0)
    assert events_of(game, CardsDrawn) == [CardsDrawn(1, 2, "penalty", (Card("KS"), Card("KD")))]
    assert game.hands[1] == cards("5S 6S KS KD")
    assert game.turn == 2


@pytest.mark.parametrize("starter", ["QH", "AH", "2H"])
def test_d10_two_players_a_starter_skip_or_reverse_lets_the_dealer_play_first(starter):
    game = scripted("action", ["3C 4C", "5S 6S"], starter, "KS KD QC", dealer=0)
    assert game.turn == 0
    game = scripted("action", ["3C 4C", "5S 6S"], starter, "KS KD QC", dealer=1)
    assert game.turn == 1


def test_d10_starter_eight_buried_then_an_action_card_acts():
    game = scripted("action", ["3C 4C", "5S 6S", "9H 6H"], "8C QH", "KS KD QC JC", dealer=0)
    assert game.top == Card("QH")
    assert game.turn == 2


# ----- D11: the stacking option ----------------------------------------------------------


def test_d11_stacking_is_off_by_default():
    game = scripted("action", ["3C 4C 5C", "QS QH 6S", "9H 6H 7C"], "7H", "KS KD", dealer=0)
    assert all(not p.stack for p in game.legal_actions() if isinstance(p, Play))
    before = snapshot(game)
    with pytest.raises(errors.BadStack):
        game.play("play QS QH")
    assert snapshot(game) == before


def test_d11_stacking_lays_several_cards_of_one_rank_the_last_on_top():
    game = scripted(
        "action", ["3C 4C 5C 9C", "5S 5D 5H 6S", "9H 6H 7C 10C"], "7H", "KS KD", dealer=0, options=["stacking=true"]
    )
    game.play("play 5S 5D 5H")  # only the top card (5H) has to match the 7H
    assert game.discard[0] == Card("7H") and sorted(game.discard[1:3]) == sorted(cards("5S 5D"))
    assert len(game.discard) == 4
    assert game.top == Card("5H")
    assert game.hands[1] == cards("6S")
    assert events_of(game, CardPlayed) == [CardPlayed(1, Card("5H"), (Card("5D"), Card("5S")))]
    played = events_of(game, CardPlayed)[0]
    assert len(played.stack) + 1 == 3 and "stacks 3 cards" in played.words()
    assert game.turn == 2


def test_d11_stacked_top_card_must_be_playable_on_the_previous_top():
    game = scripted("action", ["3C 4C 5C", "5S 5H 6S", "9H 6H 7C"], "7H", "KS KD", dealer=0, options=["stacking=true"])
    assert Play("5H", ("5S",)) in game.legal_actions()
    assert Play("5S", ("5H",)) not in game.legal_actions()
    before = snapshot(game)
    with pytest.raises(errors.CardNotPlayable):
        game.play("play 5H 5S")  # 5S would lie on top, and 5S does not match the 7H
    assert snapshot(game) == before


def test_d11_stacked_cards_must_share_a_rank():
    game = scripted("action", ["3C 4C 5C", "5S 6H 6S", "9H 6D 7C"], "7H", "KS KD", dealer=0, options=["stacking=true"])
    before = snapshot(game)
    with pytest.raises(errors.BadStack):
        game.play("play 5S 6H")
    assert snapshot(game) == before


def test_d11_two_stacked_queens_skip_two_players():
    hands = ["3C 4C 5C", "QS QH 6S", "9H 6H 7C", "9D 6D 7D"]
    game = scripted("action", hands, "7H", "KS KD", dealer=0, options=["stacking=true"])
    game.play("play QS QH")
    assert events_of(game, PlayerSkipped) == [PlayerSkipped(2), PlayerSkipped(3)]
    assert game.turn == 0


def test_d11_two_stacked_twos_make_the_next_player_draw_four():
    game = scripted(
        "action", ["3C 4C 5C", "2S 2H 6S", "9H 6H 7C"], "7H", "KS KD QC JC 10C", dealer=0, options=["stacking=true"]
    )
    game.play("play 2S 2H")
    assert events_of(game, CardsDrawn) == [CardsDrawn(2, 4, "penalty", tuple(cards("KS KD QC JC")))]
    assert game.hands[2] == cards("9H 6H 7C KS KD QC JC")
    assert game.turn == 0


def test_d11_two_stacked_aces_reverse_twice():
    game = scripted("action", ["3C 4C 5C", "AS AH 6S", "9H 6H 7C"], "7H", "KS KD", dealer=0, options=["stacking=true"])
    game.play("play AS AH")
    assert events_of(game, DirectionReversed) == [DirectionReversed(-1), DirectionReversed(1)]
    assert game.direction == 1
    assert game.turn == 2


def test_d11_stacked_eights_name_one_suit():
    game = scripted("action", ["3C 4C 5C", "8S 8D 6S", "9H 6H 7C"], "7H", "KS KD", dealer=0, options=["stacking=true"])
    game.play("play 8S 8D")
    assert game.phase_name == "name_suit" and game.turn == 1
    game.play("suit C")
    assert game.turn == 2 and game.active_suit == Suit.CLUBS
    assert set(game.legal_actions()) == {Play("7C")}


# ----- score keeping ---------------------------------------------------------------------


def _seat_1_goes_out_seat_0_keeps(hand0: str, **kwargs) -> Game:
    """Two players; seat 1 goes out in one turn by skips and reverses (D26)."""
    game = scripted("action", [hand0, "QS QC QD AD AC AS"], "9S", "KH KD", dealer=0, **kwargs)
    for card in ("QS", "QC", "QD", "AD", "AC", "AS"):
        assert game.turn == 1
        game.play(f"play {card}")
    return game


def test_section_8_action_hand_2_q_a_8_9_10_is_worth_119_with_score_keeping():
    values = [ACTION.card_value(Card(c)) for c in ("2H", "QH", "AH", "8H", "9H", "10H")]
    assert values == [20, 20, 20, 40, 9, 10]
    game = _seat_1_goes_out_seat_0_keeps("2H QH AH 8H 9H 10H", options=["score_keeping=true"])
    over = game.last_round
    assert over.reason == "out" and over.winners == (1,)
    assert over.points == (119, 0)
    assert game.totals == [119, 0]
    assert not game.is_over  # the game goes on to 500


def test_action_score_values_by_the_score_keeping_table():
    expected = {"2": 20, "Q": 20, "A": 20, "8": 40, "10": 10, "J": 10, "K": 10, "9": 9}
    expected.update({str(r): r for r in range(3, 8)})
    for rank, value in expected.items():
        for suit in "CDHS":
            assert ACTION.card_value(Card(rank + suit)) == value


def test_action_score_keeping_every_other_player_adds_their_own_hand():
    game = scripted("action", ["3C 4C", "5H 6H", "KD JD"], "7H", "KS QS", dealer=0, options=["score_keeping=true"])
    game.play("play 5H")
    game.play("draw")  # seat 2: KS
    game.play("draw")  # seat 0: QS
    game.play("play 6H")
    over = game.last_round
    assert over.winners == (1,)
    assert over.points == (3 + 4 + 20, 0, 10 + 10 + 10)
    assert game.totals == [27, 0, 30]


def test_action_without_score_keeping_the_game_is_one_hand_first_out_wins():
    game = _seat_1_goes_out_seat_0_keeps("2H QH AH 8H 9H 10H")
    assert game.is_over
    assert game.outcome.winners == (1,)
    assert game.outcome.rounds == 1
    assert game.outcome.totals == (0, 0)
    assert game.last_round.points == (0, 0)


def test_action_score_keeping_after_a_set_number_of_hands_lowest_total_wins():
    game = _seat_1_goes_out_seat_0_keeps("2H QH AH 8H 9H 10H", options=["score_keeping=true", "hands=1"])
    assert game.is_over
    assert game.outcome.rounds == 1
    assert game.outcome.winners == (1,)
    assert game.outcome.totals == (119, 0)


def test_action_score_keeping_ties_share_the_win():
    # A blocked hand: everyone adds their own hand; 19 and 19 tie for lowest.
    game = scripted(
        "action", ["QH 3H", "KC 9C", "10D 9D"], "7S", "", dealer=0, options=["score_keeping=true", "hands=1"]
    )
    for _ in range(3):
        game.play("pass")
    assert game.last_round.reason == "blocked"
    assert game.outcome.totals == (23, 19, 19)
    assert game.outcome.winners == (1, 2)


def test_action_score_keeping_plays_to_500_and_lowest_total_wins():
    game = _seat_1_goes_out_seat_0_keeps("2H QH AH 8H 9H 10H", options=["score_keeping=true"])
    assert game.dealer == 1  # D1
    seen = 1
    previous = game.last_round
    while not game.is_over:
        game.play(game.legal_actions()[0])
        if game.last_round is not previous:
            previous = game.last_round
            seen += 1
            if not game.is_over:
                assert max(previous.totals) < 500
    outcome = game.outcome
    assert max(outcome.totals) >= 500
    assert outcome.rounds == seen >= 2
    low = min(outcome.totals)
    assert outcome.winners == tuple(s for s, t in enumerate(outcome.totals) if t == low)
    assert outcome.totals == events_of(game, RoundOver)[-1].totals


def test_action_score_keeping_target_reached_ends_the_game():
    game = _seat_1_goes_out_seat_0_keeps("2H QH AH 8H 9H 10H", options=["score_keeping=true", "target=119"])
    assert game.is_over
    assert game.outcome.winners == (1,)


# ----- refused actions -----------------------------------------------------------------


def test_action_card_not_in_hand_and_unplayable_card_are_refused_and_change_nothing():
    game = scripted("action", ["3C 4C", "5H 6S", "9H 6H"], "7H", "KS KD", dealer=0)
    before = snapshot(game)
    with pytest.raises(errors.CardNotInHand):
        game.play("play QH")
    with pytest.raises(errors.CardNotPlayable):
        game.play("play 6S")
    with pytest.raises(errors.MustNameSuit):
        game.play("suit H")
    with pytest.raises(errors.NotYourTurn):
        game.play("play 9H", seat=2)
    assert snapshot(game) == before
