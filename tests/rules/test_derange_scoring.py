"""docs/rules.md section 5, ``derange`` (Derange Order of Eight): its scoring table and the worked value of
section 8, each other player adding their own hand, totals over the rounds (D5: a blocked round), and random whole
matches that never end a round on a 3 or 10 and keep every card (D4, D42).

Derange plays two packs by default, so a scripted hand may hold the same card twice.
"""

from __future__ import annotations

import random

import pytest

from eights.cards import Card
from eights.engine import PASS, Game
from eights.engine.events import (
    CardPlayed,
    CardsDrawn,
    Reshuffled,
    RoundOver,
    RoundStarted,
)
from eights.rules import load_preset
from tests.support.scripting import cards, events_of, pack_size, play_out, scripted

DERANGE = load_preset("derange")


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
