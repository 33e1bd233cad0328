"""A game at the table: who sits where (people or computer levels), the bots, and the checked door.

Every front end (the Textual app, ``--plain``, the web table) drives a ``Session``: it
owns the ``Game``, asks ``view(game, seat)`` for what a seat may see, and applies every
action through ``game.play(action, seat=...)``, so the engine alone decides what is
legal. Each action goes to the session's ``MatchLog`` (the match store), so a match can
be restored from its setup and actions. Where the log keeps actions ahead of play (a
match with a person at it), an action is checked on a copy of the game, kept, and only
then applied: a move the store could not keep leaves the table as it was. Nothing here
imports a front end or a database.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from eights.bots import LEVELS, Bot, Hint, make_bot
from eights.bots.spec import BotSpecError, parse_bot
from eights.engine import Action, ActionError, Event, Game, IllegalAction, View, parse_action, view
from eights.names import HUMAN, BadName, clean_name, find_same
from eights.rules import RulesError, RuleSet, resolve_rules
from eights.seeds import bot_seed

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


class RestoreError(ValueError):
    """A saved match whose actions no longer replay; names the action and why."""


def check_name(name: str) -> str:
    """A person's name under the one rule for names (``eights.names.clean_name``).

    :raises UsageError: naming what is wrong with it.
    """
    try:
        return clean_name(name)
    except BadName as exc:
        raise UsageError(str(exc)) from None


def check_seat(who: str) -> str:
    """``human`` or a computer player (``normal``, ``hard@500``, ``expert@2s``), in lower case.

    :raises UsageError: naming the valid levels and budgets.
    """
    who = who.strip().lower()
    if who == HUMAN:
        return who
    try:
        parse_bot(who)
    except BotSpecError as exc:
        raise UsageError(f"bots: {exc}") from None
    return who


@dataclass(frozen=True)
class PlayConfig:
    """Everything that starts a game: the rules, one entry per seat (``human`` or a computer player such
    as ``normal`` or ``hard@500``), the people's names, seed, pacing."""

    rules: RuleSet
    seats: tuple[str, ...]
    seed: int | None = None
    speed: int = DEFAULT_SPEED
    #: The people's names, in seat order (empty: ``You``, or ``Player 1``... in hot-seat).
    people: tuple[str, ...] = ()

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(seat for seat, who in enumerate(self.seats) if who == HUMAN)

    def names(self) -> tuple[str, ...]:
        """Seat names: the people's names as given, else ``You`` for a lone person and ``Player 1``... in
        hot-seat; a first name for each computer (never one a person took)."""
        humans = self.humans
        names = []
        for seat, who in enumerate(self.seats):
            if who != HUMAN:
                free = (BOT_NAMES[(seat + i) % len(BOT_NAMES)] for i in range(len(BOT_NAMES)))
                names.append(next(name for name in free if find_same(name, self.people) is None))
                continue
            index = humans.index(seat)
            if index < len(self.people):
                names.append(self.people[index])
            elif len(humans) == 1:
                names.append(YOU)
            else:
                names.append(f"Player {index + 1}")
        return tuple(names)

    def again(self) -> PlayConfig:
        """The same table for another game: the next seed when one was fixed (so it stays replayable)."""
        return replace(self, seed=None if self.seed is None else self.seed + 1)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON) that ``from_dict`` turns back into this configuration."""
        return {
            "rules": self.rules.to_dict(),
            "seats": list(self.seats),
            "seed": self.seed,
            "speed": self.speed,
            "people": list(self.people),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PlayConfig:
        """:raises RulesError: or ``UsageError`` when the data cannot seat a table."""
        try:
            rules = RuleSet.from_dict(data["rules"])
            seats = tuple(check_seat(str(who)) for who in data["seats"])
            seed = data.get("seed")
            people = tuple(check_name(str(name)) for name in data.get("people", ()))
            speed = check_speed(int(data.get("speed", DEFAULT_SPEED)))
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, RulesError | UsageError):
                raise
            raise UsageError(f"a saved table is malformed: {exc}") from None
        rules.check_players(len(seats))
        return cls(rules, seats, None if seed is None else int(seed), speed, people)


#: The largest seed a match can be saved with (the store keeps it as a signed 64-bit integer).
MAX_SEED = 2**63 - 1


def check_seed(seed: int | None) -> int | None:
    if seed is not None and abs(seed) > MAX_SEED:
        raise UsageError(f"seed: {seed} is too large to save with the match; give a whole number of at most 18 digits")
    return seed


def check_speed(speed: int) -> int:
    if speed not in SPEEDS:
        raise UsageError(f"speed: {speed} is not valid; valid: 1 (slow) to 5 (no pause)")
    return speed


def parse_levels(text: str) -> list[str]:
    """``normal,hard@500,expert@2s`` to computer players, checked.

    :raises UsageError: naming the bad one and the valid levels.
    """
    levels = [check_seat(item) for item in text.replace(" ", ",").split(",") if item.strip()]
    if HUMAN in levels or not levels:
        raise UsageError(f"bots: give one or more levels separated by commas ({', '.join(LEVELS)})")
    return levels


def parse_names(text: str) -> tuple[str, ...]:
    """``Ann,Bob`` to names, checked: no name twice.

    :raises UsageError: naming the bad or repeated name.
    """
    names = tuple(check_name(item) for item in text.split(","))
    for index, name in enumerate(names):
        other = find_same(name, names[:index])
        if other is not None and other.casefold() == name.casefold():
            raise UsageError(f"name: {name!r} is given twice; every person needs a name of their own")
        if other is not None:
            raise UsageError(f"name: {name!r} looks like {other!r}; every person needs a name of their own")
    return names


def build_config(
    variant: str | None = None,
    rules_file: str | Path | None = None,
    options: Sequence[str] | None = None,
    players: int | None = None,
    bots: str | None = None,
    humans: int | None = None,
    seed: int | None = None,
    speed: int = DEFAULT_SPEED,
    names: str | None = None,
) -> PlayConfig:
    """The table the command line asks for. People sit first (seat 0 is the person), computers fill the rest.

    Without ``--players`` the count is the people plus the ``--bots`` levels, or 4 (what the rules seat).
    One bot level fills every computer seat; several must name each one. ``names`` names the
    people, in seat order (``Ann,Bob``); with no ``humans`` it also counts them.

    :raises UsageError: or ``RulesError`` on anything that cannot be played.
    """
    rules = resolve_rules(variant, rules_file, list(options) if options else None)
    given = parse_names(names) if names is not None else ()
    people = (len(given) or 1) if humans is None else humans
    if people < 0:
        raise UsageError("humans: give 0 or more people")
    if len(given) > people:
        raise UsageError(
            f"name: {len(given)} names given for {people} {'person' if people == 1 else 'people'} at this device; "
            "give at most one name per person (--humans N seats more)"
        )
    levels = parse_levels(bots) if bots is not None else []
    if players is None:
        if len(levels) > 1 or (levels and people):
            players = people + len(levels)
        else:
            players = min(max(4, rules.min_players, people), max(rules.max_players, rules.expanded_max_players))
    if people > players:
        raise UsageError(
            f"humans: {people} {'person' if people == 1 else 'people'} cannot sit at a table of {players}; "
            f"give --players {people} or more"
        )
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
    return PlayConfig(rules, (HUMAN,) * people + tuple(levels), check_seed(seed), check_speed(speed), given)


class MatchLog(Protocol):
    """Where a session's actions go, one at a time (the match store)."""

    #: Whether each action must be kept before it is applied (a match with a person at it): the session
    #: then waits for ``keep``'s future before the game takes the action. Otherwise actions are kept
    #: after they are applied, behind play.
    ahead: bool

    def keep(self, number: int, action: Action, events: Sequence[Event]) -> Future[None]:
        """Keep action ``number`` of the match (the first is 1), which gives ``events``; the future is
        done once it is kept (at once for a log that keeps behind play), or holds why it could not be."""
        ...

    def unsure(self) -> bool:
        """Whether an action was handed over whose keeping is not known (the store's answer was lost):
        ``recall`` tells, before anything else is kept."""
        ...

    def recall(self) -> list[str]:
        """The actions kept from the first one whose keeping was not known, as text (none when it was not
        kept); after it the log is sure again. :raises Exception: (the log's own) while it cannot tell."""
        ...

    def where(self) -> str | None:
        """Where the match is kept, for people: ``match 12 in /home/ann/.local/share/eights/eights.db``;
        None when it could not be saved."""
        ...

    @property
    def match_id(self) -> int | None:
        """The match's number where it is kept (None where matches are not numbered: a browser's)."""
        ...


@dataclass(frozen=True, slots=True)
class Move:
    """An action checked on a copy of the game, with the events it gives there: what is kept before the
    game itself takes it (``Session.check`` and ``Session.take``)."""

    number: int
    seat: int
    action: Action
    events: tuple[Event, ...]


class Session:
    """One game in play: the engine's game, seat names, the computer players and the pace."""

    def __init__(self, config: PlayConfig, game: Game | None = None, log: MatchLog | None = None) -> None:
        """``game`` replaces the dealt game (for tests, puzzles and restored matches); it must seat
        ``config.players``. ``log`` receives every action applied from now on.

        :raises RulesError: when the rules cannot seat the players.
        """
        if game is None:
            game = Game(config.rules, config.players, config.seed)
        elif game.players != config.players:
            raise RulesError(f"players: the game seats {game.players}, the table {config.players}")
        self.config = config
        self.game = game
        self.log = log
        self.names = config.names()
        self.speed = config.speed
        self.bots: dict[int, Bot] = {}
        for seat, who in enumerate(config.seats):
            if who != HUMAN:
                level, budget = parse_bot(who)
                self.bots[seat] = make_bot(level, bot_seed(game.seed, seat), **budget)
        self._hinter: Bot | None = None

    @classmethod
    def restore(cls, config: PlayConfig, actions: Iterable[str], log: MatchLog | None = None) -> Session:
        """The match ``config`` started, with ``actions`` (their text) played again through the checked door.

        :raises RestoreError: naming the first action that no longer replays.
        """
        if config.seed is None:
            raise RestoreError("a saved match needs its seed to be dealt again")
        game = Game(config.rules, config.players, config.seed)
        for index, text in enumerate(actions, 1):
            try:
                game.play(parse_action(text))
            except (ActionError, IllegalAction) as exc:
                raise RestoreError(f"action {index} ({text!r}) does not replay: {exc}") from None
        return cls(config, game, log)

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
        """A person's action, checked by the engine and kept by the match's log: before it is applied
        where the log keeps actions ahead of play, else after.

        :raises IllegalAction: naming the rule; the game is left as it was. The log's error (the store's)
            when it could not keep the action, which is then not applied.
        """
        log = self.log
        if log is None or not log.ahead:
            events = self.game.play(action, seat=seat)
            if log is not None:
                log.keep(len(self.game.actions), action, events)
            return events
        self.catch_up()
        move = self.check(action, seat)
        log.keep(move.number, move.action, move.events).result()
        return self.take(move)

    def check(self, action: Action, seat: int) -> Move:
        """``action`` checked by the engine on a copy of the game, which tells the events it gives; the
        game itself is untouched.

        :raises IllegalAction: naming the rule.
        """
        trial = self.game.clone()
        trial.log = []
        events = trial.play(action, seat=seat)
        return Move(len(self.game.actions) + 1, seat, action, tuple(events))

    def take(self, move: Move) -> list[Event]:
        """Apply a move that ``check`` made of the game as it still is (and the log has kept)."""
        if move.number != len(self.game.actions) + 1:
            raise ValueError(f"move {move.number} was checked on another state of the game")
        return self.game.play(move.action, seat=move.seat)

    def catch_up(self) -> list[Event]:
        """Where the log is unsure whether an action it was handed was kept: ask it, and apply what it
        kept (the game then stands where the store does). The events applied.

        :raises RestoreError: when a kept action does not replay; the log's error while it cannot tell.
        """
        log = self.log
        if log is None or not log.unsure():
            return []
        events: list[Event] = []
        for text in log.recall():
            try:
                events += self.game.play(parse_action(text))
            except (ActionError, IllegalAction) as exc:
                raise RestoreError(f"the kept action {text!r} does not replay: {exc}") from None
        return events

    def bot_choice(self, seat: int) -> Action:
        """What the computer at ``seat`` would do now, from its own view only (may take seconds)."""
        return self.bots[seat].choose(view(self.game, seat))

    def bot_move(self) -> list[Event]:
        """The computer to act takes one action, checked and logged like anyone's."""
        seat = self.game.to_act
        return self.play(self.bot_choice(seat), seat)

    def hint(self, seat: int) -> Hint:
        """What the normal computer player would do in this seat, and why."""
        return self.hinter(seat).hint(view(self.game, seat))

    def hinter(self, seat: int) -> Bot:
        """The computer player whose moves are this table's hints (made at the first, seeded by the match); a
        server works a hint out with it elsewhere than on its event loop (``eights.web.workers.BotPool.hint``)."""
        if self._hinter is None:
            self._hinter = make_bot(HINT_LEVEL, bot_seed(self.game.seed, 1000 + seat))
        return self._hinter

    def faster(self) -> int:
        """One step less pause between computer moves; the new speed."""
        self.speed = min(max(SPEEDS), self.speed + 1)
        return self.speed

    def slower(self) -> int:
        self.speed = max(min(SPEEDS), self.speed - 1)
        return self.speed

    @property
    def pause(self) -> float:
        """Seconds between computer moves at the current speed."""
        return SPEEDS[self.speed]

    def next_config(self) -> PlayConfig:
        """The table for the next match: the same seats and names, the next seed, the current pace."""
        return replace(self.config.again(), speed=self.speed)
