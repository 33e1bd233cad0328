"""Computer players. Each sees only its seat's view and returns one legal action.

Levels, weakest first (``LEVELS``): ``easy`` plays at random, ``normal`` by a
decent human's rules of thumb, ``learned`` by a policy trained against the normal
player (``eights.bots.learned``; the normal player where none was trained), ``hard``
and ``expert`` search sampled deals (information-set MCTS) for about 0.2 s and 1 s
per decision.
"""

from __future__ import annotations

from typing import Any

from eights.bots.base import Bot, Hint
from eights.bots.heuristic import HeuristicBot
from eights.bots.ismcts import EXPERT_SECONDS, HARD_SECONDS, ISMCTSBot
from eights.bots.learned import LearnedBot
from eights.bots.random_bot import RandomBot

#: The computer players, weakest first.
LEVELS = ("easy", "normal", "learned", "hard", "expert")


def make_bot(level: str, seed: int | None = None, **budget: Any) -> Bot:
    """A computer player of ``level``, seeded.

    ``budget`` applies to the search levels (``hard``, ``expert``): ``seconds`` per
    decision, ``iterations`` per decision (alone, unless ``seconds`` is given too), and
    the search's other settings (``c``, ``depth``, ``points_weight``).

    :raises ValueError: for an unknown level, or a budget given to a level without search.
    """
    if level == "easy" or level == "normal" or level == "learned":
        if budget:
            raise ValueError(f"the {level} level does not search: it takes no budget ({', '.join(budget)})")
        if level == "learned":
            return LearnedBot(seed)
        return RandomBot(seed) if level == "easy" else HeuristicBot(seed)
    if level == "hard" or level == "expert":
        settings = dict(budget)
        if "iterations" in settings and "seconds" not in settings:
            settings["seconds"] = None
        settings.setdefault("seconds", HARD_SECONDS if level == "hard" else EXPERT_SECONDS)
        try:
            return ISMCTSBot(seed, name=level, **settings)
        except TypeError as exc:
            raise ValueError(f"bad budget for {level}: {exc}") from None
    raise ValueError(f"unknown bot level {level!r}; valid: {', '.join(LEVELS)}")


__all__ = ["LEVELS", "Bot", "HeuristicBot", "Hint", "ISMCTSBot", "LearnedBot", "RandomBot", "make_bot"]
