"""A Gymnasium environment: one learning seat against the computer levels (the ``research`` extra).

``SingleSeatEnv(preset="classic", players=4, options=None, seat=0, opponents="normal")`` (or
``gymnasium.make("eights/SingleSeat-v0", ...)`` once this module is imported) is the game as most
reinforcement-learning libraries take one: a single agent, a ``Box`` observation and a
``Discrete`` action. It runs PettingZoo's environment (``eights.research.pettingzoo.raw_env``, the same
actions, observations, rewards, seeds and words) with a computer player in every other seat.

- The learner plays ``seat``. ``opponents`` is one spec for every other seat or a list of specs, one
  per other seat in seat order, as the lab reads them (``easy``, ``normal``, ``hard@500``,
  ``expert@2s``); ``hard`` or ``expert`` alone searches ``eights.bots.spec.ITERATIONS`` iterations a
  decision, so that the same seed replays the same game on any machine. Each is seeded from the
  game's seed and its seat (``eights.seeds.bot_seed``) and sees only its seat's view.
- Observations: the float32 vector of ``eights.research.encoding`` for the learner's seat. The action mask
  (int8, 1 for each legal action) is in ``info["action_mask"]``, and ``action_masks()`` returns it
  (the method sb3-contrib's ``MaskablePPO`` calls).
- ``reset(seed=s)`` deals ``Game(rules, players, seed=s)``, as the PettingZoo environment does; a
  reset without a seed deals the next game of the sequence of the last seed given. The computer
  players act until it is the learner's turn.
- ``step(action)``: the learner's action, then the computer players' until the learner must act
  again or the match is over. The reward is the learner's reward over those actions (``reward``:
  ``outcome``, ``zero_sum`` or ``points``, as in ``eights.research.pettingzoo``); ``terminated`` when the
  match is over, ``truncated`` when the rules' safety cap stopped a round.
- An action the mask refuses changes nothing in the game. With ``illegal="lose"`` (the default, so
  that a learner without masks, or Gymnasium's ``check_env``, can send any action) it ends the
  episode as a loss: ``terminated``, reward -1, and ``info["illegal"]`` says which action was
  refused and lists the legal ones. With ``illegal="raise"`` it raises ``ValueError`` in those words.
- ``render_mode="ansi"``: ``render()`` is the table as the seat to act sees it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
from numpy.typing import NDArray

from eights.bots import Bot
from eights.bots.spec import research_bot
from eights.research.pettingzoo import bot_action, raw_env
from eights.rules import RuleSet
from eights.seeds import bot_seed

#: What an action the mask refuses does.
ILLEGAL = ("lose", "raise")

Info = dict[str, Any]


class SingleSeatEnv(gymnasium.Env[NDArray[np.float32], np.int64]):
    """One learning seat against computer players; see the module docstring."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012  # Gymnasium declares it so

    def __init__(
        self,
        preset: str | None = "classic",
        players: int = 4,
        options: Mapping[str, object] | None = None,
        *,
        rules: RuleSet | None = None,
        seat: int = 0,
        opponents: str | Sequence[str] = "normal",
        reward: str = "outcome",
        illegal: str = "lose",
        render_mode: str | None = None,
    ) -> None:
        """:raises RulesError: for rules the players cannot play; ``BotSpecError`` for a spec that names no
        level; ``ValueError`` for a bad seat, count of opponents, reward, illegal or render mode."""
        self.inner = raw_env(preset, players, options, None, render_mode, rules=rules, reward=reward)
        if not 0 <= seat < players:
            raise ValueError(f"seat: {seat} is not a seat; valid: 0-{players - 1}")
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal: {illegal!r}; valid: {', '.join(ILLEGAL)}")
        others = [s for s in range(players) if s != seat]
        specs = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(specs) != len(others):
            raise ValueError(
                f"opponents: {len(specs)} specs for {len(others)} other seats; give one each, or one for all"
            )
        for spec in specs:
            research_bot(spec, 0)  # a spec that names no level is refused here, in words
        self.seat = seat
        self.agent = self.inner.possible_agents[seat]
        self.specs = dict(zip(others, specs, strict=True))
        self.illegal = illegal
        self.render_mode = render_mode
        self.observation_space = self.inner.observation_spaces[self.agent]["observation"]
        self.action_space = self.inner.action_spaces[self.agent]
        self.bots: dict[str, Bot] = {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.float32], Info]:
        super().reset(seed=seed)
        inner = self.inner
        inner.reset(seed=seed)
        assert inner.game is not None
        dealt = inner.game.seed
        self.bots = {
            inner.possible_agents[other]: research_bot(spec, bot_seed(dealt, other))
            for other, spec in self.specs.items()
        }
        self._others_play()
        return self._seen()

    def step(self, action: int | np.integer[Any]) -> tuple[NDArray[np.float32], float, bool, bool, Info]:
        inner = self.inner
        if inner.game is None or self._over():
            raise RuntimeError("the episode is over: call reset() before step()")
        try:
            inner.step(int(action))
        except ValueError as refused:
            if self.illegal == "raise":
                raise
            observation, info = self._seen()
            info["illegal"] = str(refused)
            return observation, -1.0, True, False, info
        reward = inner.rewards[self.agent] + self._others_play()
        observation, info = self._seen()
        return observation, float(reward), inner.terminations[self.agent], inner.truncations[self.agent], info

    def action_masks(self) -> NDArray[np.int8]:
        """1 for each action the learner may take now (none once the episode is over)."""
        mask: NDArray[np.int8] = self.inner.observe(self.agent)["action_mask"]
        return mask

    def render(self) -> str | None:
        return self.inner.render()

    def close(self) -> None:
        self.inner.close()

    def _others_play(self) -> float:
        """The computer players act until the learner must; the learner's rewards meanwhile."""
        inner = self.inner
        got = 0.0
        while not self._over() and inner.agent_selection != self.agent:
            acting = inner.agent_selection
            inner.step(bot_action(inner, acting, self.bots[acting]))
            got += inner.rewards[self.agent]
        return got

    def _over(self) -> bool:
        return self.inner.terminations[self.agent] or self.inner.truncations[self.agent]

    def _seen(self) -> tuple[NDArray[np.float32], Info]:
        seen = self.inner.observe(self.agent)
        return seen["observation"], {"action_mask": seen["action_mask"]}


#: ``gymnasium.make(ENV_ID, preset=..., opponents=...)`` makes one (registered when this module is imported).
ENV_ID = "eights/SingleSeat-v0"
gymnasium.register(id=ENV_ID, entry_point="eights.research.gymnasium:SingleSeatEnv")

__all__ = ["ENV_ID", "ILLEGAL", "SingleSeatEnv"]
