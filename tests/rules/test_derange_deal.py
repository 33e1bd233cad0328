"""docs/rules.md section 5, ``derange`` (Derange Order of Eight): the packs, the players and the deal, with D1,
D2, D14, D15 and D26: two packs (one, three or four by option) for 2 to 8 players, the hand sizes round by round
and their checks before round one (D14), the dealer (D1, D2), and the starter (D15; a starter K with two players:
D26). The rest of section 5: drawing and the special cards in test_derange_cards.py, follow-me in
test_derange_follow_me.py, scoring and whole matches in test_derange_scoring.py.

Derange plays two packs by default, so a scripted hand may hold the same card twice.
"""

from __future__ import annotations

import pytest

from eights.cards import Card, Suit
from eights.engine import DRAW, Game, Play, errors
from eights.engine.actions import NAME_SUIT
from eights.engine.events import (
    ChainGrew,
    DirectionReversed,
    FollowMe,
    GameOver,
    RoundOver,
    RoundStarted,
    StarterTurned,
    SuitNamed,
)
from eights.rules import RulesError, load_preset
from tests.support.scripting import cards, events_of, pack_size, play_out, plays, scripted, snapshot

DERANGE = load_preset("derange")
FULL_SCHEDULE = (8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8)


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
