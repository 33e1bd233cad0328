"""docs/rules.md section 6, ``baby-eating`` (Baby-Eating Eights): every card effect, forced play,
four in a row, the Guarantee Joker, the Suicide King, teams and the expanded deck, with D5, D21-D32 and
D43-D47.

Every test builds an exact deal with ``scripted`` (dealer 0, so seat 1 plays first). Where a shuffle
matters (the Suicide King's deal, a reshuffle), ``rig`` replaces the game's random source by one whose
shuffle puts chosen cards on top, so the test reads like a stacked deck at a real table.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from unittest.mock import ANY

import pytest

from eights.cards import Card, Suit
from eights.engine import DRAW, PASS, Game, Play, errors, view
from eights.engine.actions import BURY, CHOOSE, PLAY, Bury, ChoosePlayer
from eights.engine.events import (
    Cancelled,
    CardBuried,
    CardPlayed,
    CardsDrawn,
    CardsSwapped,
    DirectionReversed,
    Event,
    FourInARow,
    GuaranteeEnded,
    GuaranteeJoker,
    JackDropped,
    Passed,
    PlayerSkipped,
    Reshuffled,
    RoundStarted,
    StarterBuried,
    StarterTurned,
    SuicideKing,
    SuitNamed,
)
from eights.rules import RulesError, load_preset
from eights.table.phrases import duty_lines
from tests.support.scripting import cards, scripted, snapshot

BABY = load_preset("baby-eating")


def deal(hands: list[str], starter: str, stock: str = "", *, options: tuple[str, ...] = (), **fields) -> Game:
    """A baby-eating game with exactly these hands (seat 0 first); dealer 0, so seat 1 plays first."""
    return scripted("baby-eating", hands, starter, stock, dealer=0, options=options, **fields)


def act(game: Game, seat: int, *actions: str) -> list[Event]:
    """Checked actions by ``seat`` (which must be the seat to act); the events they caused."""
    events: list[Event] = []
    for action in actions:
        events += game.play(action, seat=seat)
    return events


def of(events: list[Event], kind: type) -> list:
    return [e for e in events if isinstance(e, kind)]


def legal(game: Game) -> set:
    return set(game.legal_actions())


def plays(text: str) -> set[Play]:
    return {PLAY[c] for c in cards(text)}


def total_cards(game: Game) -> int:
    return sum(map(len, game.hands)) + len(game.stock) + len(game.discard)


class StackedShuffle(random.Random):
    """A random source whose shuffle leaves ``first`` on top (popped first, in that order), the rest
    beneath from the lowest card id up. With several packs, each card listed is one copy."""

    def __init__(self, first: str) -> None:
        super().__init__(0)
        self.first = cards(first)

    def shuffle(self, x: list) -> None:  # type: ignore[override]
        rest = Counter(x)
        top = []
        for card in self.first:
            if rest[card]:
                rest[card] -= 1
                top.append(card)
        x[:] = sorted(rest.elements(), reverse=True) + top[::-1]


def rig(game: Game, first: str) -> None:
    """From now on every shuffle of ``game`` puts ``first`` on top of the pile it makes."""
    game.rng = StackedShuffle(first)


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


SIX_EACH = [
    "4C 5C 6C 7C JC 9C",
    "KH 4D 5D 6D 7D JD",
    "4S 5S 6S 7S 9S JS",
]


def test_suicide_king_shuffles_every_card_and_deals_six_each():
    game = deal(SIX_EACH, "9H", "2C 2D 2H 2S 3C 3D")
    total = total_cards(game)
    everything = Counter(c for h in game.hands for c in h) + Counter(game.stock) + Counter(game.discard)
    events = act(game, 1, "play KH")
    (king,) = of(events, SuicideKing)
    assert king.seat == 1
    assert [len(h) for h in game.hands] == [6, 6, 6]
    assert game.discard == cards("KH")  # the K of hearts alone stays face up
    assert total_cards(game) == total
    assert Counter(c for h in game.hands for c in h) + Counter(game.stock) + Counter(game.discard) == everything
    assert king.hands == tuple(tuple(h) for h in game.hands)
    # the turn order is unchanged: the next player must match the K of hearts
    assert game.turn == 2 and game.direction == 1
    assert game.playable(Card("5H")) and game.playable(Card("KS")) and not game.playable(Card("5S"))


def test_d29_suicide_king_deals_from_the_next_player():
    game = deal(SIX_EACH, "9H", "2C 2D 2H 2S 3C 3D")
    rig(game, "2C 2D 2H 2S 3C 3D")
    act(game, 1, "play KH")
    # one at a time, starting with seat 2 (the next player), then seat 0, then seat 1
    assert game.hands[2][:2] == cards("2C 2S")
    assert game.hands[0][:2] == cards("2D 3C")
    assert game.hands[1][:2] == cards("2H 3D")


def test_d29_suicide_king_deals_from_the_next_player_in_the_current_direction():
    hands = ["KH 5C 6C 7C JC 9C", "4H 4D 5D 6D 7D JD", "4S 5S 6S 7S 9S JS"]
    game = deal(hands, "9H", "2C 2D 2H 2S 3C 3D")
    act(game, 1, "play 4H")  # now counter-clockwise: seat 0 plays next
    rig(game, "2C 2D 2H")
    act(game, 0, "play KH")
    assert game.hands[2][0] == Card("2C")  # seat 0's next player is seat 2 now
    assert game.hands[1][0] == Card("2D")
    assert game.hands[0][0] == Card("2H")
    assert game.turn == 2


def test_suicide_king_is_not_part_of_the_kings_skip():
    game = deal(SIX_EACH, "9H", "2C 2D 2H 2S 3C 3D")
    events = act(game, 1, "play KH")
    assert not of(events, PlayerSkipped)
    assert game.turn == 2


# ----- jokers ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("joker", ["JK", "GJ"])
def test_joker_is_wild_names_a_suit_and_the_next_player_draws_four(joker):
    game = deal(["4S 5S", f"{joker} 6S", "7S 7D"], "9H", "2C 2D 2H 2S 3C")
    assert PLAY[Card(joker)] in legal(game)
    act(game, 1, "play " + joker)
    assert game.phase_name == "name_suit" and game.to_act == 1
    events = act(game, 1, "suit D")
    assert of(events, CardsDrawn) == [CardsDrawn(2, 4, "penalty", tuple(cards("2C 2D 2H 2S")))]
    assert game.turn == 2 and game.active_suit == Suit.DIAMONDS  # D23: seat 2 still plays
    assert legal(game) == plays("7D 2D")


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


# ----- the Guarantee Joker (D31) ---------------------------------------------------------------------------


def combo_game() -> Game:
    """Seat 1 plays the other joker, seat 2 the Guarantee Joker on it; stock of 10."""
    return deal(
        ["4S 5S 6S 5H", "JK 4C 5C 6C", "GJ 4D 5D 6D"],
        "9H",
        "2C 2D 2H 2S 10C 10D 10S 7C 7D AH",
    )


def test_d31_guarantee_joker_combo_hoards_the_draw_pile():
    game = combo_game()
    act(game, 1, "play JK", "suit H")
    assert game.hands[2][-4:] == cards("2C 2D 2H 2S")  # the other joker's own draw 4
    stock = list(game.stock)
    hoard_before = list(game.hands[1])
    mark = len(game.log)
    act(game, 2, "play GJ")
    assert of(game.log[mark:], GuaranteeJoker) == [GuaranteeJoker(1, 6)]
    assert game.stock == []
    assert Counter(game.hands[1]) == Counter(hoard_before) + Counter(stock)  # the whole draw pile, as it stood
    assert game.hoarder == 1 and not game.armed
    # the Guarantee Joker's own draw 4 comes from the hoarder's hand, at random
    hoard = list(game.hands[1])
    events = act(game, 2, "suit S")
    (drawn,) = of(events, CardsDrawn)
    assert (drawn.seat, drawn.count, drawn.reason) == (0, 4, "penalty")
    assert not Counter(drawn.cards) - Counter(hoard)
    assert Counter(game.hands[1]) == Counter(hoard) - Counter(drawn.cards)
    assert game.stock == [] and game.hoarder == 1
    assert game.turn == 0


def test_d31_the_combo_is_told_when_it_can_happen_now_or_cannot_for_a_while():
    """Not at every turn: with a JK on top (a GJ on it now makes the combo), and once used (until a K♥)."""

    def told(game: Game, **seen: object) -> list[str]:
        lines = duty_lines(replace(view(game, 0), **seen), ("A", "B", "C"))
        return [line for line in lines if "Guarantee Joker" in line]

    game = combo_game()
    assert told(game) == []
    act(game, 1, "play JK", "suit H")
    assert told(game) == [
        "Guarantee Joker combo: a GJ laid on this JK by another player gives the JK's player the whole draw pile "
        "(once a game, until a K♥)."
    ]
    act(game, 2, "play GJ", "suit S")
    assert [line.partition(":")[0] for line in told(game)] == ["Guarantee Joker hold"]  # the hold's own line
    # once the hold is over, until a K♥
    assert told(game, guarantee_hoarder=None) == ["Guarantee Joker combo used: it can happen again only after a K♥."]


def test_d31_under_the_hold_forced_draws_come_from_the_hoarder():
    game = combo_game()
    act(game, 1, "play JK", "suit H")
    act(game, 2, "play GJ", "suit S")
    act(game, 0, "play 5S")
    hoard = list(game.hands[1])
    events = act(game, 0, "choose 2")
    (drawn,) = of(events, CardsDrawn)
    assert (drawn.seat, drawn.count, drawn.reason) == (2, 1, "chosen")
    assert drawn.cards[0] in hoard and drawn.cards[0] in game.hands[2]
    assert Counter(game.hands[1]) == Counter(hoard) - Counter(drawn.cards)
    assert game.stock == []


def test_d31_the_hoarder_drawing_from_themselves_draws_nothing():
    game = deal(["GJ JC 4D 5D", "JK JH 9C 4S"], "6H", "2D 2S 3D 3S 7C 7D 10C 10D")
    act(game, 1, "play JK", "suit H")  # seat 0 draws 4 from the draw pile
    act(game, 0, "play GJ")
    assert game.hoarder == 1
    hand = list(game.hands[1])
    events = act(game, 0, "suit S")  # with two players the Guarantee Joker's victim is the hoarder
    assert of(events, CardsDrawn) == [CardsDrawn(1, 0, "penalty", ())]
    assert game.hands[1] == hand


def test_d31_under_the_hold_a_player_who_cannot_match_is_skipped():
    game = deal(["GJ JC 4D 5D", "JK JH 9C 4H"], "6H", "2D 2S 3D 3S 7C 7D 10C 10D")
    act(game, 1, "play JK", "suit H")
    act(game, 0, "play GJ", "suit S")
    # seat 1 holds no spade and no wild: skipped instead of drawing
    assert game.turn == 1 and legal(game) == {PASS}
    before = snapshot(game)
    with pytest.raises(errors.CannotDraw):
        game.play(DRAW, seat=1)
    assert snapshot(game) == before
    act(game, 1, "pass")
    assert game.turn == 0 and game.hoarder == 1


def test_d31_the_hold_ends_once_the_piles_hold_three_cards_per_player():
    game = deal(["GJ JC 4D 5D", "JK JH 9C 4S"], "6H", "2D 2S 3D 3S 7C 7D 10C 10D")
    act(game, 1, "play JK", "suit H")
    act(game, 0, "play GJ", "suit H")
    assert len(game.discard) + len(game.stock) == 3
    act(game, 1, "play JH")
    act(game, 0, "play JC")
    assert game.hoarder == 1  # 5 cards: not yet 3 per player
    events = act(game, 1, "play 9C")
    assert of(events, GuaranteeEnded) == [GuaranteeEnded()]
    assert game.hoarder == -1 and not game.armed


def test_d31_the_hold_ends_at_once_when_the_piles_already_hold_enough():
    game = deal(["JC 9D GJ 4S", "JH 9C JK 5S"], "6H", "2C 2D 2S 3C 3D 3S")
    act(game, 1, "play JH")
    act(game, 0, "play JC")
    act(game, 1, "play 9C")
    act(game, 0, "play 9D")
    act(game, 1, "play JK", "suit S")
    mark = len(game.log)
    act(game, 0, "play GJ")
    events = game.log[mark:]
    # D44: the draw pile as it stands (2 cards), no reshuffle first
    assert [type(e) for e in events] == [CardPlayed, GuaranteeJoker, GuaranteeEnded]
    assert events[1] == GuaranteeJoker(1, 2)
    assert game.hoarder == -1 and not game.armed
    events = act(game, 0, "suit S")  # the draw 4 comes from the (reshuffled) draw pile again
    drawn = of(events, CardsDrawn)
    assert [(d.seat, d.count) for d in drawn] == [(1, 4)]
    assert of(events, Reshuffled)


def test_d31_the_combo_happens_once_per_game():
    game = deal(["GJ JC 4D 5D", "JK JH 9C 4S"], "6H", "2D 2S 3D 3S 7C 7D 10C 10D")
    act(game, 1, "play JK", "suit H")
    act(game, 0, "play GJ", "suit H")
    act(game, 1, "play JH")
    act(game, 0, "play JC")
    act(game, 1, "play 9C")
    assert game.hoarder == -1
    # seat 0 cannot match the 9 of clubs; the reshuffle brings both jokers back into play
    rig(game, "JK GJ")
    act(game, 0, "draw")
    assert game.hands[0][-1] == Card("JK")
    act(game, 0, "play JK", "suit D")
    assert Card("GJ") in game.hands[1]
    mark = len(game.log)
    act(game, 1, "play GJ", "suit D")
    events = game.log[mark:]
    assert not of(events, GuaranteeJoker)
    assert game.hoarder == -1
    (drawn,) = of(events, CardsDrawn)  # only a joker's draw 4, from the draw pile
    assert drawn.seat == 0 and drawn.reason == "penalty" and drawn.count > 0


def test_d31_no_combo_when_the_other_joker_is_laid_on_the_guarantee_joker():
    game = deal(["4S 5S", "GJ 4C", "JK 4D"], "9H", "2C 2D 2H 2S 3C 3D 3H 3S 7C")
    act(game, 1, "play GJ", "suit H")
    act(game, 2, "play JK", "suit H")
    assert not of(game.log, GuaranteeJoker)
    assert game.hoarder == -1 and game.armed
    assert len(game.hands[0]) == 6 and len(game.stock) == 1  # an ordinary joker's draw 4


def test_d31_no_combo_when_a_card_lies_between_the_jokers():
    game = deal(["GJ 5S", "JK 4C", "9H 4D"], "6H", "2C 2D 2H 2S 3C 3D 3H 3S 7C")
    act(game, 1, "play JK", "suit H")
    act(game, 2, "play 9H")
    act(game, 0, "play GJ", "suit H")
    assert not of(game.log, GuaranteeJoker)
    assert game.hoarder == -1 and game.armed


def test_d31_a_hoarder_whose_hand_is_drawn_empty_is_out_and_wins():
    # open case: the hold takes every forced draw from the hoarder, down to the last card
    game = deal(["4S 5S", "JK 4C", "GJ 4D"], "9H", "2C 2D 2H 2S 3C")
    act(game, 1, "play JK", "suit H")
    act(game, 2, "play GJ")
    assert game.hands[1] == cards("4C 3C")
    act(game, 2, "suit S")
    assert game.is_over
    assert game.last_round.winners == (1,)


# ----- the Suicide King and the Guarantee Joker (D47) -------------------------------------------------------


def hold_then_king(third: str) -> Game:
    """4 players: the combo (seat 1 hoards), seat 3 plays ``third``, seat 0 holds the K of hearts."""
    game = deal(
        [
            "KH 4S 2C 2D 10C 10D",
            "JK 4C 5C 6C 7C JC",
            "GJ 4D 5D 6D 7D JD",
            f"{third} 5S 6S 7S 2S 3S",
        ],
        "9H",
        "9C 9D 9S 6H 5H 7H QC QD",
    )
    act(game, 1, "play JK", "suit H")
    act(game, 2, "play GJ", "suit H")
    assert game.hoarder == 1 and not game.armed
    act(game, 3, "play " + third)
    return game


def test_d47_suicide_king_ends_the_hold_and_rearms():
    game = hold_then_king("JH")
    rig(game, "JK GJ")  # the new deal starts with seat 1: the other joker, then seat 2: the Guarantee Joker
    events = act(game, 0, "play KH")
    assert of(events, SuicideKing) and of(events, GuaranteeEnded) == [GuaranteeEnded()]
    assert game.hoarder == -1 and game.armed
    assert game.hands[1][0] == Card("JK") and game.hands[2][0] == Card("GJ")
    act(game, 1, "play JK", "suit C")
    stock = len(game.stock)
    events = act(game, 2, "play GJ")
    assert of(events, GuaranteeJoker) == [GuaranteeJoker(1, stock)]  # the combo again
    assert game.hoarder == 1


def test_three_cancels_a_suicide_king_it_neither_deals_nor_rearms():
    game = hold_then_king("3H")
    hands = [list(h) for h in game.hands]
    events = act(game, 0, "play KH")
    assert of(events, Cancelled) == [Cancelled(Card("KH"))]
    assert not of(events, SuicideKing) and not of(events, GuaranteeEnded)
    assert game.hands[1:] == hands[1:] and game.hands[0] == hands[0][1:]
    assert not game.armed
    assert game.hoarder == 1  # open case: the cancelled king does not end the hold either
    assert game.turn == 1


# ----- teams (D32) ----------------------------------------------------------------------------------------

TEAMS = ("teams=true",)


def test_d32_team_king_passes_the_turn_to_the_ally():
    game = deal(["4C 5C", "KS 4D", "6D 7C", "7D 6C"], "9S", "2C", options=TEAMS)
    events = act(game, 1, "play KS")
    assert game.turn == 3  # seat 1's ally sits opposite
    assert not of(events, CardsDrawn)


def test_three_cancels_a_team_king_it_does_not_pass_to_the_ally():
    game = deal(["4C 5C", "3S 4D", "KS 7C", "7D 6C"], "9S", "2C", options=TEAMS)
    act(game, 1, "play 3S")
    events = act(game, 2, "play KS")
    assert of(events, Cancelled) == [Cancelled(Card("KS"))]
    assert game.turn == 3  # the plain next player, not seat 2's ally (seat 0)


def test_d32_team_seven_may_target_the_ally():
    game = deal(["4C 5C", "7H 4D", "6D 7C", "7D 6C"], "9H", "2C", options=TEAMS)
    act(game, 1, "play 7H")
    assert legal(game) == {CHOOSE[0], CHOOSE[2], CHOOSE[3]}
    events = act(game, 1, "choose 3")
    (swap,) = of(events, CardsSwapped)
    assert (swap.seat, swap.target) == (1, 3)
    assert game.hands[1] == [swap.got] and swap.gave in game.hands[3]


def test_d32_team_five_may_choose_anyone():
    game = deal(["4C 5C", "5H 4D", "6D 7C", "7D 6C"], "9H", "2C", options=TEAMS)
    act(game, 1, "play 5H")
    assert legal(game) == {CHOOSE[s] for s in range(4)}


def test_d32_if_either_ally_goes_out_the_team_wins():
    game = deal(["4C", "9C", "6D", "7D"], "9H", "2C", options=TEAMS)
    act(game, 1, "play 9C")
    assert game.is_over
    assert game.last_round.winners == (1, 3)
    assert game.outcome.winners == (1, 3)


def test_d45_no_team_signals_an_ally_sees_no_more_of_a_hand_than_an_opponent():
    game = deal(["4C 5C", "7H 4D", "6D 7C", "7D 6C"], "9H", "2C", options=TEAMS)
    act(game, 1, "play 7H", "choose 3")  # a swap with the ally: only the two of them see the cards
    ally, opponent = view(game, 1), view(game, 0)
    assert ally.hand == tuple(game.hands[1])
    for seen in (view(game, 3), view(game, 2)):
        assert seen.hand_counts == ally.hand_counts
    mine = next(e for e in view(game, 3).history if isinstance(e, RoundStarted)).hands
    assert mine[1] is None and mine[3] is not None
    (swap,) = [e for e in opponent.history if isinstance(e, CardsSwapped)]
    assert swap.gave is None and swap.got is None


@pytest.mark.parametrize("players", [2, 3, 5, 7])
def test_d32_teams_need_an_even_number_of_four_or_more(players):
    rules = BABY.with_options(["teams=true"])
    with pytest.raises(RulesError, match="teams"):
        Game(rules, players, seed=1)


@pytest.mark.parametrize("players", [4, 6, 8])
def test_d32_teams_seat_allies_opposite(players):
    game = Game(BABY.with_options(["teams=true"]), players, seed=1)
    assert [game.ally(s) for s in range(players)] == [(s + players // 2) % players for s in range(players)]


# ----- expanded deck (D43) ---------------------------------------------------------------------------------


def test_d43_the_expanded_deck_is_104_cards():
    pack = Counter(BABY.with_options(["expanded_deck=true"]).pack(4))
    assert sum(pack.values()) == 104
    once = {Card("KH"), Card("AS"), Card("JK"), Card("GJ")}
    assert {Card(c) for c, k in pack.items() if k == 1} == once
    assert all(k == 2 for c, k in pack.items() if Card(c) not in once)
    assert len(pack) == 54


def test_d43_one_pack_is_54_cards_with_both_jokers():
    pack = Counter(BABY.pack(5))
    assert sum(pack.values()) == 54 and len(pack) == 54


@pytest.mark.parametrize(("players", "size"), [(2, 54), (5, 54), (6, 104), (8, 104), (16, 104)])
def test_d43_the_expanded_deck_is_on_by_default_from_six_players(players, size):
    game = Game(BABY, players, seed=3)
    assert total_cards(game) == size
    assert [len(h) for h in game.hands] == [6] * players


@pytest.mark.parametrize("players", [1, 17])
def test_d43_player_limits_with_the_expanded_deck(players):
    with pytest.raises(RulesError):
        Game(BABY, players, seed=1)


def test_d43_one_pack_seats_two_to_eight():
    rules = BABY.with_options(["expanded_deck=false"])
    for players in (2, 8):
        assert total_cards(Game(rules, players, seed=1)) == 54
    with pytest.raises(RulesError):
        Game(rules, 9, seed=1)


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
