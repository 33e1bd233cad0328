"""A PettingZoo AEC environment of any preset or house rule set (the ``research`` extra).

``env(preset="derange", players=4, options={"packs": "2"}, seed=None, render_mode=None)``
returns the environment wrapped as PettingZoo's classic games are (actions checked against
the space, methods called in order); ``raw_env(...)`` takes the same arguments, unwrapped.
``rules`` (a ``RuleSet``, like one read from a house-rules file) may replace ``preset``.

- Agents are ``player_0`` ... ``player_{n-1}``, one per seat; the agent to act is the seat the
  engine says must act (``Game.to_act``): usually the seat whose turn it is, but another seat
  drops jacks after a queen or buries a card after four in a row.
- Actions are numbers in a fixed ``Discrete`` space per rule set and player count
  (``eights.encoding.ActionSpace``, whose docstring lists the order); every observation holds an
  ``action_mask`` (1 for each legal action). An action the mask refuses raises ``ValueError``
  naming it and the legal ones, and changes nothing.
- Observations are ``{"observation": float32 vector, "action_mask": int8 vector}``; the vector is
  the agent's seat's view from the engine's one redaction (``eights.engine.view``), laid out as
  ``eights.encoding`` documents (``observation_layout``).
- Rewards come only when the match ends, from its outcome: each winner gets +1 and each other
  seat -1 (several winners share a tie, each getting +1). With ``reward="points"`` (only for
  rule sets where points decide the match) every round's end gives each seat its round's points
  less the table's mean, negated where the lowest total wins, so more is always better and the
  rewards of a round sum to zero; there is then no outcome reward.
- ``reset(seed=s)`` deals ``Game(rules, players, seed=s)``, the very game the engine deals for
  that seed; a ``reset()`` without a seed deals the next game of a sequence seeded by the last
  seed given (to ``reset`` or to ``env``), so seeded resets replay exactly.
- ``render_mode="ansi"``: ``render()`` returns the table as the seat to act sees it.

Playing against the computer levels: ``bot_action(env, agent, bot)`` gives the action number a
bot of ``eights.bots`` (``make_bot("normal", seed)``) chooses from that agent's view, and
``evaluate(policy, ...)`` plays a policy against a level in every seat but the first (the
documented example, in docs/research.md).
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

from eights.bots import Bot, make_bot
from eights.encoding import ActionSpace, encode, observation_size, table_text
from eights.engine import Game, View, view
from eights.engine.actions import Action
from eights.rules import RuleSet, load_preset
from eights.tournament import wilson

REWARDS = ("outcome", "points")

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
        if reward not in REWARDS:
            raise ValueError(f"reward: {reward!r}; valid: {', '.join(REWARDS)}")
        if reward == "points" and not self.rules.points_decide(players):
            raise ValueError(
                f"reward='points': points do not decide {self.rules.name} at {players} players; use reward='outcome'"
            )
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
        self.game = Game(self.rules, self.players, seed=deal)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.game.to_act]

    def seat_view(self, agent: str) -> View:
        """What ``agent``'s seat may know now: the engine's one redaction."""
        return view(self._game(), self._seats[agent])

    def observe(self, agent: str) -> Observation:
        seat_view = self.seat_view(agent)
        return {
            "observation": np.asarray(encode(seat_view), dtype=np.float32),
            "action_mask": np.asarray(self.space.mask(seat_view.legal), dtype=np.int8),
        }

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._game()
        seat = self._seats[agent]
        legal = game.legal_actions()
        chosen = self._action(action, legal)
        self._cumulative_rewards[agent] = 0.0
        rounds = game.round_index
        game.play(chosen, seat)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.reward_kind == "points" and game.round_index != rounds and game.last_round is not None:
            self._give_points(game.last_round.points)
        if game.outcome is not None:
            if self.reward_kind == "outcome":
                for other, name in enumerate(self.possible_agents):
                    self.rewards[name] = 1.0 if other in game.outcome.winners else -1.0
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[game.to_act]
        self._accumulate_rewards()

    def _action(self, action: int | None, legal: list[Action]) -> Action:
        if action is None or not 0 <= int(action) < len(self.space):
            raise ValueError(f"action {action!r} is not a number 0-{len(self.space) - 1}")
        chosen = self.space.actions[int(action)]
        if chosen not in legal:
            numbered = ", ".join(f"{self.space.index[a]} ({a})" for a in legal)
            raise ValueError(f"action {int(action)} ({chosen}) is not legal now; legal: {numbered}")
        return chosen

    def _give_points(self, points: tuple[int, ...]) -> None:
        mean = sum(points) / len(points)
        sign = -1.0 if self.rules.lowest_wins else 1.0
        for seat, name in enumerate(self.possible_agents):
            self.rewards[name] = sign * (points[seat] - mean)

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
    """The environment, wrapped as PettingZoo's classic games are; see the module docstring."""
    inner = raw_env(preset, players, options, seed, render_mode, **kwargs)
    checked = wrappers.AssertOutOfBoundsWrapper(inner)
    return wrappers.OrderEnforcingWrapper(checked)


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
    number. Game ``g`` is dealt with ``reset(seed=seed + g)``; the bots are seeded from the game
    and the seat. Returns the games, the policy's wins (a shared win counts 1/k), its win rate
    with a 95% Wilson interval, and the mean reward.
    """
    environment = env(preset, players, options)
    wins = reward_sum = 0.0
    for g in range(games):
        environment.reset(seed=seed + g)
        bots = {f"player_{s}": make_bot(level, seed=(seed + g) * 64 + s) for s in range(1, players)}
        for agent in environment.agent_iter():
            observation, reward, terminated, truncated, _ = environment.last()
            if terminated or truncated:
                if agent == "player_0":
                    reward_sum += float(reward)
                environment.step(None)
                continue
            action = bot_action(environment, agent, bots[agent]) if agent in bots else policy(observation)
            environment.step(action)
        inner = environment.unwrapped
        assert isinstance(inner, raw_env) and inner.game is not None and inner.game.outcome is not None
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
    }


def random_policy(seed: int | None = None) -> Policy:
    """A policy that plays a uniformly random legal action."""
    rng = np.random.default_rng(seed)

    def choose(observation: Observation) -> int:
        return int(rng.choice(np.flatnonzero(observation["action_mask"])))

    return choose


__all__ = ["bot_action", "env", "evaluate", "random_policy", "raw_env", "rule_set"]
