"""Engine values cross process boundaries: pickle and deepcopy give equal values that play on alike.

A worker pool for computer players sends games and views to other processes, so every engine
value (cards, actions, events, views, games, rule sets, outcomes) must survive ``pickle`` and
``copy.deepcopy``; the interned ones (cards, ``DRAW``, ``PASS``, the ``PLAY`` table...) come back
as the very same objects, since the search compares some of them by identity.
"""

from __future__ import annotations

import copy
import multiprocessing
import pickle
import random
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eights.bots import make_bot
from eights.cards import ALL_CARDS, Card
from eights.engine import DRAW, PASS, Game, Play, view
from eights.engine.actions import BURY, CHOOSE, NAME_SUIT, PLAY, ChoosePlayer
from eights.engine.tables import tables_for
from eights.rules import PRESETS, load_preset
from tests.engine.test_properties import CONFIGS, games, snapshot, steps


def pickled(value: Any) -> Any:
    return pickle.loads(pickle.dumps(value))


COPIERS: list[tuple[str, Callable[[Any], Any]]] = [("pickle", pickled), ("deepcopy", copy.deepcopy)]


@pytest.mark.parametrize("name, copier", COPIERS)
def test_actions_survive_pickle(name, copier):
    interned = [*PLAY, DRAW, PASS, *NAME_SUIT, *BURY, *CHOOSE]
    for action in interned:
        assert copier(action) is action, f"{name} of {action!r} is not the interned action"
    for action in (Play("8H", ("8C", "8D")), Play(Card("QS"), (Card("QH"),)), ChoosePlayer(20)):
        other = copier(action)
        assert other == action and hash(other) == hash(action) and type(other) is type(action)
        assert repr(other) == repr(action)
    assert copier(PLAY[7]).card is ALL_CARDS[7]
    assert copier(tuple(NAME_SUIT))[0] is NAME_SUIT[0]  # ismcts's play-outs test ``first is NAME_SUIT[0]``


@pytest.mark.parametrize("name, copier", COPIERS)
def test_cards_rules_and_tables_survive_pickle(name, copier):
    for card in ALL_CARDS:
        assert copier(card) is card
    for preset in PRESETS:
        rules = load_preset(preset)
        assert copier(rules) == rules
        # The compiled tables come back as the cached compilation of the (equal) rule set.
        assert copier(tables_for(rules)) is tables_for(rules)


@pytest.mark.parametrize("name, copier", COPIERS)
def test_a_game_with_an_action_played_survives_pickle(name, copier):
    # The reported problem: a game whose record holds an action could not be copied at all.
    game = Game(load_preset("classic"), 2, seed=3)
    game.play(game.legal_actions()[0])
    assert game.actions
    other = copier(game)
    assert snapshot(other) == snapshot(game)
    assert other.actions == game.actions and other.actions[0] is game.actions[0]


@settings(max_examples=60, deadline=None)
@given(games(CONFIGS), st.lists(st.integers(0, 2**16), min_size=1, max_size=3), st.sampled_from(COPIERS))
def test_games_and_views_survive_pickle_and_play_on_alike(case, stops, copier):
    """At random points of a random game in every preset, a copy of the game and of every seat's
    view equals the original, and the copied game played on with the same actions ends alike."""
    rules, n, seed, choices = case
    _, copy_of = copier
    whole = list(steps(Game(rules, n, seed=seed), random.Random(choices)))
    points = sorted({stop % (len(whole) + 1) for stop in stops})
    game = Game(rules, n, seed=seed)
    done = 0
    copies: list[tuple[int, Game]] = []
    for point in points:
        for action in whole[done:point]:
            game.play(action)
        done = point
        other = copy_of(game)
        assert snapshot(other) == snapshot(game)
        assert other.log == game.log and other.outcome == game.outcome
        for seat in (*range(n), None):
            seen = view(game, seat)
            assert copy_of(seen) == seen
        copies.append((point, other))
    for action in whole[done:]:
        game.play(action)
    assert game.is_over
    assert copy_of(game.outcome) == game.outcome
    for point, other in copies:
        for action in whole[point:]:
            other.play(action)
        assert other.outcome == game.outcome
        assert snapshot(other) == snapshot(game)
        assert other.log == game.log


def _choose(bot: Any, seen: Any) -> Any:
    return bot.choose(seen)


def test_a_view_and_a_bot_cross_a_process_boundary():
    # A fresh interpreter (spawn): another hash seed, nothing shared but the pickles.
    game = Game(load_preset("action"), 2, seed=12)
    rng = random.Random(4)
    while len(game.legal_actions()) < 2 or not game.actions:
        game.play(rng.choice(game.legal_actions()))
    seen = view(game, game.to_act)
    bots = [make_bot("normal", 5), make_bot("hard", 5, iterations=30)]
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        moves = [pool.submit(_choose, copy.deepcopy(bot), seen).result() for bot in bots]
        back = pool.submit(pickled, game).result()
    assert moves == [bot.choose(seen) for bot in bots]
    assert all(move in seen.legal for move in moves)
    assert snapshot(back) == snapshot(game)
