"""The variant lab's cost: processor seconds a game of each kind, per preset, to plan a run (``eights lab
--precision`` plays until its shares are narrow enough, so its cost is games times these).

Run from the repository root::

    python bench/lab.py                              # every preset, four players, 10 games of each kind
    python bench/lab.py --players 3 --games 20 classic derange

Each game is the lab's own (``eights.lab.run.play_task``: the normal player in every seat, ``expert@BUDGET``
against normal, normal against easy), game ``i`` of lab seed 1, timed with ``time.process_time`` (this
process's processor time, which the machine's other load does not swamp). Prints one JSON object: the
settings, and per preset and kind the mean processor seconds a game.
"""

from __future__ import annotations

import argparse
import json
import time

from eights.lab.run import DEFAULT_BUDGET, KINDS, Task, play_task
from eights.rules import PRESETS, load_preset


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("presets", nargs="*", default=list(PRESETS), help="presets (default: every one)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=10, help="games of each kind per preset")
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help="the skill games' expert iterations")
    args = parser.parse_args()
    seconds: dict[str, dict[str, float]] = {}
    for name in args.presets:
        rules = load_preset(name)
        seconds[name] = {}
        for kind in KINDS:
            start = time.process_time()
            for index in range(args.games):
                play_task(Task(0, kind, index, rules, args.players, 1, args.budget))
            seconds[name][kind] = round((time.process_time() - start) / args.games, 4)
    settings = {"players": args.players, "games": args.games, "budget": args.budget}
    print(json.dumps({**settings, "cpu_seconds_per_game": seconds}))


if __name__ == "__main__":
    main()
