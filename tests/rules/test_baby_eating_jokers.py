"""docs/rules.md section 6, ``baby-eating`` (Baby-Eating Eights): the Suicide King and the jokers, with D29, D31
and D47: the Suicide King's deal from the next player (D29), a joker's draw of four, the Guarantee Joker combo
and its hold on the draw pile (D31), and the Suicide King ending the hold and arming the combo again (D47).

Every test deals exactly with ``deal`` (tests/support/baby_eating.py: dealer 0, so seat 1 plays first); where a
shuffle matters, ``rig`` (tests/support/scripting.py) stacks it, as a stacked deck would at a real table.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from eights.cards import Card, Suit
from eights.engine import DRAW, PASS, Game, errors, view
from eights.engine.actions import PLAY
from eights.engine.events import (
    Cancelled,
    CardPlayed,
    CardsDrawn,
    GuaranteeEnded,
    GuaranteeJoker,
    PlayerSkipped,
    Reshuffled,
    SuicideKing,
)
from eights.table.phrases import duty_lines
from tests.support.baby_eating import deal
from tests.support.scripting import act, cards, legal, of, pack_size, plays, rig, snapshot

# ----- the Suicide King (D29) -----------------------------------------------------------------------------------


SIX_EACH = [
    "4C 5C 6C 7C JC 9C",
    "KH 4D 5D 6D 7D JD",
    "4S 5S 6S 7S 9S JS",
]


def test_suicide_king_shuffles_every_card_and_deals_six_each():
    game = deal(SIX_EACH, "9H", "2C 2D 2H 2S 3C 3D")
    total = pack_size(game)
    everything = Counter(c for h in game.hands for c in h) + Counter(game.stock) + Counter(game.discard)
    events = act(game, 1, "play KH")
    (king,) = of(events, SuicideKing)
    assert king.seat == 1
    assert [len(h) for h in game.hands] == [6, 6, 6]
    assert game.discard == cards("KH")  # the K of hearts alone stays face up
    assert pack_size(game) == total
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
