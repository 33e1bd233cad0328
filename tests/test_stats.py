"""The lab's and the tournaments' intervals (eights.stats) on known values, at the boundary above all:
0 of n, n of n, 4 of 200 (issue 41), a count of 0, a figure the rules fix."""

from __future__ import annotations

import math

import pytest

from eights.stats import (
    CLUSTERED,
    COUNT,
    FIELLER,
    FIXED,
    WILSON,
    Z95,
    clustered_share,
    count_rate,
    detectable_edge,
    fieller,
    fit_elo,
    fixed,
    mean,
    proportion,
    ratio,
    wilson,
)


def t(e: object) -> tuple[float, float, float]:
    return (e.value, e.low, e.high)  # type: ignore[attr-defined]


def test_wilson_at_the_boundary_and_at_4_of_200() -> None:
    # 0 of 200: from exactly 0 to z^2 / (n + z^2); 200 of 200 the mirror, to exactly 1
    assert wilson(0, 200) == (0.0, pytest.approx(Z95**2 / (200 + Z95**2), abs=1e-12))
    low, high = wilson(200, 200)
    assert high == 1.0 and low == pytest.approx(200 / (200 + Z95**2), abs=1e-12)
    # 4 of 200: Wilson's [0.780%, 5.029%] (the delta method gave [0.05%, 3.9%])
    assert wilson(4, 200) == pytest.approx((0.0078044264, 0.0502870869), abs=1e-9)


def test_a_share_of_every_game_reaches_exactly_1_so_its_whisker_is_never_negative() -> None:
    """Issue 40: 60 of 60 gave an upper bound of 0.9999999999999998, below the figure, and the chart's
    whisker a negative length."""
    for n in range(1, 400):
        e = proportion(n, n)
        assert e.high == 1.0 and e.low <= e.value == 1.0
        zero = proportion(0, n)
        assert zero.low == 0.0 == zero.value <= zero.high


def test_a_share_of_rounds_is_wilson_on_the_effective_number_of_rounds() -> None:
    # one round a game: Wilson over games, exactly (4 blocked rounds of 200)
    blocked = clustered_share([1] * 4 + [0] * 196, [1] * 200)
    assert blocked.method == CLUSTERED
    assert t(blocked) == pytest.approx((0.02, *wilson(4, 200)), abs=1e-12)
    # none of 200: from 0, not the 0.0-0.0% the delta method gave
    assert t(clustered_share([0] * 200, [1] * 200)) == pytest.approx((0.0, 0.0, 0.018845326), abs=1e-9)
    # 15 rounds a game and none blocked: on the 3,000 rounds
    assert clustered_share([0] * 200, [15] * 200).high == pytest.approx(Z95**2 / (3000 + Z95**2), abs=1e-12)
    # every round of a game alike: two games of 10 rounds, one all in, one all out. Variance over games
    # ((10 - 5)^2 + (0 - 5)^2) / 20^2 = 0.125 against the binomial 0.25 / 20: design effect 10, two rounds
    alike = clustered_share([10, 0], [10, 10])
    assert t(alike) == pytest.approx((0.5, *wilson(1, 2)), abs=1e-12)
    # a design effect below 1 is taken as 1 (never narrower than the rounds' own binomial)
    even = clustered_share([5, 5], [10, 10])
    assert t(even) == pytest.approx((0.5, *wilson(10, 20)), abs=1e-12)


def test_fieller_bounds_solve_fieller_s_equation_and_a_mean_s_are_the_normal_ones() -> None:
    tops, bottoms = [1.0, 2.0, 4.0, 3.0], [1.0, 2.0, 2.0, 3.0]
    n = len(tops)
    mt, mb = sum(tops) / n, sum(bottoms) / n
    stt = sum((x - mt) ** 2 for x in tops) / (n - 1)
    sbb = sum((x - mb) ** 2 for x in bottoms) / (n - 1)
    stb = sum((x - mt) * (y - mb) for x, y in zip(tops, bottoms, strict=True)) / (n - 1)
    low, high = fieller(tops, bottoms)
    for r in (low, high):  # (T - R B)^2 = z^2 / n (s_tt - 2 R s_tb + R^2 s_bb)
        assert (mt - r * mb) ** 2 == pytest.approx(Z95**2 / n * (stt - 2 * r * stb + r * r * sbb), abs=1e-12)
    assert low < 10 / 8 < high
    assert ratio(tops, bottoms).method == FIELLER
    # 2, 4, 6: mean 4, sample sd 2, half-width 1.959964 * 2 / sqrt(3)
    assert t(mean([2, 4, 6])) == pytest.approx((4.0, 4 - 2.263171, 4 + 2.263171), abs=1e-6)
    one = mean([5])  # one game: no interval
    assert one.value == 5 and math.isnan(one.low) and math.isnan(one.high)
    assert math.isnan(mean([]).value)


def test_a_count_of_0_has_the_poisson_score_bound_not_0_to_0() -> None:
    none = count_rate([0] * 200, [30] * 200)  # no card drawn in 6,000 turns
    assert none.method == COUNT
    assert t(none) == pytest.approx((0.0, 0.0, Z95**2 / 6000), abs=1e-12)
    # one lead change in 200 games: Fieller alone reaches 0.0148, the count's score interval 0.0283
    rare = count_rate([1] + [0] * 199, [1] * 200)
    assert fieller([1] + [0] * 199, [1] * 200)[1] == pytest.approx(0.0147998, abs=1e-6)
    assert t(rare) == pytest.approx((0.005, 0.0, 0.028324), abs=1e-6)
    # many, spread out: Fieller's interval, wider than the Poisson one
    spread = count_rate([0, 10, 0, 10, 5, 5], [1] * 6)
    assert (spread.low, spread.high) == pytest.approx(fieller([0, 10, 0, 10, 5, 5], [1] * 6), abs=1e-12)


def test_a_fixed_figure_has_no_interval() -> None:
    e = fixed(1)
    assert e.fixed and e.method == FIXED and e.half_width == 0
    assert e.to_dict() == {"value": 1.0, "low": None, "high": None, "method": "fixed"}
    assert proportion(3, 4).to_dict()["method"] == WILSON


def test_the_edge_a_number_of_games_can_see() -> None:
    # (1.959964 + 0.841621) * sqrt(0.25 * 0.75 / 200): 8.6 points for a seat at four players
    assert detectable_edge(0.25, 200) == pytest.approx(0.0857807, abs=1e-7)
    assert detectable_edge(0.5, 200) == pytest.approx(0.0990510, abs=1e-7)
    assert detectable_edge(0.25, 800) == pytest.approx(detectable_edge(0.25, 200) / 2)
    assert math.isnan(detectable_edge(0.25, 0))


def test_fit_elo_two_entrants_without_prior_is_the_log_odds():
    # A beats B 3 of 4: gamma_A / gamma_B = 3, so the difference is 400 log10(3) ~ 190.8.
    elo = fit_elo([[0.0, 3.0], [1.0, 0.0]], [[0.0, 4.0], [4.0, 0.0]], prior=0.0)
    assert elo[0] - elo[1] == pytest.approx(400 * math.log10(3), abs=1e-6)
    assert elo[0] - elo[1] == pytest.approx(190.85, abs=0.01)
    assert (elo[0] + elo[1]) / 2 == pytest.approx(1500.0)


def test_fit_elo_prior_adds_one_drawn_meeting():
    # With the default prior, 3 of 4 counts as 3.5 of 5: 400 log10(3.5 / 1.5) ~ 147.2.
    elo = fit_elo([[0.0, 3.0], [1.0, 0.0]], [[0.0, 4.0], [4.0, 0.0]])
    assert elo[0] - elo[1] == pytest.approx(400 * math.log10(3.5 / 1.5), abs=1e-6)
    # A clean sweep stays finite: 4.5 of 5.
    sweep = fit_elo([[0.0, 4.0], [0.0, 0.0]], [[0.0, 4.0], [4.0, 0.0]])
    assert sweep[0] - sweep[1] == pytest.approx(400 * math.log10(4.5 / 0.5), abs=1e-6)


def test_fit_elo_recovers_consistent_strengths_of_three():
    # Strengths 4 : 2 : 1. A-B 2 of 3, B-C 2 of 3, A-C 4 of 5 are exactly the expected scores,
    # so the maximum-likelihood fit is those strengths: 1500 + 400 log10(gamma / 2).
    scores = [[0.0, 2.0, 4.0], [1.0, 0.0, 2.0], [1.0, 1.0, 0.0]]
    counts = [[0.0, 3.0, 5.0], [3.0, 0.0, 3.0], [5.0, 3.0, 0.0]]
    elo = fit_elo(scores, counts, prior=0.0)
    assert elo == pytest.approx([1500 + 400 * math.log10(2), 1500.0, 1500 - 400 * math.log10(2)], abs=1e-4)


def test_fit_elo_leaves_entrants_that_never_met_at_the_mean():
    elo = fit_elo([[0.0, 0.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 0.0]])
    assert elo == [1500.0, 1500.0]
