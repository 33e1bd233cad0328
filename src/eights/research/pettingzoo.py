"""A PettingZoo AEC environment of any preset or house rule set (the ``research`` extra).

``env(preset="derange", players=4, options={"packs": "2"}, seed=None, render_mode=None)``
returns the environment in PettingZoo's ``OrderEnforcingWrapper`` (methods called in order);
``raw_env(...)`` takes the same arguments, unwrapped. PettingZoo's classic games add its
``AssertOutOfBoundsWrapper`` too; here the environment checks every action itself, an action out of
the space or refused by the mask raising ``ValueError`` in words that list the legal ones, and a
step costs a fraction of what the two wrappers cost (``bench/env.py``).
``rules`` (a ``RuleSet``, like one read from a house-rules file) may replace ``preset``.

- Agents are ``player_0`` ... ``player_{n-1}``, one per seat; the agent to act is the seat the
  engine says must act (``Game.to_act``): usually the seat whose turn it is, but another seat
  drops jacks after a queen or buries a card after four in a row.
- Actions are numbers in a fixed ``Discrete`` space per rule set and player count
  (``eights.research.encoding.ActionSpace``, whose docstring lists the order); every observation holds an
  ``action_mask`` (1 for each legal action). An action the mask refuses raises ``ValueError``
  naming it and the legal ones, and changes nothing.
- Observations are ``{"observation": float32 vector, "action_mask": int8 vector}``; the vector is
  ``encode(view(game, seat))`` for the agent's seat (the engine's one redaction, laid out as
  ``eights.research.encoding`` documents), kept up to date step by step by ``eights.research.encoding.Observer``.
- Rewards come only when the match ends, from its outcome: each winner gets +1 and each other
  seat -1 (several winners share a tie, each getting +1). ``reward="zero_sum"``: each other seat
  -1 and the winners share what they lose (at two players +1 and -1, a tie 0 each), so the rewards
  sum to zero. With ``reward="points"`` (only for rule sets where points decide the match) every
  round's end gives each seat its round's points less the table's mean, negated where the lowest
  total wins, so more is always better and the rewards of a round sum to zero; there is then no
  outcome reward.
- A round stopped by the rules' safety cap on actions (``RuleSet.max_actions``) truncates the
  episode: every agent's ``truncations`` is True, with no reward for that round or the match.
- ``reset(seed=s)`` deals ``Game(rules, players, seed=s)``, the very game the engine deals for
  that seed; a ``reset()`` without a seed deals the next game of a sequence seeded by the last
  seed given (to ``reset`` or to ``env``), so seeded resets replay exactly.
- ``render_mode="ansi"``: ``render()`` returns the table as the seat to act sees it.

Playing against the computer levels: ``bot_action(env, agent, bot)`` gives the action number a
bot of ``eights.bots`` (``make_bot("normal", seed)``) chooses from that agent's view, and
``evaluate(policy, ...)`` plays a policy against a level (a spec such as ``normal``, ``hard@500`` or
``expert@200``; a search level without a budget searches a fixed number of iterations,
``eights.bots.spec.ITERATIONS``, so that a seeded evaluation replays exactly) in every seat but the
first (the documented example, in docs/research.md).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

import gymnasium
import numpy as np
from numpy.typing import NDArray
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from eights.bots import Bot
from eights.bots.spec import research_bot
from eights.engine import Game, LiveViews, View
from eights.research.encoding import ActionSpace, observation_size, table_text
from eights.research.observer import REWARDS, Observer, check_reward, step_rewards
from eights.rules import RuleSet, load_preset
from eights.runs.tournament import wilson

Observation = dict[str, NDArray[Any]]


def rule_set(preset: str | None, options: Mapping[str, object] | None, rules: RuleSet | None = None) -> RuleSet:
    """The rule set of a preset (or ``rules``) with ``options`` (``{"packs": 2, "stacking": True}``).

    :raises RulesError: for an unknown preset or option, naming the valid ones.
    """
    base = rules if rules is not None else load_preset(preset or "classic")
    if not options:
        return base
    return base.with_options({str(k): _option_text(v) for k, v in options.items()})


def _option_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return ",".join(str(v) for v in value)
    return str(value)


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo's name for the unwrapped class
    """The unwrapped environment; see the module docstring."""

    metadata: ClassVar[dict[str, Any]] = {"name": "eights_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        preset: str | None = "classic",
        players: int = 4,
        options: Mapping[str, object] | None = None,
        seed: int | None = None,
        render_mode: str | None = None,
        *,
        rules: RuleSet | None = None,
        reward: str = "outcome",
    ) -> None:
        """:raises RulesError: for rules the players cannot play; ``ValueError`` for a bad reward or render mode."""
        super().__init__()
        self.rules = rule_set(preset, options, rules)
        self.rules.check_players(players)
        check_reward(reward, self.rules, players)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode: {render_mode!r}; valid: ansi, or None")
        self.render_mode = render_mode
        self.reward_kind = reward
        self.players = players
        self.space = ActionSpace(self.rules, players)
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents = self.possible_agents[:]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        size = observation_size(players)
        self.observation_spaces = {
            agent: gymnasium.spaces.Dict(
                {
                    "observation": gymnasium.spaces.Box(0.0, np.inf, (size,), np.float32),
                    "action_mask": gymnasium.spaces.Box(0, 1, (len(self.space),), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: gymnasium.spaces.Discrete(len(self.space)) for agent in self.possible_agents}
        self._seed = seed
        self._seeds: random.Random | None = None
        self.game: Game | None = None
        self._no_mask = np.zeros(len(self.space), np.int8)

    # ----- spaces -------------------------------------------------------------------------

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    # ----- the game -----------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
            deal = seed
        else:
            if self._seeds is None:
                self._seeds = random.Random(self._seed)
            deal = self._seeds.getrandbits(48)
        self.game = game = Game(self.rules, self.players, seed=deal)
        self._observer = Observer(self.space, game)
        self._live = LiveViews(game)
        self._rows = np.frombuffer(self._observer.rows, np.float32).reshape(self.players, self._observer.size)
        self._mask = np.frombuffer(self._observer.mask, np.int8)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._paid = False
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[game.to_act]

    def seat_view(self, agent: str) -> View:
        """What ``agent``'s seat may know now: the engine's one redaction (``view``), kept up to date."""
        self._game()
        return self._live.view(self._seats[agent])

    def observe(self, agent: str) -> Observation:
        game = self._game()
        seat = self._seats[agent]
        self._observer.refresh(seat)
        return {
            "observation": self._rows[seat].copy(),
            "action_mask": self._mask.copy() if seat == game.to_act else self._no_mask.copy(),
        }

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._game()
        if action is None:
            raise ValueError(f"action None is not a number 0-{len(self.space) - 1}")
        rounds = game.round_index
        self._observer.play(int(action))
        self._cumulative_rewards[agent] = 0.0
        rewards, over, capped = step_rewards(game, rounds, self.reward_kind)
        if rewards is not None:
            self.rewards = dict(zip(self.agents, rewards, strict=True))
            self._accumulate_rewards()
            self._paid = True
        elif self._paid:  # most steps pay nothing: the rewards stay all zero, with nothing to add up
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._paid = False
        if capped:
            self.truncations = dict.fromkeys(self.agents, True)
        elif over:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[game.to_act]

    def _game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; give render_mode='ansi'")
            return None
        return table_text(self._game())

    def close(self) -> None:
        self.game = None


def env(
    preset: str | None = "classic",
    players: int = 4,
    options: Mapping[str, object] | None = None,
    seed: int | None = None,
    render_mode: str | None = None,
    **kwargs: Any,
) -> AECEnv:
    """The environment in PettingZoo's order-enforcing wrapper; see the module docstring."""
    return wrappers.OrderEnforcingWrapper(raw_env(preset, players, options, seed, render_mode, **kwargs))


def bot_action(environment: AECEnv, agent: str, bot: Bot) -> int:
    """The action number ``bot`` chooses for ``agent``, from that seat's view only."""
    inner = environment.unwrapped
    assert isinstance(inner, raw_env)
    return inner.space.number(bot.choose(inner.seat_view(agent)))


Policy = Callable[[Observation], int]


def evaluate(
    policy: Policy,
    preset: str = "classic",
    players: int = 4,
    level: str = "normal",
    games: int = 100,
    seed: int = 0,
    options: Mapping[str, object] | None = None,
) -> dict[str, Any]:
    """Play ``policy`` at ``player_0`` against ``level`` players in every other seat.

    ``policy`` gets the agent's observation (its ``action_mask`` included) and returns an action
    number. ``level`` is a spec as the lab and ``eights tournament`` read it (``normal``, ``hard@500``,
    ``expert@2s``); a search level without a budget searches ``eights.bots.spec.ITERATIONS``
    iterations a decision, so that the same arguments give the same games and figures on any
    machine. Game ``g`` is dealt with ``reset(seed=seed + g)``; the bots are seeded from the game
    and the seat. Returns the games, the policy's wins (a shared win counts 1/k), its win rate with
    a 95% Wilson interval, the mean reward, and the games stopped by the safety cap (counted as no
    win).

    :raises BotSpecError: for a spec that names no level or budget, naming the valid ones.
    """
    research_bot(level, 0)  # a bad spec is refused before any game is played
    environment = env(preset, players, options)
    inner = environment.unwrapped
    assert isinstance(inner, raw_env)
    wins = reward_sum = 0.0
    capped = 0
    for g in range(games):
        environment.reset(seed=seed + g)
        bots = {f"player_{s}": research_bot(level, (seed + g) * 64 + s) for s in range(1, players)}
        stopped = False
        for agent in environment.agent_iter():
            observation, reward, terminated, truncated, _ = environment.last()
            if terminated or truncated:
                if agent == "player_0":
                    reward_sum += float(reward)
                    stopped = truncated
                environment.step(None)
                continue
            action = bot_action(environment, agent, bots[agent]) if agent in bots else policy(observation)
            environment.step(action)
        if stopped:
            capped += 1
            continue
        assert inner.game is not None and inner.game.outcome is not None
        winners = inner.game.outcome.winners
        if 0 in winners:
            wins += 1 / len(winners)
    low, high = wilson(wins, games)
    return {
        "preset": preset,
        "players": players,
        "level": level,
        "games": games,
        "wins": wins,
        "win_rate": wins / games if games else 0.0,
        "ci_low": low,
        "ci_high": high,
        "mean_reward": reward_sum / games if games else 0.0,
        "capped": capped,
    }


def random_policy(seed: int | None = None) -> Policy:
    """A policy that plays a uniformly random legal action."""
    rng = np.random.default_rng(seed)

    def choose(observation: Observation) -> int:
        return int(rng.choice(np.flatnonzero(observation["action_mask"])))

    return choose


__all__ = ["REWARDS", "bot_action", "env", "evaluate", "random_policy", "raw_env", "rule_set"]
