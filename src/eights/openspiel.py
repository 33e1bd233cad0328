"""The game for OpenSpiel: ``import eights.openspiel`` registers ``python_eights`` (the ``research`` extra).

    import pyspiel
    import eights.openspiel  # noqa: F401 (registers the game)

    game = pyspiel.load_game("python_eights", {"preset": "derange", "players": 4, "options": "packs=2;rounds=3,2"})

Parameters: ``preset`` (a preset name, default ``classic``), ``players`` (default 2) and
``options`` (rule changes as ``"key=value;key=value"``, the ``--option`` values of the command line).
In a game string, where ``=`` and ``,`` are OpenSpiel's own separators, write ``key:value`` and
separate a list's items with spaces: ``python_eights(preset=derange,players=4,options=packs:2;rounds:3 2)``;
the game keeps its options in that form, so that its string loads it again.

- Chance: the engine deals and shuffles from one 48-bit seed, so a game begins with six chance
  nodes, each one byte of that seed (256 equally likely outcomes), most significant first;
  after them ``Game(rules, players, seed)`` is dealt and every later shuffle follows from it.
  There are no chance nodes after the sixth: the rest of the hidden randomness is in the seed.
- Actions: the rule set's fixed action space (``eights.encoding.ActionSpace``), the same
  numbers as the PettingZoo environment.
- Returns at the end: +1 for each winner, -1 for each other seat (general-sum; several winners
  of a tie each get +1).
- Observations from the engine's one redaction (``eights.engine.view``). The information state
  string is the seat's whole past, every event of the match as that seat saw it, one per line,
  then its hand (perfect recall); the observation string is the table now, as the seat sees it.
  Both tensors are the vector of ``eights.encoding`` (the hand, the table, this round's public
  history): a summary, not perfect recall. A public observer (no private information) reads a
  spectator's view.
- ``resample_from_infostate(player, sampler)`` deals a world consistent with the seat's view
  (``eights.engine.sampling.sample``: its own hand and every public fact exact, the unseen cards
  dealt at random, and a fresh seed for later shuffles). In that world the seat's past is its
  own and the other seats know only the public past, so the seat's information state string is
  unchanged. OpenSpiel's ``ISMCTSBot`` plays the game through it, and ``MCTSBot`` through
  ``clone``.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from eights.encoding import ActionSpace, encode, observation_layout, table_text
from eights.engine import Game, view
from eights.engine.events import redact
from eights.engine.sampling import sample
from eights.rules import RulesError, RuleSet, load_preset

NAME = "python_eights"
#: The seed's bytes, one chance node each.
SEED_BYTES = 6
#: The longest game OpenSpiel is told of: far beyond any game played (a round ends at the rules'
#: safety cap of actions; matches to a target have no fixed number of rounds).
MAX_GAME_LENGTH = 10**7
DEFAULTS: dict[str, Any] = {"preset": "classic", "players": 2, "options": ""}
#: A rule set of default values: which fields hold lists.
_PLAIN = RuleSet()

GAME_TYPE = pyspiel.GameType(
    short_name=NAME,
    long_name="Crazy Eights and its house variants (eights)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=16,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


def parse_options(text: str) -> list[str]:
    """``"packs=2;rounds=3,2"`` (or ``"packs:2;rounds:3 2"``) as the options a rule set takes:
    ``["packs=2", "rounds=3,2"]``."""
    out = []
    for part in (p.strip() for p in text.split(";")):
        if not part:
            continue
        cut = min((i for i in (part.find("="), part.find(":")) if i >= 0), default=-1)
        if cut < 0:
            out.append(part)  # the rule set refuses it, in words
            continue
        key, value = part[:cut].strip(), part[cut + 1 :].strip()
        if isinstance(getattr(_PLAIN, key, None), tuple):
            value = ",".join(value.replace(",", " ").split())
        out.append(f"{key}={value}")
    return out


def game_string_options(text: str) -> str:
    """The options as an OpenSpiel game string can hold them (``=`` and ``,`` are its separators):
    ``"packs:2;rounds:3 2"``."""
    return ";".join(
        key + ":" + value.replace(",", " ") for key, _, value in (o.partition("=") for o in parse_options(text))
    )


def rules_of(preset: str, options: str) -> RuleSet:
    """:raises RulesError: for an unknown preset or option, naming the valid ones."""
    rules = load_preset(preset)
    return rules.with_options(parse_options(options)) if options.strip() else rules


class EightsGame(pyspiel.Game):  # type: ignore[misc]
    """``python_eights``: one rule set at one player count."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        settings = {**DEFAULTS, **(params or {})}
        players = int(settings["players"])
        try:
            rules = rules_of(str(settings["preset"]), str(settings["options"]))
            rules.check_players(players)
        except RulesError as exc:
            raise ValueError(f"python_eights: {exc}") from None
        self.rules = rules
        self.players = players
        self.space = ActionSpace(rules, players)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.space),
            max_chance_outcomes=256,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=MAX_GAME_LENGTH,
        )
        settings["options"] = game_string_options(str(settings["options"]))
        super().__init__(GAME_TYPE, info, settings)

    def new_initial_state(self) -> EightsState:
        return EightsState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> EightsObserver:
        if params:
            raise ValueError(f"python_eights takes no observation parameters; given {params}")
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        return EightsObserver(kind, self.players)


class EightsState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: the seed's bytes while they are being drawn, then the engine's game."""

    def __init__(self, game: EightsGame, world: Game | None = None) -> None:
        super().__init__(game)
        self.shared = Shared(game.rules, game.players, game.space)
        self.deal = Deal(world)

    @property
    def game(self) -> Game | None:
        """The engine's game, once the seed's bytes are drawn."""
        return self.deal.game

    @property
    def seed_bytes(self) -> list[int]:
        return self.deal.seed_bytes

    @property
    def space(self) -> ActionSpace:
        return self.shared.space

    # ----- whose move, and which -------------------------------------------------------------

    def current_player(self) -> int:
        if self.game is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.game.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.game.to_act

    def _legal_actions(self, player: int) -> list[int]:
        if self.game is None or self.game.is_over or player != self.game.to_act:
            return []
        return sorted(self.space.index[action] for action in self.game.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(byte, 1 / 256) for byte in range(256)]

    def _apply_action(self, action: int) -> None:
        if self.game is None:
            self.seed_bytes.append(action)
            if len(self.seed_bytes) == SEED_BYTES:
                seed = int.from_bytes(bytes(self.seed_bytes), "big")
                self.deal.game = Game(self.shared.rules, self.shared.players, seed=seed)
            return
        self.game.play(self.space.actions[action], self.game.to_act)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed byte {action}"
        return str(self.space.actions[action])

    def is_terminal(self) -> bool:
        return self.game is not None and self.game.is_over

    def returns(self) -> list[float]:
        players = self.shared.players
        if self.game is None or self.game.outcome is None:
            return [0.0] * players
        winners = self.game.outcome.winners
        return [1.0 if seat in winners else -1.0 for seat in range(players)]

    # ----- search ----------------------------------------------------------------------------

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> EightsState:
        """A state the seat cannot tell from this one: see the module docstring."""
        game = self.game
        if game is None or game.is_over:
            copy: EightsState = self.clone()
            return copy
        rng = random.Random(int(probability_sampler() * 2**53))
        world = sample(view(game, player_id), rng)
        world.log = [redact(event, player_id) for event in game.log or ()]
        state = EightsState(self.get_game(), world)
        state.deal.seed_bytes = list(self.seed_bytes)
        return state

    def __str__(self) -> str:
        if self.game is None:
            return f"dealing: seed bytes {self.seed_bytes}"
        return table_text(self.game)


class Shared:
    """What every state of one game shares; OpenSpiel's clone (a deep copy of the state's attributes)
    keeps it shared."""

    __slots__ = ("players", "rules", "space")

    def __init__(self, rules: RuleSet, players: int, space: ActionSpace) -> None:
        self.rules = rules
        self.players = players
        self.space = space

    def __deepcopy__(self, memo: dict[int, Any]) -> Shared:
        return self


class Deal:
    """The seed's bytes drawn so far, and the engine's game once they are all drawn. OpenSpiel's clone
    deep-copies it: the engine's own copy (its events are frozen values, so the log is copied flat)."""

    __slots__ = ("game", "seed_bytes")

    def __init__(self, game: Game | None) -> None:
        self.game = game
        self.seed_bytes: list[int] = []

    def __deepcopy__(self, memo: dict[int, Any]) -> Deal:
        copy = Deal(self.game.clone(log=True) if self.game is not None else None)
        copy.seed_bytes = list(self.seed_bytes)
        return copy


class EightsObserver:
    """OpenSpiel's Python observer: the tensor and strings of ``eights.encoding`` for one seat."""

    def __init__(self, iig_obs_type: Any, players: int) -> None:
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("python_eights has no observer of every player's private cards (views are per seat)")
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        layout = observation_layout(players)
        self.tensor = np.zeros(sum(size for _, size in layout), np.float32)
        self.dict: dict[str, Any] = {}
        at = 0
        for name, size in layout:
            self.dict[name] = self.tensor[at : at + size]
            at += size

    def set_from(self, state: EightsState, player: int) -> None:
        if state.game is None:
            self.tensor.fill(0)
            return
        self.tensor[:] = encode(view(state.game, player if self.private else None))

    def string_from(self, state: EightsState, player: int) -> str:
        game = state.game
        if game is None:
            return f"dealing ({len(state.seed_bytes)} of {SEED_BYTES} seed bytes drawn)"
        seat = player if self.private else None
        if self.perfect_recall:
            past = [repr(redact(event, seat)) for event in game.log or ()]
            held = " ".join(str(c) for c in sorted(view(game, seat).hand)) or "nothing"
            mine = f"seat {player} holds {held}" if self.private else ""
            return "\n".join([f"seat {player}", *past, mine])
        v = view(game, seat)
        hand = " ".join(str(c) for c in sorted(v.hand))
        return (
            f"seat {player}; round {v.round}; top {v.top}; suit {v.active_suit.letter if v.active_suit else '-'}; "
            f"phase {v.phase}; to act {v.to_act}; direction {v.direction}; chain {v.chain}; "
            f"hands {list(v.hand_counts)}; stock {v.stock_count}; totals {list(v.totals)}; hand {hand}"
        )


pyspiel.register_game(GAME_TYPE, EightsGame)

__all__ = ["GAME_TYPE", "NAME", "EightsGame", "EightsObserver", "EightsState", "parse_options", "rules_of"]
