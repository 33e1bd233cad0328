"""Playing the lab's games and turning them into figures, each with a 95% interval.

For each rule set the lab plays three kinds of games at the same table size, ``games`` of each (with
``precision``, until every share is that precise, ``games`` at most):

- ``table``: the normal player in every seat. Every figure but the skill ones comes from these:
  length (turns, rounds, actions, minutes at a person's pace), who wins (the seat that acted first,
  the dealer, and each seat counted from the dealer: position 0 deals, 1 is the dealer's left), lead
  changes and the last round deciding the match, blocked rounds, cards drawn per turn, and moves
  with one legal choice (every decision counts: a play, a draw, naming a suit...). Who acted first
  and who dealt are read from the game itself (the first decision of the match, its first
  ``RoundStarted``), never worked out from the rules here.
- ``skill``: the expert, on a fixed search budget (``expert@BUDGET`` iterations a move), against
  the normal player; ``base``: the normal player against the easy one (random moves). Each is a
  game of ``eights.runs.tournament.play_one``: the entrants take the seats in turn, seats rotate, each
  deal is played in every rotation. A game of pure luck gives 50%.

Game ``i`` of each kind is seeded from the lab seed and ``i`` only (``eights.seeds.game_seed``,
``bot_seed``), so the figures are the same whatever the number of jobs or machines, and the task
order never matters: results are put back in task order before they are totalled. With
``precision`` the games are played in stages; how far each rule set and kind goes is decided from
the games of the stages before, so it too is the same whatever the jobs.

Intervals (``eights.stats``): Wilson's for a share of games; Wilson's on the effective number of
rounds (decisions) for a share of rounds (decisions); Fieller's for a mean or a ratio per game, per
turn; for a count that can be 0 (lead changes, cards drawn), Fieller's widened to the count's
Poisson score interval. A figure the rules fix (a one-round match has 1 round, no lead change, and
its last round decides) has no interval and says so.
"""

from __future__ import annotations

import math
import os
import socket
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from eights.bots import Bot, make_bot
from eights.engine import Game
from eights.engine.events import CardsDrawn, RoundOver, RoundStarted
from eights.rules import RuleSet
from eights.rules.scoring import match_rounds
from eights.runs.play import decisions
from eights.runs.pool import POLL_SECONDS, Stopped, interrupts_stop, run_all, workers
from eights.runs.tournament import GameResult, play_one
from eights.seeds import bot_seed, game_seed
from eights.stats import (
    CLUSTERED,
    METHODS,
    WILSON,
    Estimate,
    clustered_share,
    count_rate,
    detectable_edge,
    fixed,
    mean,
    plain,
    proportion,
)

#: The kinds of game, in task order.
TABLE, SKILL, BASE = "table", "skill", "base"
KINDS = (TABLE, SKILL, BASE)
#: The expert's search iterations a move in the skill games, by default: about 0.15 s a game of
#: classic at four players, where the expert's own second a move would take minutes.
DEFAULT_BUDGET = 100
#: A person's pace, for the minutes a game takes: seconds an action, and to shuffle and deal a round.
SECONDS_PER_ACTION = 4.0
SECONDS_PER_DEAL = 60.0
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

    #: The seat that dealt the first round, and the one that made the match's first decision.
    first_dealer: int
    first_to_act: int
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
    return measure(Game(rules, players, deal), [make_bot("normal", bot_seed(deal, seat)) for seat in range(players)])


def measure(game: Game, bots: Sequence[Bot]) -> TableGame:
    """Play ``game`` (with its log) to the end, a bot a seat, and measure it."""
    turns = actions = one_legal = 0
    first_to_act = -1
    holder = (-1, -1)
    for decision in decisions(game, bots):
        if first_to_act < 0:
            first_to_act = decision.seat
        if (decision.seen.round, decision.seen.turn) != holder:
            holder = (decision.seen.round, decision.seen.turn)
            turns += 1
        one_legal += len(decision.seen.legal) == 1
        actions += 1
    assert game.outcome is not None and game.log is not None
    drawn = blocked = changes = 0
    first_dealer = -1
    lead: frozenset[int] | None = None
    before_last: frozenset[int] | None = None
    for event in game.log:
        if isinstance(event, CardsDrawn):
            drawn += event.count
        elif isinstance(event, RoundStarted) and event.round == 1:
            first_dealer = event.dealer
        elif isinstance(event, RoundOver):
            blocked += event.reason == "blocked"
            now = leaders(event.totals, game.rules.lowest_wins)
            if lead is not None and now != lead:
                changes += 1
            before_last, lead = lead, now
    decided = before_last is None or frozenset(game.outcome.winners) != before_last
    return TableGame(
        first_dealer,
        first_to_act,
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


#: A rule set (its number) and a kind of game.
Cell = tuple[int, str]


def tasks_for(
    rulesets: Sequence[RuleSet], players: int, seed: int, budget: int, start: dict[Cell, int], stop: dict[Cell, int]
) -> list[Task]:
    """The games ``start[cell]`` to ``stop[cell]`` (left out) of each rule set and kind, in the order
    they are played: game by game, each rule set and kind in turn, so that a lab stopped early has
    played every rule set and kind about as far."""
    return [
        Task(v, kind, index, rules, players, seed, budget)
        for index in range(min(start.values()), max(stop.values()))
        for v, rules in enumerate(rulesets)
        for kind in KINDS
        if start[(v, kind)] <= index < stop[(v, kind)]
    ]


# ----- running them -------------------------------------------------------------------------------

Key = tuple[int, str, int]
OnGame = Callable[[object], None]


def _keeper(tasks: list[Task], done: dict[Key, Any], on_game: OnGame | None) -> Callable[[int, Any], None]:
    """What keeps each of a stage's games as it ends: into ``done``, then ``on_game(task)``."""

    def keep(index: int, result: TableGame | GameResult) -> None:
        task = tasks[index]
        done[(task.variant, task.kind, task.index)] = result
        if on_game is not None:
            on_game(task)

    return keep


#: Plays a stage's tasks into ``done`` until the event is set (then raises ``Stopped``).
Player = Callable[[list[Task], dict[Key, Any], OnGame | None, threading.Event], None]


@contextmanager
def player_for(jobs: int, cluster: str | None) -> Iterator[Player]:
    """What plays the lab's stages: this process (``jobs`` 1), a pool of ``jobs`` processes kept for
    every stage (``eights.runs.pool``), or a Ray cluster."""
    if cluster == "ray":
        with ray_session() as remote:
            yield lambda tasks, done, on_game, stop: run_ray(remote, tasks, done, on_game, stop)
        return
    with workers(jobs) as pool:
        yield lambda tasks, done, on_game, stop: run_all(play_task, tasks, pool, _keeper(tasks, done, on_game), stop)


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


@contextmanager
def ray_session() -> Iterator[Any]:
    """Ray for the lab, and the remote ``play_batch``: the cluster ``RAY_ADDRESS`` names, else a local
    one started for the lab (on every core, without its dashboard) and stopped after it.

    :raises LabError: when Ray cannot start or reach its cluster.
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
    try:
        yield ray.remote(play_batch)
    finally:
        if started:
            ray.shutdown()


def run_ray(
    remote: Any, tasks: list[Task], done: dict[Key, Any], on_game: OnGame | None, stop: threading.Event
) -> None:
    """Play ``tasks`` on Ray (``remote``: ``ray_session``'s), in batches of ``RAY_BATCH``.

    :raises Stopped: once ``stop`` is set, the games not yet ended cancelled.
    """
    import ray

    batches = [tasks[i : i + RAY_BATCH] for i in range(0, len(tasks), RAY_BATCH)]
    refs = {remote.remote(batch): batch for batch in batches}
    pending = list(refs)
    try:
        while pending:
            if stop.is_set():
                raise Stopped
            finished, pending = ray.wait(pending, num_returns=1, timeout=POLL_SECONDS)
            for ref in finished:
                batch = refs[ref]
                keep = _keeper(batch, done, on_game)
                for index, result in enumerate(ray.get(ref)):
                    keep(index, result)
    except (Stopped, KeyboardInterrupt):
        for ref in pending:
            ray.cancel(ref, force=True)
        raise Stopped from None


# ----- figures -------------------------------------------------------------------------------

LENGTH_FIGURES = ("turns", "rounds", "actions", "minutes")
#: The figures of how a match goes, turn by turn and round by round.
TURN_FIGURES = ("cards_drawn_per_turn", "one_legal_move", "blocked_rounds", "lead_changes", "last_round_decides")
SKILL_FIGURES = ("expert_beats_normal", "normal_beats_easy")
#: The kind of game each skill figure comes from (every other figure comes from the table's games).
KIND_OF = {"expert_beats_normal": SKILL, "normal_beats_easy": BASE}
#: Games of each kind a lab with ``precision`` plays before it first looks, and the step of its stages.
FIRST_STAGE = 100
STAGE = 50


@dataclass(slots=True)
class VariantFigures:
    """One rule set's figures."""

    name: str
    title: str
    changes: list[str]
    players: int
    games: dict[str, int]
    figures: dict[str, Estimate] = field(default_factory=dict)
    #: Each seat's win rate, counted from the first dealer (0 the dealer, 1 the dealer's left...).
    seats: list[Estimate] = field(default_factory=list)

    def shares(self, kind: str) -> list[Estimate]:
        """The shares (figures with a Wilson interval) that ``kind`` of game gives: what ``precision`` aims at."""
        given = [e for key, e in self.figures.items() if KIND_OF.get(key, TABLE) == kind]
        return [e for e in given + (self.seats if kind == TABLE else []) if e.method in (WILSON, CLUSTERED)]

    def power(self) -> dict[str, Any]:
        """The smallest edges these games show 4 times in 5 (``eights.stats.detectable_edge``): a seat's
        over the fair 1/players, each skill figure's over 50%."""

        def edge(fair: float, games: int) -> dict[str, Any]:
            return {"games": games, "fair": plain(fair), "edge": plain(detectable_edge(fair, games))}

        return {
            "level": 0.95,
            "power": 0.8,
            "seat": edge(1 / self.players, self.games[TABLE]),
            "expert_beats_normal": edge(0.5, self.games[SKILL]),
            "normal_beats_easy": edge(0.5, self.games[BASE]),
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "changes": self.changes,
            "players": self.players,
            "games": self.games,
            "length": {k: self.figures[k].to_dict() for k in LENGTH_FIGURES},
            "seats": {
                "win_rate": [e.to_dict() for e in self.seats],
                "first_to_act": self.figures["first_to_act_wins"].to_dict(),
                "dealer": self.figures["dealer_wins"].to_dict(),
            },
            "turns": {k: self.figures[k].to_dict() for k in TURN_FIGURES},
            "skill": {k: self.figures[k].to_dict() for k in SKILL_FIGURES},
            "power": self.power(),
        }


def table_figures(
    games: Sequence[TableGame], players: int, rounds: int | None
) -> tuple[dict[str, Estimate], list[Estimate]]:
    """The figures of the games between normal players, and each seat's win rate from the first
    dealer; ``rounds``: the rounds every match lasts (``eights.rules.scoring.match_rounds``), None when the
    totals decide."""
    n = len(games)
    one_round = rounds == 1
    figures = {
        "turns": mean([g.turns for g in games]).within(0),
        "rounds": fixed(rounds) if rounds is not None else mean([g.rounds for g in games]).within(0),
        "actions": mean([g.actions for g in games]).within(0),
        "minutes": mean([(g.actions * SECONDS_PER_ACTION + g.rounds * SECONDS_PER_DEAL) / 60 for g in games]).within(0),
        "cards_drawn_per_turn": count_rate([g.cards_drawn for g in games], [g.turns for g in games]),
        "one_legal_move": clustered_share([g.one_legal for g in games], [g.actions for g in games]),
        "blocked_rounds": clustered_share([g.blocked_rounds for g in games], [g.rounds for g in games]),
        "lead_changes": fixed(0) if one_round else count_rate([g.lead_changes for g in games], [1] * n),
        "last_round_decides": fixed(1) if one_round else proportion(sum(g.last_round_decided for g in games), n),
    }
    wins = [0.0] * players
    first = 0.0
    for g in games:
        for seat in g.winners:
            wins[(seat - g.first_dealer) % players] += 1 / len(g.winners)
            first += (seat == g.first_to_act) / len(g.winners)
    seats = [proportion(w, n) for w in wins]
    figures["first_to_act_wins"] = proportion(first, n)
    figures["dealer_wins"] = seats[0]
    return figures, seats


def skill_rate(results: list[GameResult]) -> Estimate:
    """How often the first entrant (the stronger) beats the second: its share of the wins."""
    share = 0.0
    for r in results:
        share += sum(1 / len(r.winners) for w in r.winners if r.seats[w] == 0)
    return proportion(share, len(results))


@dataclass(slots=True)
class LabResult:
    """A finished (or stopped) lab."""

    players: int
    #: Games of each kind per rule set; with ``precision``, the most.
    games: int
    seed: int
    budget: int
    variants: list[VariantFigures]
    partial: bool = False
    seconds: float = 0.0
    jobs: int = 1
    cluster: str | None = None
    precision: float | None = None
    #: The games the lab had planned when it ended (with ``precision``, stage by stage).
    planned: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "games": self.games,
            "precision": self.precision,
            "seed": self.seed,
            "search_budget": {
                "expert": f"expert@{self.budget}",
                "iterations_per_move": self.budget,
                "words": f"the skill figures' expert searches {self.budget} iterations a move "
                "(expert alone searches for 1 s a move)",
            },
            "pace": {"seconds_per_action": SECONDS_PER_ACTION, "seconds_per_deal": SECONDS_PER_DEAL},
            "intervals": dict(METHODS),
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
        figures, seats = table_figures(played[TABLE], players, match_rounds(rules, players))
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


def next_goal(reached: int, widest: float, precision: float, cap: int) -> int:
    """How many games of a rule set and kind to have played after the next stage: ``reached`` once its
    widest share is within ``precision`` (or at ``cap``); else as many as that share's half-interval
    says it needs (half-intervals shrink as 1 / sqrt(games)), a multiple of ``STAGE`` and at least
    ``STAGE`` more, at most ``cap``."""
    if widest <= precision or reached >= cap:
        return reached
    need = math.ceil(reached * (widest / precision) ** 2 / STAGE) * STAGE
    return min(cap, max(reached + STAGE, need))


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
    precision: float | None = None,
    on_game: OnGame | None = None,
    on_start: Callable[[int], None] | None = None,
) -> LabResult:
    """Play the lab and total it; see the module docstring. ``games`` of each kind per rule set; with
    ``precision``, in stages (``FIRST_STAGE`` games, then as many as ``next_goal`` says) until every
    share's 95% interval reaches at most ``precision`` on either side of it, half its width (0.02:
    +-2 points), ``games`` at most. Ctrl-C during the games (in the main thread; or an ``on_game``
    that raises ``KeyboardInterrupt``) stops handing out games, lets the running ones end and gives
    the figures of the games played, marked ``partial``. ``on_start(planned)`` is called as the games
    begin and as each stage begins, with the games planned so far; ``on_game(task)`` after each game.

    :raises LabError: for no rule set, fewer than one game, a bad precision, budget, jobs or cluster.
    :raises RulesError: when the players cannot play one of the rule sets (naming it).
    """
    import time

    if not rulesets:
        raise LabError("name at least one rule set: a preset (classic, action, ...) or a house-rules file")
    if games < 1:
        raise LabError(f"games: {games}; play at least 1")
    if precision is not None and not 0 < precision < 0.5:
        raise LabError(f"precision: {precision:g}; give a half-interval between 0 and 0.5, like 0.02 for +-2 points")
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
    if cluster == "ray" and (problem := ray_missing() or ray_unreachable()):
        raise LabError(problem)
    cells = [(v, kind) for v in range(len(rulesets)) for kind in KINDS]
    reached = dict.fromkeys(cells, 0)
    goal = dict.fromkeys(cells, games if precision is None else min(games, FIRST_STAGE))
    done: dict[Key, Any] = {}
    planned = 0
    partial = False
    start = time.perf_counter()
    stop = threading.Event()
    with interrupts_stop(stop), player_for(jobs, cluster) as play:
        try:
            while any(goal[c] > reached[c] for c in cells):
                tasks = tasks_for(rulesets, players, seed, budget, reached, goal)
                planned += len(tasks)
                if on_start is not None:
                    on_start(planned)
                play(tasks, done, on_game, stop)
                reached = goal
                if precision is not None:
                    variants = tally(shown, rulesets, players, games, done)
                    widest = {(v, kind): max(e.half_width for e in variants[v].shares(kind)) for v, kind in cells}
                    goal = {c: next_goal(reached[c], widest[c], precision, games) for c in cells}
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
        precision=precision,
        planned=planned,
    )
