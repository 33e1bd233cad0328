"""The games the browser's Python and CPython must play alike (tests/web/test_browser_app.py): for each seed, a
preset and a player count in turn (every preset, every count it seats), random legal moves drawn from the
seed, and a digest of every move's events and of the states (every seat's view every 25 moves and at the
end), with the outcome. Standard library and the package only: the same file runs in CPython and, as its
source, on Pyodide in the browser."""

from __future__ import annotations

import functools
import hashlib
import json
import random
from typing import Any

from eights.engine import Game, view
from eights.rules import PRESETS, load_preset

#: The most moves a game is played for (a match of several rounds is cut there: the digest covers them).
MOST_MOVES = 300


@functools.cache
def tables() -> list[tuple[str, int]]:
    """Every preset with every player count it seats."""
    found = []
    for name in PRESETS:
        rules = load_preset(name)
        found += [(name, n) for n in range(rules.min_players, rules.max_players + 1)]
    return found


def one(seed: int) -> dict[str, Any]:
    """Game ``seed`` as a digest of its states and events, and its outcome."""
    every = tables()
    name, players = every[seed % len(every)]
    game = Game(load_preset(name), players, seed)
    chooser = random.Random(seed)
    digest = hashlib.sha256()
    moves = 0
    while not game.is_over and moves < MOST_MOVES:
        legal = game.legal_actions()
        action = legal[chooser.randrange(len(legal))]
        events = game.play(action)
        moves += 1
        digest.update(f"{action}|{events!r}|".encode())
        if game.is_over or moves % 25 == 0:
            for seat in (None, *range(players)):
                digest.update(repr(view(game, seat)).encode())
    outcome = game.outcome
    return {
        "seed": seed,
        "preset": name,
        "players": players,
        "moves": moves,
        "digest": digest.hexdigest(),
        "outcome": None if outcome is None else [list(outcome.winners), list(outcome.totals)],
    }


def run(seeds: list[int]) -> str:
    return json.dumps([one(seed) for seed in seeds])
