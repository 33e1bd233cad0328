"""Environment steps a second with observations: ours and OpenSpiel's ``crazy_eights``, in one run.

Run from the repository root::

    python bench/env.py                      # every entry, ~3 s each, three rounds, JSON on stdout
    python bench/env.py --seconds 1 --rounds 5
    python bench/env.py --text               # a table instead of JSON

What is measured: 4 players, classic (ours) and ``crazy_eights`` with its default rules (OpenSpiel),
a uniformly random legal action at every step, whole games one after another. A step is one action
of a player, with the observation of the player to act (a float32 array) and its legal actions:

- ``pettingzoo``: ``eights.research.pettingzoo.env()`` (in PettingZoo's order-enforcing wrapper), driven as
  PettingZoo's own loop is:
  ``for agent in env.agent_iter(): observation, ... = env.last(); env.step(random legal)``, the
  legal actions read off the mask by ``mask.nonzero()[0]``;
  ``pettingzoo_raw``: the same loop on ``raw_env()``, without the wrapper;
  ``pettingzoo_wrapper_alone``: that loop on a PettingZoo environment that does nothing (the same
  spaces, a constant observation, 50 steps a game) wrapped the same way: what the wrapper and the
  loop cost by themselves; ``pettingzoo_classic_wrappers_alone``: the same, in the two wrappers
  PettingZoo's classic games use (order-enforcing and bounds-checking);
- ``batch_N``: ``eights.research.batch.BatchEnv(N)``, one ``step`` of N actions (picked from the masks) a time;
  its steps are N a call;
- ``openspiel_crazy_eights``: OpenSpiel's C++ game from Python: at each player node
  ``state.observation_tensor(player)`` (as a float32 array), ``state.legal_actions()`` and
  ``state.apply_action``; its chance nodes (the deal, each card drawn) are played by the same cheap
  random pick and not counted as steps;
- ``rl_environment_*``: OpenSpiel's ``rl_environment.Environment`` on ``crazy_eights`` and on our
  ``python_eights`` (4 players, classic), stepped with a random legal action: it reads every
  player's observation tensor and legal actions at each step (and plays chance nodes itself).

The machine may be shared: each entry is run ``--rounds`` times, round after round, and the median
of its steps a second is reported with every round's figure (the spread says how loaded it was),
per second of wall-clock time (``steps_per_second``) and per second of this process's processor
time (``steps_per_cpu_second``: what other processes' load takes from the wall-clock figure, it
leaves, but for their contention for the processor's caches).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

try:
    import eights
except ImportError:  # run from a checkout without the package installed
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
    import eights

import numpy as np

PLAYERS = 4
BATCHES = (64, 256)


def pettingzoo_loop(make: Callable[[], Any], seconds: float, seed: int) -> tuple[int, float]:
    """Steps and seconds of whole games of PettingZoo's loop, a random legal action each step."""
    environment = make()
    rng = random.Random(seed)
    steps = 0
    game = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        environment.reset(seed=seed + game)
        game += 1
        for _agent in environment.agent_iter():
            observation, _, terminated, truncated, _ = environment.last()
            if terminated or truncated:
                environment.step(None)
                continue
            legal = observation["action_mask"].nonzero()[0]
            environment.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
    return steps, time.perf_counter() - start


def idle_env(classic: bool) -> Any:
    """A PettingZoo environment that does nothing, with our spaces, wrapped as ``eights.research.pettingzoo.env`` is
    (``classic``: as PettingZoo's classic games are)."""
    import gymnasium
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers

    from eights.research.encoding import observation_size

    size = observation_size(PLAYERS)

    class Idle(AECEnv):  # type: ignore[misc]
        metadata: ClassVar[dict[str, Any]] = {"name": "idle", "render_modes": [], "is_parallelizable": False}

        def __init__(self) -> None:
            super().__init__()
            self.possible_agents = [f"player_{s}" for s in range(PLAYERS)]
            box = gymnasium.spaces.Box(0.0, np.inf, (size,), np.float32)
            mask = gymnasium.spaces.Box(0, 1, (58,), np.int8)
            self.observation_spaces = {
                a: gymnasium.spaces.Dict({"observation": box, "action_mask": mask}) for a in self.possible_agents
            }
            self.action_spaces = {a: gymnasium.spaces.Discrete(58) for a in self.possible_agents}
            self._seen = np.zeros(size, np.float32)
            self._mask = np.ones(58, np.int8)

        def observation_space(self, agent: str) -> Any:
            return self.observation_spaces[agent]

        def action_space(self, agent: str) -> Any:
            return self.action_spaces[agent]

        def reset(self, seed: int | None = None, options: Any = None) -> None:
            self.agents = self.possible_agents[:]
            self.moves = 0
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
            self.terminations = dict.fromkeys(self.agents, False)
            self.truncations = dict.fromkeys(self.agents, False)
            self.infos = {a: {} for a in self.agents}
            self.agent_selection = self.agents[0]

        def observe(self, agent: str) -> Any:
            return {"observation": self._seen.copy(), "action_mask": self._mask.copy()}

        def step(self, action: Any) -> None:
            agent = self.agent_selection
            if self.terminations[agent]:
                self._was_dead_step(action)
                return
            self.moves += 1
            self._cumulative_rewards[agent] = 0.0
            self.rewards = dict.fromkeys(self.agents, 0.0)
            if self.moves >= 50:
                self.terminations = dict.fromkeys(self.agents, True)
            else:
                self.agent_selection = self.possible_agents[self.moves % PLAYERS]
            self._accumulate_rewards()

    idle = Idle()
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(idle) if classic else idle)


def batch_loop(games: int, seconds: float, seed: int) -> tuple[int, float]:
    from eights.research.batch import BatchEnv

    batch = BatchEnv(games, "classic", PLAYERS, seed=seed)
    rng = np.random.default_rng(seed)
    _, masks, _ = batch.reset()
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        # a random legal action per game: the legal action with the largest random weight, each as likely
        weights = masks * rng.random(masks.shape)
        _, masks, _, _, _, _ = batch.step(weights.argmax(axis=1))
        steps += games
    return steps, time.perf_counter() - start


def openspiel_loop(seconds: float, seed: int) -> tuple[int, float]:
    import pyspiel

    game = pyspiel.load_game("crazy_eights", {"players": PLAYERS})
    rng = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.random() * len(legal))])
                continue
            np.asarray(state.observation_tensor(state.current_player()), np.float32)
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
            steps += 1
    return steps, time.perf_counter() - start


def rl_environment_loop(name: str, seconds: float, seed: int) -> tuple[int, float]:
    import pyspiel
    from open_spiel.python import rl_environment

    import eights.research.openspiel  # noqa: F401 (registers python_eights)

    params = {"players": PLAYERS} if name == "crazy_eights" else {"players": PLAYERS, "preset": "classic"}
    environment = rl_environment.Environment(pyspiel.load_game(name, params), seed=seed)
    rng = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        step = environment.reset()
        while not step.last():
            player = step.observations["current_player"]
            legal = step.observations["legal_actions"][player]
            step = environment.step([legal[int(rng.random() * len(legal))]])
            steps += 1
    return steps, time.perf_counter() - start


def entries() -> dict[str, Callable[[float, int], tuple[int, float]]]:
    from eights.research.pettingzoo import env, raw_env

    out: dict[str, Callable[[float, int], tuple[int, float]]] = {
        "pettingzoo": lambda s, seed: pettingzoo_loop(lambda: env("classic", PLAYERS), s, seed),
        "pettingzoo_raw": lambda s, seed: pettingzoo_loop(lambda: raw_env("classic", PLAYERS), s, seed),
        "pettingzoo_wrapper_alone": lambda s, seed: pettingzoo_loop(lambda: idle_env(False), s, seed),
        "pettingzoo_classic_wrappers_alone": lambda s, seed: pettingzoo_loop(lambda: idle_env(True), s, seed),
    }
    for games in BATCHES:
        out[f"batch_{games}"] = lambda s, seed, games=games: batch_loop(games, s, seed)
    out["openspiel_crazy_eights"] = openspiel_loop
    out["rl_environment_crazy_eights"] = lambda s, seed: rl_environment_loop("crazy_eights", s, seed)
    out["rl_environment_python_eights"] = lambda s, seed: rl_environment_loop("python_eights", s, seed)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per entry and round (default 3)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of every entry; the median is reported")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", metavar="ENTRY", action="append", help="run only this entry (repeatable)")
    parser.add_argument("--text", action="store_true", help="a plain table instead of JSON")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.rounds < 1:
        parser.error("--seconds must be positive and --rounds at least 1")
    available = entries()
    chosen = args.only or list(available)
    unknown = [name for name in chosen if name not in available]
    if unknown:
        parser.error(f"--only {unknown[0]}: no such entry; valid: {', '.join(available)}")
    runs: dict[str, list[float]] = {name: [] for name in chosen}
    cpu: dict[str, list[float]] = {name: [] for name in chosen}
    counts: dict[str, int] = dict.fromkeys(chosen, 0)
    for _ in range(args.rounds):
        for name in chosen:
            used = time.process_time()
            steps, elapsed = available[name](args.seconds, args.seed)
            used = time.process_time() - used
            runs[name].append(round(steps / elapsed, 1))
            cpu[name].append(round(steps / used, 1))
            counts[name] += steps
    report: dict[str, Any] = {
        "benchmark": "environment steps a second with observations (4 players; classic, crazy_eights)",
        "engine": eights.BUILD,
        "seconds_per_round": args.seconds,
        "rounds": args.rounds,
        "seed": args.seed,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "entries": {
            name: {
                "steps_per_second": statistics.median(runs[name]),
                "steps_per_cpu_second": statistics.median(cpu[name]),
                "rounds": runs[name],
                "rounds_cpu": cpu[name],
                "steps": counts[name],
            }
            for name in chosen
        },
    }
    if "openspiel_crazy_eights" in runs:
        theirs = statistics.median(runs["openspiel_crazy_eights"])
        report["ratio_to_openspiel_crazy_eights"] = {
            name: round(statistics.median(runs[name]) / theirs, 3)
            for name in chosen
            if name != "openspiel_crazy_eights"
        }
    if args.text:
        rows = [f"{'entry':<34} {'steps/s':>10} {'steps/cpu s':>12}  rounds (wall-clock)"]
        for name, entry in report["entries"].items():
            wall, cpu = entry["steps_per_second"], entry["steps_per_cpu_second"]
            rows.append(f"{name:<34} {wall:>10,.0f} {cpu:>12,.0f}  {entry['rounds']}")
        print("\n".join(rows))
    else:
        print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
