"""Where a search player's moves differ from the normal player's, and what each difference is worth.

Run from the repository root::

    python bench/shadow.py                                   # the expert at 1000 simulations, 2-player action
    python bench/shadow.py --bot omniscient@1000 --games 200 # the expert's search seeing the other hand
    python bench/shadow.py --bot suits@1000                  # ... seeing only the suits in it
    python bench/shadow.py --bot expert@0.5s --variant classic

A tournament's win rate mixes the value of a player's choices with the luck of every
card that follows them. This measures the choices alone. Two normal players play
``--games`` two-player games (game i deals ``game_seed(--seed, i)``); in game i the
bot ``--bot`` watches seat i % 2 and chooses at each of its decisions with more than
one legal action, but the game goes on with the normal player's move. Where the two
differ, both moves are valued in the real game: ``--playouts`` times, the stock
shuffled anew (no player knows its order), the move is made and both seats play the
normal player's moves to the end of the hand; the value is the watched seat's share of
the hand won. Both moves see the same shuffles. The bot's gain is the sum over its
differences of its move's value less the normal player's.

So the gain is what one move of the bot, made once in a game the normal player goes
on playing, is worth: a player's later moves also follow the bot in a real match, so
it is a guide to, not a forecast of, the tournament's margin. The values see the other
hand, so a difference decided by a card the bot could not know scores its luck; over
many differences that luck averages out. ``omniscient`` is ``bench/omniscient.py``'s
bot, whose worlds are the real game: what reading the other hand perfectly would add;
``suits`` is the same bot knowing only the suits in the other hand and where its wilds
are.

The kinds of difference name the phase and the kind of each move (normal's first):
``card`` a plain card, ``8`` a wild, ``action`` a card that skips, reverses or makes
draw, ``suit`` a suit named, ``draw``, ``pass`` (keep a drawn card). Where the bot's
paired test chose its move (``eights.bots.ismcts``: a rival beat the normal player's
move on common deals), the differences are also grouped by the gain that test claimed
and by that gain in standard errors (``by_claimed_gain``, ``by_t``): how far the
test's claims hold up in the real game. Progress goes to stderr, one JSON object to
stdout.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import random
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from eights.bots import Bot, HeuristicBot, make_bot
from eights.engine import Action, Game, NameSuit, Play, view
from eights.engine.actions import Draw, Pass
from eights.rules import PRESETS, load_preset
from eights.runs.tournament import parse_bot
from eights.seeds import bot_seed, game_seed
from omniscient import Omniscient


def make(spec: str, seed: int) -> Bot:
    """``--bot``'s player: a level with its budget, ``omniscient@ITERATIONS`` or ``suits@ITERATIONS``."""
    for name, suits in (("omniscient@", False), ("suits@", True)):
        if spec.startswith(name):
            count = spec.removeprefix(name)
            if not count.isdigit() or int(count) < 1:
                raise ValueError(f"{spec!r}: the simulations after @ must be a whole number of at least 1")
            return Omniscient(seed, int(count), suits)
    level, budget = parse_bot(spec)
    return make_bot(level, seed, **budget)


def kind(game: Game, action: Action) -> str:
    """A move's kind, for the table of differences."""
    if isinstance(action, Play):
        t = game.t
        if t.wild[action.card]:
            return "8"
        return "action" if t.effect[action.card] is not None else "card"
    if isinstance(action, NameSuit):
        return "suit"
    if isinstance(action, Draw):
        return "draw"
    return "pass" if isinstance(action, Pass) else type(action).__name__.lower()


def value(game: Game, action: Action, seat: int, playouts: int, seed: int) -> float:
    """``seat``'s share of the hand won after ``action``, both seats then playing normal."""
    won = 0.0
    for k in range(playouts):
        rng = random.Random(seed * 1_000 + k)
        world = game.clone(rng=rng)
        rng.shuffle(world.stock)
        players = [HeuristicBot(seed + k), HeuristicBot(seed + k + 1)]
        r0 = world.round_index
        world.apply(action)
        while world.round_index == r0 and not world.is_over:
            legal = world.legal_actions()
            to_act = world.to_act
            world.apply(legal[0] if len(legal) == 1 else players[to_act].decide(view(world, to_act))[0])
        hand = world.last_round
        assert hand is not None
        if seat in hand.winners:
            won += 1 / len(hand.winners)
    return won / playouts


def watch(variant: str, spec: str, playouts: int, seed: int, index: int) -> dict[str, Any]:
    """Game ``index``: the watched seat's decisions, and each difference with its two values."""
    rules = load_preset(variant)
    game = Game(rules, 2, game_seed(seed, index))
    seat = index % 2
    seeds = [bot_seed(game_seed(seed, index), s) for s in range(3)]
    normal = [HeuristicBot(seeds[0]), HeuristicBot(seeds[1])]
    bot = make(spec, seeds[2])
    decisions = 0
    differences = []
    while not game.is_over:
        to_act = game.to_act
        seen = view(game, to_act)
        usual = normal[to_act].choose(seen)
        if to_act == seat and len(seen.legal) > 1:
            if isinstance(bot, Omniscient):
                bot.game = game
            mine = bot.choose(seen)
            if mine != usual:
                at = index * 1_000 + decisions
                gain = value(game, mine, seat, playouts, at) - value(game, usual, seat, playouts, at)
                claimed = {rival: (mean, se) for rival, mean, se, _ in getattr(bot, "last_duel", None) or ()}
                mean, se = claimed.get(mine, (None, None))
                differences.append(
                    {
                        "kind": f"{seen.phase}: {kind(game, usual)} -> {kind(game, mine)}",
                        "gain": gain,
                        "claimed": mean,
                        "t": mean / se if mean is not None and se else None,
                    }
                )
            decisions += 1
        game.play(usual, to_act)
    return {"decisions": decisions, "differences": differences}


#: Bins of the gain the bot's paired test claimed for its move, and of that gain in standard errors.
CLAIMED_EDGES = (0.0, 0.02, 0.05, 0.1, 0.2)
T_EDGES = (1.0, 1.5, 2.0, 3.0, 5.0)


def bins(differences: list[dict[str, Any]], key: str, edges: tuple[float, ...]) -> list[dict[str, Any]]:
    """The differences grouped by ``key`` between consecutive ``edges`` (the last bin open above)."""
    out = []
    for i, low in enumerate(edges):
        high = edges[i + 1] if i + 1 < len(edges) else math.inf
        got = [d["gain"] for d in differences if low <= d[key] < high]
        if got:
            out.append({key: f"{low}-{high}", "differences": len(got), "gain_each": round(sum(got) / len(got), 3)})
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--variant", default="action", choices=sorted(PRESETS), help="a 2-player preset (default action)"
    )
    parser.add_argument(
        "--bot",
        default="expert@1000",
        help="the watching bot: hard/expert with a budget, omniscient@ITERATIONS or suits@ITERATIONS",
    )
    parser.add_argument("--games", type=int, default=200, help="games (default 200)")
    parser.add_argument("--playouts", type=int, default=160, help="play-outs valuing each move (default 160)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    parser.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    args = parser.parse_args(argv)
    if args.games < 2 or args.playouts < 1 or args.jobs < 1:
        parser.error("--games must be at least 2, --playouts and --jobs at least 1")
    try:
        make(args.bot, 0)
    except ValueError as exc:
        parser.error(f"--bot: {exc}; or omniscient@ITERATIONS, suits@ITERATIONS")
    start = time.perf_counter()
    games: list[dict[str, Any]] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(watch, args.variant, args.bot, args.playouts, args.seed, i) for i in range(args.games)]
        for done, future in enumerate(as_completed(futures), 1):
            games.append(future.result())
            if done % 10 == 0 or done == args.games:
                print(f"{done}/{args.games} games", file=sys.stderr, flush=True)
    per_game = [sum(d["gain"] for d in g["differences"]) for g in games]
    n = len(per_game)
    mean = sum(per_game) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in per_game) / (n - 1))
    kinds: dict[str, list[float]] = defaultdict(list)
    for g in games:
        for d in g["differences"]:
            kinds[d["kind"]].append(d["gain"])
    tested = [d for g in games for d in g["differences"] if d["t"] is not None]
    report = {
        "variant": args.variant,
        "players": 2,
        "bot": args.bot,
        "games": n,
        "playouts": args.playouts,
        "seed": args.seed,
        "decisions": sum(g["decisions"] for g in games),
        "differences": sum(len(g["differences"]) for g in games),
        "gain_per_game": round(mean, 4),
        "gain_per_game_se": round(sd / math.sqrt(n), 4),
        "kinds": [
            {"kind": k, "differences": len(v), "gain": round(sum(v), 2), "gain_each": round(sum(v) / len(v), 3)}
            for k, v in sorted(kinds.items(), key=lambda kv: -sum(kv[1]))
        ],
        "by_claimed_gain": bins(tested, "claimed", CLAIMED_EDGES),
        "by_t": bins(tested, "t", T_EDGES),
        "seconds": round(time.perf_counter() - start, 1),
        "python": platform.python_version(),
    }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
