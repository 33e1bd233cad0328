"""Estimates with 95% intervals that hold at the boundary (0%, 100%, a count of 0), for the lab and
the tournaments, and Elo ratings fitted to pairwise results (``fit_elo``). Standard library only; no
command-line code.

Every ``Estimate`` says which interval it has (``method``):

- ``wilson``: a share of games (a win rate; a share of several winners counts 1/k to each), Wilson's
  score interval. At 0 of n it runs from exactly 0, at n of n to exactly 1.
- ``wilson-clustered``: a share of rounds or of decisions, counted over games whose rounds (decisions)
  are not independent: Wilson's interval on the effective number of rounds, their number divided by
  the design effect (the variance of the share over games, the games taken as clusters, over the
  binomial variance; never below 1), as Korn and Graubard (1998) do for clustered samples. At 0% or
  100%, where the games show no variance, on the number of rounds itself. One round a game gives
  Wilson's interval over games exactly.
- ``fieller``: a ratio of two totals over games (turns a game: the total over the number of games),
  Fieller's interval with the games' variances and covariance; for a mean per game it is the normal
  one, mean +- 1.96 standard errors.
- ``fieller-poisson``: a count per game or per turn that can be 0 (lead changes, cards drawn):
  Fieller's interval, widened where needed to the score interval of the total count as a Poisson
  count over the games (or turns), which holds at and near 0: from 0 to 1.96^2 / turns at a count
  of 0.
- ``fixed``: a figure the rules fix (one round a match: 1 round, the last round decides); no interval.

Intervals are cut to what a figure can be (a count never below 0, a share never above 1), and always
hold their figure: ``low <= value <= high``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: The z value of a 95% two-sided interval.
Z95 = 1.959963984540054
#: The z value of 80% power (one-sided).
Z80 = 0.8416212335729143

WILSON = "wilson"
CLUSTERED = "wilson-clustered"
FIELLER = "fieller"
COUNT = "fieller-poisson"
FIXED = "fixed"
#: Each method in words, for reports.
METHODS = {
    WILSON: "a share of games: Wilson's score interval",
    CLUSTERED: "a share of rounds or decisions: Wilson's interval on their effective number (their number "
    "over the design effect the games show, at least 1; at 0% or 100%, their number)",
    FIELLER: "a mean per game: mean +- 1.96 standard errors (Fieller's interval of a ratio over games)",
    COUNT: "a count per game or per turn: Fieller's interval over games, widened where needed to the "
    "total count's Poisson score interval (which holds at 0)",
    FIXED: 'a figure the rules fix, marked "by the rules": no interval',
}


@dataclass(frozen=True, slots=True)
class Estimate:
    """A figure with its 95% interval and the method that gave it (see the module docstring)."""

    value: float
    low: float
    high: float
    method: str

    @property
    def fixed(self) -> bool:
        """Fixed by the rules: not measured, no interval."""
        return self.method == FIXED

    @property
    def half_width(self) -> float:
        """Half the interval's width (0 for a fixed figure, NaN where no game gave it)."""
        return (self.high - self.low) / 2

    def to_dict(self) -> dict[str, float | str | None]:
        """Plain numbers; ``low`` and ``high`` None for a fixed figure, every number None where no game
        gave the figure (a lab stopped before any)."""
        measured = not self.fixed
        return {
            "value": plain(self.value),
            "low": plain(self.low) if measured else None,
            "high": plain(self.high) if measured else None,
            "method": self.method,
        }

    def within(self, low: float, high: float = math.inf) -> Estimate:
        """The interval cut to what the figure can be (a count is never negative, a share at most 1)."""
        return Estimate(self.value, max(self.low, low), min(self.high, high), self.method)


def plain(x: float) -> float | None:
    return None if not math.isfinite(x) else round(x, 6)


def estimate(value: float, low: float, high: float, method: str) -> Estimate:
    """An estimate whose interval holds its value (rounding can leave a bound a hair on the wrong side)."""
    if math.isnan(value):
        return Estimate(value, math.nan, math.nan, method)
    return Estimate(value, min(low, value), max(high, value), method)


def none_yet(method: str) -> Estimate:
    """A figure no game gave (a lab stopped before any)."""
    return Estimate(math.nan, math.nan, math.nan, method)


def fixed(value: float) -> Estimate:
    """A figure the rules fix: no interval."""
    return Estimate(float(value), float(value), float(value), FIXED)


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval of ``successes`` of ``n`` (both may be fractional); exactly 0 and 1 at
    the ends. (0, 1) for no trials."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    center = (p + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(max(p * (1 - p) / n + z2 / (4 * n * n), 0.0))
    low = 0.0 if successes <= 0 else max(0.0, center - half)
    high = 1.0 if successes >= n else min(1.0, center + half)
    return low, high


def proportion(successes: float, n: int) -> Estimate:
    """A share of games with Wilson's interval."""
    if n <= 0:
        return none_yet(WILSON)
    low, high = wilson(successes, n)
    return estimate(successes / n, low, high, WILSON)


def clustered_share(tops: Sequence[float], bottoms: Sequence[float]) -> Estimate:
    """A share of rounds (decisions): ``sum(tops) / sum(bottoms)``, one pair per game, with Wilson's
    interval on the effective number of rounds (see the module docstring)."""
    units = sum(bottoms)
    n = len(tops)
    if n == 0 or units <= 0:
        return none_yet(CLUSTERED)
    p = sum(tops) / units
    effective = units
    if n >= 2 and 0 < p < 1:
        variance = sum((t - p * b) ** 2 for t, b in zip(tops, bottoms, strict=True)) / (units * units)
        design_effect = max(1.0, variance / (p * (1 - p) / units))
        effective = units / design_effect
    low, high = wilson(p * effective, effective)
    return estimate(p, low, high, CLUSTERED)


def fieller(tops: Sequence[float], bottoms: Sequence[float]) -> tuple[float, float]:
    """Fieller's 95% interval of ``sum(tops) / sum(bottoms)`` over games (one pair each); NaN for fewer
    than two games, unbounded when the bottoms' total is not clearly above 0."""
    n = len(tops)
    if n < 2:
        return math.nan, math.nan
    mt = sum(tops) / n
    mb = sum(bottoms) / n
    stt = sum((t - mt) ** 2 for t in tops) / (n - 1)
    sbb = sum((b - mb) ** 2 for b in bottoms) / (n - 1)
    stb = sum((t - mt) * (b - mb) for t, b in zip(tops, bottoms, strict=True)) / (n - 1)
    q = Z95 * Z95 / n
    a = mb * mb - q * sbb
    if a <= 0:
        return -math.inf, math.inf
    b = mt * mb - q * stb
    c = mt * mt - q * stt
    root = math.sqrt(max(0.0, b * b - a * c))
    return (b - root) / a, (b + root) / a


def ratio(tops: Sequence[float], bottoms: Sequence[float]) -> Estimate:
    """``sum(tops) / sum(bottoms)`` (one pair per game) with Fieller's interval."""
    total = sum(bottoms)
    if not tops or total == 0:
        return none_yet(FIELLER)
    low, high = fieller(tops, bottoms)
    return estimate(sum(tops) / total, low, high, FIELLER)


def mean(values: Sequence[float]) -> Estimate:
    """The mean per game with its normal interval (Fieller's, over a game each)."""
    return ratio(values, [1.0] * len(values))


def poisson_score(count: float, exposure: float, z: float = Z95) -> tuple[float, float]:
    """The score interval of a Poisson rate: ``count`` events over ``exposure`` (turns, games)."""
    z2 = z * z
    middle = count + z2 / 2
    half = z * math.sqrt(count + z2 / 4)
    return max(0.0, middle - half) / exposure, (middle + half) / exposure


def count_rate(tops: Sequence[float], bottoms: Sequence[float]) -> Estimate:
    """A count per game or per turn (``tops`` counted, ``bottoms`` the games' turns, or 1 a game):
    Fieller's interval widened where needed to the total's Poisson score interval."""
    total = sum(bottoms)
    if not tops or total == 0:
        return none_yet(COUNT)
    count = sum(tops)
    low, high = poisson_score(count, total)
    f_low, f_high = fieller(tops, bottoms)
    if not math.isnan(f_low):
        low, high = min(low, f_low), max(high, f_high)
    return estimate(count / total, low, high, COUNT).within(0)


def detectable_edge(fair: float, games: int) -> float:
    """The smallest edge over the share ``fair`` that ``games`` games show (its 95% interval leaving
    ``fair``) 4 times in 5: (1.96 + 0.84) * sqrt(fair (1 - fair) / games). NaN for no games."""
    if games <= 0:
        return math.nan
    return (Z95 + Z80) * math.sqrt(fair * (1 - fair) / games)


def fit_elo(
    scores: list[list[float]], counts: list[list[float]], prior: float = 1.0, iterations: int = 2000
) -> list[float]:
    """Elo ratings (mean 1500) fitted to pairwise results by Bradley-Terry.

    ``scores[a][b]`` is what entrant ``a`` scored against ``b`` over ``counts[a][b]``
    meetings. ``prior`` adds that many drawn meetings to every pair that met, so a
    clean sweep still gives a finite rating.
    """
    m = len(scores)
    w = [[scores[a][b] + (prior / 2 if counts[a][b] else 0.0) for b in range(m)] for a in range(m)]
    n = [[counts[a][b] + (prior if counts[a][b] else 0.0) for b in range(m)] for a in range(m)]
    gamma = [1.0] * m
    for _ in range(iterations):
        change = 0.0
        for a in range(m):
            won = sum(w[a])
            denom = sum(n[a][b] / (gamma[a] + gamma[b]) for b in range(m) if b != a and n[a][b])
            if denom <= 0 or won <= 0:
                continue
            new = won / denom
            change = max(change, abs(math.log(new / gamma[a])))
            gamma[a] = new
        mean = sum(math.log(g) for g in gamma) / m
        gamma = [g / math.exp(mean) for g in gamma]
        if change < 1e-10:
            break
    return [1500.0 + 400.0 * math.log10(g) for g in gamma]
