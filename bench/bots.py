"""Search speed and decision time of the computer players, side by side with OpenSpiel's Python ISMCTS.

Run from the repository root::

    python bench/bots.py                           # every part, JSON on stdout (about 15 minutes)
    python bench/bots.py --quick                   # small counts for a smoke run (about 1.5 minutes)
    python bench/bots.py --only search --text      # the simulations-per-second comparison, as a table
    python bench/bots.py --only latency --hard-decisions 300 --expert-decisions 150
    python bench/bots.py --variant baby-eating --players 4 --only latency

OpenSpiel is the ``bench`` extra (``pip install -e '.[bench]'``); without it the report
says ``"openspiel": null`` with the reason, and still gives our numbers.

What is measured.

(a) Our search: ``ISMCTSBot(seed, seconds=None, iterations=N, model=M)`` (``--iterations``,
default 200) on 2-player ``classic``, in one process (one core), twice: ``model=False``
(``ours``: random play-outs, as OpenSpiel's) and ``model=True`` (``ours_modelled``, the
default in 2-player classic and action: the worlds come from the belief, and the normal
player plays the rest of the seat's turn and the other's next turn in the paired test's
play-outs). The positions are those of real games: both seats are such bots and play each
game to its end. Every decision with more than one legal action is timed
(``time.perf_counter`` around ``bot.choose(view)``, or with ``--cpu-time`` this process's CPU
time, ``time.process_time``, which the machine's other load does not swamp; the view is built
outside the timer) until ``--decisions`` (default 100) are timed; simulations per second = the sum of
``bot.last_iterations`` over the sum of those times. A simulation is one sampled deal, one
walk down the tree and one rollout to the end of the round, or (the second half of the
budget) one play-out of the paired test: a sampled deal played to the end of the round
after one of the compared moves. Before each such decision the bot's belief about the
other hand (``eights.bots.belief``, which replays the moves since its last decision) is
brought up to date by ``bot.worlds(view)``, timed apart and reported as
``belief_ms_per_decision``: it is not a simulation, and OpenSpiel's bot has no such step.

(b) OpenSpiel: ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with
``mcts.RandomRolloutEvaluator(n_rollouts=1)``, ``uct_c=2``, ``max_simulations=N`` (the same
N), on ``pyspiel.load_game("crazy_eights", {"players": 2})``, both players such bots, chance
sampled by its probabilities; every decision with more than one legal action is timed
around ``bot.step(state)`` until as many decisions as ours are timed; simulations per second
= N x decisions / time. OpenSpiel's crazy_eights has neither information-state strings nor
``ResampleFromInfostate``, so the bot keys its nodes by observation strings
(``use_observation_string=True``) and deals its worlds with the resampler defined here: it
replays the history with the cards the opponent holds unseen dealt anew from the cards the
player has not seen. Its rules are not classic's (at most 5 draws a turn, a 100-turn limit,
no reshuffle) and its rollouts are uniformly random to the end of the game, so the ratio
compares search speed from Python on similar games, not identical searches.

(c) Decision time of ``make_bot("hard")`` and ``make_bot("expert")`` at their default
budgets (0.2 s and 1 s per decision), all seats the same level, on every preset (or the one
``--variant`` names) at ``--players`` (default 2): the wall time of every ``bot.choose(view)``
call, games played until ``--hard-decisions`` (default 200) and ``--expert-decisions``
(default 100) decisions with more than one legal action are timed, per level and per
preset. The time includes everything the decision does: the belief's update (which stops
at the deadline of the tree's half of the budget, ``eights.bots.belief``), the tree, the
normal player's move and the paired test. Reported for all decisions (a forced move returns
at once) and for those with a choice: p50 and p99 (linear interpolation between order
statistics, numpy's default), mean and max, in milliseconds; how many decisions with a
choice took more than 1.1 times the budget (each ends the play-out under way at its deadline,
so a decision takes a little more than its budget); and, where the belief reads the
other player (2 players, the first out wins), how many of its updates the deadline cut short.

(d) ``--only match``: the new ``expert`` against the old one at the same time budget
(``--match-seconds`` per decision, default 0.1 s), ``--match-games`` games (default 100) of
2-player ``--match-variant`` (default classic), seats alternating. The new one is this
process's build (``eights --version`` names it: compiled where the install could build it).
The old one is ``--match-old``: by default the code of the last commit before the compiled
engine (``PRE_COMPILED``, unpacked from git: today's expert as it was), or ``pure``, this
code's pure-Python build (the same decisions as the compiled one on a count of simulations,
at its own speed). It runs in a child process on that source tree, which follows each game
from its seed and the moves played (the engines deal and list moves alike; every move is
checked on both sides); the time of the pipe is not charged to its budget. Reported: the new
one's wins, losses and shared wins, its score (a shared win counts half) and the score's
95 % interval (normal approximation).

The machine's other load shows in every number: compare runs made side by side.

Kept whole, past 600 lines, for a reason: it is one command whose four measures share its options and its one
report (JSON, or the table of --text), and the scripts in bench/ each run alone from a checkout, importing no other.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

try:
    from eights.bots import ISMCTSBot, make_bot
    from eights.engine import Game, view
    from eights.rules import PRESETS, load_preset
except ImportError:  # run from a checkout without the package installed
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
    from eights.bots import ISMCTSBot, make_bot
    from eights.engine import Game, view
    from eights.rules import PRESETS, load_preset


# ----- (a) our search -------------------------------------------------------------------------


def bench_ours(iterations: int, decisions: int, seed: int, model: bool, cpu: bool = False) -> dict[str, Any]:
    """Our ISMCTS on 2-player classic: simulations per second over ``decisions`` timed decisions
    (``cpu``: seconds of this process's CPU time, not of the wall clock)."""
    clock = time.process_time if cpu else time.perf_counter
    rules = load_preset("classic")
    rng = random.Random(f"eights-bench-bots:{seed}")
    timed = sims = games = forced = 0
    spent = updating = 0.0
    while timed < decisions:
        game = Game(rules, 2, seed=rng.getrandbits(48), log=True)
        bots = [ISMCTSBot(rng.getrandbits(32), seconds=None, iterations=iterations, model=model) for _ in range(2)]
        games += 1
        while not game.is_over and timed < decisions:
            seat = game.to_act
            seen = view(game, seat)
            bot = bots[seat]
            before = clock()
            if len(seen.legal) > 1:
                bot.worlds(seen)  # the belief's update: choose() then finds it done
            start = clock()
            action = bot.choose(seen)
            elapsed = clock() - start
            if len(seen.legal) > 1:
                timed += 1
                sims += bot.last_iterations
                spent += elapsed
                updating += start - before
            else:
                forced += 1
            game.apply(action)
    return {
        "bot": f"eights ISMCTSBot(seconds=None, iterations={iterations}, model={model})",
        "clock": "process CPU time" if cpu else "wall",
        "game": "classic, 2 players",
        "games": games,
        "decisions": timed,
        "forced_decisions_skipped": forced,
        "simulations": sims,
        "seconds": round(spent, 4),
        "simulations_per_second": round(sims / spent, 1),
        "ms_per_decision": round(1000 * spent / timed, 2),
        "belief_ms_per_decision": round(1000 * updating / timed, 2),
    }


# ----- (b) OpenSpiel's Python ISMCTS ---------------------------------------------------------------

_DEALER = re.compile(r"Player (\d+)")
EIGHT_RANK = 6  # OpenSpiel's crazy_eights: card = rank * 4 + suit, ranks 2..A, so rank 6 is the 8
NUM_CARDS = 52


def openspiel_resampler(game: Any, rng: random.Random) -> Any:
    """A ``resample_from_infostate`` for crazy_eights, which OpenSpiel does not provide.

    Replays the state's history; each card dealt or drawn to another player and not played
    since (so still unseen in their hand) is replaced by a card drawn at random from those
    the player has not seen. Cards seen anywhere in the history (own cards, the starters
    turned, cards played) stay where they were, so the replay is legal and the player's
    observation is unchanged. (A turned 8 put back in the stock is not dealt to the unseen
    slots: a small approximation, no inconsistency.)
    """
    import pyspiel  # type: ignore[import-not-found]

    chance = pyspiel.PlayerId.CHANCE
    players = game.num_players()
    decks = 2 if players > 5 else 1
    initial = 7 if players == 2 else 5

    def resample(state: Any, player: int) -> Any:
        history = state.full_history()
        found = _DEALER.search(state.action_to_string(chance, history[0].action))
        assert found is not None, "OpenSpiel's first chance outcome no longer names the dealer"
        dealer = int(found.group(1))
        # Who received each chance card: a seat, or -1 for the public starters.
        owner: list[int | None] = [None] * len(history)
        starter = True
        last_actor = -1
        for i, item in enumerate(history):
            if i == 0:
                continue
            if item.player == chance:
                if i <= players * initial:
                    owner[i] = (dealer + i) % players
                elif starter:
                    owner[i] = -1
                    starter = item.action // 4 == EIGHT_RANK
                else:
                    owner[i] = last_actor
            else:
                last_actor = item.player
        played = [(i, item.player, item.action) for i, item in enumerate(history) if item.player >= 0]
        hidden = []
        kept: Counter[int] = Counter()
        for i, item in enumerate(history):
            seat = owner[i]
            if seat is None:
                continue
            card = item.action
            if seat >= 0 and seat != player and not any(j > i and p == seat and a == card for j, p, a in played):
                hidden.append(i)
            else:
                kept[card] += 1
        pool = [card for card in range(NUM_CARDS) for _ in range(decks - kept[card])]
        dealt = rng.sample(pool, len(hidden))
        replace = dict(zip(hidden, dealt, strict=True))
        world = game.new_initial_state()
        for i, item in enumerate(history):
            world.apply_action(replace.get(i, item.action))
        return world

    return resample


def bench_openspiel(iterations: int, decisions: int, seed: int) -> tuple[dict[str, Any] | None, str | None]:
    """OpenSpiel's Python ISMCTS on its crazy_eights, 2 players; (result, reason when not run)."""
    try:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-untyped]
    except ImportError as exc:
        return None, f"open_spiel is not importable ({exc}); install the bench extra: pip install -e '.[bench]'"
    try:
        game = pyspiel.load_game("crazy_eights", {"players": 2})
    except Exception as exc:  # a build of OpenSpiel without the game
        return None, f"pyspiel cannot load crazy_eights: {exc}"
    rng = random.Random(f"openspiel-bench-bots:{seed}")
    resample = openspiel_resampler(game, rng)

    def new_bot() -> Any:
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(rng.getrandbits(31)))
        bot = ismcts.ISMCTSBot(
            game,
            evaluator,
            2.0,
            iterations,
            random_state=np.random.RandomState(rng.getrandbits(31)),
            use_observation_string=True,
        )
        bot.set_resampler(resample)
        return bot

    timed = games = forced = 0
    spent = 0.0
    failures: list[str] = []
    while timed < decisions:
        state = game.new_initial_state()
        bots = [new_bot(), new_bot()]
        games += 1
        while not state.is_terminal() and timed < decisions:
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
                continue
            player = state.current_player()
            choices = len(state.legal_actions())
            start = time.perf_counter()
            try:
                action = bots[player].step(state)
            except KeyError as exc:
                # OpenSpiel's ISMCTS keys nodes by observation string; two worlds with one string but
                # other legal actions make it fail (seen with open-spiel 2.0.2). That game is dropped.
                failures.append(f"game {games}: KeyError {exc} in ISMCTSBot.step")
                break
            elapsed = time.perf_counter() - start
            if choices > 1:
                timed += 1
                spent += elapsed
            else:
                forced += 1
            state.apply_action(action)
    sims = iterations * timed
    result = {
        "bot": f"open_spiel.python.algorithms.ismcts.ISMCTSBot(max_simulations={iterations}, uct_c=2.0, "
        "RandomRolloutEvaluator(n_rollouts=1), use_observation_string=True, resampler: bench/bots.py)",
        "game": "crazy_eights, 2 players",
        "parameters": {k: v for k, v in sorted(game.get_parameters().items())},
        "version": _version("open_spiel"),
        "games": games,
        "decisions": timed,
        "forced_decisions_skipped": forced,
        "games_dropped_on_openspiel_errors": failures,
        "simulations": sims,
        "seconds": round(spent, 4),
        "simulations_per_second": round(sims / spent, 1),
        "ms_per_decision": round(1000 * spent / timed, 2),
    }
    return result, None


# ----- (c) decision time at the default budgets -----------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile (0-100), interpolating linearly between order statistics."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    pos = (len(ordered) - 1) * q / 100
    low = int(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def summary(ms: list[float]) -> dict[str, Any]:
    return {
        "decisions": len(ms),
        "p50_ms": round(percentile(ms, 50), 2),
        "p99_ms": round(percentile(ms, 99), 2),
        "mean_ms": round(sum(ms) / len(ms), 2) if ms else None,
        "max_ms": round(max(ms), 2) if ms else None,
    }


def bench_latency(level: str, decisions: int, preset: str, players: int, seed: int) -> dict[str, Any]:
    """Wall time of ``make_bot(level).choose(view)`` until ``decisions`` with a choice are timed."""
    rules = load_preset(preset)
    rules.check_players(players)
    rng = random.Random(f"eights-bench-latency:{seed}:{level}:{preset}:{players}")
    every: list[float] = []
    chosen: list[float] = []
    games = cut = modelled = 0
    budget = make_bot(level, 0)
    seconds = getattr(budget, "seconds", None)
    while len(chosen) < decisions:
        game = Game(rules, players, seed=rng.getrandbits(48), log=True)
        bots = [make_bot(level, rng.getrandbits(32)) for _ in range(players)]
        games += 1
        while not game.is_over and len(chosen) < decisions:
            seat = game.to_act
            seen = view(game, seat)
            bot = bots[seat]
            start = time.perf_counter()
            action = bot.choose(seen)
            ms = 1000 * (time.perf_counter() - start)
            every.append(ms)
            if len(seen.legal) > 1:
                chosen.append(ms)
                if isinstance(bot, ISMCTSBot) and bot.modelled(seen):
                    modelled += 1
                    cut += bot.belief.cut
            game.apply(action)
    # A decision ends a play-out past its deadline, so a little over the budget is the rule: count 10 % over.
    over = [ms for ms in chosen if seconds is not None and ms > 1100 * seconds]
    return {
        "level": level,
        "budget_seconds": seconds,
        "preset": preset,
        "players": players,
        "game": f"{preset}, {players} players",
        "games": games,
        "all_decisions": summary(every),
        "with_a_choice": summary(chosen),
        "over_budget_by_10_percent": len(over),
        "belief_decisions": modelled,
        "belief_updates_cut_at_the_deadline": cut,
    }


# ----- (d) the new expert against the old ------------------------------------------------------


#: The last commit before the compiled engine (issue 32): today's expert of (d), as it was.
PRE_COMPILED = "2acb6e4"

# The child process of (d): the old expert, from its own source tree (PYTHONPATH), one bot and one
# game at a time. It follows each game from its seed and the moves played, as indexes into its own
# legal lists (the engines deal and list alike; every move's repr is checked on both sides), so
# nothing passes between the two versions of the code but numbers and text.
_OLD_EXPERT = """
import json, sys
import eights
from eights.bots import make_bot
from eights.engine import Game, view
from eights.rules import load_preset

seconds = float(sys.argv[1])
print(json.dumps(getattr(eights, "BUILD", "pure Python")), flush=True)
games = {}
for line in sys.stdin:
    request = json.loads(line)
    if request[0] == "new":
        _, key, preset, game_seed, bot_seed = request
        game = Game(load_preset(preset), 2, seed=game_seed, log=True)
        games = {key: (game, make_bot("expert", bot_seed, seconds=seconds))}  # the games before are over
        continue
    _, key, moves = request
    game, bot = games[key]
    for index, text in moves:
        action = game.legal_actions()[index]
        assert repr(action) == text, (repr(action), text)
        game.apply(action)
    seen = view(game, game.to_act)
    action = bot.choose(seen)
    print(json.dumps([seen.legal.index(action), repr(action)]), flush=True)
"""


def _old_source(old: str, into: Path) -> Path:
    """The ``src`` folder of the old expert: this checkout's (``pure``) or commit ``old``'s, unpacked."""
    root = Path(__file__).resolve().parent.parent
    if old == "pure":
        return root / "src"
    import io
    import subprocess
    import tarfile

    archive = subprocess.run(["git", "archive", "--format=tar", old, "src"], cwd=root, capture_output=True, check=True)
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def bench_match(games: int, seconds: float, preset: str, seed: int, old: str) -> dict[str, Any]:
    """The new expert (this build) against the old (``old``: a commit, or ``pure`` for this code's
    pure build) in a child process, 2 players."""
    import os
    import subprocess
    import tempfile

    import eights

    with tempfile.TemporaryDirectory(prefix="eights-old-") as tmp:
        source = _old_source(old, Path(tmp))
        env = {**os.environ, "PYTHONPATH": str(source), "EIGHTS_PURE": "1"}
        child = subprocess.Popen(
            [sys.executable, "-c", _OLD_EXPERT, str(seconds)],
            cwd=tmp,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert child.stdin is not None and child.stdout is not None
        ask, answer = child.stdin, child.stdout

        def send(request: list[Any]) -> None:
            ask.write(json.dumps(request) + "\n")
            ask.flush()

        old_build = json.loads(answer.readline())
        rules = load_preset(preset)
        rng = random.Random(f"eights-bench-match:{seed}")
        won = lost = shared = 0
        try:
            for number in range(games):
                game_seed = rng.getrandbits(48)
                game = Game(rules, 2, seed=game_seed, log=True)
                new_seat = number % 2
                bot_seed = rng.getrandbits(32)
                new = make_bot("expert", bot_seed, seconds=seconds)
                send(["new", number, preset, game_seed, bot_seed])
                moves: list[tuple[int, str]] = []  # played since the old one last moved
                while not game.is_over:
                    seat = game.to_act
                    legal = game.legal_actions()
                    if seat == new_seat:
                        action = new.choose(view(game, seat))
                    else:
                        send(["move", number, moves])
                        index, text = json.loads(answer.readline())
                        action = legal[index]
                        assert repr(action) == text, (repr(action), text)
                        moves = []
                    moves.append((legal.index(action), repr(action)))
                    game.apply(action)
                assert game.outcome is not None
                winners = game.outcome.winners
                if len(winners) > 1:
                    shared += 1
                elif new_seat in winners:
                    won += 1
                else:
                    lost += 1
        finally:
            ask.close()
            try:
                child.wait(timeout=10)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
    score = (won + shared / 2) / games
    points = [1.0] * won + [0.5] * shared + [0.0] * lost
    var = sum((x - score) ** 2 for x in points) / max(games - 1, 1)
    half = 1.96 * (var / games) ** 0.5
    return {
        "match": f"new expert ({eights.BUILD}) against the old ({old}: {old_build}), 2 players, {preset}",
        "seconds_per_decision": seconds,
        "games": games,
        "new_won": won,
        "new_lost": lost,
        "shared": shared,
        "new_score": round(score, 4),
        "new_score_95_interval": [round(max(score - half, 0.0), 4), round(min(score + half, 1.0), 4)],
    }


# ----- the report ---------------------------------------------------------------------------------------


def _version(dist: str) -> str | None:
    try:
        from importlib.metadata import version

        return version(dist)
    except Exception:
        return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--iterations", type=int, default=200, help="simulations per decision in (a) and (b)")
    parser.add_argument("--decisions", type=int, default=100, help="decisions timed in (a) and in (b) (default 100)")
    parser.add_argument("--hard-decisions", type=int, default=200, help="decisions with a choice timed for hard")
    parser.add_argument("--expert-decisions", type=int, default=100, help="decisions with a choice timed for expert")
    parser.add_argument(
        "--variant",
        default="all",
        help=f"the preset of (c), or all (the default): {', '.join(PRESETS)}",
    )
    parser.add_argument("--players", type=int, default=2, help="the players of (c) (default 2)")
    parser.add_argument(
        "--only", choices=("search", "latency", "match"), help="run only (a)+(b), only (c), or only (d)"
    )
    parser.add_argument("--match-games", type=int, default=100, help="games of (d), the new expert against the old")
    parser.add_argument("--match-seconds", type=float, default=0.1, help="time per decision in (d) (default 0.1)")
    parser.add_argument("--match-variant", default="classic", help="the preset of (d) (default classic)")
    parser.add_argument(
        "--match-old",
        default=PRE_COMPILED,
        help=f"the old expert of (d): a commit (default {PRE_COMPILED}, the last before the compiled engine) "
        "or pure (this code's pure build)",
    )
    parser.add_argument(
        "--quick", action="store_true", help="small counts: 30 decisions, hard 40 and expert 10 per preset"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals and the bots")
    parser.add_argument("--no-openspiel", action="store_true", help="skip the OpenSpiel comparison")
    parser.add_argument(
        "--cpu-time",
        action="store_true",
        help="time (a) in this process's CPU seconds, not the wall clock's: what a core of its own would "
        "give, on a machine whose load swamps wall time (OpenSpiel's (b) stays on the wall clock)",
    )
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--json", dest="text", action="store_false", help="JSON output (the default)")
    out.add_argument("--text", dest="text", action="store_true", help="a plain table instead of JSON")
    parser.set_defaults(text=False)
    args = parser.parse_args(argv)
    if args.quick:
        args.decisions, args.hard_decisions, args.expert_decisions = 30, 40, 10
    if min(args.iterations, args.decisions, args.hard_decisions, args.expert_decisions) < 1:
        parser.error("--iterations and the decision counts must be at least 1")
    if args.variant != "all" and args.variant not in PRESETS:
        parser.error(f"--variant {args.variant}: unknown; valid: all, {', '.join(PRESETS)}")
    variants = list(PRESETS) if args.variant == "all" else [args.variant]
    for preset in variants:
        try:
            load_preset(preset).check_players(args.players)
        except ValueError as exc:
            parser.error(f"--players {args.players} ({preset}): {exc}")

    report: dict[str, Any] = {
        "benchmark": "computer players: search simulations per second, and decision time at the default budgets",
        "seed": args.seed,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
    }
    if args.only in (None, "search"):
        ours = bench_ours(args.iterations, args.decisions, args.seed, model=False, cpu=args.cpu_time)
        modelled = bench_ours(args.iterations, args.decisions, args.seed, model=True, cpu=args.cpu_time)
        if args.no_openspiel:
            openspiel: dict[str, Any] | None = None
            reason: str | None = "skipped (--no-openspiel)"
        else:
            openspiel, reason = bench_openspiel(args.iterations, args.decisions, args.seed)
        search: dict[str, Any] = {
            "iterations": args.iterations,
            "ours": ours,
            "ours_modelled": modelled,
            "openspiel": openspiel,
        }
        if openspiel is None:
            search["openspiel_reason"] = reason
            search["ratio_ours_to_openspiel"] = None
        elif args.cpu_time:
            search["ratio_ours_to_openspiel"] = None  # CPU time against OpenSpiel's wall time: no ratio
        else:
            search["ratio_ours_to_openspiel"] = round(
                ours["simulations_per_second"] / openspiel["simulations_per_second"], 2
            )
        report["search"] = search
    if args.only in (None, "latency"):
        report["latency"] = [
            bench_latency(level, count, preset, args.players, args.seed)
            for level, count in (("hard", args.hard_decisions), ("expert", args.expert_decisions))
            for preset in variants
        ]
    if args.only == "match":
        if args.match_games < 1 or args.match_seconds <= 0 or args.match_variant not in PRESETS:
            parser.error(
                "--match-games must be at least 1, --match-seconds positive, "
                f"--match-variant one of {', '.join(PRESETS)}"
            )
        report["match"] = bench_match(
            args.match_games, args.match_seconds, args.match_variant, args.seed, args.match_old
        )
    if args.text:
        print(_table(report))
    else:
        print(json.dumps(report, indent=2))
    return 0


def _table(report: dict[str, Any]) -> str:
    rows = []
    search = report.get("search")
    if search is not None:
        rows.append(f"search, {search['iterations']} simulations per decision, 2 players, one process:")
        rows.append(f"  {'bot':<28} {'decisions':>9} {'simulations/s':>14} {'ms/decision':>12}")
        entries = [
            ("ours (classic)", search["ours"]),
            ("ours, model=True", search["ours_modelled"]),
            ("openspiel (crazy_eights)", search["openspiel"]),
        ]
        for name, e in entries:
            if e is None:
                rows.append(f"  {name:<28} not run: {search['openspiel_reason']}")
            else:
                rows.append(
                    f"  {name:<28} {e['decisions']:>9} {e['simulations_per_second']:>14} {e['ms_per_decision']:>12}"
                )
        belief = search["ours_modelled"]["belief_ms_per_decision"]
        rows.append(f"  ours, model=True: the belief's update, timed apart: {belief} ms/decision")
        if search["ratio_ours_to_openspiel"] is not None:
            rows.append(f"  ours/openspiel: {search['ratio_ours_to_openspiel']} x simulations per second")
    for entry in report.get("latency", []):
        rows.append(
            f"{entry['level']} (budget {entry['budget_seconds']} s), {entry['game']}, {entry['games']} games, ms:"
        )
        rows.append(f"  {'decisions':<14} {'count':>6} {'p50':>9} {'p99':>9} {'mean':>9} {'max':>9}")
        for key, label in (("all_decisions", "all"), ("with_a_choice", "with a choice")):
            s = entry[key]
            cells = " ".join(f"{s[k]:>9}" for k in ("p50_ms", "p99_ms", "mean_ms", "max_ms"))
            rows.append(f"  {label:<14} {s['decisions']:>6} {cells}")
        rows.append(
            f"  with a choice, over the budget by 10 %: {entry['over_budget_by_10_percent']}; "
            f"belief updates cut at the deadline: {entry['belief_updates_cut_at_the_deadline']} "
            f"of {entry['belief_decisions']}"
        )
    match = report.get("match")
    if match is not None:
        low, high = match["new_score_95_interval"]
        rows.append(
            f"{match['match']}, {match['seconds_per_decision']} s per decision, {match['games']} games: "
            f"won {match['new_won']}, lost {match['new_lost']}, shared {match['shared']}; "
            f"score {match['new_score']} (95 % interval {low} to {high})"
        )
    return "\n".join(rows)


if __name__ == "__main__":
    sys.exit(main())
