"""docs/rules.md section 6, ``baby-eating`` (Baby-Eating Eights): teams and the expanded deck, with D32, D43 and
D45: allies seated opposite, the kings that pass to the ally, a 7 or 5 aimed at the ally, a team's win (D32),
no signals between allies (D45), and the 104-card deck used from six players (D43).

Every test deals exactly with ``deal`` (tests/support/baby_eating.py: dealer 0, so seat 1 plays first).
"""

from __future__ import annotations

from collections import Counter

import pytest

from eights.cards import Card
from eights.engine import Game, view
from eights.engine.actions import CHOOSE
from eights.engine.events import (
    Cancelled,
    CardsDrawn,
    CardsSwapped,
    RoundStarted,
)
from eights.rules import RulesError, load_preset
from tests.support.baby_eating import deal
from tests.support.scripting import act, legal, of, pack_size

BABY = load_preset("baby-eating")


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
    assert pack_size(game) == size
    assert [len(h) for h in game.hands] == [6] * players


@pytest.mark.parametrize("players", [1, 17])
def test_d43_player_limits_with_the_expanded_deck(players):
    with pytest.raises(RulesError):
        Game(BABY, players, seed=1)


def test_d43_one_pack_seats_two_to_eight():
    rules = BABY.with_options(["expanded_deck=false"])
    for players in (2, 8):
        assert pack_size(Game(rules, players, seed=1)) == 54
    with pytest.raises(RulesError):
        Game(rules, 9, seed=1)
