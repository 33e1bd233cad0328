"""Playing the lab's games and turning them into figures, each with a 95% interval.

For each rule set the lab plays three kinds of games at the same table size, ``games`` of each:

- ``table``: the normal player in every seat. Every figure but the skill ones comes from these:
  length (turns, rounds, actions, minutes at a person's pace), each seat's win rate (seats counted
  from the first dealer: position 0 deals, position 1 plays first), lead changes and the last
  round deciding the match, blocked rounds, cards drawn per turn, and moves with one legal choice
  (every decision counts: a play, a draw, naming a suit...).
- ``skill``: the expert, on a fixed search budget (``expert@BUDGET`` iterations a move), against
  the normal player; ``base``: the normal player against the easy one (random moves). Each is a
  game of ``eights.tournament.play_one``: the entrants take the seats in turn, seats rotate, each
  deal is played in every rotation. A game of pure luck gives 50%.

Game ``i`` of each kind is seeded from the lab seed and ``i`` only (``eights.simulate.game_seed``,
``bot_seed``), so the figures are the same whatever the number of jobs or machines, and the task
order never matters: results are put back in task order before they are totalled.

Intervals: a win rate or a share of games has the Wilson interval (``eights.tournament.wilson``);
a mean per game, the normal one (mean +- 1.96 standard errors); a figure per turn or per round
(cards drawn per turn, moves with one legal choice, blocked rounds), the ratio of the totals with
the delta-method interval over games (the turns of one game are not independent). These two are
cut to what the figure can be: never below 0, a share never above 1.
"""

from __future__ import annotations

import math
import os
import queue
import signal
import socket
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from eights.bots import make_bot
from eights.engine import Game, view
from eights.engine.events import CardsDrawn, RoundOver
from eights.rules import RuleSet
from eights.simulate import bot_seed, game_seed
from eights.stats import Z95, wilson
from eights.tournament import GameResult, play_one

#: The kinds of game, in task order.
TABLE, SKILL, BASE = "table", "skill", "base"
KINDS = (TABLE, SKILL, BASE)
#: The expert's search iterations a move in the skill games, by default: about 0.15 s a game of
#: classic at four players, where the expert's own second a move would take minutes.
DEFAULT_BUDGET = 100
#: A person's pace, for the minutes a game takes: seconds an action, and to shuffle and deal a round.
SECONDS_PER_ACTION = 4.0
SECONDS_PER_DEAL = 60.0
#: How often the loops waiting for games look whether Ctrl-C was pressed.
POLL_SECONDS = 0.2
#: Games of each kind a Ray task plays (a Ray task costs more to start than a process pool's).
RAY_BATCH = 8
#: Seconds to wait for the Ray head named by ``RAY_ADDRESS`` to take a connection.
RAY_PROBE_SECONDS = 5.0


class LabError(ValueError):
    """A lab that cannot run as asked; names the problem and the valid choices."""


# ----- one game ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableGame:
    """What one game between normal players contributes."""

    first_dealer: int
    winners: tuple[int, ...]
    rounds: int
    turns: int
    actions: int
    one_legal: int
    blocked_rounds: int
    cards_drawn: int
    lead_changes: int
    last_round_decided: bool


def leaders(totals: Sequence[int], lowest_wins: bool) -> frozenset[int]:
    """The seats leading on these totals (several on a tie)."""
    best = min(totals) if lowest_wins else max(totals)
    return frozenset(seat for seat, total in enumerate(totals) if total == best)


def play_table(rules: RuleSet, players: int, index: int, seed: int) -> TableGame:
    """Game ``index`` between normal players, measured."""
    deal = game_seed(seed, index)
    game = Game(rules, players, deal)
    bots = [make_bot("normal", bot_seed(deal, seat)) for seat in range(players)]
    turns = actions = one_legal = 0
    holder = (-1, -1)
    while not game.is_over:
        seat = game.to_act
        if (game.round_index, game.turn) != holder:
            holder = (game.round_index, game.turn)
            turns += 1
        seen = view(game, seat)
        one_legal += len(seen.legal) == 1
        game.play(bots[seat].choose(seen), seat)
        actions += 1
    assert game.outcome is not None
    drawn = blocked = changes = 0
    lead: frozenset[int] | None = None
    before_last: frozenset[int] | None = None
    for event in game.log or ():
        if isinstance(event, CardsDrawn):
            drawn += event.count
        elif isinstance(event, RoundOver):
            blocked += event.reason == "blocked"
            now = leaders(event.totals, rules.lowest_wins)
            if lead is not None and now != lead:
                changes += 1
            before_last, lead = lead, now
    decided = before_last is None or frozenset(game.outcome.winners) != before_last
    return TableGame(
        game.first_dealer,
        game.outcome.winners,
        game.outcome.rounds,
        turns,
        actions,
        one_legal,
        blocked,
        drawn,
        changes,
        decided,
    )


def entrants(kind: str, budget: int) -> list[str]:
    """The bot specs of a skill game: the stronger first."""
    return [f"expert@{budget}", "normal"] if kind == SKILL else ["normal", "easy"]


@dataclass(frozen=True, slots=True)
class Task:
    """One game to play: of rule set ``variant``, of ``kind``, number ``index``."""

    variant: int
    kind: str
    index: int
    rules: RuleSet
    players: int
    seed: int
    budget: int


def play_task(task: Task) -> TableGame | GameResult:
    if task.kind == TABLE:
        return play_table(task.rules, task.players, task.index, task.seed)
    return play_one(task.rules, task.players, entrants(task.kind, task.budget), task.index, task.seed)


def play_batch(tasks: list[Task]) -> list[TableGame | GameResult]:
    return [play_task(task) for task in tasks]


def tasks_for(rulesets: Sequence[RuleSet], players: int, games: int, seed: int, budget: int) -> list[Task]:
    """Every game of the lab, in the order they are played: game by game, each rule set and kind in
    turn, so that a lab stopped early has played every rule set and kind about as far."""
    return [
        Task(v, kind, index, rules, players, seed, budget)
        for index in range(games)
        for v, rules in enumerate(rulesets)
        for kind in KINDS
    ]


# ----- running them -------------------------------------------------------------------------------

Key = tuple[int, str, int]
OnGame = Callable[[object], None]


def _ignore_interrupts() -> None:
    # Ctrl-C reaches every process of the terminal's group: the workers leave it to the parent.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Stopped(Exception):
    """Ctrl-C (or an ``on_game`` that raised ``KeyboardInterrupt``): no more games are handed out."""


@contextmanager
def interrupts_stop(stop: threading.Event) -> Iterator[None]:
    """While the games run, Ctrl-C sets ``stop`` instead of raising wherever the main thread happens
    to be (inside the process pool's own code, a KeyboardInterrupt can leave its workers playing on);
    the loops look at it between games. Outside the main thread, signals are left as they are."""
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        yield  # a process started with Ctrl-C ignored (a background job) keeps ignoring it
        return
    previous = signal.signal(signal.SIGINT, lambda _signum, _frame: stop.set())
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _finished(done: dict[Key, Any], task: Task, result: TableGame | GameResult, on_game: OnGame | None) -> None:
    done[(task.variant, task.kind, task.index)] = result
    if on_game is not None:
        on_game(task)


def run_local(
    tasks: list[Task], jobs: int, done: dict[Key, Any], on_game: OnGame | None, stop: threading.Event
) -> None:
    """Play ``tasks`` here (``jobs`` 1) or in ``jobs`` processes, into ``done``, until ``stop`` is set.

    :raises Stopped: once ``stop`` is set, with the games that had ended in ``done``.
    """
    if jobs == 1:
        for task in tasks:
            if stop.is_set():
                raise Stopped
            _finished(done, task, play_task(task), on_game)
        return
    ended: queue.SimpleQueue[Future[TableGame | GameResult]] = queue.SimpleQueue()
    with ProcessPoolExecutor(max_workers=min(jobs, len(tasks)), initializer=_ignore_interrupts) as pool:
        futures: dict[Future[TableGame | GameResult], Task] = {}
        for task in tasks:
            future = pool.submit(play_task, task)
            futures[future] = task
            future.add_done_callback(ended.put)
        left = len(futures)
        try:
            while left:
                if stop.is_set():
                    raise Stopped
                try:
                    future = ended.get(timeout=POLL_SECONDS)
                except queue.Empty:
                    continue
                left -= 1
                if not future.cancelled():
                    _finished(done, futures[future], future.result(), on_game)
        except (Stopped, KeyboardInterrupt):
            pool.shutdown(wait=True, cancel_futures=True)
            for future, task in futures.items():
                key = (task.variant, task.kind, task.index)
                if key not in done and future.done() and not future.cancelled() and future.exception() is None:
                    done[key] = future.result()
            raise Stopped from None


def ray_missing() -> str | None:
    """Why ``--cluster ray`` cannot run here, or None."""
    try:
        import ray  # noqa: F401
    except ImportError:
        return "--cluster ray needs Ray, the ray extra: pip install 'eights[ray]' (or pip install -e '.[ray]' here)"
    return None


def ray_unreachable() -> str | None:
    """Why the Ray head that ``RAY_ADDRESS`` names (``host:port`` or ``ray://host:port``) cannot be
    reached, or None (also for no ``RAY_ADDRESS``, or Ray already started in this process).

    Asked before ``ray.init``, which, at an address where nothing listens, retries for minutes and
    prints its own warnings. An address of another form (``auto``, ``local``) is left to Ray."""
    import ray

    address = os.environ.get("RAY_ADDRESS", "").strip()
    if not address or ray.is_initialized():
        return None
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not host or not port.isdigit():
        return None
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=RAY_PROBE_SECONDS):
            return None
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
    return (
        f"cannot reach the Ray cluster at RAY_ADDRESS={address} ({reason}): start its head there "
        "(ray start --head), or unset RAY_ADDRESS for a local Ray"
    )


def run_ray(tasks: list[Task], done: dict[Key, Any], on_game: OnGame | None, stop: threading.Event) -> None:
    """Play ``tasks`` on a Ray cluster: the one ``RAY_ADDRESS`` names, else a local one started for the
    lab (on every core, without its dashboard) and stopped after it.

    :raises Stopped: once ``stop`` is set, the games not yet ended cancelled.
    """
    import logging

    import ray

    started = not ray.is_initialized()
    if started:
        address = os.environ.get("RAY_ADDRESS")
        try:
            if address:
                ray.init(logging_level=logging.ERROR, log_to_driver=False)
            else:
                ray.init(include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False)
        except (ConnectionError, RuntimeError) as exc:
            where = f"the Ray cluster at RAY_ADDRESS={address}" if address else "a local Ray"
            reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise LabError(f"cannot reach {where}: {reason}") from None
    remote = ray.remote(play_batch)
    batches = [tasks[i : i + RAY_BATCH] for i in range(0, len(tasks), RAY_BATCH)]
    refs = {remote.remote(batch): batch for batch in batches}
    pending = list(refs)
    try:
        while pending:
            if stop.is_set():
                raise Stopped
            finished, pending = ray.wait(pending, num_returns=1, timeout=POLL_SECONDS)
            for ref in finished:
                for task, result in zip(refs[ref], ray.get(ref), strict=True):
                    _finished(done, task, result, on_game)
    except (Stopped, KeyboardInterrupt):
        for ref in pending:
            ray.cancel(ref, force=True)
        raise Stopped from None
    finally:
        if started:
            ray.shutdown()


# ----- figures -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Estimate:
    """A figure with its 95% interval."""

    value: float
    low: float
    high: float

    def to_dict(self) -> dict[str, float | None]:
        """Plain numbers; None where no game gave the figure (a lab stopped before any)."""
        return {"value": _plain(self.value), "low": _plain(self.low), "high": _plain(self.high)}

    def shifted(self, by: float) -> Estimate:
        return Estimate(self.value + by, self.low + by, self.high + by)

    def within(self, low: float, high: float = math.inf) -> Estimate:
        """The interval cut to what the figure can be (a count is never negative, a share at most 1)."""
        return Estimate(self.value, max(low, self.low), min(high, self.high))


def _plain(x: float) -> float | None:
    return None if math.isnan(x) else round(x, 6)


def mean_of(values: Sequence[float]) -> Estimate:
    """The mean with its normal 95% interval."""
    n = len(values)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan)
    mean = sum(values) / n
    if n == 1:
        return Estimate(mean, mean, mean)
    var = sum((x - mean) ** 2 for x in values) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return Estimate(mean, mean - half, mean + half)


def ratio_of(tops: Sequence[float], bottoms: Sequence[float]) -> Estimate:
    """Sum of ``tops`` over sum of ``bottoms`` (one pair per game), with the delta-method 95% interval."""
    n = len(tops)
    total = sum(bottoms)
    if n == 0 or total == 0:
        return Estimate(math.nan, math.nan, math.nan)
    ratio = sum(tops) / total
    if n == 1:
        return Estimate(ratio, ratio, ratio)
    mean_bottom = total / n
    residuals = [t - ratio * b for t, b in zip(tops, bottoms, strict=True)]
    var = sum(r * r for r in residuals) / (n - 1) / (n * mean_bottom * mean_bottom)
    half = Z95 * math.sqrt(var)
    return Estimate(ratio, ratio - half, ratio + half)


def rate_of(wins: float, games: int) -> Estimate:
    """A win rate (or any share of games) with its Wilson interval."""
    low, high = wilson(wins, games)
    return Estimate(wins / games if games else math.nan, low, high)


#: The figures of how a match goes, turn by turn and round by round.
TURN_FIGURES = ("cards_drawn_per_turn", "one_legal_move", "blocked_rounds", "lead_changes", "last_round_decides")


@dataclass(slots=True)
class VariantFigures:
    """One rule set's figures."""

    name: str
    title: str
    changes: list[str]
    players: int
    games: dict[str, int]
    figures: dict[str, Estimate] = field(default_factory=dict)
    seats: list[Estimate] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "changes": self.changes,
            "players": self.players,
            "games": self.games,
            "length": {k: self.figures[k].to_dict() for k in ("turns", "rounds", "actions", "minutes")},
            "seats": {
                "win_rate": [e.to_dict() for e in self.seats],
                "first_player_edge": self.figures["first_player_edge"].to_dict(),
                "dealer_edge": self.figures["dealer_edge"].to_dict(),
            },
            "turns": {k: self.figures[k].to_dict() for k in TURN_FIGURES},
            "skill": {k: self.figures[k].to_dict() for k in ("expert_beats_normal", "normal_beats_easy")},
        }


def table_figures(games: list[TableGame], players: int) -> tuple[dict[str, Estimate], list[Estimate]]:
    n = len(games)
    figures = {
        "turns": mean_of([g.turns for g in games]).within(0),
        "rounds": mean_of([g.rounds for g in games]).within(0),
        "actions": mean_of([g.actions for g in games]).within(0),
        "minutes": mean_of([(g.actions * SECONDS_PER_ACTION + g.rounds * SECONDS_PER_DEAL) / 60 for g in games]).within(
            0
        ),
        "cards_drawn_per_turn": ratio_of([g.cards_drawn for g in games], [g.turns for g in games]).within(0),
        "one_legal_move": ratio_of([g.one_legal for g in games], [g.actions for g in games]).within(0, 1),
        "blocked_rounds": ratio_of([g.blocked_rounds for g in games], [g.rounds for g in games]).within(0, 1),
        "lead_changes": mean_of([g.lead_changes for g in games]).within(0),
        "last_round_decides": rate_of(sum(g.last_round_decided for g in games), n),
    }
    wins = [0.0] * players
    for g in games:
        for seat in g.winners:
            wins[(seat - g.first_dealer) % players] += 1 / len(g.winners)
    seats = [rate_of(w, n) for w in wins]
    fair = -1 / players
    figures["dealer_edge"] = seats[0].shifted(fair)
    figures["first_player_edge"] = seats[1 % players].shifted(fair)
    return figures, seats


def skill_rate(results: list[GameResult]) -> Estimate:
    """How often the first entrant (the stronger) beats the second: its share of the wins."""
    share = 0.0
    for r in results:
        share += sum(1 / len(r.winners) for w in r.winners if r.seats[w] == 0)
    return rate_of(share, len(results))


@dataclass(slots=True)
class LabResult:
    """A finished (or stopped) lab."""

    players: int
    games: int
    seed: int
    budget: int
    variants: list[VariantFigures]
    partial: bool = False
    seconds: float = 0.0
    jobs: int = 1
    cluster: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "search_budget": {
                "expert": f"expert@{self.budget}",
                "iterations_per_move": self.budget,
                "words": f"the skill figures' expert searches {self.budget} iterations a move "
                "(expert alone searches for 1 s a move)",
            },
            "pace": {"seconds_per_action": SECONDS_PER_ACTION, "seconds_per_deal": SECONDS_PER_DEAL},
            "partial": self.partial,
            "seconds": round(self.seconds, 3),
            "jobs": self.jobs,
            "cluster": self.cluster,
            "variants": [v.to_dict() for v in self.variants],
        }


def tally(
    names: Sequence[str], rulesets: Sequence[RuleSet], players: int, games: int, done: dict[Key, Any]
) -> list[VariantFigures]:
    """Each rule set's figures from the games played (in task order, whatever order they ended in)."""
    out = []
    for v, (name, rules) in enumerate(zip(names, rulesets, strict=True)):
        played = {kind: [done[(v, kind, i)] for i in range(games) if (v, kind, i) in done] for kind in KINDS}
        figures, seats = table_figures(played[TABLE], players)
        figures["expert_beats_normal"] = skill_rate(played[SKILL])
        figures["normal_beats_easy"] = skill_rate(played[BASE])
        out.append(
            VariantFigures(
                name=name,
                title=rules.title,
                changes=rules.changes()[1],
                players=players,
                games={kind: len(played[kind]) for kind in KINDS},
                figures=figures,
                seats=seats,
            )
        )
    return out


def run_lab(
    rulesets: Sequence[RuleSet],
    players: int,
    games: int,
    seed: int = 0,
    *,
    names: Sequence[str] | None = None,
    jobs: int = 1,
    budget: int = DEFAULT_BUDGET,
    cluster: str | None = None,
    on_game: OnGame | None = None,
    on_start: Callable[[int], None] | None = None,
) -> LabResult:
    """Play the lab and total it; see the module docstring. Ctrl-C during the games (in the main
    thread; or an ``on_game`` that raises ``KeyboardInterrupt``) stops handing out games, lets the
    running ones end and gives the figures of the games played, marked ``partial``. ``on_start(games)`` is called
    as the games begin, ``on_game(task)`` after each.

    :raises LabError: for no rule set, fewer than one game, a bad budget, jobs or cluster.
    :raises RulesError: when the players cannot play one of the rule sets (naming it).
    """
    import time

    if not rulesets:
        raise LabError("name at least one rule set: a preset (classic, action, ...) or a house-rules file")
    if games < 1:
        raise LabError(f"games: {games}; play at least 1")
    if jobs < 1:
        raise LabError(f"jobs: {jobs}; use at least 1")
    if budget < 1:
        raise LabError(f"budget: {budget}; the expert needs at least 1 search iteration a move")
    if cluster not in (None, "ray"):
        raise LabError(f"cluster: {cluster!r}; valid: ray")
    shown = list(names) if names is not None else [r.name for r in rulesets]
    for name, rules in zip(shown, rulesets, strict=True):
        try:
            rules.check_players(players)
        except ValueError as exc:
            raise type(exc)(f"{name}: {exc}") from None
    tasks = tasks_for(rulesets, players, games, seed, budget)
    done: dict[Key, Any] = {}
    partial = False
    if cluster == "ray" and (problem := ray_missing() or ray_unreachable()):
        raise LabError(problem)
    start = time.perf_counter()
    stop = threading.Event()
    with interrupts_stop(stop):
        try:
            if on_start is not None:
                on_start(len(tasks))
            if cluster == "ray":
                run_ray(tasks, done, on_game, stop)
            else:
                run_local(tasks, jobs, done, on_game, stop)
        except (Stopped, KeyboardInterrupt):
            partial = True
    return LabResult(
        players=players,
        games=games,
        seed=seed,
        budget=budget,
        variants=tally(shown, rulesets, players, games, done),
        partial=partial,
        seconds=time.perf_counter() - start,
        jobs=jobs,
        cluster=cluster,
    )
