"""The engine never uses the global ``random`` module: a seeded game is the same game however the
global RNG is seeded or consumed between and during runs (after RLCard's determinism test)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from eights.engine import Game, view
from eights.engine.sampling import sample
from eights.rules import load_preset
from eights.runs.simulate import play_game

CASES = [
    ("classic", (), 2),
    ("classic", ("target=100",), 4),
    ("action", ("stacking=true", "score_keeping=true"), 3),
    ("action", ("packs=3",), 9),
    ("race", (), 4),
    ("derange", ("short_rounds=true",), 4),
    ("derange", ("packs=1",), 2),
    ("baby-eating", (), 5),
    ("baby-eating", ("teams=true",), 6),
]


def simulate(preset: str, options: tuple[str, ...], players: int, seed: int, disturb: Callable[[int], None]):
    """A seeded game with random legal choices; ``disturb(step)`` runs before every action."""
    rules = load_preset(preset).with_options(list(options))
    disturb(-1)
    game = Game(rules, players, seed=seed)
    rng = random.Random(seed + 1)
    step = 0
    while not game.is_over:
        disturb(step)
        legal = game.legal_actions()
        disturb(step)
        game.play(legal[rng.randrange(len(legal))])
        step += 1
    return list(game.log), game.outcome, list(game.actions)


def quiet(step: int) -> None:
    pass


def reseeding(base: int) -> Callable[[int], None]:
    def disturb(step: int) -> None:
        random.seed(base * 1_000_003 + step)
        for _ in range(step % 3):
            random.random()

    return disturb


def consuming(step: int) -> None:
    random.random()
    random.getrandbits(64)
    if step % 5 == 0:
        random.shuffle([1, 2, 3, 4])


@pytest.mark.parametrize(("preset", "options", "players"), CASES, ids=lambda v: str(v))
def test_global_random_does_not_change_a_seeded_game(preset, options, players):
    for seed in (3, 4):
        random.seed(12345)
        reference = simulate(preset, options, players, seed, quiet)
        random.seed(999)
        random.random()
        assert simulate(preset, options, players, seed, reseeding(1)) == reference
        assert simulate(preset, options, players, seed, reseeding(2)) == reference
        random.seed(0)
        assert simulate(preset, options, players, seed, consuming) == reference


def test_the_engine_never_calls_the_global_random_functions(monkeypatch):
    """Every module-level function of ``random`` raises: seeded games must still play (their own
    ``random.Random`` instances do not go through these functions)."""

    def forbidden(*args, **kwargs):
        raise AssertionError("the global random module was used")

    for name in ("random", "randrange", "randint", "choice", "choices", "shuffle", "sample", "getrandbits", "seed"):
        monkeypatch.setattr(random, name, forbidden)
    with pytest.raises(AssertionError):
        random.shuffle([1, 2])
    for preset, options, players in CASES:
        log, outcome, _ = simulate(preset, options, players, 7, quiet)
        assert outcome is not None and log


def test_simulate_and_random_bots_ignore_the_global_random():
    rules = load_preset("race")
    for fast in (True, False):
        random.seed(1)
        first = play_game(rules, 3, 77, log=True, fast=fast)
        random.seed(2)
        for _ in range(100):
            random.random()
        second = play_game(rules, 3, 77, log=True, fast=fast)
        assert first.game.log == second.game.log
        assert (first.winners, first.totals, first.actions) == (second.winners, second.totals, second.actions)
    # The fast path and the bots-through-views path play the same game.
    assert play_game(rules, 3, 77, log=True, fast=True).game.log == second.game.log


def test_sampling_a_view_depends_only_on_the_rng_given():
    game = Game(load_preset("derange").with_options(["short_rounds=true"]), 4, seed=21)
    rng = random.Random(2)
    for _ in range(30):
        legal = game.legal_actions()
        game.play(legal[rng.randrange(len(legal))])
    seen = view(game, game.to_act)
    random.seed(1)
    first = sample(seen, random.Random(5))
    random.seed(2)
    random.random()
    second = sample(seen, random.Random(5))
    assert first.hands == second.hands and first.stock == second.stock
    assert first.rng.getstate() == second.rng.getstate()
