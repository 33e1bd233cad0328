"""Train the learned computer player (``eights.bots.learned``) from the batched environment.

Run from the repository root (the ``research`` extra: numpy)::

    .venv/bin/python -m eights.research.train --out src/eights/bots/learned.json

trains the shipped weights: classic at two and at four players (``--players``), seed 1. The same
command on one machine writes the same file, byte for byte.

**How.** REINFORCE with a baseline, against the normal player. ``--slots`` games of classic run in
one ``eights.research.batch.BatchEnv``, dealt from a seed drawn from ``--seed`` and the player count.
In each game one seat is the learner (seat ``(slot + games dealt in that slot) % players``, so it
plays every seat in turn); the other seats are normal players, each seeded from the game and its
seat and reading its own view. The learner reads its own seat's view (``eights.engine.LiveViews``:
the engine's one redaction, kept up to date as the game is played), scores each legal action by
``eights.bots.learned.ActionFeatures`` and its weights (at first all 0: every legal move alike), and
samples its move from the softmax of the scores. A game's return is the learner's reward
(``outcome``: +1 a win, -1 a loss). Every ``--batch`` finished games the weights move, by Adam at
``--rate``, along the mean over those games of (return less the batch's mean return) times the
summed gradient of the log-chance of each move the learner sampled. After ``--updates`` updates the
weights are rounded to four decimals and written with the command, the seed, the games played, and
their score against the normal player: ``--eval-games`` games as ``eights tournament --bots
learned,normal --seed SEED`` plays them (the learned player plays the best-scored move; seats rotate
and each deal is played in every rotation), with its 95% interval.

Progress goes to standard error. ``--jobs 2`` trains the player counts side by side (the same file).
The shipped file took 30 minutes on one core (pure Python, niced, on a busy machine).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from eights.bots import Bot, HeuristicBot
from eights.bots.learned import FEATURE_NAMES, FORMAT, ActionFeatures, LearnedBot, Policies
from eights.engine import LiveViews
from eights.research.batch import BatchEnv
from eights.rules import load_preset
from eights.runs.tournament import lineup, play_one, tally
from eights.seeds import bot_seed, derive_seed, game_seed

#: The rule set trained, and the player counts.
PRESET = "classic"
PLAYERS = (2, 4)
#: Decimals kept of each weight in the file.
DECIMALS = 4
#: Adam's decay rates and its guard against division by zero.
BETA1, BETA2, EPSILON = 0.9, 0.999, 1e-8


@dataclass(frozen=True)
class Settings:
    """What a training run is given."""

    seed: int = 1
    updates: int = 500
    batch: int = 256
    slots: int = 64
    rate: float = 0.02
    eval_games: int = 2000
    report: int = 10


def train(players: int, settings: Settings, say: Any = None) -> tuple[list[float], int]:
    """The weights REINFORCE finds at ``players`` seats (see the module docstring), and the games played.

    ``say`` (a function of one line) gets progress every ``settings.report`` updates.
    """
    rules = load_preset(PRESET)
    features = ActionFeatures(rules, players)
    base = derive_seed(f"eights-train:{settings.seed}:{players}")
    rng = np.random.default_rng(base)
    env = BatchEnv(settings.slots, rules=rules, players=players, seed=base)
    env.reset()
    slots = settings.slots
    games = env.games
    live = [LiveViews(game) for game in games]
    dealt = [0] * slots
    learner = [slot % players for slot in range(slots)]
    opponents = [_opponents(base, slot, 0, slots, players) for slot in range(slots)]
    gradients: list[NDArray[np.float64]] = [np.zeros(len(FEATURE_NAMES)) for _ in range(slots)]
    weights = np.zeros(len(FEATURE_NAMES))
    first = np.zeros_like(weights)
    second = np.zeros_like(weights)
    outcomes: list[float] = []
    start = time.perf_counter()
    for update in range(1, settings.updates + 1):
        returns: list[float] = []
        summed: list[NDArray[np.float64]] = []
        while len(returns) < settings.batch:
            actions = np.zeros(slots, np.int64)
            for slot in range(slots):
                seat = games[slot].to_act
                seen = live[slot].view(seat)
                legal = seen.legal
                if seat != learner[slot]:
                    move = opponents[slot][seat].choose(seen)
                elif len(legal) == 1:
                    move = legal[0]
                else:
                    rows = np.array(features.rows(seen, legal))
                    scores = rows @ weights
                    chances = np.exp(scores - scores.max())
                    chances /= chances.sum()
                    pick = int(rng.choice(len(legal), p=chances))
                    move = legal[pick]
                    gradients[slot] += rows[pick] - chances @ rows
                actions[slot] = env.space.number(move)
            _, _, rewards, terminated, truncated, _ = env.step(actions)
            games = env.games
            for slot in np.flatnonzero(terminated | truncated).tolist():
                result = float(rewards[slot, learner[slot]]) if terminated[slot] else 0.0
                returns.append(result)
                summed.append(gradients[slot])
                outcomes.append(result)
                gradients[slot] = np.zeros_like(weights)
                dealt[slot] += 1
                learner[slot] = (slot + dealt[slot]) % players
                opponents[slot] = _opponents(base, slot, dealt[slot], slots, players)
                live[slot] = LiveViews(games[slot])
        advantage = np.array(returns) - np.mean(returns)
        step = (advantage[:, None] * np.array(summed)).mean(axis=0)
        first = BETA1 * first + (1 - BETA1) * step
        second = BETA2 * second + (1 - BETA2) * step * step
        weights += settings.rate * (first / (1 - BETA1**update)) / (np.sqrt(second / (1 - BETA2**update)) + EPSILON)
        if say is not None and (update % settings.report == 0 or update == settings.updates):
            recent = outcomes[-settings.report * settings.batch :]
            won = sum(1 for r in recent if r > 0) / len(recent)
            say(
                f"{PRESET}, {players} players: update {update}/{settings.updates}, {len(outcomes):,} games; "
                f"the learner won {won:.1%} of the last {len(recent):,} (moves sampled; a fair seat wins "
                f"{1 / players:.0%}), {time.perf_counter() - start:.0f} s"
            )
    return [float(w) for w in weights], len(outcomes)


def _opponents(base: int, slot: int, dealt: int, slots: int, players: int) -> list[Bot]:
    """The normal players of a slot's game, seeded from the game and the seat."""
    seed = game_seed(base, slot + slots * dealt)
    return [HeuristicBot(bot_seed(seed, seat)) for seat in range(players)]


def against_normal(policies: Policies, players: int, games: int, seed: int) -> dict[str, Any]:
    """The learned player's score against the normal player, as ``eights tournament --bots learned,normal
    --players P --games G --seed S`` plays it with these policies."""
    rules = load_preset(PRESET)
    specs = ["learned", "normal"]
    results = []
    for index in range(games):
        entrants = lineup(len(specs), players, index)
        seed_of_game = game_seed(seed, index)
        bots: list[Bot] = [
            LearnedBot(bot_seed(seed_of_game, seat), policies)
            if entrant == 0
            else HeuristicBot(bot_seed(seed_of_game, seat))
            for seat, entrant in enumerate(entrants)
        ]
        results.append(play_one(rules, players, specs, index, seed, bots))
    learned = tally(specs, players, results)[0]
    low, high = learned.interval
    return {
        "command": f"eights tournament --variant {PRESET} --players {players} --bots learned,normal "
        f"--games {games} --seed {seed}",
        "games": games,
        "wins": learned.wins,
        "win_rate": round(learned.win_rate, 4),
        "low": round(low, 4),
        "high": round(high, 4),
    }


def _train_one(task: tuple[int, Settings]) -> tuple[int, list[float], int]:
    players, settings = task
    weights, games = train(players, settings, say=_say)
    return players, weights, games


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def weights_file(
    trained: Sequence[tuple[int, list[float], int]], settings: Settings, command: str, say: Any = None
) -> dict[str, Any]:
    """The weights file's data: the header, then each player count's rounded weights and their score."""
    data: dict[str, Any] = {
        "format": FORMAT,
        "about": "The learned computer player's weights (eights.bots.learned), written by the command below; "
        "the same command on one machine writes the same file. Each policy's score against the normal "
        "player is measured with the weights as written.",
        "command": command,
        "seed": settings.seed,
        "method": "REINFORCE with a baseline against the normal player, in eights.research.batch.BatchEnv",
        "features": list(FEATURE_NAMES),
        "policies": [],
    }
    for players, weights, games in trained:
        data["policies"].append(
            {
                "preset": PRESET,
                "players": players,
                "updates": settings.updates,
                "batch": settings.batch,
                "rate": settings.rate,
                "games": games,
                "weights": [round(w, DECIMALS) for w in weights],
            }
        )
    policies = Policies.from_data(data)
    for entry in data["policies"]:
        if say is not None:
            say(f"{PRESET}, {entry['players']} players: measuring against the normal player ...")
        entry["against_normal"] = against_normal(policies, entry["players"], settings.eval_games, settings.seed)
        if say is not None:
            score = entry["against_normal"]
            say(f"  {score['win_rate']:.1%} ({score['low']:.1%}-{score['high']:.1%}) of {score['games']} games")
    return data


def main(argv: Sequence[str] | None = None) -> None:
    defaults = Settings()
    parser = argparse.ArgumentParser(
        prog="python -m eights.research.train", description="Train the learned computer player's weights."
    )
    parser.add_argument("--players", type=int, nargs="+", default=list(PLAYERS), help="player counts (2 4)")
    parser.add_argument("--seed", type=int, default=defaults.seed, help=f"seed ({defaults.seed})")
    parser.add_argument("--updates", type=int, default=defaults.updates, help=f"updates ({defaults.updates})")
    parser.add_argument("--batch", type=int, default=defaults.batch, help=f"games an update ({defaults.batch})")
    parser.add_argument("--slots", type=int, default=defaults.slots, help=f"games stepped together ({defaults.slots})")
    parser.add_argument("--rate", type=float, default=defaults.rate, help=f"Adam's step size ({defaults.rate})")
    parser.add_argument(
        "--eval-games", type=int, default=defaults.eval_games, help=f"games against normal ({defaults.eval_games})"
    )
    parser.add_argument("--jobs", type=int, default=1, help="player counts trained side by side (1)")
    parser.add_argument("--out", type=Path, default=Path("learned.json"), help="the weights file (learned.json)")
    args = parser.parse_args(argv)
    for name in ("updates", "batch", "slots", "eval_games", "jobs"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')}: {getattr(args, name)}; give 1 or more")
    for players in args.players:
        if not 2 <= players <= 7:
            parser.error(f"--players: {players}; classic seats 2 to 7")
    if not args.rate > 0:
        parser.error(f"--rate: {args.rate}; give a positive step size")
    settings = Settings(args.seed, args.updates, args.batch, args.slots, args.rate, args.eval_games)
    counts = sorted(set(args.players))
    command = (
        f"python -m eights.research.train --players {' '.join(map(str, counts))} --seed {settings.seed} "
        f"--updates {settings.updates} --batch {settings.batch} --slots {settings.slots} --rate {settings.rate} "
        f"--eval-games {settings.eval_games} --out {args.out.as_posix()}"
    )
    start = time.perf_counter()
    tasks = [(players, settings) for players in counts]
    if args.jobs > 1 and len(tasks) > 1:
        with multiprocessing.Pool(min(args.jobs, len(tasks))) as pool:
            trained = pool.map(_train_one, tasks)
    else:
        trained = [_train_one(task) for task in tasks]
    data = weights_file(trained, settings, command, say=_say)
    args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    _say(f"wrote {args.out} in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
