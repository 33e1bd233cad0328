"""Tournaments between computer players: who is stronger, with error bars.

``run_tournament(rules, players, bots, games, seed)`` plays ``games`` games. The
bots (levels from ``eights.bots.LEVELS``, optionally with a budget: ``hard@500``
searches 500 iterations per decision, ``expert@2s`` two seconds) are entrants;
with fewer entrants than seats they take the seats in turn (``expert,normal`` at
four seats: expert, normal, expert, normal). Seats rotate from game to game, so
every entrant plays every seat equally often (exactly, when ``games`` is a
multiple of the number of distinct rotations), and each deal is played once in
every rotation (duplicate style: the luck of the cards cancels out).

Per entrant: games played, wins (a win shared by k seats counts 1/k to each;
a team's win counts to both allies), the win rate with a 95% Wilson interval,
the mean final score of its seats, and an Elo rating fitted (Bradley-Terry, by
minorization-maximization) to the pairwise results: in each game, each pair of
entrants scores 1, 1/2 or 0 by their win shares.

Games run in parallel processes with ``jobs`` > 1; results do not depend on
``jobs`` (each game's seeds come from the tournament seed and its index), except
through time-limited searches.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from eights.bots import LEVELS, Bot, make_bot
from eights.bots.spec import BotSpecError
from eights.bots.spec import parse_bot as parse_spec
from eights.engine import Game
from eights.rules import RuleSet
from eights.runs.play import play_out
from eights.runs.pool import Stopped, interrupts_stop, run_all, workers
from eights.seeds import bot_seed, game_seed
from eights.stats import fit_elo, wilson

#: Fewer entrants than this give a tournament nothing to compare.
MIN_ENTRANTS = 2
#: The default entrants and games: a search on a fixed budget (the same games on any machine) against
#: the normal player, in about a minute on two cores for most presets.
DEFAULT_BOTS = "expert@200,normal"
DEFAULT_GAMES = 60


class TournamentError(ValueError):
    """A tournament that cannot be played as asked (bad bot list, too many bots)."""


# ----- bots and seats -----------------------------------------------------------------------


def parse_bot(spec: str) -> tuple[str, dict[str, Any]]:
    """A bot spec's level and budget, as ``eights.bots.spec.parse_bot`` reads it.

    :raises TournamentError: naming the spec and the valid levels (the spec's own message).
    """
    try:
        return parse_spec(spec)
    except BotSpecError as exc:
        raise TournamentError(str(exc)) from None


def entrant_names(bots: list[str]) -> list[str]:
    """Display names of the entrants: the specs, numbered where one appears twice."""
    names = [b.strip().lower() for b in bots]
    totals = {name: names.count(name) for name in names}
    seen: dict[str, int] = {}
    out = []
    for name in names:
        if totals[name] > 1:
            seen[name] = seen.get(name, 0) + 1
            out.append(f"{name}#{seen[name]}")
        else:
            out.append(name)
    return out


def base_lineup(entrants: int, players: int, teams: bool = False) -> list[int]:
    """The entrant at each seat before rotation: the entrants in turn.

    In a team game the entrants take teams in turn, so both allies (seats ``s`` and
    ``s + players / 2``) are the same entrant and a team's win is that entrant's.
    """
    if teams:
        half = players // 2
        return [(seat % half) % entrants for seat in range(players)]
    return [seat % entrants for seat in range(players)]


def rotations(entrants: int, players: int, teams: bool = False) -> int:
    """How many distinct seatings the rotation gives (the lineup's period)."""
    base = base_lineup(entrants, players, teams)
    for r in range(1, players + 1):
        if base[r:] + base[:r] == base:
            return r
    return players


def lineup(entrants: int, players: int, index: int, teams: bool = False) -> list[int]:
    """The entrant at each seat in game ``index``: the base lineup rotated by the game's index."""
    base = base_lineup(entrants, players, teams)
    r = index % rotations(entrants, players, teams)
    return base[r:] + base[:r]


# ----- playing --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished tournament game."""

    index: int
    seats: tuple[int, ...]  # the entrant at each seat
    winners: tuple[int, ...]
    totals: tuple[int, ...]
    rounds: int


def play_one(
    rules: RuleSet, players: int, specs: list[str], index: int, seed: int, bots: list[Bot] | None = None
) -> GameResult:
    """Play game ``index`` of a tournament seeded ``seed``, through the checked door."""
    m = len(specs)
    seats = lineup(m, players, index, rules.teams)
    deal = game_seed(seed, index // rotations(m, players, rules.teams))
    game = Game(rules, players, deal)
    if bots is None:
        bots = []
        for seat, entrant in enumerate(seats):
            level, budget = parse_bot(specs[entrant])
            bots.append(make_bot(level, bot_seed(game_seed(seed, index), seat), **budget))
    play_out(game, bots)
    outcome = game.outcome
    assert outcome is not None
    return GameResult(index, tuple(seats), outcome.winners, outcome.totals, outcome.rounds)


def _play_task(args: tuple[RuleSet, int, list[str], int, int]) -> GameResult:
    return play_one(*args)


# ----- statistics ----------------------------------------------------------------------------


@dataclass(slots=True)
class BotResult:
    """One entrant's totals."""

    name: str
    games: int = 0
    wins: float = 0.0
    score_sum: float = 0.0
    #: Games played at each seat.
    seats: list[int] = field(default_factory=list)
    elo: float = 1500.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def mean_score(self) -> float:
        seat_games = sum(self.seats)
        return self.score_sum / seat_games if seat_games else 0.0

    def to_dict(self) -> dict[str, Any]:
        low, high = self.interval
        return {
            "name": self.name,
            "games": self.games,
            "wins": round(self.wins, 6),
            "win_rate": round(self.win_rate, 6),
            "ci_low": round(low, 6),
            "ci_high": round(high, 6),
            "mean_score": round(self.mean_score, 4),
            "elo": round(self.elo, 1),
            "seats": self.seats,
        }


@dataclass(slots=True)
class TournamentResult:
    """A finished tournament."""

    variant: str
    players: int
    games: int
    seed: int
    options: list[str]
    bots: list[BotResult]
    seconds: float = 0.0
    results: list[GameResult] = field(default_factory=list)
    #: Stopped by Ctrl-C: ``results`` holds the games finished by then, fewer than ``games``.
    stopped: bool = False

    @property
    def played(self) -> int:
        """The games finished (``games`` unless stopped)."""
        return len(self.results)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "variant": self.variant,
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "options": self.options,
            "seconds": round(self.seconds, 3),
            "bots": [b.to_dict() for b in self.bots],
        }
        if self.stopped:
            data["stopped_after"] = self.played
        return data


def tally(names: list[str], players: int, results: list[GameResult]) -> list[BotResult]:
    """Each entrant's totals and Elo from the games' results."""
    m = len(names)
    stats = [BotResult(name, seats=[0] * players) for name in names]
    scores = [[0.0] * m for _ in range(m)]
    counts = [[0.0] * m for _ in range(m)]
    for r in results:
        shares = [0.0] * m
        for w in r.winners:
            shares[r.seats[w]] += 1.0 / len(r.winners)
        present = sorted(set(r.seats))
        for e in present:
            stats[e].games += 1
            stats[e].wins += shares[e]
        for seat, e in enumerate(r.seats):
            stats[e].seats[seat] += 1
            stats[e].score_sum += r.totals[seat]
        for a in present:
            for b in present:
                if a != b:
                    scores[a][b] += min(1.0, max(0.0, 0.5 + 0.5 * (shares[a] - shares[b])))
                    counts[a][b] += 1
    for e, elo in enumerate(fit_elo(scores, counts)):
        stats[e].elo = elo
    return stats


def run_tournament(
    rules: RuleSet,
    players: int,
    bots: list[str],
    games: int,
    seed: int = 0,
    jobs: int = 1,
    options: list[str] | None = None,
    on_game: Callable[[GameResult], None] | None = None,
) -> TournamentResult:
    """Play ``games`` games between ``bots`` (level specs) at ``players`` seats; see the module docstring.

    :raises TournamentError: for an unknown bot, fewer than two bots (nothing to compare), or more bots
        than seats (than teams, in a team game).
    :raises RulesError: when the players cannot play these rules.
    """
    for spec in bots:
        parse_bot(spec)
    if len(bots) < MIN_ENTRANTS:
        given = f"only {bots[0].strip()!r}" if bots else "none"
        raise TournamentError(
            f"a tournament compares bots, so it needs at least {MIN_ENTRANTS} (given {given}): "
            f"like --bots expert,normal, or one level against itself, --bots normal,normal; levels: {', '.join(LEVELS)}"
        )
    if games < 1:
        raise TournamentError(f"games: {games}; play at least 1")
    if jobs < 1:
        raise TournamentError(f"jobs: {jobs}; use at least 1")
    rules.check_players(players)
    room = players // 2 if rules.teams else players  # in a team game each bot takes a team
    if len(bots) > room:
        where = f"the {room} teams of {players} seats" if rules.teams else f"{players} seats"
        each = ", one per team" if rules.teams else ""
        raise TournamentError(f"{len(bots)} bots cannot share {where}: give at most {room} bots{each}")
    specs = [b.strip().lower() for b in bots]
    start = time.perf_counter()
    results: list[GameResult] = []

    def keep(_index: int, result: GameResult) -> None:
        results.append(result)
        if on_game is not None:
            on_game(result)

    tasks = [(rules, players, specs, index, seed) for index in range(games)]
    stop = threading.Event()
    stopped = False
    try:
        with interrupts_stop(stop), workers(min(jobs, games)) as pool:
            run_all(_play_task, tasks, pool, keep, stop)
    except Stopped:
        stopped = True
    results.sort(key=lambda r: r.index)
    return TournamentResult(
        variant=rules.name,
        players=players,
        games=games,
        seed=seed,
        options=list(options or []),
        bots=tally(entrant_names(specs), players, results),
        seconds=time.perf_counter() - start,
        results=results,
        stopped=stopped,
    )


__all__ = [
    "BotResult",
    "GameResult",
    "TournamentError",
    "TournamentResult",
    "fit_elo",
    "lineup",
    "parse_bot",
    "play_one",
    "rotations",
    "run_tournament",
    "tally",
    "wilson",
]
