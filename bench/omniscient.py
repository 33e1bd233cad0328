"""What seeing the cards is worth: the expert's search given the other hands, against a level.

Run from the repository root::

    python bench/omniscient.py                                  # 2-player action vs normal, 400 games
    python bench/omniscient.py --variant classic --against easy --iterations 1000 --games 200 --fair
    python bench/omniscient.py --suits                          # knowing the suits in the other hand

A yardstick, not a player: no interface offers it. The omniscient bot is the expert
(``ISMCTSBot``, ``--iterations`` simulations per decision, its paired test and the normal
player's move as before), but every world it searches is the real game: the other hands
as they are, only the stock dealt in a new random order (a player who saw the hands still
would not know the stock). How far it beats ``--against`` bounds what better reading of
the hidden cards could bring the fair expert; ``--fair`` plays the fair expert on the same
deals with the same seeds, for the comparison. With ``--suits`` the bot knows less: the
suit of every card in the other hands and where their wilds are, not the other ranks
(each such card is dealt anew, in every world, from the unseen cards of its suit).

The deals and seats are those of ``eights tournament --variant V --players 2 --bots
omniscient,AGAINST --games G --seed S``: game i deals ``game_seed(S, i // 2)`` with the
seats swapped between the two games of a deal, and each bot is seeded as the tournament
seeds it. Win rates split a shared win; the interval is Wilson's at 95%. Progress goes to
stderr, one JSON object to stdout.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from eights.bots import ISMCTSBot, make_bot
from eights.bots.ismcts import Worlds
from eights.cards import SUITS
from eights.engine import Game, View, view
from eights.rules import PRESETS, load_preset
from eights.seeds import bot_seed, game_seed
from eights.stats import wilson


class TrueWorlds(Worlds):
    """Deals the real game again and again, the stock shuffled anew each time."""

    __slots__ = ("game",)

    def __init__(self, game: Game, rng: random.Random) -> None:
        self.game = game
        self.rng = rng

    def deal(self) -> Game:
        world = self.game.clone(rng=self.rng)
        self.rng.shuffle(world.stock)
        return world


class SuitWorlds(TrueWorlds):
    """The real game, but every card of the other hands but the wilds dealt anew from the
    unseen cards of its suit: what knowing the suits of the other hands, not the ranks, is worth."""

    __slots__ = ("me",)

    def __init__(self, game: Game, rng: random.Random, me: int) -> None:
        super().__init__(game, rng)
        self.me = me

    def deal(self) -> Game:
        world = self.game.clone(rng=self.rng)
        t = world.t
        others = [hand for seat, hand in enumerate(world.hands) if seat != self.me]
        pool = [c for hand in others for c in hand if not t.wild[c]] + world.stock
        self.rng.shuffle(pool)
        for hand in others:
            for i, card in enumerate(hand):
                if not t.wild[card]:
                    j = next(j for j, c in enumerate(pool) if SUITS[c] == SUITS[card] and not t.wild[c])
                    hand[i] = pool.pop(j)
        world.stock[:] = pool
        return world


class Omniscient(ISMCTSBot):
    """The expert's search in the real game rather than in worlds dealt from its view; with
    ``suits``, in the real game but for the ranks of the other hands (``SuitWorlds``)."""

    def __init__(self, seed: int, iterations: int, suits: bool = False) -> None:
        super().__init__(seed, seconds=None, iterations=iterations, name="suits" if suits else "omniscient")
        self.suits = suits
        self.game: Game | None = None

    def worlds(self, view: View) -> Worlds:
        assert self.game is not None, "show the omniscient bot the game before it chooses"
        if self.suits:
            assert view.seat is not None
            return SuitWorlds(self.game, self.rng, view.seat)
        return TrueWorlds(self.game, self.rng)


def play(variant: str, against: str, iterations: int, seed: int, index: int, fair: bool, suits: bool) -> float:
    """Game ``index``: the omniscient (or with ``fair``, the plain expert) bot's share of the win."""
    rules = load_preset(variant)
    mine = index % 2
    game = Game(rules, 2, game_seed(seed, index // 2))
    seeds = [bot_seed(game_seed(seed, index), seat) for seat in range(2)]
    if fair:
        searcher = ISMCTSBot(seeds[mine], seconds=None, iterations=iterations, name="expert")
    else:
        searcher = Omniscient(seeds[mine], iterations, suits)
    bots = {mine: searcher, 1 - mine: make_bot(against, seeds[1 - mine])}
    while not game.is_over:
        seat = game.to_act
        if isinstance(searcher, Omniscient):
            searcher.game = game
        game.play(bots[seat].choose(view(game, seat)), seat)
    assert game.outcome is not None
    winners = game.outcome.winners
    return 1 / len(winners) if mine in winners else 0.0


def run(args: argparse.Namespace, fair: bool) -> dict[str, Any]:
    label = "fair expert" if fair else "omniscient, suits only" if args.suits else "omniscient"
    start = time.perf_counter()
    wins = 0.0
    with ProcessPoolExecutor(args.jobs) as pool:
        futures = [
            pool.submit(play, args.variant, args.against, args.iterations, args.seed, i, fair, args.suits)
            for i in range(args.games)
        ]
        for done, future in enumerate(as_completed(futures), 1):
            wins += future.result()
            if done % 20 == 0 or done == args.games:
                print(f"{label}: {done}/{args.games} games, {wins / done:.1%}", file=sys.stderr, flush=True)
    low, high = wilson(wins, args.games)
    return {
        "bot": label,
        "games": args.games,
        "wins": wins,
        "win_rate": round(wins / args.games, 4),
        "ci_low": round(low, 4),
        "ci_high": round(high, 4),
        "seconds": round(time.perf_counter() - start, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="action", choices=sorted(PRESETS))
    parser.add_argument("--against", default="normal", choices=("easy", "normal", "hard", "expert"))
    parser.add_argument("--iterations", type=int, default=3000, help="simulations per decision (default 3000)")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--fair", action="store_true", help="also play the fair expert on the same deals")
    parser.add_argument(
        "--suits", action="store_true", help="see only the suits of the other hands' cards (and their wilds)"
    )
    args = parser.parse_args(argv)
    if args.games < 2 or args.games % 2:
        parser.error(f"--games: {args.games} must be even and at least 2: each deal is played from both seats")
    if args.iterations < 1 or args.jobs < 1:
        parser.error("--iterations and --jobs must be at least 1")
    results = [run(args, fair=False)]
    if args.fair:
        results.append(run(args, fair=True))
    report = {
        "variant": args.variant,
        "players": 2,
        "against": args.against,
        "iterations": args.iterations,
        "suits": args.suits,
        "seed": args.seed,
        "python": platform.python_version(),
        "results": results,
    }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
