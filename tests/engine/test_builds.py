"""The compiled engine and the pure-Python one play the very same games.

The install compiles the engine's hot path with mypyc where it can (``hatch_build.py``);
``EIGHTS_PURE=1`` makes a process load the same modules from their sources instead. Thousands
of random games are played in a child process of each build, and every legal list, action,
event and outcome must agree. Without a compiled build there is nothing to compare: the test
says so and skips, and under CI (``CI=true``) it fails.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import eights
from eights._build import COMPILED
from eights.bots import ISMCTSBot
from eights.cards import Card
from eights.engine import Game, view
from eights.engine.actions import ACTION_FORMS
from eights.engine.sampling import sample
from eights.research.encoding import ActionSpace
from eights.research.observer import Observer
from eights.rules import load_preset
from tests.support.extras import missing

ROOT = Path(__file__).resolve().parents[2]

#: (preset, options, players): every preset, options that change the hot path, 2 to 8 seats.
CONFIGS = [
    ("classic", (), 2),
    ("classic", ("target=100",), 4),
    ("action", (), 2),
    ("action", ("stacking=true", "score_keeping=true"), 3),
    ("action", ("packs=3",), 9),
    ("race", (), 4),
    ("derange", ("packs=2",), 4),
    ("derange", ("short_rounds=true",), 3),
    ("baby-eating", (), 4),
    ("baby-eating", ("teams=true",), 8),
]


def play_games(games: int, seed: int) -> dict[str, str]:
    """Per configuration, a hash of every game's legal lists, actions, events, outcome, views,
    observations and masks, and a sampled world now and then, in the build this process runs."""
    out = {}
    for preset, options, players in CONFIGS:
        rules = load_preset(preset).with_options(list(options))
        space = ActionSpace(rules, players)
        rng = random.Random(f"{seed}:{preset}:{options}:{players}")
        digest = hashlib.sha256()
        for _ in range(games):
            game = Game(rules, players, seed=rng.getrandbits(48))
            observer = Observer(space, game)
            step = 0
            while not game.is_over:
                legal = game.legal_actions()
                action = legal[rng.randrange(len(legal))]
                digest.update(repr((legal, action)).encode())
                observer.refresh(rng.randrange(players))
                digest.update(observer.rows.tobytes() + bytes(observer.mask))
                if step % 97 == 0:
                    seen = view(game, game.to_act)
                    world = sample(seen, random.Random(step))
                    digest.update(repr((seen, world.hands, world.stock, world.legal_actions())).encode())
                game.play(action)
                step += 1
            digest.update(repr((game.log, game.outcome, game.totals, game.rng.getstate())).encode())
        out[f"{preset} {' '.join(options)} {players}p"] = digest.hexdigest()
    return out


#: (preset, players, model): the searches whose inner loops the install compiles, with and without the belief.
SEARCHES = [("classic", 2, True), ("action", 2, True), ("classic", 2, False), ("action", 3, True)]


def play_search_games(games: int, seed: int) -> dict[str, str]:
    """Per search, a hash of every decision of games between ``hard`` players on a budget of
    simulations (not of time), in the build this process runs."""
    out = {}
    for preset, players, model in SEARCHES:
        rng = random.Random(f"{seed}:{preset}:{players}:{model}")
        digest = hashlib.sha256()
        for _ in range(games):
            game = Game(load_preset(preset), players, seed=rng.getrandbits(48))
            bots = [ISMCTSBot(rng.getrandbits(32), seconds=None, iterations=60, model=model) for _ in range(players)]
            while not game.is_over:
                action = bots[game.to_act].choose(view(game, game.to_act))
                digest.update(repr(action).encode())
                game.play(action)
        out[f"{preset} {players}p model={model}"] = digest.hexdigest()
    return out


def run_build(pure: bool, games: int, seed: int, play: str = "play_games") -> tuple[str, dict[str, str]]:
    env = {**os.environ, "EIGHTS_PURE": "1" if pure else ""}
    code = (
        f"import json, sys, eights; from tests.engine.test_builds import {play}; "
        f"print(json.dumps([eights.BUILD, {play}(int(sys.argv[1]), int(sys.argv[2]))]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(games), str(seed)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    build, digests = json.loads(done.stdout)
    return build, digests


def need_compiled() -> None:
    if os.environ.get("EIGHTS_PURE", "") not in ("", "0"):
        pytest.skip("this run asks for the pure build (EIGHTS_PURE is set)")
    if not eights.BUILD.startswith("compiled"):
        missing("compiled build to compare with", eights.BUILD, "the install compiles one where a C compiler exists")


def test_both_builds_play_the_same_games():
    need_compiled()
    compiled_build, compiled = run_build(pure=False, games=300, seed=32)
    pure_build, pure = run_build(pure=True, games=300, seed=32)
    assert compiled_build.startswith("compiled")
    assert pure_build == "pure Python (EIGHTS_PURE is set)"
    assert len(compiled) == len(CONFIGS)
    assert compiled == pure


def test_both_builds_search_alike():
    """The search's compiled loops (tree, play-outs, the normal player's moves in them, the belief)
    make the pure build's decisions, simulation for simulation."""
    need_compiled()
    compiled_build, compiled = run_build(pure=False, games=3, seed=32, play="play_search_games")
    pure_build, pure = run_build(pure=True, games=3, seed=32, play="play_search_games")
    assert compiled_build.startswith("compiled") and pure_build.startswith("pure")
    assert len(compiled) == len(SEARCHES)
    assert compiled == pure


def test_the_compiled_build_runs_compiled_modules():
    need_compiled()
    for name in COMPILED:
        module = sys.modules.get(name) or __import__(name, fromlist=["_"])
        assert not (module.__file__ or "").endswith(".py"), name


def test_eights_pure_loads_every_compiled_module_from_its_source():
    code = "import importlib, json, sys, eights; from eights._build import COMPILED; " + (
        "print(json.dumps([eights.BUILD, [importlib.import_module(m).__file__ for m in COMPILED]]))"
    )
    env = {**os.environ, "EIGHTS_PURE": "1"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    build, files = json.loads(done.stdout)
    assert build == "pure Python (EIGHTS_PURE is set)"
    assert files and all(f.endswith(".py") for f in files)


def refusals(games: int = 0, seed: int = 0) -> dict[str, str]:
    """What the checked door says, in the build this process runs, to things that are neither an action
    nor its text; the game must be left as it was (``run_build`` passes two numbers it does not need)."""
    game = Game(load_preset("classic"), 2, seed=1)
    before = (repr(game.hands), game.phase, game.turn, len(game.log or []))
    said = {}
    for given in (42, None, 8.5, b"draw", ["draw"], Card.parse("8H")):
        try:
            game.play(given)
            said[repr(given)] = "played"
        except Exception as exc:
            said[repr(given)] = f"{type(exc).__name__}: {exc}"
    assert (repr(game.hands), game.phase, game.turn, len(game.log or [])) == before
    return said


def test_both_builds_refuse_what_is_not_an_action_with_the_same_action_error():
    """Issue 40, item 12: the compiled build raised a ``TypeError`` (its annotation checked), the pure one
    ``CannotPass`` (anything unknown was taken for a pass)."""
    said = refusals()
    assert said["42"] == f"ActionError: 42 (int) is not an action: give an Action or its text; valid: {ACTION_FORMS}"
    assert said["Card('8H')"].startswith("ActionError: Card('8H') (Card) is not an action")
    assert all(words.startswith("ActionError: ") for words in said.values()), said
    pure_build, pure = run_build(pure=True, games=0, seed=0, play="refusals")
    assert pure_build.startswith("pure") and pure == said
    if eights.BUILD.startswith("compiled"):
        compiled_build, compiled = run_build(pure=False, games=0, seed=0, play="refusals")
        assert compiled_build.startswith("compiled") and compiled == said


def test_eights_version_names_the_build():
    done = subprocess.run(
        [sys.executable, "-m", "eights.cli", "--version"],
        cwd=ROOT,
        env={**os.environ, "EIGHTS_PURE": "1"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == f"eights {eights.__version__}, engine: pure Python (EIGHTS_PURE is set)"
