"""Bot specs: a computer player's level with an optional search budget, as people write them.

``expert`` is a level alone; ``hard@500`` searches 500 iterations per decision and
``expert@2s`` (or ``expert@0.5s``) for that many seconds. ``parse_bot`` reads a spec
into the level and the keyword arguments ``eights.bots.make_bot`` takes, so the
tournament, the table and the benches read specs one way.
"""

from __future__ import annotations

import math
import re
from typing import Any

from eights.bots import LEVELS

__all__ = ["BotSpecError", "parse_bot"]

_BUDGET = re.compile(r"^(?P<amount>\d+(?:\.\d+)?)(?P<unit>s?)$")
#: The levels that search and so take a budget.
_SEARCHING = ("hard", "expert")


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
