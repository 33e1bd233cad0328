"""Many games stepped together, for learners that feed a batch to a GPU (the ``research`` extra).

``BatchEnv(num_games, preset="classic", players=4, options=None, seed=0)`` holds ``num_games``
games of one rule set in one process. Each game has one seat to act at a time (the engine's
``Game.to_act``), and the batch is seen through that seat in every game: self-play, one policy for
every seat, as PettingZoo's environment plays it one game at a time.

- ``reset()`` and ``step(actions)`` return ``observations``, one float32 array of shape
  ``(num_games, observation_size)``: row ``i`` is ``encode(view(game_i, seat_i))`` (laid out as
  ``eights.research.encoding`` documents), and ``masks``, one int8 array of shape ``(num_games, actions)``:
  1 for each legal action of that seat. ``seats`` (int64, ``(num_games,)``) says whose row it is.
- ``step(actions)`` takes one action number per game (an array or a list). An action a mask
  refuses raises ``ValueError`` naming the game, the action and the legal ones; the games before
  it in the batch have moved, that one and those after it have not (check the masks first).
- ``rewards`` (float32, ``(num_games, players)``) are each seat's rewards for that step, as
  PettingZoo's environment gives them: ``reward="outcome"`` +1 each winner and -1 each other seat
  when a match ends, ``"zero_sum"`` the same with the winners sharing what the others lose,
  ``"points"`` each round's points less the table's mean. A seat's reward can come on a step where
  another seat acted: keep each game's seats apart.
- ``terminated`` and ``truncated`` (bool, ``(num_games,)``): the game ended on that step (a round
  stopped by the rules' safety cap truncates, without reward). A game that ends is replaced at once
  (auto-reset): its row is already the first observation of the next game, dealt from the seed.
- Seeds: game ``k`` of slot ``i`` is dealt with ``eights.seeds.game_seed(seed, i + num_games * k)``,
  so each slot deals the same games whatever the others do, and the same seed and actions give
  the same arrays. ``seed=None`` draws one at random (``BatchEnv.seed`` says which).

The arrays returned are fresh copies; the environment reuses its own between steps. Observations
and masks come from ``eights.research.encoding.Observer``, kept up to date step by step.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from eights.engine import Game
from eights.research.encoding import ActionSpace, observation_size
from eights.research.observer import Batch, check_reward
from eights.research.pettingzoo import rule_set
from eights.rules import RuleSet
from eights.seeds import game_seed

Reset = tuple[NDArray[np.float32], NDArray[np.int8], dict[str, Any]]
Step = tuple[
    NDArray[np.float32], NDArray[np.int8], NDArray[np.float32], NDArray[np.bool_], NDArray[np.bool_], dict[str, Any]
]


class BatchEnv:
    """``num_games`` games stepped together; see the module docstring."""

    def __init__(
        self,
        num_games: int,
        preset: str | None = "classic",
        players: int = 4,
        options: Mapping[str, object] | None = None,
        seed: int | None = 0,
        *,
        rules: RuleSet | None = None,
        reward: str = "outcome",
    ) -> None:
        """:raises RulesError: for rules the players cannot play; ``ValueError`` for a bad count or reward."""
        if num_games < 1:
            raise ValueError(f"num_games: {num_games}; give 1 or more")
        self.rules = rule_set(preset, options, rules)
        self.rules.check_players(players)
        check_reward(reward, self.rules, players)
        self.num_games = num_games
        self.players = players
        self.reward_kind = reward
        self.space = ActionSpace(self.rules, players)
        self.seed = seed if seed is not None else int.from_bytes(os.urandom(6), "big")
        self.observations = np.zeros((num_games, observation_size(players)), np.float32)
        self.masks = np.zeros((num_games, len(self.space)), np.int8)
        self.seats = np.zeros(num_games, np.int64)
        self.rewards = np.zeros((num_games, players), np.float32)
        self.terminated = np.zeros(num_games, np.bool_)
        self.truncated = np.zeros(num_games, np.bool_)
        self._dealt = [0] * num_games
        self._batch: Batch | None = None

    @property
    def games(self) -> list[Game]:
        """The games being played, slot by slot."""
        return [observer.game for observer in self._running().observers]

    def reset(self, seed: int | None = None) -> Reset:
        """Deal a new game in every slot (from ``seed`` when given); the observations, masks and ``{"seats"}``."""
        if seed is not None:
            self.seed = seed
        self._dealt = [0] * self.num_games
        self._batch = Batch(
            self.space,
            [self._deal(slot) for slot in range(self.num_games)],
            self._deal,
            self.reward_kind,
            _flat(self.observations).cast("f"),
            _flat(self.masks),
            _flat(self.seats).cast("q"),
            _flat(self.rewards).cast("f"),
            _flat(self.terminated).cast("?"),
            _flat(self.truncated).cast("?"),
        )
        self._batch.show_all()
        self.rewards.fill(0.0)
        self.terminated.fill(False)
        self.truncated.fill(False)
        return self.observations.copy(), self.masks.copy(), {"seats": self.seats.copy()}

    def step(self, actions: Sequence[int] | NDArray[np.integer[Any]]) -> Step:
        """Play one action in every game: the observations, masks, rewards, terminated, truncated and
        ``{"seats"}`` (see the module docstring).

        :raises ValueError: for a count of actions other than ``num_games``, or an action a mask refuses.
        """
        batch = self._running()
        if len(actions) != self.num_games:
            raise ValueError(f"{len(actions)} actions for {self.num_games} games; give one per game")
        numbers = actions.tolist() if isinstance(actions, np.ndarray) else [int(a) for a in actions]
        self.rewards.fill(0.0)
        self.terminated.fill(False)
        self.truncated.fill(False)
        batch.step(numbers)
        return (
            self.observations.copy(),
            self.masks.copy(),
            self.rewards.copy(),
            self.terminated.copy(),
            self.truncated.copy(),
            {"seats": self.seats.copy()},
        )

    def _running(self) -> Batch:
        if self._batch is None:
            raise RuntimeError("call reset() before step()")
        return self._batch

    def _deal(self, slot: int) -> Game:
        game = Game(self.rules, self.players, seed=game_seed(self.seed, slot + self.num_games * self._dealt[slot]))
        self._dealt[slot] += 1
        return game


def _flat(array: NDArray[Any]) -> memoryview:
    """The array's memory as a flat run of bytes (its elements in order)."""
    return array.reshape(-1).data.cast("B")


__all__ = ["BatchEnv"]
