"""The game for OpenSpiel: ``import eights.research.openspiel`` registers ``python_eights`` (the ``research`` extra).

    import pyspiel
    import eights.research.openspiel  # noqa: F401 (registers the game)

    game = pyspiel.load_game("python_eights", {"preset": "derange", "players": 4, "options": "packs=2;rounds=3,2"})

Parameters: ``preset`` (a preset name, default ``classic``), ``players`` (default 2), ``options``
(rule changes as ``"key=value;key=value"``, the ``--option`` values of the command line) and
``reward`` (``outcome``, the default, or ``zero_sum``).
In a game string, where ``=`` and ``,`` are OpenSpiel's own separators, write ``key:value`` and
separate a list's items with spaces: ``python_eights(preset=derange,players=4,options=packs:2;rounds:3 2)``;
the game keeps its options in that form, so that its string loads it again.

- Chance: the engine deals and shuffles from one 48-bit seed, so a game begins with six chance
  nodes, each one byte of that seed (256 equally likely outcomes), most significant first;
  after them ``Game(rules, players, seed)`` is dealt and every later shuffle follows from it.
  There are no chance nodes after the sixth: the rest of the hidden randomness is in the seed.
- Actions: the rule set's fixed action space (``eights.research.encoding.ActionSpace``), the same
  numbers as the PettingZoo environment.
- Returns at the end (``eights.research.encoding.match_rewards``): with ``reward=outcome`` +1 for each
  winner and -1 for each other seat, declared general-sum (several winners of a tie each get +1);
  with ``reward=zero_sum`` each other seat -1 and the winners share what they lose (at two players
  +1 and -1, a tie 0 each), declared zero-sum, so that NashConv and exploitability apply.
- A round stopped by the rules' safety cap on actions ends the game (OpenSpiel has no truncation):
  the state is terminal, every return 0, and ``state.capped`` is True.
- Observations from the engine's one redaction (``eights.engine.view``). The information state
  string is the seat's whole past, every event of the match as that seat saw it, one per line,
  then its hand (perfect recall); the observation string is the table now, as the seat sees it.
  The observation tensor is the vector of ``eights.research.encoding`` (the hand, the table, this round's
  public history), kept up to date step by step (``eights.research.encoding.Observer``). It is a summary,
  not perfect recall (three draws by a seat look like a draw and two passes), so the game declares
  no information state tensor: ``rl_environment`` reads the observation tensor, and algorithms
  that need a perfect-recall tensor (Deep CFR) refuse the game instead of learning from a wrong
  one. A public observer (no private information) reads a spectator's view.
- ``resample_from_infostate(player, sampler)`` deals a world consistent with the seat's view
  (``eights.engine.sampling.sample``: its own hand and every public fact exact, the unseen cards
  dealt at random, and a fresh seed for later shuffles). In that world the seat's past is its
  own and the other seats know only the public past, so the seat's information state string is
  unchanged. OpenSpiel's ``ISMCTSBot`` plays the game through it, and ``MCTSBot`` through
  ``clone`` (so MCTS sees every hand, and, through the seed, the order of the stock).
- ``crazy_eights_action(number)``: OpenSpiel's own ``crazy_eights`` number for one of our 58 actions.
- ``LevelBot(game, player, "normal")``: one of eights' computer players (a spec such as ``hard@500``)
  as an OpenSpiel bot, playing its seat from that seat's view only: a fair opponent.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
from numpy.typing import NDArray

from eights.bots.spec import research_bot
from eights.engine import Game, view
from eights.engine.events import redact
from eights.engine.sampling import sample
from eights.research.encoding import ActionSpace, encode, observation_layout, table_text
from eights.research.observer import Observer, match_rewards, step_rewards
from eights.rules import RulesError, RuleSet, load_preset

NAME = "python_eights"
#: The seed's bytes, one chance node each.
SEED_BYTES = 6
#: The longest game OpenSpiel is told of: far beyond any game played (a round ends at the rules'
#: safety cap of actions; matches to a target have no fixed number of rounds).
MAX_GAME_LENGTH = 10**7
DEFAULTS: dict[str, Any] = {"preset": "classic", "players": 2, "options": "", "reward": "outcome"}
#: The returns a game can give: general-sum outcome, or zero-sum.
REWARDS = ("outcome", "zero_sum")
#: A rule set of default values: which fields hold lists.
_PLAIN = RuleSet()


def game_type(utility: Any = pyspiel.GameType.Utility.GENERAL_SUM) -> pyspiel.GameType:
    """The game's type, general-sum (as registered) or zero-sum (a game loaded with ``reward=zero_sum``)."""
    return pyspiel.GameType(
        short_name=NAME,
        long_name="Crazy Eights and its house variants (eights)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=16,
        min_num_players=2,
        provides_information_state_string=True,
        # The tensor would be the observation's, which is not perfect recall (see the module docstring).
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=DEFAULTS,
    )


GAME_TYPE = game_type()


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
        reward = str(settings["reward"])
        if reward not in REWARDS:
            raise ValueError(f"python_eights: reward: {reward!r}; valid: {', '.join(REWARDS)}")
        self.rules = rules
        self.players = players
        self.zero_sum = reward == "zero_sum"
        self.space = ActionSpace(rules, players)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.space),
            max_chance_outcomes=256,
            num_players=players,
            min_utility=-1.0,
            max_utility=players - 1.0 if self.zero_sum else 1.0,
            utility_sum=0.0 if self.zero_sum else None,
            max_game_length=MAX_GAME_LENGTH,
        )
        settings["options"] = game_string_options(str(settings["options"]))
        utility = pyspiel.GameType.Utility.ZERO_SUM if self.zero_sum else pyspiel.GameType.Utility.GENERAL_SUM
        super().__init__(game_type(utility), info, settings)

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
        self.shared = Shared(game.rules, game.players, game.space, game.zero_sum)
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

    @property
    def capped(self) -> bool:
        """Whether the rules' safety cap on actions stopped a round, ending the game with every return 0."""
        return self.deal.capped

    # ----- whose move, and which -------------------------------------------------------------

    def current_player(self) -> int:
        if self.game is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.game.is_over or self.deal.capped:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.game.to_act

    def _legal_actions(self, player: int) -> list[int]:
        if self.game is None or self.is_terminal() or player != self.game.to_act:
            return []
        return sorted(self.deal.observer(self.shared.space).numbers())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(byte, 1 / 256) for byte in range(256)]

    def _apply_action(self, action: int) -> None:
        if self.game is None:
            self.seed_bytes.append(action)
            if len(self.seed_bytes) == SEED_BYTES:
                seed = int.from_bytes(bytes(self.seed_bytes), "big")
                self.deal.game = Game(self.shared.rules, self.shared.players, seed=seed)
            return
        rounds = self.game.round_index
        self.deal.observer(self.shared.space).play(action)
        self.deal.capped = step_rewards(self.game, rounds, "outcome")[2]

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed byte {action}"
        return str(self.space.actions[action])

    def is_terminal(self) -> bool:
        return self.game is not None and (self.game.is_over or self.deal.capped)

    def returns(self) -> list[float]:
        players = self.shared.players
        if self.game is None or self.game.outcome is None or self.deal.capped:
            return [0.0] * players
        return match_rewards(self.game.outcome.winners, players, self.shared.zero_sum)

    # ----- search ----------------------------------------------------------------------------

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> EightsState:
        """A state the seat cannot tell from this one: see the module docstring."""
        game = self.game
        if game is None or self.is_terminal():
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

    __slots__ = ("players", "rules", "space", "zero_sum")

    def __init__(self, rules: RuleSet, players: int, space: ActionSpace, zero_sum: bool) -> None:
        self.rules = rules
        self.players = players
        self.space = space
        self.zero_sum = zero_sum

    def __deepcopy__(self, memo: dict[int, Any]) -> Shared:
        return self


class Deal:
    """The seed's bytes drawn so far, the engine's game once they are all drawn, whether the safety cap
    stopped it, and the game's ``Observer`` (made when first needed). OpenSpiel's clone deep-copies it:
    the engine's own copy (its events are frozen values, so the log is copied flat), and a new observer
    when the copy needs one; pickle keeps all but the observer too."""

    __slots__ = ("_observer", "_rows", "capped", "game", "seed_bytes")

    def __init__(self, game: Game | None) -> None:
        self.game = game
        self.seed_bytes: list[int] = []
        self.capped = False
        self._observer: Observer | None = None
        self._rows: NDArray[np.float32] | None = None

    def observer(self, space: ActionSpace) -> Observer:
        if self._observer is None:
            assert self.game is not None
            self._observer = Observer(space, self.game)
            self._rows = np.frombuffer(self._observer.rows, np.float32).reshape(self.game.players, -1)
        return self._observer

    def row(self, space: ActionSpace, seat: int) -> NDArray[np.float32]:
        """``encode(view(game, seat))`` as float32 numbers, up to date."""
        self.observer(space).refresh(seat)
        assert self._rows is not None
        row: NDArray[np.float32] = self._rows[seat]
        return row

    def __deepcopy__(self, memo: dict[int, Any]) -> Deal:
        return Deal.made(self.game.clone(log=True) if self.game is not None else None, self.seed_bytes, self.capped)

    def __reduce__(self) -> tuple[Any, tuple[Game | None, list[int], bool]]:
        # Pickled without the observer, which is made again when needed.
        return (Deal.made, (self.game, self.seed_bytes, self.capped))

    @staticmethod
    def made(game: Game | None, seed_bytes: list[int], capped: bool) -> Deal:
        deal = Deal(game)
        deal.seed_bytes = list(seed_bytes)
        deal.capped = capped
        return deal


class EightsObserver:
    """OpenSpiel's Python observer: the tensor and strings of ``eights.research.encoding`` for one seat; a perfect
    recall observer has strings only (the tensor is not perfect recall: see the module docstring)."""

    def __init__(self, iig_obs_type: Any, players: int) -> None:
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("python_eights has no observer of every player's private cards (views are per seat)")
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.tensor: NDArray[np.float32] | None = None
        self.dict: dict[str, Any] = {}
        if self.perfect_recall:
            return
        layout = observation_layout(players)
        self.tensor = np.zeros(sum(size for _, size in layout), np.float32)
        at = 0
        for name, size in layout:
            self.dict[name] = self.tensor[at : at + size]
            at += size

    def set_from(self, state: EightsState, player: int) -> None:
        if self.tensor is None:
            raise ValueError(
                "python_eights has no information state tensor: its tensor is not perfect recall, so only "
                "the observation tensor is offered (observation_tensor; rl_environment reads it); the "
                "information state string is perfect recall"
            )
        if state.game is None:
            self.tensor.fill(0)
        elif self.private:
            self.tensor[:] = state.deal.row(state.space, player)
        else:
            self.tensor[:] = encode(view(state.game, None))

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


def crazy_eights_action(number: int) -> int:
    """OpenSpiel's ``crazy_eights`` action for our action ``number`` in a 58-action space (one pack, no
    jokers, no stacking: classic, race, derange and action at one pack). Draw (52), pass (53) and
    naming clubs, diamonds, hearts or spades (54-57) keep their numbers; a play of card id ``c``
    (ours rank aces first, ``(rank - 1) * 4 + suit``; theirs twos first, aces last) is
    ``((c // 4 + 12) % 13) * 4 + c % 4``: our action 0 is ``play AC``, theirs ``Play C2``.

    :raises ValueError: for a number outside 0-57.
    """
    if not 0 <= number < 58:
        raise ValueError(f"action {number}: crazy_eights has actions 0-57, a space of one pack without jokers")
    if number >= 52:
        return number
    return ((number // 4 + 12) % 13) * 4 + number % 4


class LevelBot(pyspiel.Bot):  # type: ignore[misc]
    """One of eights' computer players as an OpenSpiel bot: ``spec`` is a level, with a budget where it
    searches (``normal``, ``hard@500``; ``hard`` and ``expert`` alone search
    ``eights.bots.spec.ITERATIONS`` iterations), seeded; it plays ``player``'s seat from that seat's
    view only (``eights.engine.view``), so it is a fair opponent for any OpenSpiel bot that sees no
    more (``ISMCTSBot``; not ``MCTSBot``, whose clones see every hand and the stock).

    :raises BotSpecError: for a spec that names no level or budget, naming the valid ones.
    """

    def __init__(self, game: EightsGame, player: int, spec: str = "normal", seed: int | None = None) -> None:
        super().__init__()
        self.player = player
        self.space = game.space
        self.bot = research_bot(spec, seed)

    def step(self, state: EightsState) -> int:
        if state.game is None or state.current_player() != self.player:
            raise ValueError(f"LevelBot: seat {self.player} does not act in this state ({state.current_player()} does)")
        return self.space.number(self.bot.choose(view(state.game, self.player)))

    def restart_at(self, state: EightsState) -> None:
        pass


pyspiel.register_game(GAME_TYPE, EightsGame)

__all__ = [
    "GAME_TYPE",
    "NAME",
    "REWARDS",
    "EightsGame",
    "EightsObserver",
    "EightsState",
    "LevelBot",
    "crazy_eights_action",
    "game_type",
    "parse_options",
    "rules_of",
]
