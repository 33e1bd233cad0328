"""Random-playout throughput of the engine, side by side with OpenSpiel's C++ ``crazy_eights``.

Run from the repository root::

    python bench/engine.py                  # every entry, ~3 s each, JSON on stdout
    python bench/engine.py --seconds 1      # a shorter time budget per entry
    python bench/engine.py --games 500      # a fixed game budget per entry instead
    python bench/engine.py --only derange   # one preset's entries
    python bench/engine.py --seed 7 --text  # another seed; a table instead of JSON
    python bench/engine.py --only classic   # ours on classic and the two OpenSpiel runs only

OpenSpiel is the ``bench`` extra (``pip install -e '.[bench]'``); without it the report
says ``"openspiel": null`` with the reason, and still gives our numbers.

What is measured. Ours: ``Game(rules, n, seed=..., log=False)`` (no event log), then the
random player ``legal = game.legal_actions(); game.apply(legal[int(rng.random() * len(legal))])``
(the unchecked fast path) with one seeded ``random.Random``, until the game is over; every
action counts (plays, draws, passes, suit names); the time covers the deals (``Game()``
shuffles and deals inside) and every action. Entries: classic (2 players), action (2
and 4), race (2 and 4), derange (4 players, 2 packs, all fifteen rounds), baby-eating (4
players; 8 players in teams, on the expanded deck). A game is a whole match as the preset
plays it (classic: one round; race: rounds to 50 x players; derange: fifteen rounds).

OpenSpiel: ``pyspiel.load_game("crazy_eights", {"players": 2})`` with its other parameters
at their defaults, run twice:

- ``openspiel`` (like for like): every node, chance or player, is driven by the same cheap
  loop as ours, ``legal = state.legal_actions(); state.apply_action(legal[int(rng.random() *
  len(legal))])``, from ``new_initial_state()`` until ``is_terminal()``. Its deal and its
  draws are chance nodes (about 52 a game), so the time covers them as ours covers its
  shuffles. Its chance outcomes are equally likely (checked on 20 untimed games first:
  ``chance_outcomes_uniform``), so the uniform index draws them as ``chance_outcomes()``
  would. Only player actions count as actions; which steps were the players' is read off
  ``full_history()`` after each game, off the clock.
- ``openspiel_weighted_chance`` (the old way, kept for comparison with earlier reports): each
  chance node by ``rng.choices`` over ``chance_outcomes()`` (a weighted draw from Python, the
  outcome list built as Python tuples), each player node by ``rng.choice(legal_actions())``,
  with ``is_chance_node()`` tested at every node. Most of its time is that Python driving, not
  OpenSpiel's C++: it understates OpenSpiel.

``ratio_ours_to_openspiel`` gives ours (classic, 2 players) over each run, in actions and in
games per second: ``like_for_like`` is the honest speed comparison; ``openspiel_weighted_chance``
is the old figure. OpenSpiel's rules are not classic's (5 cards drawn at most, a 100-turn
limit, no reshuffle) and its games are a little shorter, so even like for like the ratio
compares random-playout speed from Python on similar games, not identical games.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from pathlib import Path
from typing import Any

try:
    from eights.engine import Game
    from eights.rules import load_preset
except ImportError:  # run from a checkout without the package installed
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
    from eights.engine import Game
    from eights.rules import load_preset

#: (preset, players, options) for each entry.
ENTRIES: list[tuple[str, int, list[str]]] = [
    ("classic", 2, []),
    ("action", 2, []),
    ("action", 4, []),
    ("race", 2, []),
    ("race", 4, []),
    ("derange", 4, ["packs=2"]),
    ("baby-eating", 4, []),
    ("baby-eating", 8, ["teams=true"]),
]


def bench_ours(
    preset: str, players: int, options: list[str], seconds: float, games: int | None, seed: int
) -> dict[str, Any]:
    """Random playouts of one entry for ``seconds`` (or exactly ``games`` games)."""
    rules = load_preset(preset).with_options(options)
    rules.check_players(players)
    rng = random.Random(f"eights-bench:{seed}:{preset}:{players}")
    played = actions = rounds = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        game = Game(rules, players, seed=rng.getrandbits(48), log=False)
        legal_actions, apply, rand = game.legal_actions, game.apply, rng.random
        while not game.is_over:
            legal = legal_actions()
            apply(legal[int(rand() * len(legal))])
            actions += 1
        played += 1
        rounds += game.round_index
        if games is not None:
            if played >= games:
                break
        elif time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    return {
        "preset": preset,
        "players": players,
        "options": options,
        "packs": rules.packs_for(players),
        "games": played,
        "rounds": rounds,
        "actions": actions,
        "seconds": round(elapsed, 4),
        "games_per_second": round(played / elapsed, 1),
        "actions_per_second": round(actions / elapsed, 1),
        "actions_per_game": round(actions / played, 1),
    }


#: How OpenSpiel's chance nodes are driven: ``alike`` as ours (and as its player nodes), ``weighted`` the old way.
CHANCE_MODES = ("alike", "weighted")


def bench_openspiel(
    seconds: float, games: int | None, seed: int, chance_mode: str
) -> tuple[dict[str, Any] | None, str | None]:
    """OpenSpiel's C++ crazy_eights, 2 players, driven from Python; (result, reason when not run).

    ``chance_mode`` ``alike``: every node, chance or player, by the loop that drives ours
    (``legal = state.legal_actions(); state.apply_action(legal[int(rand() * len(legal))])``);
    ``weighted``: chance nodes by ``rng.choices`` over ``state.chance_outcomes()``, player nodes
    by ``rng.choice(state.legal_actions())``, testing ``is_chance_node()`` at every node.
    """
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError as exc:
        return None, f"pyspiel is not importable ({exc}); install the bench extra: pip install -e '.[bench]'"
    try:
        game = pyspiel.load_game("crazy_eights", {"players": 2})
    except Exception as exc:  # a build of OpenSpiel without the game
        return None, f"pyspiel cannot load crazy_eights: {exc}"
    uniform = _chance_is_uniform(game, seed) if chance_mode == "alike" else None
    rng = random.Random(f"openspiel-bench:{seed}")
    played = actions = chance = 0
    untimed = 0.0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = game.new_initial_state()
        if chance_mode == "alike":
            legal_actions, apply, is_terminal, rand = (
                state.legal_actions,
                state.apply_action,
                state.is_terminal,
                rng.random,
            )
            steps = 0
            while not is_terminal():
                legal = legal_actions()
                apply(legal[int(rand() * len(legal))])
                steps += 1
            # Which steps were the players' is read off the history once the game is over, off the
            # clock: it costs half as much again as playing the game (a Python object per action).
            counting = time.perf_counter()
            moved = sum(1 for item in state.full_history() if item.player >= 0)
            actions += moved
            chance += steps - moved
            untimed += time.perf_counter() - counting
        else:
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(rng.choices(outcomes, probs)[0])
                    chance += 1
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
                    actions += 1
        played += 1
        if games is not None:
            if played >= games:
                break
        elif time.perf_counter() >= deadline + untimed:
            break
    elapsed = time.perf_counter() - start - untimed
    result: dict[str, Any] = {
        "game": "crazy_eights",
        "players": 2,
        "chance": chance_mode,
        "parameters": {k: v for k, v in sorted(game.get_parameters().items())},
        "version": _version("open_spiel"),
        "games": played,
        "actions": actions,
        "chance_actions": chance,
        "seconds": round(elapsed, 4),
        "games_per_second": round(played / elapsed, 1),
        "actions_per_second": round(actions / elapsed, 1),
        "actions_per_game": round(actions / played, 1),
        "chance_actions_per_game": round(chance / played, 1),
    }
    if uniform is not None:
        result["chance_outcomes_uniform"] = uniform
    return result, None


def _chance_is_uniform(game: Any, seed: int, games: int = 20) -> bool:
    """Whether every chance node of a few untimed games gives its outcomes equal probabilities, listed
    as ``legal_actions()`` lists them: then a uniform index draws what ``chance_outcomes()`` would."""
    rng = random.Random(f"openspiel-check:{seed}")
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                probs = [p for _, p in outcomes]
                if [a for a, _ in outcomes] != legal or max(probs) - min(probs) > 1e-12:
                    return False
            state.apply_action(legal[int(rng.random() * len(legal))])
    return True


def _version(dist: str) -> str | None:
    try:
        from importlib.metadata import version

        return version(dist)
    except Exception:
        return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time budget per entry (default 3)")
    parser.add_argument("--games", type=int, default=None, help="a fixed number of games per entry instead")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals and the random players")
    parser.add_argument("--only", metavar="PRESET", help="run only this preset's entries")
    parser.add_argument("--no-openspiel", action="store_true", help="skip the OpenSpiel comparison")
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--json", dest="text", action="store_false", help="JSON output (the default)")
    out.add_argument("--text", dest="text", action="store_true", help="a plain table instead of JSON")
    parser.set_defaults(text=False)
    args = parser.parse_args(argv)
    if args.seconds <= 0 or (args.games is not None and args.games < 1):
        parser.error("--seconds must be positive and --games at least 1")
    entries = [e for e in ENTRIES if args.only in (None, e[0])]
    if not entries:
        parser.error(f"--only {args.only}: no entry; valid: {', '.join(dict.fromkeys(e[0] for e in ENTRIES))}")

    report: dict[str, Any] = {
        "benchmark": "random playouts, unchecked fast path (Game(..., log=False) + apply)",
        "seconds_per_entry": None if args.games is not None else args.seconds,
        "games_per_entry": args.games,
        "seed": args.seed,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "entries": [bench_ours(p, n, o, args.seconds, args.games, args.seed) for p, n, o in entries],
    }
    ours = next((e for e in report["entries"] if e["preset"] == "classic" and e["players"] == 2), None)
    runs: dict[str, dict[str, Any] | None] = {}
    reason = None
    for mode in CHANCE_MODES:
        if args.no_openspiel:
            run, reason = None, "skipped (--no-openspiel)"
        elif ours is None:
            run, reason = None, f"skipped: it is compared with 2-player classic, not run with --only {args.only}"
        else:
            run, reason = bench_openspiel(args.seconds, args.games, args.seed, mode)
        runs[mode] = run
    report["openspiel"] = runs["alike"]
    report["openspiel_weighted_chance"] = runs["weighted"]
    if runs["alike"] is None:
        report["openspiel_reason"] = reason
        report["ratio_ours_to_openspiel"] = None
    else:
        assert ours is not None
        ratios: dict[str, Any] = {"entry": "classic, 2 players"}
        for key, mode in (("like_for_like", "alike"), ("openspiel_weighted_chance", "weighted")):
            run = runs[mode]
            if run is not None:
                ratios[key] = {
                    "actions_per_second": round(ours["actions_per_second"] / run["actions_per_second"], 3),
                    "games_per_second": round(ours["games_per_second"] / run["games_per_second"], 3),
                }
        report["ratio_ours_to_openspiel"] = ratios
    if args.text:
        print(_table(report))
    else:
        print(json.dumps(report, indent=2))
    return 0


def _table(report: dict[str, Any]) -> str:
    rows = [f"{'entry':<28} {'games':>8} {'games/s':>10} {'actions/s':>12} {'actions/game':>13}"]
    for e in report["entries"]:
        name = f"{e['preset']} {e['players']}p" + (f" ({', '.join(e['options'])})" if e["options"] else "")
        rows.append(
            f"{name:<28} {e['games']:>8} {e['games_per_second']:>10} {e['actions_per_second']:>12} "
            f"{e['actions_per_game']:>13}"
        )
    for key, label in (("openspiel", "alike"), ("openspiel_weighted_chance", "weighted chance")):
        os_ = report[key]
        if os_ is None:
            rows.append(f"openspiel ({label}): not run: {report['openspiel_reason']}")
            continue
        name = f"openspiel 2p ({label})"
        rows.append(
            f"{name:<28} {os_['games']:>8} {os_['games_per_second']:>10} "
            f"{os_['actions_per_second']:>12} {os_['actions_per_game']:>13}"
        )
    ratio = report["ratio_ours_to_openspiel"]
    if ratio is not None:
        for key, label in (
            ("like_for_like", "like for like"),
            ("openspiel_weighted_chance", "old way, weighted chance"),
        ):
            if key in ratio:
                rows.append(
                    f"ours/openspiel (classic 2p, {label}): {ratio[key]['actions_per_second']} x actions/s, "
                    f"{ratio[key]['games_per_second']} x games/s"
                )
    return "\n".join(rows)


if __name__ == "__main__":
    sys.exit(main())
