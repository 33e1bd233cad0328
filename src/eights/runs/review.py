"""A review of a finished match: for each decision a person made, what the strongest computer player
would have played there, and what the choice cost.

Each decision is looked at as its seat saw it (``view(game, seat)``, the engine's one redaction) and
nowhere else: the strongest level (``expert``, a fixed number of search iterations, so that a review
is the same every time) chooses from that view, and the two moves, the one played and the best, are
each followed by play-outs of the round on deals drawn from what the seat could know (``sample``:
the same deals and the same play for both moves, so that only the move differs). Their difference
is the cost of the choice: in winning chances (0.25 = a quarter of a round's win) where only going
out counts, in expected points where points decide; with its standard error over the deals. The
few decisions that cost most, clearly (the cost twice its error, and more than ``MISTAKE``), are
the mistakes.

``review_match`` runs the decisions in worker processes; ``eights review`` shows them and keeps the
result in the match store, so a second look is instant.
"""

from __future__ import annotations

import math
import random
import threading
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, replace
from typing import Any

from eights.bots import make_bot
from eights.cards import Card, Suit
from eights.engine import Game, View, parse_action, view
from eights.engine.sampling import sample
from eights.record import GameRecord
from eights.rules import RuleSet
from eights.runs.pool import Stopped, run_all, workers
from eights.seeds import derive_seed
from eights.store.matches import MatchSummary
from eights.table import HUMAN
from eights.table.phrases import action_words, duty_lines

__all__ = [
    "MISTAKE",
    "Decision",
    "Review",
    "ReviewSettings",
    "Task",
    "amount_words",
    "cost_words",
    "decisions_of",
    "position_words",
    "review_decision",
    "review_match",
    "tasks_of",
]

#: A cost above this (in the result's unit), and twice its error, makes a decision a mistake.
MISTAKE = 0.05
#: Play-outs never run longer than this many actions (a round that would is scored where it stands).
PLAYOUT_CAP = 2000


@dataclass(frozen=True)
class ReviewSettings:
    """How hard a review looks: deals per decision, and the expert's search iterations per decision."""

    deals: int = 48
    iterations: int = 1500

    def to_dict(self) -> dict[str, int]:
        return asdict(self)


@dataclass(frozen=True)
class Decision:
    """One decision of a person's, reviewed."""

    #: The action's number in the match (1 = the first), its round, and its turn in that round.
    number: int
    round: int
    turn: int
    seat: int
    played: str
    best: str
    #: What ``played`` cost against ``best`` (0 when they are the same move), and its standard error.
    cost: float
    spread: float
    #: How many moves the seat could choose from.
    choices: int
    #: The position as the seat saw it: its hand, the top card, the suit to follow, the hand sizes, the
    #: stock, the direction, what was pending.
    position: dict[str, Any]
    #: The moves in words, as the table says them.
    played_words: str = ""
    best_words: str = ""
    mistake: bool = False

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Decision:
        return cls(**data)


@dataclass(frozen=True)
class Review:
    """A match's review: its decisions, each round's total cost, the unit of the costs."""

    match_id: int
    seats: tuple[int, ...]
    names: tuple[str, ...]
    unit: str
    settings: ReviewSettings
    decisions: tuple[Decision, ...]

    @property
    def mistakes(self) -> tuple[Decision, ...]:
        return tuple(sorted((d for d in self.decisions if d.mistake), key=lambda d: -d.cost))

    def rounds(self, played: int = 0) -> dict[int, float]:
        """Each round's total cost, by round: every round from 1 to ``played`` (0 where no decision of the
        seats reviewed had a choice), and any other round with a decision."""
        totals: dict[int, float] = dict.fromkeys(range(1, played + 1), 0.0)
        for decision in self.decisions:
            totals[decision.round] = totals.get(decision.round, 0.0) + decision.cost
        return {r: round(c, 4) for r, c in sorted(totals.items())}

    def to_dict(self) -> dict[str, Any]:
        return {
            "match": self.match_id,
            "seats": list(self.seats),
            "names": list(self.names),
            "unit": self.unit,
            "settings": self.settings.to_dict(),
            "decisions": [d.to_dict() for d in self.decisions],
            "mistakes": [d.number for d in self.mistakes],
            "rounds": [{"round": r, "cost": c} for r, c in self.rounds().items()],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Review:
        return cls(
            int(data["match"]),
            tuple(data["seats"]),
            tuple(data["names"]),
            str(data["unit"]),
            ReviewSettings(**data["settings"]),
            tuple(Decision.from_dict(d) for d in data["decisions"]),
        )


def amount_words(unit: str, x: float) -> str:
    """An amount of a cost, unsigned, in the review's unit: winning chances (a round's win = 100%) or points."""
    size = abs(x)
    if unit != "wins":
        return f"{size:.1f} points"
    return f"{round(size * 100)}% of a win" if size < 1 else f"{size:.2f} wins"


def cost_words(decision: Decision, unit: str) -> str:
    """What a decision's cost means, in words: a cost is called one only when it is clear (more than twice its
    standard error); a negative one is the move played doing better on the deals tried; none, the same result."""
    d = decision
    if d.played == d.best:
        return "the expert plays the same"
    spread = f"± {amount_words(unit, d.spread)}" if unit != "wins" else f"± {round(d.spread * 100)}%"
    if d.cost == 0 and d.spread == 0:
        return "no cost: both moves came to the same on every deal tried"
    if abs(d.cost) <= 2 * d.spread:
        sign = "+" if d.cost >= 0 else "-"
        return f"no clear cost: {sign}{amount_words(unit, d.cost)} {spread}, too close to 0 to tell on these deals"
    if d.cost < 0:
        return f"no cost: your move did better on these deals, by {amount_words(unit, d.cost)} ({spread})"
    return f"cost {amount_words(unit, d.cost)} ({spread})" + (": a mistake" if d.mistake else "")


def position_words(decision: Decision) -> str:
    """The position the decision was made in, as the seat saw it: the card on the pile (and the suit to
    follow when a wild named it) and the hand."""
    seen = decision.position
    top = Card.parse(seen["top"]).pretty()
    suit = seen.get("active_suit")
    if seen.get("suit_named") and suit:
        named = Suit.parse(suit)
        top += f" ({named.symbol} {named.name.lower()} named)"
    hand = " ".join(Card.parse(card).pretty() for card in seen["hand"])
    return f"on the pile {top}; hand {hand}"


def unit_of(rules: RuleSet, players: int) -> str:
    """What a cost counts: ``points`` where points decide the match, else ``wins`` (a round's win = 1)."""
    return "points" if rules.points_decide(players) else "wins"


def value(game: Game, seat: int, unit: str) -> float:
    """What the round just ended (``game.last_round``) was worth to ``seat``: its points (their negative
    where the lowest total wins), or 1 for a win."""
    ended = game.last_round
    if ended is None:
        return 0.0
    if unit == "wins":
        return 1.0 if seat in ended.winners else 0.0
    points = float(ended.points[seat])
    return -points if game.rules.lowest_wins else points


def play_out(game: Game, seat: int, unit: str, seed: int) -> float:
    """Play ``game``'s round to its end with ``normal`` players in every seat; what it was worth to ``seat``."""
    start = game.round_index
    bots = [make_bot("normal", derive_seed(f"review:{seed}:{s}")) for s in range(game.players)]
    for _ in range(PLAYOUT_CAP):
        if game.is_over or game.round_index != start:
            return value(game, seat, unit)
        acting = game.to_act
        game.apply(bots[acting].choose(view(game, acting)))
    return 0.0


def position(seen: View, names: tuple[str, ...]) -> dict[str, Any]:
    """What a seat saw, as plain data (nothing it could not see): enough to draw the table as it was."""
    return {
        "hand": [str(c) for c in seen.hand],
        "top": str(seen.top),
        "active_suit": seen.active_suit.letter if seen.active_suit is not None else None,
        "suit_named": seen.suit_named,
        "hand_counts": list(seen.hand_counts),
        "stock": seen.stock_count,
        "direction": seen.direction,
        "pending": duty_lines(seen, names),
        "rounds": seen.rounds,
        "dealer": seen.dealer,
        "hand_size": seen.hand_size,
        "totals": list(seen.totals),
        "teams": [list(pair) for pair in seen.teams],
    }


@dataclass(frozen=True)
class Task:
    """One decision to review, as a worker gets it: the seat's view and what was played."""

    number: int
    turn: int
    seen: View
    played: str
    names: tuple[str, ...]
    unit: str
    settings: ReviewSettings
    seed: int


def review_decision(task: Task) -> Decision:
    """In a worker: the best move from the seat's view, and the played move's cost against it."""
    seen, settings = task.seen, task.settings
    seat = seen.seat
    assert seat is not None
    expert = make_bot("expert", task.seed, iterations=settings.iterations)
    best = expert.choose(seen)
    played = parse_action(task.played)
    cost = spread = 0.0
    if best != played:
        differences = []
        for deal in range(settings.deals):
            deal_seed = derive_seed(f"review-deal:{task.seed}:{deal}")
            outcomes = []
            for move in (best, played):
                game = sample(seen, random.Random(deal_seed))
                game.apply(move)
                outcomes.append(play_out(game, seat, task.unit, deal_seed))
            differences.append(outcomes[0] - outcomes[1])
        n = len(differences)
        cost = sum(differences) / n
        variance = sum((d - cost) ** 2 for d in differences) / (n - 1) if n > 1 else 0.0
        spread = math.sqrt(variance / n)
    return Decision(
        number=task.number,
        round=seen.round,
        turn=task.turn,
        seat=seat,
        played=str(played),
        best=str(best),
        cost=round(cost, 4),
        spread=round(spread, 4),
        choices=len(seen.legal),
        position=position(seen, task.names),
        played_words=action_words(played, seen, task.names),
        best_words=action_words(best, seen, task.names),
        mistake=cost > MISTAKE and cost > 2 * spread,
    )


def seats_to_review(summary: MatchSummary, seats: tuple[int, ...] | None) -> tuple[int, ...]:
    """The seats a review looks at: ``seats``, or every person's.

    :raises ValueError: when the match is not over, a seat is not at its table, or there is none to review.
    """
    if not summary.finished:
        raise ValueError(
            f"match {summary.id} is not over: a review is of a finished match (`eights play --resume` ends it)"
        )
    players = len(summary.players)
    for seat in seats or ():
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat} is not at match {summary.id}'s table; valid: 0-{players - 1}")
    chosen = seats if seats else tuple(s for s, who in enumerate(summary.players) if who == HUMAN)
    if not chosen:
        raise ValueError(f"no person played in match {summary.id}: name a seat to review with --seat (0-{players - 1})")
    return tuple(sorted(set(chosen)))


def count_decisions(record: GameRecord, seats: tuple[int, ...]) -> int:
    """How many decisions ``review_match`` will look at."""
    return sum(1 for _ in decisions_of(record, seats, ()))


def decisions_of(record: GameRecord, seats: tuple[int, ...], names: tuple[str, ...]) -> Iterator[Task]:
    """The decisions of ``seats`` in a match where there was a choice, each as its seat saw it then."""
    game = Game(record.rules, record.players, record.seed, deck=record.deck, dealer=record.dealer)
    unit = unit_of(record.rules, record.players)
    turn, round_index = 0, game.round_index
    for number, text in enumerate(record.actions, 1):
        if game.round_index != round_index:
            turn, round_index = 0, game.round_index
        seat = game.to_act
        turn += 1
        if seat in seats:
            seen = view(game, seat)
            if len(seen.legal) > 1:
                yield Task(number, turn, seen, text, names, unit, ReviewSettings(), 0)
        game.play(parse_action(text))


def review_match(
    summary: MatchSummary,
    record: GameRecord,
    *,
    seats: tuple[int, ...] | None = None,
    settings: ReviewSettings | None = None,
    jobs: int = 1,
    progress: Callable[[object], None] | None = None,
) -> Review:
    """Review ``seats`` (default: every person's) of a finished match, in ``jobs`` worker processes;
    ``progress(decision)`` after each decision. The same match and settings give the same review
    whatever ``jobs``.

    :raises ValueError: when the match is not over or has no seat to review.
    """
    chosen = seats_to_review(summary, seats)
    settings = settings or ReviewSettings()
    tasks = tasks_of(summary, record, chosen, settings)
    done: dict[int, Decision] = {}

    def keep(index: int, decision: Decision) -> None:
        done[index] = decision
        if progress is not None:
            progress(decision)

    with workers(min(jobs, len(tasks))) as pool:
        try:
            run_all(review_decision, tasks, pool, keep, threading.Event())
        except Stopped:
            raise KeyboardInterrupt from None
    decisions = tuple(done[index] for index in range(len(tasks)))
    return Review(summary.id, chosen, summary.names, unit_of(record.rules, record.players), settings, decisions)


def tasks_of(summary: MatchSummary, record: GameRecord, seats: tuple[int, ...], settings: ReviewSettings) -> list[Task]:
    """The decisions of ``seats`` to review, each with ``settings`` and its own seed (from the match's number
    and the decision's, never from the match's seed)."""
    return [
        replace(task, settings=settings, seed=derive_seed(f"review:{summary.id}:{task.number}"))
        for task in decisions_of(record, seats, summary.names)
    ]
