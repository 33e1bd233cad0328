"""Fit the normal player's turn-planner weights (``eights.bots.turnplan``); prints JSON.

Two fits, each on games of the normal player against the random one in 2-player games
of a preset (seats alternating):

``turn-ends``
    records the planner's features wherever one of the normal player's turns ends
    (``TurnPlanner.features``, from that seat's view), labels each with whether that
    player went on to win the hand, and fits a logistic regression of the
    ``TURN_END_FEATURES`` by Newton's method (``TURN_END_WEIGHTS``).
``decisions``
    at each of the normal player's choices (two legal actions or more, none that goes
    out) plays every legal action out on the same deals consistent with its view
    (``Worlds``, ``--deals`` of them), each followed by the same random choices, the
    normal player on for the seat and the random one for the other; then regresses
    each action's share of wins, less the mean of that choice's actions, on where its
    line ends (``TurnPlanner.line``), less the mean of that choice's lines, scaled by
    ``p (1 - p)`` to the log-odds of the model, with a ridge (``--ridge``) towards the
    weights it starts from (``WEIGHTS``). It fits what the choice changes, where the
    first fit learns which turn ends come before a win, whatever led there.

The players play with ``--weights`` (the shipped ``turn-end`` or ``refined`` ones); the
decisions fit starts from the same weights. Pasting a result in and fitting again is
one step of policy iteration. The shipped weights:

    python bench/fit_normal.py turn-ends --variant action --games 12000 --seed 8 --jobs 2
    python bench/fit_normal.py decisions --variant action --games 240 --seed 31 --jobs 2

(the first was run while the players used the weights of the round before; the second
reproduces ``WEIGHTS`` from ``TURN_END_WEIGHTS``).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from concurrent.futures import ProcessPoolExecutor

from eights.bots import HeuristicBot, RandomBot
from eights.bots.base import Bot
from eights.bots.heuristic import read_voids
from eights.bots.ismcts import Worlds
from eights.bots.turnplan import FEATURES, TURN_END_FEATURES, TURN_END_WEIGHTS, WEIGHTS, plannable, planner_for
from eights.engine import Action, Game, view
from eights.rules import RuleSet, load_preset
from eights.seeds import bot_seed, game_seed

#: The shipped weight sets, by the name ``--weights`` gives them.
SHIPPED = {"turn-end": TURN_END_WEIGHTS, "refined": WEIGHTS}
#: Where a choice's actions are compared: the planner's phases, outside a chain of 2s.
PHASES = ("play", "play_drawn", "name_suit")

Weights = tuple[float, ...]
Row = tuple[tuple[float, ...], float]
Choice = tuple[list[list[float]], list[float]]


def _deal(rules: RuleSet, seed: int, index: int, weights: Weights) -> tuple[Game, int, list[Bot]]:
    """Game ``index``: the game, the normal player's seat (alternating), and the two players by seat."""
    g = Game(rules, 2, game_seed(seed, index), log=True)
    mine = index % 2
    bots: list[Bot] = [HeuristicBot(bot_seed(g.seed, 0), weights), RandomBot(bot_seed(g.seed, 1))]
    if mine:
        bots.reverse()
    return g, mine, bots


def gather_turn_ends(args: tuple[str, int, int, int, Weights]) -> list[Row]:
    """The (features, won) rows of games ``start`` to ``stop``."""
    variant, seed, start, stop, weights = args
    rules = load_preset(variant)
    rows: list[Row] = []
    for index in range(start, stop):
        g, mine, bots = _deal(rules, seed, index, weights)
        ends: list[tuple[float, ...]] = []
        while not g.is_over:
            seat = g.to_act
            g.play(bots[seat].choose(view(g, seat)), seat)
            if seat == mine and g.to_act != mine and not g.is_over:
                seen = view(g, mine)
                planner = planner_for(
                    seen, random.Random(index), read_voids(seen.history).get(1 - mine, set()), weights
                )
                ends.append(planner.features(g)[: len(TURN_END_FEATURES)])
        assert g.outcome is not None
        won = 1.0 if mine in g.outcome.winners else 0.0
        rows.extend((x, won) for x in ends)
    return rows


def gather_decisions(args: tuple[str, int, int, int, int, Weights]) -> list[Choice]:
    """For each choice of games ``start`` to ``stop``: each action's line-end features and share of wins."""
    variant, seed, start, stop, deals, weights = args
    rules = load_preset(variant)
    choices: list[Choice] = []
    for index in range(start, stop):
        g, mine, bots = _deal(rules, seed, index, weights)
        rng = random.Random(g.seed)
        while not g.is_over:
            seat = g.to_act
            seen = view(g, seat)
            if seat == mine and len(seen.legal) > 1 and seen.phase in PHASES and not seen.chain:
                voids = read_voids(seen.history).get(1 - mine, set())
                planner = planner_for(seen, random.Random(rng.getrandbits(32)), voids, weights)
                plans = [planner.line(a) for a in seen.legal]
                if all(p.ending is not None for p in plans):
                    worlds = Worlds(seen, rng, True)
                    won = [0.0] * len(plans)
                    for _ in range(deals):
                        world = worlds.deal()
                        common = rng.getrandbits(40)
                        for k, action in enumerate(seen.legal):
                            won[k] += _play_out(world, action, mine, common, weights)
                    choices.append(([list(p.ending or ()) for p in plans], [w / deals for w in won]))
            g.play(bots[seat].choose(seen), seat)
    return choices


def _play_out(world: Game, action: Action, me: int, common: int, weights: Weights) -> float:
    """1 if ``me`` wins the hand after ``action``: the normal player on for ``me``, the random one for the other."""
    game = world.clone()
    game.rng = random.Random(common)
    r0 = game.round_index
    game.apply(action)
    bots = {me: HeuristicBot(common ^ 5, weights), 1 - me: RandomBot(common ^ 7)}
    while game.round_index == r0 and not game.is_over:
        seat = game.to_act
        game.apply(bots[seat].choose(view(game, seat)))
    assert game.last_round is not None
    return 1.0 if me in game.last_round.winners else 0.0


def fit_decisions(choices: list[Choice], start: Weights, ridge: float) -> list[float]:
    """Ridge regression of each action's wins on its line's end, both less their choice's mean, towards ``start``."""
    k = len(start)
    a = [[0.0] * k for _ in range(k)]
    b = [0.0] * k
    for ends, won in choices:
        m = len(won)
        mean = sum(won) / m
        scale = max(mean * (1 - mean), 0.05)
        centre = [sum(f[i] for f in ends) / m for i in range(k)]
        for f, w in zip(ends, won, strict=True):
            x = [(f[i] - centre[i]) * scale for i in range(k)]
            y = w - mean
            for i in range(k):
                b[i] += x[i] * y
                row = a[i]
                for j in range(k):
                    row[j] += x[i] * x[j]
    for i in range(k):
        a[i][i] += ridge
        b[i] += ridge * start[i]
    return _solve(a, b)


def fit(rows: list[Row], steps: int = 30) -> tuple[list[float], float]:
    """Logistic regression by Newton's method (a little ridge for stability); the weights and mean log-likelihood."""
    k = len(rows[0][0])
    w = [0.0] * k
    for _ in range(steps):
        grad = [0.0] * k
        hess = [[0.0] * k for _ in range(k)]
        for x, y in rows:
            p = _sigmoid(sum(a * b for a, b in zip(w, x, strict=True)))
            r, s = p - y, p * (1 - p)
            for i in range(k):
                grad[i] += r * x[i]
                xi = x[i] * s
                row = hess[i]
                for j in range(k):
                    row[j] += xi * x[j]
        for i in range(k):
            hess[i][i] += 1e-3 * len(rows) / 1000
        step = _solve(hess, grad)
        w = [a - b for a, b in zip(w, step, strict=True)]
        if max(abs(d) for d in step) < 1e-7:
            break
    loglik = 0.0
    for x, y in rows:
        p = min(max(_sigmoid(sum(a * b for a, b in zip(w, x, strict=True))), 1e-12), 1 - 1e-12)
        loglik += y * math.log(p) + (1 - y) * math.log(1 - p)
    return w, loglik / len(rows)


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(min(z, 30.0), -30.0)))


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a x = b`` by Gaussian elimination with partial pivoting."""
    k = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for c in range(k):
        pivot = max(range(c, k), key=lambda r: abs(m[r][c]))
        m[c], m[pivot] = m[pivot], m[c]
        for r in range(k):
            if r != c and m[r][c]:
                f = m[r][c] / m[c][c]
                for j in range(c, k + 1):
                    m[r][j] -= f * m[c][j]
    return [m[i][k] / m[i][i] for i in range(k)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="fit", required=True, metavar="{turn-ends,decisions}")
    ends = sub.add_parser("turn-ends", help="a logistic model of who wins, from where turns end")
    choices = sub.add_parser("decisions", help="refine the weights on the choices, played out on common deals")
    for p, games, seed in ((ends, 12000, 8), (choices, 240, 31)):
        p.add_argument("--variant", default="action", help="a preset the planner plays (default: action)")
        p.add_argument("--games", type=int, default=games, help=f"games to learn from (default: {games})")
        p.add_argument("--seed", type=int, default=seed, help=f"the games' seed (default: {seed})")
        p.add_argument("--jobs", type=int, default=1, help="processes (default: 1)")
        p.add_argument(
            "--weights",
            choices=sorted(SHIPPED),
            default="turn-end",
            help="the shipped weights the players use, and the decisions fit starts from (default: turn-end)",
        )
    choices.add_argument("--deals", type=int, default=60, help="common deals per choice (default: 60)")
    choices.add_argument("--ridge", type=float, default=1.0, help="pull towards the starting weights (default: 1)")
    args = parser.parse_args()
    if args.games < 2 or args.jobs < 1:
        parser.error("--games must be at least 2 and --jobs at least 1")
    if args.fit == "decisions" and (args.deals < 2 or args.ridge < 0):
        parser.error("--deals must be at least 2 and --ridge at least 0")
    if not plannable(load_preset(args.variant), 2):
        parser.error(f"the turn planner does not play 2-player {args.variant}: its cards have other effects")
    weights = SHIPPED[args.weights]
    chunks = 20 if args.fit == "turn-ends" else 40
    games, seed = args.games, args.seed
    spans = [(games * i // chunks, games * (i + 1) // chunks) for i in range(chunks)]
    out: dict[str, object] = {"fit": args.fit, "variant": args.variant, "games": games, "seed": seed}
    with ProcessPoolExecutor(args.jobs) as pool:
        if args.fit == "turn-ends":
            rows: list[Row] = []
            parts = [(args.variant, seed, a, b, weights) for a, b in spans]
            for done, part in enumerate(pool.map(gather_turn_ends, parts), 1):
                rows.extend(part)
                _progress(done, chunks, f"{len(rows)} turn ends")
            fitted, loglik = fit(rows)
            names = TURN_END_FEATURES
            out |= {"turn_ends": len(rows), "mean_log_likelihood": round(loglik, 5)}
        else:
            found: list[Choice] = []
            tasks = [(args.variant, seed, a, b, args.deals, weights) for a, b in spans]
            for done, part in enumerate(pool.map(gather_decisions, tasks), 1):
                found.extend(part)
                _progress(done, chunks, f"{len(found)} choices")
            fitted = fit_decisions(found, weights, args.ridge)
            names = FEATURES
            out |= {"choices": len(found), "deals": args.deals, "ridge": args.ridge, "start": args.weights}
    print(file=sys.stderr)
    out["weights"] = {name: round(w, 3) for name, w in zip(names, fitted, strict=True)}
    print(json.dumps(out, indent=2))


def _progress(done: int, chunks: int, what: str) -> None:
    print(f"\rgathered {done}/{chunks} parts, {what}", end="", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
