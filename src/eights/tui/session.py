"""A game at the table: who sits where (people or computer levels), the bots, and the checked door.

Both front ends (the Textual app and ``--plain``) drive a ``Session``: it owns the
``Game``, asks ``view(game, seat)`` for what a seat may see, and applies every
action through ``game.play(action, seat=...)``, so the engine alone decides what
is legal. Nothing here imports Textual.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from eights.bots import LEVELS, Bot, Hint, make_bot
from eights.engine import Action, Event, Game, View, view
from eights.rules import RulesError, RuleSet, resolve_rules
from eights.simulate import bot_seed

HUMAN = "human"
#: The level whose hint the `h` key shows.
HINT_LEVEL = "normal"
#: Computer pacing: seconds between computer moves, by speed (1 slowest, 5 no pause).
SPEEDS = {1: 2.0, 2: 1.2, 3: 0.7, 4: 0.3, 5: 0.0}
SPEED_WORDS = {1: "slow", 2: "steady", 3: "normal", 4: "fast", 5: "instant"}
DEFAULT_SPEED = 3
BOT_NAMES = (
    "Ada",
    "Bram",
    "Cleo",
    "Dev",
    "Esme",
    "Finn",
    "Gia",
    "Hugo",
    "Iris",
    "Jude",
    "Kai",
    "Lena",
    "Milo",
    "Nora",
    "Otto",
    "Pia",
)
#: The name of the only person at the table; narration turns "You plays" into "You play".
YOU = "You"


class UsageError(ValueError):
    """A command line or setup that asks for something impossible."""


@dataclass(frozen=True)
class PlayConfig:
    """Everything that starts a game: the rules, one entry per seat (``human`` or a level), seed, pacing."""

    rules: RuleSet
    seats: tuple[str, ...]
    seed: int | None = None
    speed: int = DEFAULT_SPEED

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(seat for seat, who in enumerate(self.seats) if who == HUMAN)

    def names(self) -> tuple[str, ...]:
        """Seat names: ``You`` for a lone person, ``Player 1``... in hot-seat, a first name for each computer."""
        humans = self.humans
        names = []
        for seat, who in enumerate(self.seats):
            if who != HUMAN:
                names.append(BOT_NAMES[seat % len(BOT_NAMES)])
            elif len(humans) == 1:
                names.append(YOU)
            else:
                names.append(f"Player {humans.index(seat) + 1}")
        return tuple(names)

    def again(self) -> PlayConfig:
        """The same table for another game: the next seed when one was fixed (so it stays replayable)."""
        return replace(self, seed=None if self.seed is None else self.seed + 1)


def check_speed(speed: int) -> int:
    if speed not in SPEEDS:
        raise UsageError(f"speed: {speed} is not valid; valid: 1 (slow) to 5 (no pause)")
    return speed


def parse_levels(text: str) -> list[str]:
    """``normal,hard,expert`` to levels, checked.

    :raises UsageError: naming the bad level and the valid ones.
    """
    levels = [item.strip().lower() for item in text.replace(" ", ",").split(",") if item.strip()]
    for level in levels:
        if level not in LEVELS:
            raise UsageError(f"bots: {level!r} is not a computer level; valid: {', '.join(LEVELS)}")
    if not levels:
        raise UsageError(f"bots: give one or more levels separated by commas ({', '.join(LEVELS)})")
    return levels


def build_config(
    variant: str | None = None,
    rules_file: str | Path | None = None,
    options: Sequence[str] | None = None,
    players: int | None = None,
    bots: str | None = None,
    humans: int | None = None,
    seed: int | None = None,
    speed: int = DEFAULT_SPEED,
) -> PlayConfig:
    """The table the command line asks for. People sit first (seat 0 is the person), computers fill the rest.

    Without ``--players`` the count is the people plus the ``--bots`` levels, or 4 (what the rules seat).
    One bot level fills every computer seat; several must name each one.

    :raises UsageError: or ``RulesError`` on anything that cannot be played.
    """
    rules = resolve_rules(variant, rules_file, list(options) if options else None)
    people = 1 if humans is None else humans
    if people < 0:
        raise UsageError("humans: give 0 or more people")
    levels = parse_levels(bots) if bots is not None else []
    if players is None:
        if len(levels) > 1 or (levels and people):
            players = people + len(levels)
        else:
            players = min(max(4, rules.min_players, people), max(rules.max_players, rules.expanded_max_players))
    if people > players:
        raise UsageError(f"humans: {people} people cannot sit at a table of {players}")
    computers = players - people
    if not levels:
        levels = ["normal"]
    if len(levels) == 1:
        levels = levels * computers
    if len(levels) != computers:
        raise UsageError(
            f"bots: {len(levels)} levels given for {computers} computer seat{'s' if computers != 1 else ''} "
            f"({players} players, {people} human{'s' if people != 1 else ''}); give one level or one per seat"
        )
    rules.check_players(players)
    return PlayConfig(rules, (HUMAN,) * people + tuple(levels), seed, check_speed(speed))


class Session:
    """One game in play: the engine's game, seat names and the computer players."""

    def __init__(self, config: PlayConfig, game: Game | None = None) -> None:
        """``game`` replaces the dealt game (for tests and puzzles); it must seat ``config.players``.

        :raises RulesError: when the rules cannot seat the players.
        """
        if game is None:
            game = Game(config.rules, config.players, config.seed)
        elif game.players != config.players:
            raise RulesError(f"players: the game seats {game.players}, the table {config.players}")
        self.config = config
        self.game = game
        self.names = config.names()
        self.bots: dict[int, Bot] = {
            seat: make_bot(level, bot_seed(game.seed, seat))
            for seat, level in enumerate(config.seats)
            if level != HUMAN
        }
        self._hinter: Bot | None = None

    @property
    def rules(self) -> RuleSet:
        return self.game.rules

    @property
    def humans(self) -> tuple[int, ...]:
        return self.config.humans

    def is_human(self, seat: int) -> bool:
        return seat >= 0 and self.config.seats[seat] == HUMAN

    def label(self, seat: int) -> str:
        """The name with the computer level: ``Ada (hard)``."""
        who = self.config.seats[seat]
        return self.names[seat] if who == HUMAN else f"{self.names[seat]} ({who})"

    def view(self, seat: int | None) -> View:
        return view(self.game, seat)

    def play(self, action: Action, seat: int) -> list[Event]:
        """A person's action, checked by the engine.

        :raises IllegalAction: naming the rule; the game is left as it was.
        """
        return self.game.play(action, seat=seat)

    def bot_move(self) -> list[Event]:
        """The computer to act takes one action (from its own view only), checked like anyone's."""
        seat = self.game.to_act
        action = self.bots[seat].choose(view(self.game, seat))
        return self.game.play(action, seat=seat)

    def hint(self, seat: int) -> Hint:
        """What the normal computer player would do in this seat, and why."""
        if self._hinter is None:
            self._hinter = make_bot(HINT_LEVEL, bot_seed(self.game.seed, 1000 + seat))
        return self._hinter.hint(view(self.game, seat))
