"""Bot specs: a computer player's level with an optional search budget, as people write them.

``expert`` is a level alone; ``hard@500`` searches 500 iterations per decision and
``expert@2s`` (or ``expert@0.5s``) for that many seconds. ``parse_bot`` reads a spec
into the level and the keyword arguments ``eights.bots.make_bot`` takes, so the
tournament, the table and the benches read specs one way.

``research_bot(spec, seed)`` makes the player a spec names for the research entry points (the
environments' opponents, ``eights.research.pettingzoo.evaluate``): there a search level given without a
budget searches ``ITERATIONS`` iterations a decision instead of its time, so that the same seeds
play the same games on any machine, however loaded.
"""

from __future__ import annotations

import math
import re
from typing import Any

from eights.bots import LEVELS, Bot, make_bot

__all__ = ["ITERATIONS", "BotSpecError", "parse_bot", "research_bot"]

_BUDGET = re.compile(r"^(?P<amount>\d+(?:\.\d+)?)(?P<unit>s?)$")
#: The levels that search and so take a budget.
_SEARCHING = ("hard", "expert")
#: The search levels' budgets where a run must replay exactly: iterations a decision, about what their
#: time budgets (0.2 s and 1 s) search on an idle core (some 30,000 iterations a second on classic).
ITERATIONS = {"hard": 6000, "expert": 30000}


class BotSpecError(ValueError):
    """A bot spec that names no level, or a budget that cannot be read; names the valid forms."""


def parse_bot(spec: str) -> tuple[str, dict[str, Any]]:
    """A bot spec's level and budget: ``expert``, ``hard@500`` (iterations), ``expert@2s`` (seconds).

    The level is read first (any case, spaces around it ignored), then the budget:
    ``{}`` without one, ``{"iterations": N}`` or ``{"seconds": S}``.

    :raises BotSpecError: naming the spec and the valid levels or budgets.
    """
    level, at, budget = spec.strip().lower().partition("@")
    level = level.strip()
    budget = budget.strip()
    if level not in LEVELS:
        raise BotSpecError(
            f"unknown bot {spec!r}; valid levels: {', '.join(LEVELS)} "
            "(search levels take a budget: hard@500 iterations, expert@2s seconds)"
        )
    if not at:
        return level, {}
    if level not in _SEARCHING:
        raise BotSpecError(f"bot {spec!r}: the {level} level does not search, so it takes no budget")
    match = _BUDGET.match(budget)
    if match is None:
        raise BotSpecError(
            f"bot {spec!r}: {budget!r} is not a budget; give a whole number of iterations "
            f"({level}@500) or seconds ({level}@2s or {level}@0.5s)"
        )
    amount = float(match["amount"])
    if match["unit"]:
        if amount <= 0:
            raise BotSpecError(f"bot {spec!r}: the time budget must be positive")
        if not math.isfinite(amount):
            raise BotSpecError(f"bot {spec!r}: the time budget is too large; give seconds like {level}@2s")
        return level, {"seconds": amount}
    if amount < 1 or amount != int(amount):
        raise BotSpecError(f"bot {spec!r}: the iteration budget must be a whole number, 1 or more")
    return level, {"iterations": int(amount)}


def research_bot(spec: str, seed: int | None) -> Bot:
    """The computer player ``spec`` names (``normal``, ``hard@500``, ``expert@2s``), seeded; ``hard`` and
    ``expert`` without a budget search ``ITERATIONS`` iterations a decision, not their time.

    :raises BotSpecError: naming the spec and the valid levels or budgets.
    """
    level, budget = parse_bot(spec)
    if not budget and level in ITERATIONS:
        budget = {"iterations": ITERATIONS[level]}
    return make_bot(level, seed, **budget)
