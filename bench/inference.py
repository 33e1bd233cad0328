"""How well the search's dealt worlds guess the other hand: a Brier score of suit holdings.

Run from the repository root::

    python bench/inference.py                        # 2-player action, 150 games (about 1.5 minutes)
    python bench/inference.py --variant classic --games 100 --opponent normal

What is measured. Seat 0 is the normal player; seat 1 is ``--opponent`` (normal, easy,
or both in turn). At every decision of seat 0 with more than one legal action, the
search's resampler (``eights.bots.ismcts.Worlds``) deals ``--deals`` worlds from seat 0's
view, once with its readings of the others' play (``infer=True``: what forced draws showed,
a suit just named) and once without (``infer=False``: the unseen cards at random); and
the search's belief (``eights.bots.belief.Belief``, which reads every move of seat 1 as the
normal player's, kept up to date at each of these decisions) deals as many. For each
of the four suits, the share of worlds in which seat 1 holds that suit is compared with
seat 1's real hand; the score is the sum over the suits of the squared errors, averaged
over decisions. Lower is better; 0 would be knowing which suits the hand holds.

The easy player names suits at random, so against it the named-suit reading and the
belief's model are wrong models of the player: the comparison shows what that costs.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from eights.bots import HeuristicBot, make_bot
from eights.bots.belief import Belief, Dealer
from eights.bots.ismcts import Worlds
from eights.cards import SUITS
from eights.engine import Game, view
from eights.rules import PRESETS, load_preset


def brier(worlds: Dealer, truth: set[int], deals: int) -> float:
    """The suit-holding Brier score of ``deals`` worlds against the real suits ``truth``."""
    held = [0] * 4
    for _ in range(deals):
        for suit in {SUITS[c] for c in worlds.deal().hands[1] if SUITS[c] < 4}:
            held[suit] += 1
    return sum((held[suit] / deals - (suit in truth)) ** 2 for suit in range(4))


def measure(variant: str, opponent: str, games: int, deals: int, seed: int) -> dict[str, Any]:
    rules = load_preset(variant)
    rng = random.Random(seed)
    scores = {"inferred": 0.0, "uniform": 0.0, "belief": 0.0}
    decisions = 0
    for g in range(games):
        game = Game(rules, 2, seed * 100_003 + g)
        bots = [make_bot("normal", 2 * g), make_bot(opponent, 2 * g + 1)]
        belief = Belief(rng, HeuristicBot(2 * g), lambda seen: Worlds(seen, rng, True))
        while not game.is_over:
            seat = game.to_act
            seen = view(game, seat)
            if seat == 0 and len(seen.legal) > 1:
                truth = {SUITS[c] for c in game.hands[1] if SUITS[c] < 4}
                scores["inferred"] += brier(Worlds(seen, rng, True), truth, deals)
                scores["uniform"] += brier(Worlds(seen, rng, False), truth, deals)
                belief.update(seen)
                scores["belief"] += brier(belief, truth, deals)
                decisions += 1
            game.play(bots[seat].choose(seen), seat)
    return {
        "opponent": opponent,
        "decisions": decisions,
        "brier_uniform": round(scores["uniform"] / decisions, 4),
        "brier_inferred": round(scores["inferred"] / decisions, 4),
        "brier_belief": round(scores["belief"] / decisions, 4),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="action", help=f"the preset (default action): {', '.join(PRESETS)}")
    parser.add_argument("--games", type=int, default=150, help="games per opponent (default 150)")
    parser.add_argument("--deals", type=int, default=30, help="worlds dealt per decision (default 30)")
    parser.add_argument("--opponent", choices=["normal", "easy", "both"], default="both", help="seat 1's level")
    parser.add_argument("--seed", type=int, default=1, help="seed of the games and the deals (default 1)")
    args = parser.parse_args(argv)
    if args.variant not in PRESETS:
        parser.error(f"--variant {args.variant}: no such preset; valid: {', '.join(PRESETS)}")
    if args.games < 1 or args.deals < 1:
        parser.error("--games and --deals must be at least 1")
    opponents = ["normal", "easy"] if args.opponent == "both" else [args.opponent]
    report = {
        "benchmark": "suit-holding Brier score of the search's dealt worlds: uniform, with its readings, its belief",
        "variant": args.variant,
        "players": 2,
        "games": args.games,
        "deals": args.deals,
        "seed": args.seed,
        "python": platform.python_version(),
        "results": [measure(args.variant, o, args.games, args.deals, args.seed) for o in opponents],
    }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
