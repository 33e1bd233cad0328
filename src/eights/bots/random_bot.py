"""The easy player: a random legal action, from its own seeded RNG."""

from __future__ import annotations

import random

from eights.bots.base import Hint, legal_moves
from eights.engine import Action, View


class RandomBot:
    """Picks uniformly among the legal actions."""

    name = "easy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        legal = legal_moves(view)
        return legal[self.rng.randrange(len(legal))]

    def hint(self, view: View) -> Hint:
        return Hint(self.choose(view), "a random legal move")
