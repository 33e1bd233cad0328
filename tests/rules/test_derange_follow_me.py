"""docs/rules.md section 5, ``derange`` (Derange Order of Eight): the follow-me 3s and 10s, with D4 and D17-D20,
D41 and D42: more of the rank and the follow-me card (D17-D20), drawing to follow (D41), and a round that cannot
end on a 3 or 10 (D42; going out on an 8: D4).

Derange plays two packs by default, so a scripted hand may hold the same card twice.
"""

from __future__ import annotations

from unittest.mock import ANY

import pytest

from eights.cards import Card, Suit
from eights.engine import DRAW, PASS, Play, errors
from eights.engine.events import (
    CardsDrawn,
    FollowMe,
    Passed,
    SuitNamed,
)
from tests.support.scripting import cards, events_of, plays, scripted, since, snapshot

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
