"""The baby-eating rule tests' deal (tests/rules/test_baby_eating_*.py): an exact deal with dealer 0, so seat 1
plays first."""

from __future__ import annotations

from typing import Any

from eights.engine import Game
from tests.support.scripting import scripted


def deal(hands: list[str], starter: str, stock: str = "", *, options: tuple[str, ...] = (), **fields: Any) -> Game:
    """A baby-eating game with exactly these hands (seat 0 first); dealer 0, so seat 1 plays first."""
    return scripted("baby-eating", hands, starter, stock, dealer=0, options=options, **fields)
