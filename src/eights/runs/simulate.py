"""Batch games between random players: win rates, lengths and engine speed.

Every game is seeded from the batch seed and the game's index
(``game_seed(seed, index)``), and each seat's random player from the game's seed
and the seat (``bot_seed``), so a batch replays exactly and any one game of it
can be replayed alone.

The fast path does what ``RandomBot`` does, without building a view: each seat
keeps a ``random.Random(bot_seed(...))`` and picks
``legal[rng.randrange(len(legal))]`` from ``game.legal_actions()`` (the list a
view's ``legal`` holds, in the same order), then applies it unchecked on a game
that keeps no log. ``play_game(..., fast=False)`` plays the same game through
``RandomBot.choose(view(game, seat))`` and the checked ``game.play``; both give
the same actions (a test holds them to it).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from eights.bots import RandomBot
from eights.engine import Game
from eights.record import GameRecord
from eights.rules import RuleSet
from eights.runs.play import decisions
from eights.seeds import bot_seed, game_seed


@dataclass(slots=True)
class GameStats:
    """What one finished game contributes to a batch."""

    winners: tuple[int, ...]
    totals: tuple[int, ...]
    rounds: int
    actions: int
    blocked_rounds: int
    capped_rounds: int
    game: Game


def play_game(rules: RuleSet, players: int, seed: int, *, log: bool = False, fast: bool = True) -> GameStats:
    """Play one game between random players.

    ``fast`` picks from ``game.legal_actions()`` and applies unchecked; otherwise each
    seat's ``RandomBot`` chooses from its view and the checked door applies. ``log``
    keeps the event log and actions (needed for a game record).

    :raises RulesError: when the players cannot play these rules.
    """
    game = Game(rules, players, seed, log=log)
    actions = blocked = capped = 0
    round_index = 0
    if fast:
        rngs = [random.Random(bot_seed(seed, seat)) for seat in range(players)]
        legal_actions, apply = game.legal_actions, game.apply
        while not game.is_over:
            legal = legal_actions()
            # to_act, not turn: in some phases (jack drops, four in a row) another seat acts.
            apply(legal[rngs[game.to_act].randrange(len(legal))])
            actions += 1
            if game.round_index != round_index:
                round_index = game.round_index
                reason = game.last_round.reason if game.last_round else ""
                blocked += reason == "blocked"
                capped += reason == "cap"
    else:
        bots = [RandomBot(bot_seed(seed, seat)) for seat in range(players)]
        for _ in decisions(game, bots):
            actions += 1
            if game.round_index != round_index:
                round_index = game.round_index
                reason = game.last_round.reason if game.last_round else ""
                blocked += reason == "blocked"
                capped += reason == "cap"
    outcome = game.outcome
    assert outcome is not None
    return GameStats(outcome.winners, outcome.totals, outcome.rounds, actions, blocked, capped, game)


@dataclass(slots=True)
class Simulation:
    """The totals of a batch of games."""

    variant: str
    players: int
    games: int
    seed: int
    options: list[str]
    #: Wins per seat; a win shared by k players counts 1/k to each.
    wins: list[float]
    #: Games won by one seat alone, per seat.
    outright_wins: list[int]
    shared_games: int = 0
    rounds: int = 0
    actions: int = 0
    blocked_rounds: int = 0
    capped_rounds: int = 0
    seconds: float = 0.0
    saved: list[str] = field(default_factory=list)
    #: The games asked for, when Ctrl-C stopped the batch after ``games`` of them (``None``: not stopped).
    stopped_of: int | None = None

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        """The batch as plain data (the ``--json`` output)."""
        return {
            "variant": self.variant,
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "options": self.options,
            "wins": [round(w, 6) for w in self.wins],
            "outright_wins": self.outright_wins,
            "shared_games": self.shared_games,
            "rounds": self.rounds,
            "actions": self.actions,
            "blocked_rounds": self.blocked_rounds,
            "capped_rounds": self.capped_rounds,
            "seconds": round(self.seconds, 4),
            "games_per_second": round(self.games_per_second, 1),
            "actions_per_second": round(self.actions_per_second, 1),
            **({"stopped_of": self.stopped_of} if self.stopped_of is not None else {}),
        }


def simulate(
    rules: RuleSet,
    players: int,
    games: int,
    seed: int,
    *,
    options: list[str] | None = None,
    save_dir: str | Path | None = None,
    on_game: Callable[[int], None] | None = None,
) -> Simulation:
    """Play ``games`` games between random players and total them.

    ``save_dir`` saves each game's record as ``game-00001.json`` ...
    (those games keep their log, which is slower); ``on_game(index)`` is called
    after each game (for a progress bar). Ctrl-C stops the batch: the result then totals
    the games finished, ``games`` of ``stopped_of``.

    :raises RulesError: when the players cannot play these rules.
    """
    rules.check_players(players)
    folder = Path(save_dir) if save_dir is not None else None
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
    result = Simulation(
        variant=rules.name,
        players=players,
        games=games,
        seed=seed,
        options=list(options or []),
        wins=[0.0] * players,
        outright_wins=[0] * players,
    )
    width = max(5, len(str(games)))
    start = time.perf_counter()
    played = 0
    try:
        for index in range(games):
            _play_into(result, rules, players, game_seed(seed, index), folder, index, width)
            played = index + 1
            if on_game is not None:
                on_game(index)
    except KeyboardInterrupt:
        # The game under way is dropped; the totals are the finished games'.
        result.stopped_of = games
        result.games = played
    result.seconds = time.perf_counter() - start
    return result


def _play_into(
    result: Simulation, rules: RuleSet, players: int, seed: int, folder: Path | None, index: int, width: int
) -> None:
    """Play one game of the batch and add it to ``result`` (saving its record into ``folder``)."""
    stats = play_game(rules, players, seed, log=folder is not None)
    share = 1.0 / len(stats.winners)
    for seat in stats.winners:
        result.wins[seat] += share
    if len(stats.winners) == 1:
        result.outright_wins[stats.winners[0]] += 1
    else:
        result.shared_games += 1
    result.rounds += stats.rounds
    result.actions += stats.actions
    result.blocked_rounds += stats.blocked_rounds
    result.capped_rounds += stats.capped_rounds
    if folder is not None:
        path = folder / f"game-{index + 1:0{width}d}.json"
        GameRecord.of(stats.game).save(path)
        result.saved.append(str(path))


__all__ = ["GameStats", "Simulation", "bot_seed", "game_seed", "play_game", "simulate"]
