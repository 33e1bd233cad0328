"""docs/rules.md section 2, ``classic`` (Bicycle's rules), with D6, D7, D8, D35 and the
worked value of section 8. Every test builds an exact deal with ``scripted``."""

from __future__ import annotations

import pytest

from eights.cards import Card, Suit
from eights.engine import DRAW, PASS, Game, NameSuit, Play, errors
from eights.engine.events import (
    CardPlayed,
    CardsDrawn,
    DirectionReversed,
    GameOver,
    PlayerSkipped,
    RoundStarted,
    StarterBuried,
    SuitNamed,
)
from eights.rules import RulesError, load_preset
from tests.support.scripting import cards, events_of, scripted, snapshot

CLASSIC = load_preset("classic")


# ----- players, packs, deal -----------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 8))
def test_d6_classic_seats_two_to_seven_players_on_one_pack(players):
    game = Game(CLASSIC, players, seed=players)
    assert game.packs == 1
    assert sum(map(len, game.hands)) + len(game.stock) + len(game.discard) == 52


@pytest.mark.parametrize("players", [1, 8, 10])
def test_d6_classic_refuses_other_player_counts(players):
    with pytest.raises(RulesError) as info:
        Game(CLASSIC, players, seed=1)
    assert "players" in str(info.value) and "2-7" in str(info.value)


@pytest.mark.parametrize("players", range(2, 8))
def test_d7_classic_deals_five_each_two_players_included(players):
    game = Game(CLASSIC, players, seed=players)
    assert [len(hand) for hand in game.hands] == [5] * players
    assert events_of(game, RoundStarted)[0].hand_size == 5


def test_d7_option_deals_seven_each_to_two_players_only():
    rules = CLASSIC.with_options(["deal_two_players=7"])
    assert [len(h) for h in Game(rules, 2, seed=1).hands] == [7, 7]
    assert [len(h) for h in Game(rules, 3, seed=1).hands] == [5, 5, 5]


# ----- the starter -------------------------------------------------------------------


def test_classic_starter_eight_is_buried_and_the_next_card_turned():
    game = scripted("classic", ["2C 3C", "4D 5D", "6H 7H"], "8S 9H", "KS QS JS 10S", dealer=0)
    assert game.top == Card("9H")
    assert game.discard == cards("9H")
    assert Card("8S") in game.stock
    assert events_of(game, StarterBuried) == [StarterBuried(Card("8S"))]
    assert game.turn == 1


def test_classic_other_starters_have_no_effect():
    for starter in ("QH", "AH", "2H", "JH", "4H"):
        game = scripted("classic", ["2C 3C", "4D 5D", "6H 7H"], starter, "KS QS", dealer=0)
        assert game.turn == 1 and game.direction == 1
        assert game.top == Card(starter)
        assert game.hands[1] == cards("4D 5D")
        assert events_of(game, PlayerSkipped) == [] and events_of(game, DirectionReversed) == []


# ----- eights --------------------------------------------------------------------------


def test_classic_eight_is_wild_and_its_player_names_the_suit():
    game = scripted("classic", ["2C 3C 5C", "8D 4S 4H", "9S 3H KH"], "6C", "KS QS", dealer=0)
    game.play("play 8D")  # an 8 plays on anything
    assert game.phase_name == "name_suit" and game.turn == 1
    assert set(game.legal_actions()) == {NameSuit(s) for s in Suit}
    game.play("suit H")
    assert events_of(game, SuitNamed) == [SuitNamed(1, Suit.HEARTS)]
    assert game.turn == 2 and game.active_suit == Suit.HEARTS
    # The next player must play that suit or an 8: 3H or KH, not 9S.
    assert set(game.legal_actions()) == {Play("3H"), Play("KH"), DRAW}


def test_classic_only_eights_are_special():
    # Q, A, 2, J and 4 are action cards elsewhere; in classic they only match.
    game = scripted("classic", ["3C 4C 5C 9H", "QC AC 2C 7H", "JC 4H 6C 5H"], "9C", "KS QS JS", dealer=0)
    game.play("play QC")
    assert game.turn == 2
    game.play("play JC")
    assert game.turn == 0
    game.play("play 3C")
    game.play("play AC")
    assert game.direction == 1 and game.turn == 2
    game.play("play 6C")
    game.play("play 4C")
    game.play("play 2C")
    assert game.turn == 2
    assert events_of(game, CardsDrawn) == []
    assert game.hands[2] == cards("4H 5H")
    assert game.phase_name == "play" and game.last_round is None


# ----- D35: drawing and passing ----------------------------------------------------------


def test_d35_classic_a_player_may_draw_holding_a_playable_card_and_keep_drawing():
    game = scripted("classic", ["2S 3S", "5D 6S", "4S 4H"], "9D", "KC QH JD", dealer=0)
    assert set(game.legal_actions()) == {Play("5D"), DRAW}
    game.play("draw")
    assert game.turn == 1 and game.hands[1] == cards("5D 6S KC")
    game.play("draw")
    game.play("draw")
    assert game.turn == 1
    assert game.hands[1] == cards("5D 6S KC QH JD")
    assert [e.count for e in events_of(game, CardsDrawn)] == [1, 1, 1]


def test_d35_classic_after_any_draw_any_playable_card_may_be_played():
    game = scripted("classic", ["2S 3S", "5D 6S", "4S 4H"], "9D", "KC QH", dealer=0)
    game.play("draw")  # KC, not playable
    assert set(game.legal_actions()) == {Play("5D"), DRAW}
    game.play("play 5D")  # a card held before the draw
    assert game.turn == 2
    assert game.hands[1] == cards("6S KC")


def test_d35_classic_a_turn_does_not_end_with_a_draw_or_a_pass_while_the_stock_lasts():
    game = scripted("classic", ["2S 3S", "5C 6S", "4S 4H"], "9D", "KC QH", dealer=0)
    assert game.legal_actions() == [DRAW]
    before = snapshot(game)
    with pytest.raises(errors.CannotPass):
        game.play("pass")  # a draw is possible
    assert snapshot(game) == before
    game.play("draw")
    assert game.turn == 1
    with pytest.raises(errors.CannotPass):
        game.play("pass")
    game.play("draw")
    assert game.turn == 1
    assert game.stock == []
    assert game.legal_actions() == [PASS]


def test_d35_classic_pass_only_when_the_stock_is_exhausted_and_nothing_plays():
    game = scripted("classic", ["2S 3S", "5C 6S", "4S 4H"], "9D", "KC QD", dealer=0)
    game.play("draw")  # KC
    game.play("draw")  # QD, playable; stock now empty
    assert game.stock == []
    assert game.legal_actions() == [Play("QD")]
    before = snapshot(game)
    with pytest.raises(errors.CannotPass):
        game.play("pass")
    with pytest.raises(errors.CannotDraw):
        game.play("draw")
    assert snapshot(game) == before
    game.play("play QD")
    assert game.turn == 2
    assert game.legal_actions() == [PASS]  # 4S 4H on QD, nothing to draw
    game.play("pass")
    assert game.turn == 0


def test_classic_has_no_reshuffle():
    game = scripted("classic", ["2D 3C", "5D 6S", "7D 4H"], "9D", "", dealer=0)
    game.play("play 5D")
    game.play("play 7D")
    game.play("play 2D")
    assert len(game.discard) == 4 and game.stock == []
    assert game.legal_actions() == [PASS]
    before = snapshot(game)
    with pytest.raises(errors.CannotDraw):
        game.play("draw")
    assert snapshot(game) == before


def test_classic_unplayable_card_is_refused_and_changes_nothing():
    game = scripted("classic", ["2S 3S", "5D 6S", "4S 4H"], "9D", "KC QH", dealer=0)
    before = snapshot(game)
    with pytest.raises(errors.CardNotPlayable) as info:
        game.play("play 6S")
    assert "6S" in str(info.value)
    with pytest.raises(errors.CardNotInHand):
        game.play("play 9C")
    assert snapshot(game) == before


# ----- scoring and the game (D8) ---------------------------------------------------------


def _seat_0_keeps_8_k_10_a_5(**kwargs) -> Game:
    """Seat 1 goes out; seat 0 ends holding 8H KS 10S AH 5H (section 8: 76)."""
    game = scripted("classic", ["KS 10S", "5D 6D"], "9D", "8H AH 5H 7D", dealer=0, **kwargs)
    game.play("play 5D")
    for _ in range(4):
        game.play("draw")  # seat 0 draws at will, 5H included, then plays the 7D
    game.play("play 7D")
    assert sorted(game.hands[0]) == sorted(cards("8H KS 10S AH 5H"))
    game.play("play 6D")  # seat 1 goes out
    return game


def test_section_8_classic_hand_8_k_10_a_5_is_worth_76():
    assert [CLASSIC.card_value(Card(c)) for c in ("8H", "KS", "10S", "AH", "5H")] == [50, 10, 10, 1, 5]
    game = _seat_0_keeps_8_k_10_a_5()
    over = game.last_round
    assert over.reason == "out" and over.winners == (1,)
    assert over.points == (0, 76)
    assert game.outcome.totals == (0, 76)


def test_classic_score_values_8_50_faces_10_ace_1_pips_face():
    expected = {"8": 50, "K": 10, "Q": 10, "J": 10, "10": 10, "A": 1, "9": 9, **{str(r): r for r in range(2, 8)}}
    for rank, value in expected.items():
        for suit in "CDHS":
            assert CLASSIC.card_value(Card(rank + suit)) == value


def test_classic_winner_collects_from_each_other_player():
    game = scripted("classic", ["8C 3C", "5D 6D", "KH 4H"], "9D", "", dealer=0)
    game.play("play 5D")
    game.play("pass")  # seat 2: KH 4H on 5D, nothing to draw
    game.play("play 8C")
    game.play("suit D")
    game.play("play 6D")  # seat 1 goes out
    over = game.last_round
    assert over.winners == (1,)
    assert over.points == (0, 3 + 14, 0)
    assert over.hands == ((Card("3C"),), (), (Card("KH"), Card("4H")))


def test_d8_classic_is_one_round_unless_a_target_is_set():
    game = _seat_0_keeps_8_k_10_a_5()
    assert game.is_over
    assert game.outcome.rounds == 1
    assert game.outcome.winners == (1,)
    assert isinstance(game.log[-1], GameOver) and game.log[-1].winners == (1,)
    assert len(events_of(game, RoundStarted)) == 1


def test_d8_classic_with_a_target_plays_on_until_it_is_reached():
    game = _seat_0_keeps_8_k_10_a_5(options=["target=100"])
    assert not game.is_over
    assert game.totals == [0, 76]
    assert game.dealer == 1  # D1
    assert events_of(game, RoundStarted)[-1].round == 2
    rounds_seen = 1
    previous = game.last_round
    while not game.is_over:
        game.play(game.legal_actions()[0])
        if game.last_round is not previous:
            previous = game.last_round
            rounds_seen += 1
            if not game.is_over:
                assert max(previous.totals) < 100
    outcome = game.outcome
    assert max(outcome.totals) >= 100
    assert outcome.rounds == rounds_seen >= 2
    high = max(outcome.totals)
    assert outcome.winners == tuple(s for s, t in enumerate(outcome.totals) if t == high)


def test_d8_classic_target_reached_in_one_round_ends_the_game_highest_wins():
    game = _seat_0_keeps_8_k_10_a_5(options=["target=76"])
    assert game.is_over
    assert game.outcome.winners == (1,)
    assert game.outcome.totals == (0, 76)


def test_classic_log_records_the_round_in_order():
    game = _seat_0_keeps_8_k_10_a_5()
    played = [(e.seat, str(e.card)) for e in events_of(game, CardPlayed)]
    assert played == [(1, "5D"), (0, "7D"), (1, "6D")]
    drawn = [e.cards for e in events_of(game, CardsDrawn)]
    assert drawn == [(Card("8H"),), (Card("AH"),), (Card("5H"),), (Card("7D"),)]
