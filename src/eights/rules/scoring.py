"""The match layer's arithmetic: a round's points, when the match ends, who wins.

The game (``eights.engine.Game``) plays the rounds and rotates the dealer; it
calls these functions at the end of each round. They are pure, so every scoring
rule can be tested on plain numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from eights.rules import RuleSet


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended."""

    winners: tuple[int, ...]
    totals: tuple[int, ...]
    rounds: int


def hand_value(values: Sequence[int], hand: Sequence[int]) -> int:
    """The points of a hand under a value table indexed by card id."""
    return sum(values[c] for c in hand)


def lowest(numbers: Sequence[int]) -> tuple[int, ...]:
    """The seats holding the lowest number (several on a tie)."""
    low = min(numbers)
    return tuple(i for i, x in enumerate(numbers) if x == low)


def round_points(
    rules: RuleSet, values: Sequence[int], hands: Sequence[Sequence[int]], out: int | None
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Points each seat scores this round, and the round's winners.

    ``out`` is the seat that went out, or None for a blocked round (D5).
    """
    worth = [hand_value(values, hand) for hand in hands]
    if out is not None:
        winners: tuple[int, ...] = (out,)
    elif rules.blocked_fewest_cards:
        winners = lowest([len(hand) for hand in hands])
    else:
        winners = lowest(worth)
    points = [0] * len(hands)
    if not rules.score_keeping:
        return tuple(points), winners
    if rules.scoring == "own_hand":
        points = [0 if seat == out else w for seat, w in enumerate(worth)]
    elif out is not None:
        points[out] = sum(w for seat, w in enumerate(worth) if seat != out)
    elif len(winners) == 1:
        low = worth[winners[0]]
        points[winners[0]] = sum(w - low for w in worth)
    return tuple(points), winners


def match_rounds(rules: RuleSet, players: int) -> int | None:
    """The rounds every match lasts, or None when the totals decide (a target score ends it)."""
    if not rules.score_keeping:
        return 1
    if rules.schedule:
        return len(rules.schedule)
    if rules.match_target(players):
        return None
    return rules.hands or 1


def match_over(rules: RuleSet, players: int, rounds_played: int, totals: Sequence[int]) -> bool:
    """Whether the match ends after ``rounds_played`` rounds with these totals."""
    rounds = match_rounds(rules, players)
    if rounds is not None:
        return rounds_played >= rounds
    if rules.hands and rounds_played >= rules.hands:
        return True
    return max(totals) >= rules.match_target(players)


def match_winners(
    rules: RuleSet, rounds_played: int, totals: Sequence[int], last_winners: tuple[int, ...]
) -> tuple[int, ...]:
    """The winners of a finished match; ties share the win."""
    if not rules.score_keeping or (
        rounds_played == 1 and not rules.schedule and not rules.hands and not rules.match_target(len(totals))
    ):
        return last_winners
    if rules.lowest_wins:
        return lowest(totals)
    high = max(totals)
    return tuple(i for i, x in enumerate(totals) if x == high)
