"""docs/rules.md section 1 (terms) and the decisions it uses: D1-D5, D26, D33, D34.
Every test builds an exact deal with ``scripted`` (or an exact pack order)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eights.cards import ALL_CARDS, Card, Suit
from eights.engine import DRAW, PASS, Game, IllegalAction, NameSuit, Play, errors
from eights.engine.events import (
    CardPlayed,
    CardsDrawn,
    DirectionReversed,
    GameOver,
    Passed,
    PlayerSkipped,
    Reshuffled,
    RoundOver,
    RoundStarted,
    StarterBuried,
    StarterTurned,
    SuitNamed,
)
from eights.rules import load_preset
from tests.support.scripting import cards, events_of, scripted, snapshot


def first_legal(game: Game) -> None:
    game.play(game.legal_actions()[0])


# ----- seats, direction, next player -----------------------------------------


def test_seats_play_clockwise_in_increasing_seat_numbers():
    game = scripted("classic", ["5H 6S", "5C 6C", "5D 6D"], "9C", "KS QS JS", dealer=0)
    assert game.direction == 1
    assert game.turn == 1  # the dealer's left
    game.play("play 5C")
    assert game.turn == 2
    game.play("play 5D")
    assert game.turn == 0
    game.play("play 5H")
    assert game.turn == 1


def test_first_player_is_the_dealers_left():
    for dealer in range(4):
        game = scripted("classic", ["2C", "3C", "4C", "5C"], "9D", "KS", dealer=dealer)
        assert game.turn == (dealer + 1) % 4
        assert game.dealer == dealer


def test_first_dealer_is_drawn_at_random_from_the_seed():
    rules = load_preset("classic")
    dealers = {seed: Game(rules, 4, seed=seed).dealer for seed in range(40)}
    assert all(Game(rules, 4, seed=seed).dealer == dealers[seed] for seed in range(40))
    assert set(dealers.values()) == {0, 1, 2, 3}
    game = Game(rules, 4, seed=5)
    assert events_of(game, RoundStarted)[0].dealer == game.dealer == dealers[5]


def test_same_seed_gives_the_same_deal():
    rules = load_preset("race")
    a, b = Game(rules, 3, seed=11), Game(rules, 3, seed=11)
    assert a.hands == b.hands and a.stock == b.stock and a.discard == b.discard


# ----- D2: the deal ---------------------------------------------------------------


def test_d2_deal_one_at_a_time_from_the_dealers_left_then_the_starter():
    pack = cards("AC 2C 3C 4C 5C 6C AD 2D 3D 4D 5D 6D AH 2H 3H 9S KS QS")
    game = Game(load_preset("classic"), 3, seed=1, deck=pack, dealer=1)
    # Seat 2 sits to the dealer's left and gets the first card, then seat 0, then the dealer.
    assert game.hands[2] == cards("AC 4C AD 4D AH")
    assert game.hands[0] == cards("2C 5C 2D 5D 2H")
    assert game.hands[1] == cards("3C 6C 3D 6D 3H")
    assert game.discard == cards("9S")
    assert game.stock[::-1] == cards("KS QS")  # top of the stock is the next card of the pack
    assert game.turn == 2
    started = events_of(game, RoundStarted)[0]
    assert started.dealer == 1 and started.hand_size == 5
    assert [tuple(h) for h in game.hands] == [tuple(h) for h in started.hands]
    assert events_of(game, StarterTurned) == [StarterTurned(Card("9S"))]


def test_d2_a_pack_order_and_dealer_always_give_the_same_deal():
    pack = list(ALL_CARDS[:52])
    random.Random(5).shuffle(pack)
    games = [Game(load_preset("classic"), 4, seed=seed, deck=pack, dealer=2) for seed in (1, 2, 99)]
    assert all(g.hands == games[0].hands for g in games)
    assert all(g.stock == games[0].stock and g.discard == games[0].discard for g in games)
    assert games[0].turn == 3


@given(st.permutations(list(ALL_CARDS[:52])), st.integers(2, 7), st.integers(0, 6))
def test_d2_and_d34_any_pack_order_deals_and_buries_as_the_rules_say(pack, players, dealer):
    dealer %= players
    game = Game(load_preset("classic"), players, seed=0, deck=pack, dealer=dealer)
    rest = list(pack)
    for i in range(5):
        for k in range(1, players + 1):
            assert game.hands[(dealer + k) % players][i] == rest[i * players + k - 1]
    rest = rest[5 * players :]  # top first
    # D34, modelled top first: an 8 goes back in at floor(len / 2) from the top, repeatedly.
    while rest[0].rank == 8:
        eight = rest.pop(0)
        rest.insert(len(rest) // 2, eight)
    assert game.discard == [rest[0]]
    assert game.stock[::-1] == rest[1:]
    assert game.turn == (dealer + 1) % players


# ----- top card, active suit, matching (D3) ----------------------------------------


def test_top_card_and_active_suit_follow_the_last_card_played():
    game = scripted("classic", ["9H KH", "5D 5H", "7C QC"], "9D", "KS QS", dealer=0)
    assert game.top == Card("9D") and game.active_suit == Suit.DIAMONDS
    game.play("play 5D")
    assert game.top == Card("5D") and game.discard == cards("9D 5D")
    assert game.active_suit == Suit.DIAMONDS


def test_a_card_plays_on_rank_or_suit_or_as_a_wild():
    game = scripted("classic", ["2C 3C 4C 5C", "9D 5S 8C KH", "6H 7H 9H 10H"], "5D", "KS QS", dealer=0)
    legal = game.legal_actions()
    assert Play("9D") in legal  # suit
    assert Play("5S") in legal  # rank
    assert Play("8C") in legal  # wild
    assert Play("KH") not in legal


def test_d3_after_a_wild_only_the_named_suit_or_a_wild_plays():
    game = scripted("classic", ["2C 3C 4C 5C", "8H 6S 6C 6D", "5H 8S 3S 9H"], "6H", "KS QS", dealer=0)
    game.play("play 8H")
    assert game.phase_name == "name_suit" and game.turn == 1
    game.play("suit S")
    assert game.turn == 2
    assert game.active_suit == Suit.SPADES
    assert set(game.legal_actions()) == {Play("8S"), Play("3S"), DRAW}
    before = snapshot(game)
    with pytest.raises(errors.CardNotPlayable):
        game.play("play 5H")  # the 8's own suit no longer counts
    assert snapshot(game) == before


def test_d3_after_a_wild_its_rank_does_not_count():
    # Only the 8 of hearts is wild here: the 8 of clubs is a plain card and does not
    # match the 8H on top once a suit has been named.
    rules = load_preset("classic").replace(effects={"8H": ["wild"]}, starter_bury=["8H"])
    game = scripted(rules, ["2C 3C", "8H 6S", "8C 5S"], "6H", "KS QS", dealer=0)
    game.play("play 8H")
    game.play("suit S")
    assert game.turn == 2
    assert Play("8C") not in game.legal_actions()
    assert Play("5S") in game.legal_actions()
    with pytest.raises(errors.CardNotPlayable):
        game.play("play 8C")


# ----- draw pile and discard pile -----------------------------------------------------


def test_an_empty_draw_pile_is_refilled_from_the_discard_pile_but_its_top_card():
    game = scripted("action", ["9C 9D", "5H 5S", "JC JD"], "7H", "", dealer=0)
    game.play("play 5H")
    game.play("draw")  # seat 2: nothing to draw from: the discard pile 7H is shuffled in
    assert events_of(game, Reshuffled) == [Reshuffled(1)]
    assert game.hands[2] == cards("JC JD 7H")
    assert game.discard == cards("5H")
    assert game.stock == []


def test_a_draw_yields_fewer_cards_when_the_piles_run_dry():
    game = scripted("action", ["9C 9D", "2H 5S", "JC JD"], "7H", "KC", dealer=0)
    game.play("play 2H")  # seat 2 must draw 2; the stock holds 1 and the discard 7H under 2H
    drawn = events_of(game, CardsDrawn)
    assert len(drawn) == 1 and drawn[0].seat == 2 and drawn[0].reason == "penalty"
    assert drawn[0].count == 2
    assert sorted(game.hands[2]) == sorted(cards("JC JD KC 7H"))
    assert game.discard == cards("2H") and game.stock == []
    game2 = scripted("action", ["9C 9D", "2H 5S", "JC JD"], "7H", "", dealer=0)
    game2.play("play 2H")
    drawn = events_of(game2, CardsDrawn)
    assert drawn[0].count == 1  # only the 7H could be reshuffled in
    assert sorted(game2.hands[2]) == sorted(cards("JC JD 7H"))


def test_nothing_to_draw_and_no_reshuffle_means_no_draw():
    game = scripted("classic", ["9C 9D", "5H 5S", "JC JD"], "7H", "", dealer=0)
    game.play("play 5H")
    assert game.legal_actions() == [PASS]
    before = snapshot(game)
    with pytest.raises(errors.CannotDraw):
        game.play("draw")
    assert snapshot(game) == before


# ----- D4: the round ends the moment a hand empties ------------------------------------


def test_d4_the_round_ends_the_moment_a_hand_empties():
    game = scripted("classic", ["2S 3C", "5D 6S", "5S 4H"], "9D", "KS QS", dealer=0)
    game.play("play 5D")
    game.play("play 5S")
    game.play("play 2S")
    game.play("play 6S")  # seat 1 goes out
    over = game.last_round
    assert isinstance(over, RoundOver)
    assert over.reason == "out" and over.winners == (1,)
    assert game.log[-3:] == [CardPlayed(1, Card("6S")), over, GameOver((1,), game.outcome.totals)]
    assert game.is_over and game.legal_actions() == []


def test_d4_a_last_wild_names_no_suit():
    game = scripted("classic", ["2S 3C", "5D 8D", "5S 4H"], "9D", "KS QS", dealer=0)
    game.play("play 5D")
    game.play("play 5S")
    game.play("play 2S")
    game.play("play 8D")  # seat 1 goes out on a wild
    assert game.last_round.winners == (1,)
    assert events_of(game, SuitNamed) == []
    assert game.phase_name == "over"


def test_d4_a_last_draw_two_makes_no_one_draw():
    game = scripted("action", ["9C 9D", "2H 7H", "JC JD"], "7D", "KC QC KS", dealer=0)
    game.play("play 7H")
    game.play("draw")  # seat 2: KC, no match
    game.play("draw")  # seat 0: QC, no match
    game.play("play 2H")  # seat 1 goes out on a 2
    assert game.last_round.winners == (1,)
    assert game.hands[2] == cards("JC JD KC")
    assert [e for e in events_of(game, CardsDrawn) if e.reason == "penalty"] == []
    assert game.stock == cards("KS")


def test_d4_a_last_reverse_or_skip_has_no_effect():
    game = scripted("action", ["9C", "AH", "JC"], "7H", "KC", dealer=0)
    game.play("play AH")
    assert events_of(game, DirectionReversed) == []
    assert game.last_round.winners == (1,)
    game = scripted("action", ["9C", "QH", "JC"], "7H", "KC", dealer=0)
    game.play("play QH")
    assert events_of(game, PlayerSkipped) == []
    assert game.last_round.winners == (1,)


# ----- D33 and D1: direction and dealer across rounds ----------------------------


def _finish_round(game: Game) -> None:
    """Plays the first legal action until the current round ends."""
    previous = game.last_round
    while not game.is_over and game.last_round is previous:
        first_legal(game)


def test_d33_direction_is_reset_to_clockwise_at_the_start_of_every_round():
    game = scripted("race", ["3C 3D", "4H 5H"], "9H", "KS QS", dealer=0)
    game.play("play 4H")  # reverse; with 2 players seat 1 plays again (D26)
    assert game.direction == -1 and game.turn == 1
    assert events_of(game, DirectionReversed) == [DirectionReversed(-1)]
    game.play("play 5H")  # out, with play running counter-clockwise
    assert game.last_round.round == 1 and not game.is_over
    start = game.log.index(next(e for e in game.log if isinstance(e, RoundStarted) and e.round == 2))
    starter_reverses = [e for e in game.log[start:] if isinstance(e, DirectionReversed)]
    # Clockwise again, unless the new starter is itself a reverse (D10).
    assert game.direction == (-1) ** len(starter_reverses)


def test_d33_direction_reset_even_when_the_new_starter_has_no_effect():
    rules = load_preset("race").replace(target_per_player=0, target=1000)
    game = scripted(rules, ["3C 3D", "4H 5H"], "9H", "KS QS", dealer=0, starter_effects=[])
    game.play("play 4H")
    assert game.direction == -1
    game.play("play 5H")
    assert game.last_round.round == 1 and not game.is_over
    assert game.direction == 1


@pytest.mark.parametrize(
    ("preset", "options"),
    [("classic", ["target=150"]), ("action", ["score_keeping=true"]), ("race", [])],
)
def test_d1_the_dealer_moves_one_seat_clockwise_each_round(preset, options):
    game = scripted(preset, ["3C 4C", "3D 4D", "3H 4H"], "9S", "KS QS JS", dealer=2, options=options)
    for _ in range(4):
        if game.is_over:
            break
        _finish_round(game)
    started = events_of(game, RoundStarted)
    assert len(started) >= 3
    assert [e.dealer for e in started] == [(2 + i) % 3 for i in range(len(started))]
    # Each round opens with the dealer's left unless a starter effect says otherwise.
    first_movers = []
    for event in started:
        at = game.log.index(event)
        first = next((e for e in game.log[at:] if isinstance(e, CardPlayed | CardsDrawn | Passed)), None)
        if first is not None:
            first_movers.append((event.dealer, first.seat))
    if preset == "classic":
        assert all(seat == (dealer + 1) % 3 for dealer, seat in first_movers)


# ----- D34: burying ---------------------------------------------------------------


def test_d34_buried_eight_goes_to_the_middle_of_the_stock():
    game = scripted("classic", ["2C 3C", "4D 5D"], "8H 5S", "KS QH JC 10D 9S 7C", dealer=0)
    # After the 8H is turned the stock holds 5S KS QH JC 10D 9S 7C (7 cards): the 8 goes
    # in at floor(7 / 2) = 3 from the top, then 5S is turned.
    assert game.top == Card("5S")
    assert game.stock[::-1] == cards("KS QH 8H JC 10D 9S 7C")
    assert [e for e in game.log if isinstance(e, StarterTurned | StarterBuried)] == [
        StarterTurned(Card("8H")),
        StarterBuried(Card("8H")),
        StarterTurned(Card("5S")),
    ]
    assert game.turn == 1


def test_d34_burying_repeats_while_the_turned_card_is_again_an_eight():
    game = scripted("classic", ["2C 3C", "4D 5D"], "8H 8C 5S", "KS QH JC 10D 9S", dealer=0)
    # 8H out: stock 8C 5S KS QH JC 10D 9S (7) -> 8H at 3: 8C 5S KS 8H QH JC 10D 9S
    # 8C out: stock 5S KS 8H QH JC 10D 9S (7) -> 8C at 3: 5S KS 8H 8C QH JC 10D 9S
    # 5S turned.
    assert game.top == Card("5S")
    assert game.discard == cards("5S")
    assert game.stock[::-1] == cards("KS 8H 8C QH JC 10D 9S")
    assert events_of(game, StarterBuried) == [StarterBuried(Card("8H")), StarterBuried(Card("8C"))]


@pytest.mark.parametrize("preset", ["action", "race"])
def test_d34_action_and_race_bury_an_eight_starter_the_same_way(preset):
    game = scripted(preset, ["2C 3C", "4D 5D", "6D 7D"], "8D 5S", "KS QH JC 10D", dealer=0)
    # stock after turning 8D: 5S KS QH JC 10D (5) -> 8D at 2.
    assert game.top == Card("5S")
    assert game.stock[::-1] == cards("KS 8D QH JC 10D")
    assert game.turn == 1


# ----- D26: two players ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "card"),
    [("action", "QH"), ("action", "AH"), ("race", "JH"), ("race", "4H")],
)
def test_d26_two_players_a_skip_or_reverse_gives_the_same_player_another_turn(preset, card):
    game = scripted(preset, ["3C 3D 5C", f"{card} 6H 7S"], "9H", "KS QS JS", dealer=0)
    assert game.turn == 1
    game.play(f"play {card}")
    assert game.turn == 1
    assert game.phase_name == "play"
    assert game.hands[0] == cards("3C 3D 5C")
    game.play("play 6H")
    assert game.turn == 0


@pytest.mark.parametrize(
    ("hands", "stack"),
    [
        (["3C 3D 4C", "QS QH 6H"], "play QS QH"),
        (["3C 3D 4C", "AS AH 6H"], "play AS AH"),
        (["3C 3D 4C 4D", "QS QC QH 6H"], "play QS QC QH"),
    ],
)
def test_d26_two_players_any_number_of_stacked_skips_or_reverses_gives_another_turn(hands, stack):
    game = scripted("action", hands, "9H", "KS JS", dealer=0, options=["stacking=true"])
    game.play(stack)  # the last card named lies on top
    assert game.top == Card(stack.split()[-1])
    assert game.turn == 1
    assert game.phase_name == "play"
    assert game.hands[1] == cards("6H")
    assert game.direction == 1  # two reverses cancel out, one more turn all the same


def test_d26_is_two_players_only_a_reverse_with_three_goes_back():
    game = scripted("action", ["3C 3D", "AH 6H", "5C 5D"], "9H", "KS QS JS", dealer=0)
    game.play("play AH")
    assert game.direction == -1
    assert game.turn == 0


# ----- D5: blocked rounds -------------------------------------------------------------


def test_d5_blocked_round_classic_lowest_hand_collects_the_difference():
    # Stock empty, no reshuffle in classic: nobody can play the 9S, everyone passes.
    game = scripted("classic", ["3H 4H", "KC 6C", "7D QD"], "9S", "", dealer=0)
    for seat in (1, 2, 0):
        assert game.legal_actions() == [PASS]
        game.play("pass", seat=seat)
    over = game.last_round
    assert over.reason == "blocked"
    # Hands: seat 0 = 7, seat 1 = 16, seat 2 = 17: seat 0 collects 9 + 10.
    assert over.winners == (0,)
    assert over.points == (19, 0, 0)
    assert game.outcome.winners == (0,)
    assert game.outcome.totals == (19, 0, 0)


def test_d5_blocked_round_classic_tie_for_lowest_scores_nothing():
    game = scripted("classic", ["3H 4H", "2C 5C", "7D QD"], "9S", "", dealer=0)
    for _ in range(3):
        game.play("pass")
    over = game.last_round
    assert over.reason == "blocked"
    assert over.points == (0, 0, 0)
    assert over.winners == (0, 1)  # both lowest hands; nobody collects


def test_d5_a_pass_after_a_play_or_draw_does_not_block():
    game = scripted("classic", ["3H 4H", "KC 6C", "7D 9D"], "9S", "", dealer=0)
    game.play("pass")  # seat 1
    game.play("play 9D")  # seat 2
    game.play("pass")  # seat 0
    game.play("pass")  # seat 1: only two passes since the play
    assert game.last_round is None
    game.play("play 7D")  # seat 2 goes out
    assert game.last_round.reason == "out" and game.last_round.winners == (2,)


def test_d5_blocked_round_action_without_score_keeping_lowest_hand_by_the_action_table_wins():
    # Action values: Q = 20, K = 10, 3 = 3, 9 = 9, 4 = 4, 6 = 6.
    # Seat 0: QH 3H = 23; seat 1: KC 9C = 19; seat 2: 4D 6D = 10.
    game = scripted("action", ["QH 3H", "KC 9C", "4D 6D"], "7S", "", dealer=0)
    for _ in range(3):
        assert game.legal_actions() == [PASS]
        game.play("pass")
    over = game.last_round
    assert over.reason == "blocked"
    assert over.winners == (2,)
    assert over.points == (0, 0, 0)
    assert game.outcome.winners == (2,)


def test_d5_blocked_round_action_without_score_keeping_ties_share_the_win():
    # By the action table QH 3H = 23, KC 9C = 19 and 10D 9D = 19: a tie for lowest.
    game = scripted("action", ["QH 3H", "KC 9C", "10D 9D"], "7S", "", dealer=0)
    for _ in range(3):
        game.play("pass")
    assert game.last_round.winners == (1, 2)
    assert game.outcome.winners == (1, 2)


def test_d5_blocked_round_action_counts_an_ace_20_not_1():
    # By the action table AH 3H 4H = 27 and 5C 6C 9C = 20 (by pips the aces' hand, 8, would win).
    game = scripted("action", ["AH 3H 4H", "5C 6C 9C", "JD 10D 9D"], "7S", "", dealer=0)
    for _ in range(3):
        game.play("pass")
    assert game.last_round.reason == "blocked"
    assert game.last_round.winners == (1,)


def test_d5_blocked_round_with_penalty_scoring_everyone_adds_their_own_hand():
    game = scripted("action", ["QH 3H", "KC 9C", "4D 6D"], "7S", "", dealer=0, options=["score_keeping=true"])
    for _ in range(3):
        game.play("pass")
    over = game.last_round
    assert over.reason == "blocked"
    assert over.points == (23, 19, 10)
    assert over.totals == (23, 19, 10)
    assert not game.is_over  # to 500


# ----- no undo, refused actions --------------------------------------------------------


def test_no_undo_a_played_card_stays_played():
    game = scripted("classic", ["2C 3C", "5D 6D", "4S 4H"], "9D", "KS QS", dealer=0)
    game.play("play 5D")
    assert not hasattr(game, "undo")
    assert Card("5D") not in game.hands[1] and game.top == Card("5D")
    with pytest.raises(errors.NotYourTurn):
        game.play("play 6D", seat=1)


def test_not_your_turn_is_refused_and_changes_nothing():
    game = scripted("classic", ["2C 3C", "5D 6D", "4S 4H"], "9D", "KS QS", dealer=0)
    before = snapshot(game)
    with pytest.raises(errors.NotYourTurn) as info:
        game.play("draw", seat=2)
    assert "seat 1" in str(info.value)
    assert snapshot(game) == before


def test_card_not_in_hand_is_refused_and_changes_nothing():
    game = scripted("classic", ["2C 3C", "5D 6D", "4S 4H"], "9D", "KS QS", dealer=0)
    before = snapshot(game)
    with pytest.raises(errors.CardNotInHand) as info:
        game.play("play 9D")
    assert "9D" in str(info.value)
    assert snapshot(game) == before


def test_unplayable_card_is_refused_and_changes_nothing():
    game = scripted("classic", ["2C 3C", "5D 6S", "4S 4H"], "9D", "KS QS", dealer=0)
    before = snapshot(game)
    with pytest.raises(errors.CardNotPlayable) as info:
        game.play(Play("6S"))
    assert "6S" in str(info.value) and "9D" in str(info.value)
    assert snapshot(game) == before


def test_naming_a_suit_with_no_wild_is_refused_and_changes_nothing():
    game = scripted("classic", ["2C 3C", "5D 6S", "4S 4H"], "9D", "KS QS", dealer=0)
    before = snapshot(game)
    with pytest.raises(errors.MustNameSuit):
        game.play(NameSuit("H"))
    assert snapshot(game) == before


def test_playing_instead_of_naming_the_suit_is_refused_and_changes_nothing():
    game = scripted("classic", ["2C 3C", "8D 6D", "4S 4H"], "9D", "KS QS", dealer=0)
    game.play("play 8D")
    before = snapshot(game)
    with pytest.raises(errors.MustNameSuit):
        game.play("play 6D")
    with pytest.raises(errors.MustNameSuit):
        game.play("draw")
    assert snapshot(game) == before


def test_acting_after_the_game_is_over_is_refused():
    game = scripted("classic", ["2S 3C", "5D 6S", "5S 4H"], "9D", "KS QS", dealer=0)
    for action in ("play 5D", "play 5S", "play 2S", "play 6S"):
        game.play(action)
    assert game.is_over
    with pytest.raises(errors.GameIsOver):
        game.play("draw")
    assert issubclass(errors.GameIsOver, IllegalAction)
