"""docs/rules.md section 6, ``baby-eating`` (Baby-Eating Eights): its table of card effects, aces to kings, with
D22-D28 and D46: aces, 2 and 3 (a 3 takes the next card's effect away: D24, D25), 4, 5, 6 and 9, 7 and 8,
10, J and Q (the jack drop), and the kings that skip. The rest of section 6: forced play, the starter, four in
a row and a blocked round in test_baby_eating_play.py; the Suicide King and the jokers in
test_baby_eating_jokers.py; teams and the expanded deck in test_baby_eating_teams.py.

Every test deals exactly with ``deal`` (tests/support/baby_eating.py: dealer 0, so seat 1 plays first).
"""

from __future__ import annotations

from collections import Counter

import pytest

from eights.cards import Card, Suit
from eights.engine import DRAW, PASS, Game, errors
from eights.engine.actions import CHOOSE, PLAY, ChoosePlayer
from eights.engine.events import (
    Cancelled,
    CardPlayed,
    CardsDrawn,
    CardsSwapped,
    DirectionReversed,
    FourInARow,
    GuaranteeJoker,
    JackDropped,
    PlayerSkipped,
    SuitNamed,
)
from tests.support.baby_eating import deal
from tests.support.scripting import act, cards, legal, of, plays, scripted, snapshot

# ----- aces, 2, 3 -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("ace", ["AC", "AD", "AH"])
def test_ace_of_clubs_diamonds_or_hearts_makes_the_next_player_draw_two(ace):
    suit = ace[1]
    game = deal(["4S 5S", f"{ace} 6S", "7S 9S"], f"J{suit}", "2C 2D 2H 2S")
    events = act(game, 1, f"play {ace}")
    assert of(events, CardsDrawn) == [CardsDrawn(2, 2, "penalty", tuple(cards("2C 2D")))]
    assert game.hands[2] == cards("7S 9S 2C 2D")
    assert game.stock == cards("2S 2H")  # top last


def test_ace_of_spades_makes_the_next_player_draw_four():
    game = deal(["4C 5C", "AS 6C", "7C 9C"], "JS", "2C 2D 2H 2S 3C")
    events = act(game, 1, "play AS")
    assert of(events, CardsDrawn) == [CardsDrawn(2, 4, "penalty", tuple(cards("2C 2D 2H 2S")))]
    assert len(game.hands[2]) == 6


def test_d23_a_player_made_to_draw_still_plays_their_turn():
    game = deal(["4S 5S", "AH 6S", "9H 7S"], "JH", "2C 2D 2H")
    events = act(game, 1, "play AH")
    assert not of(events, PlayerSkipped)
    assert game.turn == 2 and game.phase_name == "play"
    assert PLAY[Card("9H")] in legal(game)
    act(game, 2, "play 9H")
    assert game.turn == 0


def test_two_skips_the_next_player():
    game = deal(["4S 5S", "2H 6S", "9H 7S"], "JH", "2C 2D")
    events = act(game, 1, "play 2H")
    assert of(events, PlayerSkipped) == [PlayerSkipped(2)]
    assert game.turn == 0
    assert not of(events, CardsDrawn)


# A 3 cancels the next card's effect. Seat 1 lays the 3, seat 2 the card, seat 0 holds jacks.
CANCEL_HANDS = ["JC JD 5C 5D", "{three} 6D 9D 4D", "{card} 6C 9C 4C"]
CANCEL_STOCK = "2C 2D 7C 7D 10C 10D"


def cancel_game(card: str) -> Game:
    suit = card[-1]
    hands = [h.format(three="3" + suit, card=card) for h in CANCEL_HANDS]
    game = deal(hands, "9" + suit, CANCEL_STOCK)
    act(game, 1, "play 3" + suit)
    assert game.cancel == 1
    return game


@pytest.mark.parametrize(
    "card",
    [
        "AH",  # no draw 2
        "AS",  # no draw 4
        "2H",  # no skip
        "4H",  # no reverse
        "5H",  # no choice of a drawer
        "7H",  # no swap
        "KS",  # no skipping two
    ],
)
def test_three_cancels_the_effect_of_the_next_card(card):
    game = cancel_game(card)
    hands = [list(h) for h in game.hands]
    events = act(game, 2, "play " + card)
    assert of(events, Cancelled) == [Cancelled(Card(card))]
    for kind in (CardsDrawn, PlayerSkipped, DirectionReversed, CardsSwapped, JackDropped):
        assert not of(events, kind)
    assert game.turn == 0 and game.to_act == 0 and game.phase_name == "play"
    assert game.direction == 1
    assert game.hands[0] == hands[0] and game.hands[1] == hands[1]
    assert game.cancel == 0


def test_three_cancels_a_queen_no_jacks_are_dropped():
    game = cancel_game("QH")
    events = act(game, 2, "play QH")
    assert of(events, Cancelled) == [Cancelled(Card("QH"))]
    assert not of(events, JackDropped)
    assert game.phase_name == "play" and game.turn == 0
    assert cards("JC JD") == game.hands[0][:2]
    assert game.top == Card("QH")


def test_three_cancels_a_ten_no_draw_and_no_extra_card():
    game = cancel_game("10H")
    events = act(game, 2, "play 10H")
    assert of(events, Cancelled) == [Cancelled(Card("10H"))]
    assert not of(events, CardsDrawn)
    assert game.phase_name == "play" and game.turn == 0  # seat 2 plays no extra card
    assert len(game.hands[0]) == 4


def test_three_cancels_a_joker_its_suit_is_named_but_nobody_draws():
    game = deal(["4S 5S", "3H 6S", "JK 7S"], "9H", "2C 2D 2H 3C 3D")
    act(game, 1, "play 3H")
    events = act(game, 2, "play JK")
    assert of(events, Cancelled) == [Cancelled(Card("JK"))]
    assert game.phase_name == "name_suit" and game.to_act == 2
    events = act(game, 2, "suit S")
    assert of(events, SuitNamed) == [SuitNamed(2, Suit.SPADES)]
    assert not of(events, CardsDrawn)
    assert game.turn == 0 and game.active_suit == Suit.SPADES
    assert len(game.hands[0]) == 2


def test_three_a_wild_on_a_three_uses_the_three_up():
    game = deal(["AD 5S", "3H 6S", "8C 7S"], "9H", "2C 2D 2H 3C")
    act(game, 1, "play 3H")
    act(game, 2, "play 8C", "suit D")
    assert game.cancel == 0
    events = act(game, 0, "play AD")  # the card after the wild acts normally
    assert not of(events, Cancelled)
    assert of(events, CardsDrawn) == [CardsDrawn(1, 2, "penalty", tuple(cards("2C 2D")))]


@pytest.mark.parametrize(("laid", "same", "other"), [("6H", "6C", "9C"), ("9H", "9C", "6C")])
def test_three_a_six_or_nine_on_a_three_matches_only_its_own_rank(laid, same, other):
    # seat 0 holds the same rank and the other of the pair, both off-suit: only the same rank plays
    game = deal([f"{same} {other}", "3H 4D", f"{laid} 7S"], "JH", "2C 2D")
    act(game, 1, "play 3H")
    act(game, 2, "play " + laid)
    assert game.turn == 0
    assert legal(game) == plays(same)
    with pytest.raises(errors.CardNotPlayable):
        game.play("play " + other, seat=0)
    # without the 3 the pair is one number again
    game = deal(["7S 7D", f"{laid} 4D", f"{same} {other}"], "JH", "2C 2D")
    act(game, 1, "play " + laid)
    assert legal(game) == plays(f"{same} {other}")


def test_d24_three_on_a_three_is_itself_cancelled():
    game = deal(["AC 6C 4S", "3H 4D 5D", "3C 6S 9S"], "9H", "2C 2D 2H")
    act(game, 1, "play 3H")
    events = act(game, 2, "play 3C")
    assert of(events, Cancelled) == [Cancelled(Card("3C"))]
    assert game.cancel == 0  # the cancelled 3 cancels nothing
    events = act(game, 0, "play AC")
    assert not of(events, Cancelled)
    assert of(events, CardsDrawn) == [CardsDrawn(1, 2, "penalty", tuple(cards("2C 2D")))]


def test_d25_four_in_a_row_is_not_cancelled_by_a_three():
    game = deal(["3S 4C 5C", "3H 4D 5D", "3C 6S 7S", "3D 6C 7C"], "9H", "2C 2D")
    act(game, 1, "play 3H")
    act(game, 2, "play 3C")  # cancelled
    act(game, 3, "play 3D")
    events = act(game, 0, "play 3S")  # cancelled, and the fourth 3 in a row
    assert of(events, Cancelled) == [Cancelled(Card("3S"))]
    assert of(events, FourInARow) == [FourInARow(0, 3)]
    assert game.phase_name == "bury" and game.to_act == 0


def test_d25_the_guarantee_joker_combo_is_not_cancelled_by_a_three():
    game = deal(["GJ 4S", "3H 4C", "JK 4D"], "9H", "2C 2D 2H 2S 3C 3D")
    act(game, 1, "play 3H")
    events = act(game, 2, "play JK", "suit S")  # cancelled: seat 0 draws nothing
    assert not of(events, CardsDrawn)
    events = act(game, 0, "play GJ")
    assert of(events, GuaranteeJoker) == [GuaranteeJoker(2, 6)]
    assert game.hoarder == 2


# ----- 4, 5, 6 and 9, 7, 8 --------------------------------------------------------------------------------


def test_four_reverses_the_order_of_play():
    game = deal(["4S 9S", "4H 6S", "7S 7D"], "9H", "2C")
    events = act(game, 1, "play 4H")
    assert of(events, DirectionReversed) == [DirectionReversed(-1)]
    assert game.direction == -1 and game.turn == 0
    act(game, 0, "play 4S")  # reverses back
    assert game.direction == 1 and game.turn == 1


@pytest.mark.parametrize("card", ["4H", "2H"])
def test_d26_two_players_a_reverse_or_a_skip_gives_the_same_player_another_turn(card):
    game = deal(["7S 7D", f"{card} 6S"], "9H", "2C")
    act(game, 1, "play " + card)
    assert game.turn == 1 and game.phase_name == "play"


def test_five_its_player_chooses_any_player_who_draws_one():
    game = deal(["4S 9S", "5H 6S", "7S 7D"], "9H", "2C 2D")
    act(game, 1, "play 5H")
    assert game.phase_name == "choose_draw" and game.to_act == 1
    assert legal(game) == {CHOOSE[0], CHOOSE[1], CHOOSE[2]}
    events = act(game, 1, "choose 0")
    assert of(events, CardsDrawn) == [CardsDrawn(0, 1, "chosen", (Card("2C"),))]
    assert game.turn == 2  # the chosen player is not skipped, and seat 2 plays next


def test_five_its_player_may_choose_themselves():
    game = deal(["4S 9S", "5H 6S", "7S 7D"], "9H", "2C 2D")
    act(game, 1, "play 5H")
    events = game.play(ChoosePlayer(1), seat=1)
    assert of(events, CardsDrawn) == [CardsDrawn(1, 1, "chosen", (Card("2C"),))]
    assert game.hands[1] == cards("6S 2C")
    assert game.turn == 2


def test_six_and_nine_are_the_same_number():
    game = deal(["4S 5S", "9C 4D", "6S 4C"], "6H", "2C")
    assert PLAY[Card("9C")] in legal(game)
    act(game, 1, "play 9C")
    assert PLAY[Card("6S")] in legal(game)
    act(game, 2, "play 6S")
    assert game.top == Card("6S")


def test_d46_seven_swaps_one_random_card_each():
    game = deal(["4S 9S 5S", "7H 6S 6C", "7S 7D 7C"], "9H", "2C")
    act(game, 1, "play 7H")
    assert game.phase_name == "choose_swap" and game.to_act == 1
    assert legal(game) == {CHOOSE[0], CHOOSE[2]}
    before = [list(h) for h in game.hands]
    events = act(game, 1, "choose 2")
    (swap,) = of(events, CardsSwapped)
    assert (swap.seat, swap.target) == (1, 2)
    assert swap.gave in before[1] and swap.got in before[2]
    assert Counter(game.hands[1]) == Counter(before[1]) - Counter([swap.gave]) + Counter([swap.got])
    assert Counter(game.hands[2]) == Counter(before[2]) - Counter([swap.got]) + Counter([swap.gave])
    assert [len(h) for h in game.hands] == [len(h) for h in before]  # hand sizes unchanged
    assert game.hands[0] == before[0]
    assert game.turn == 2


def test_d46_both_cards_are_picked_first_so_single_cards_trade_places():
    # dealer 1: seat 2 plays first, then seat 0, then seat 1, who lays the 7 with one card left
    game = scripted("baby-eating", ["JC 4D", "7C 5D", "JH 6S"], "9H", "2C 2D", dealer=1)
    act(game, 2, "play JH")
    act(game, 0, "play JC")
    act(game, 1, "play 7C", "choose 2")
    assert game.hands[1] == cards("6S") and game.hands[2] == cards("5D")


def test_seven_choosing_oneself_is_refused_and_changes_nothing():
    game = deal(["4S 9S", "7H 6S", "7S 7D"], "9H", "2C")
    act(game, 1, "play 7H")
    before = snapshot(game)
    with pytest.raises(errors.MustChoosePlayer):
        game.play(ChoosePlayer(1), seat=1)
    assert snapshot(game) == before


def test_eight_is_wild_and_names_the_suit():
    game = deal(["4S 5S 6S", "8S 6C 5C", "9D 9S 4H"], "9H", "2C")
    assert PLAY[Card("8S")] in legal(game)  # an 8 plays on anything
    act(game, 1, "play 8S")
    assert game.phase_name == "name_suit" and game.to_act == 1
    events = act(game, 1, "suit D")
    assert of(events, SuitNamed) == [SuitNamed(1, Suit.DIAMONDS)]
    assert game.turn == 2 and game.active_suit == Suit.DIAMONDS
    assert legal(game) == plays("9D")  # D3: only the named suit (or a wild); the 8's spade and rank do not count


# ----- 10, J, Q -------------------------------------------------------------------------------------------


def test_ten_next_player_draws_one_and_its_player_plays_one_more_card():
    game = deal(["4S 9S 5S", "10H JH 4C", "7S 7D 7C"], "9H", "2C 2D")
    events = act(game, 1, "play 10H")
    assert of(events, CardsDrawn) == [CardsDrawn(2, 1, "penalty", (Card("2C"),))]
    assert game.phase_name == "extra_card" and game.to_act == 1 and game.turn == 1
    assert legal(game) == plays("JH")  # forced: a playable card must be played
    act(game, 1, "play JH")
    assert game.turn == 2 and game.phase_name == "play"


def test_d27_ten_with_no_playable_card_the_turn_ends_without_a_draw():
    game = deal(["4S 9S 5S", "10H 4C 5C", "7S 7D 7C"], "9H", "2C 2D")
    act(game, 1, "play 10H")
    assert legal(game) == {PASS}
    before = snapshot(game)
    with pytest.raises(errors.CannotDraw):
        game.play(DRAW, seat=1)
    assert snapshot(game) == before
    events = act(game, 1, "pass")
    assert not of(events, CardsDrawn)
    assert game.hands[1] == cards("4C 5C")
    assert game.turn == 2


def test_ten_the_extra_card_may_hold_back_an_eight():
    game = deal(["4S 9S 5S", "10H 8C 4C", "7S 7D 7C"], "9H", "2C 2D")
    act(game, 1, "play 10H")
    assert legal(game) == {PLAY[Card("8C")], PASS}
    act(game, 1, "pass")
    assert game.turn == 2 and game.hands[1] == cards("8C 4C")


def test_tens_chain_each_makes_the_next_player_draw_one_more():
    game = deal(["4S 9S 5S 6S", "10H 10C JC 4D", "7S 7D 7H 5D"], "9H", "2C 2D 2H")
    act(game, 1, "play 10H", "play 10C")
    assert game.phase_name == "extra_card" and game.to_act == 1
    events = act(game, 1, "play JC")
    assert game.hands[2] == cards("7S 7D 7H 5D 2C 2D")
    assert game.turn == 2
    assert not of(events, CardsDrawn)


def test_d22_effects_hit_the_next_player_of_that_moment():
    # the 10's draw goes to seat 2; the extra card, a 4, then turns play towards seat 0
    game = deal(["4S 9S 5S", "10H 4H 5C", "7S 7D 7C"], "9H", "2C 2D")
    events = act(game, 1, "play 10H", "play 4H")
    assert of(events, CardsDrawn) == [CardsDrawn(2, 1, "penalty", (Card("2C"),))]
    assert game.direction == -1 and game.turn == 0


def test_jack_has_no_effect():
    game = deal(["4S 9S", "JH 6S", "7S 7D"], "9H", "2C")
    events = act(game, 1, "play JH")
    assert [type(e) for e in events] == [CardPlayed]
    assert game.turn == 2 and game.direction == 1


def queen_game() -> Game:
    # seat 1 plays the queen; seat 2 holds two jacks, seats 3 and 0 none, seat 1 one
    return deal(["4C 5C 6H", "QH JS 4D", "JC JD 6S", "6D 7C 7D"], "9H", "2C 2D")


def test_queen_every_player_drops_their_jacks_in_turn_order_ending_with_the_queens_player():
    game = queen_game()
    act(game, 1, "play QH")
    assert game.phase_name == "drop_jacks"
    assert game.to_act == 2 and game.turn == 1
    assert legal(game) == plays("JC JD")
    act(game, 2, "play JD")
    assert game.to_act == 2  # all their jacks, one at a time, in the order they choose
    act(game, 2, "play JC")
    assert game.to_act == 1  # seats 3 and 0 hold no jack
    act(game, 1, "play JS")
    drops = [(e.seat, str(e.card)) for e in game.log if isinstance(e, JackDropped)]
    assert drops == [(2, "JD"), (2, "JC"), (1, "JS")]
    # the last jack dropped is what the player after the queen's player must match
    assert game.phase_name == "play" and game.turn == 2
    assert game.top == Card("JS") and game.active_suit == Suit.SPADES
    assert legal(game) == plays("6S")


def test_queen_an_action_by_the_wrong_seat_during_a_jack_drop_is_refused():
    game = queen_game()
    act(game, 1, "play QH")
    before = snapshot(game)
    with pytest.raises(errors.NotYourTurn):
        game.play(PLAY[Card("JS")], seat=1)
    with pytest.raises(errors.NotYourTurn):
        game.play("play 6D", seat=3)
    assert snapshot(game) == before
    with pytest.raises(errors.MustDropJacks):
        game.play("play 6S", seat=2)  # the seat to act, but not a jack
    assert snapshot(game) == before


def test_queen_with_no_jacks_out_the_next_player_matches_the_queen():
    game = deal(["4C 5C", "QH 4D", "QS 6S"], "9H", "2C")
    events = act(game, 1, "play QH")
    assert not of(events, JackDropped)
    assert game.phase_name == "play" and game.turn == 2
    assert legal(game) == plays("QS")


def test_queen_a_player_emptied_by_the_jack_drop_is_out_and_wins():
    game = deal(["4C 5C", "QH 4D", "JC JD"], "9H", "2C")
    act(game, 1, "play QH")
    act(game, 2, "play JC", "play JD")
    assert game.is_over
    assert game.last_round.reason == "out" and game.last_round.winners == (2,)
    assert game.outcome.winners == (2,)


# ----- kings ----------------------------------------------------------------------------------------------


def test_king_skips_the_next_two_players():
    game = deal(["4C 5C", "KS 4D", "6S 7S", "6D 7D"], "9S", "2C")
    events = act(game, 1, "play KS")
    assert of(events, PlayerSkipped) == [PlayerSkipped(2), PlayerSkipped(3)]
    assert game.turn == 0


@pytest.mark.parametrize("king", ["KS", "KC", "KD"])
def test_d28_king_with_three_players_its_player_goes_again(king):
    suit = king[1]
    game = deal(["4H 5H", f"{king} 4S", "6H 7H"], "9" + suit, "2C" if suit != "C" else "2D")
    events = act(game, 1, "play " + king)
    assert of(events, PlayerSkipped) == [PlayerSkipped(2), PlayerSkipped(0)]
    assert game.turn == 1 and game.phase_name == "play"


def test_d28_king_with_two_players_its_player_goes_again():
    game = deal(["4H 5H", "KS 4S"], "9S", "2C")
    act(game, 1, "play KS")
    assert game.turn == 1 and game.phase_name == "play"
