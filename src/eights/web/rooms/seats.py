"""What a room is made of: its rules (a preset and options, within the server's bound on hands), its seats
(open, a person's with the hash of their token, or a computer level) and the checks a table must pass."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from eights.bots import LEVELS
from eights.names import HUMAN
from eights.rules import PRESETS, RulesError, RuleSet, load_preset
from eights.table import UsageError
from eights.table.session import check_name
from eights.tokens import new_token, token_hash
from eights.web.rooms.connection import Connection
from eights.web.rooms.errors import RoomError

DEFAULT_AWAY = 60
#: A room's code: letters and digits that cannot be taken for one another.
CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 9
OPEN = "open"
#: A seat for a person on the creator's device (pass and play).
HERE = "here"


class RoomLimits(Protocol):
    """The limits a room keeps (``eights.web.settings.Limits`` on the server; docs/security.md)."""

    @property
    def connections_per_room(self) -> int:
        """WebSockets one room may hold at once (its seats and its spectators)."""
        ...

    @property
    def think_seconds(self) -> float:
        """Seconds a computer player may think on one decision."""
        ...

    @property
    def max_hand_size(self) -> int:
        """Cards dealt to one hand, in any round."""
        ...


def new_code() -> str:
    """A new room's code (random: a code cannot be guessed from another)."""
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


def web_seat(who: str) -> str:
    """A computer seat of the web table: a named level only (a budget would let a stranger hold the server's
    computers for as long as they like).

    :raises RoomError: ``bad_setup``, naming the levels.
    """
    level = who.strip().lower()
    if level not in LEVELS:
        raise RoomError("bad_setup", f"seats: unknown computer {who!r}; valid: open, {', '.join(LEVELS)}")
    return level


def rules_from(preset: str, options: dict[str, str]) -> RuleSet:
    """:raises RulesError: naming the bad preset or option."""
    name = preset.strip().lower()
    if name not in PRESETS:
        raise RulesError(f"unknown preset {preset!r}; valid: {', '.join(PRESETS)}")
    rules = load_preset(name)
    return rules.with_options(options) if options else rules


def room_rules(preset: str, options: dict[str, str]) -> RuleSet:
    """:raises RoomError: ``bad_setup``, naming the bad preset or option."""
    try:
        return rules_from(preset, options)
    except RulesError as exc:
        raise RoomError("bad_setup", str(exc)) from None


def check_hands(rules: RuleSet, players: int, most: int) -> None:
    """Refuse rules that deal a hand of more than ``most`` cards at a table of ``players``
    (``Limits.max_hand_size``): the engine plays any deal the packs allow, but the server's computer
    players and hints are made for hands people hold.

    :raises RulesError: naming the options that deal too many, and the bound.
    """
    sizes = rules.schedule or (rules.hand_size(players),)
    biggest = max(sizes)
    if biggest <= most:
        return
    named = ("deal", "deal_two_players", "deal_extra_packs")
    over = [name for name in named if getattr(rules, name) > most] or (["rounds"] if rules.schedule else ["deal"])
    raise RulesError(
        f"{', '.join(over)}: a hand of {biggest} cards is more than this server deals "
        f"(at most {most} cards a hand); deal fewer"
    )


def check_table(rules: RuleSet, seats: list[SeatState], players: int | None, limits: RoomLimits) -> None:
    """:raises RoomError: ``bad_setup`` for a count of players or hands the rules or the server refuse."""
    if players is not None and players != len(seats):
        raise RoomError("bad_setup", f"players: {players} given, but {len(seats)} seats listed")
    try:
        rules.check_players(len(seats))
        check_hands(rules, len(seats), limits.max_hand_size)
    except RulesError as exc:
        raise RoomError("bad_setup", str(exc)) from None


@dataclass
class SeatState:
    kind: str  # "open", "person" or "computer"
    name: str = ""
    level: str | None = None
    token: str | None = None  # its hash
    connection: Connection | None = None
    #: Seconds this person has been away during their own turns (reset when they come back).
    away: float = 0.0
    stand_in: bool = False

    def to_data(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "level": self.level, "token": self.token, "away": self.away}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> SeatState:
        return cls(
            data["kind"], data.get("name", ""), data.get("level"), data.get("token"), away=float(data.get("away", 0))
        )

    @classmethod
    def of(cls, who: str) -> SeatState:
        """A seat given as ``open`` or a computer level.

        :raises RoomError: ``bad_setup`` for anything else.
        """
        if who == OPEN:
            return cls(OPEN)
        if who.strip().lower() in (HUMAN, "person", "me"):
            raise RoomError(
                "bad_setup",
                'seats: a person takes an open seat; give "open", "here" (on this device) or a computer level',
            )
        return cls("computer", level=web_seat(who))


def table_seats(name: str, seats: Sequence[str], here: Sequence[tuple[str, str]] = ()) -> tuple[list[SeatState], str]:
    """A new room's seats, its creator (``name``) at the one given as ``"me"`` under a new seat token, and that
    token. ``here``: a (name, token) for each seat given as ``"here"``, in seat order (pass and play).

    :raises RoomError: ``bad_setup`` or ``bad_name``, naming the problem.
    """
    try:
        person = check_name(name)
    except UsageError as exc:
        raise RoomError("bad_name", str(exc)) from None
    if list(seats).count("me") != 1:
        raise RoomError("bad_setup", 'seats: give "me" once, for the seat of the room\'s creator')
    if list(seats).count(HERE) != len(here):
        raise RoomError("bad_setup", f'seats: {list(seats).count(HERE)} seats are "here" but {len(here)} names given')
    token = new_token()
    states = []
    locals_ = iter(here)
    for who in seats:
        if who == "me":
            states.append(SeatState("person", person, token=token_hash(token)))
        elif who == HERE:
            local_name, local_token = next(locals_)
            try:
                states.append(SeatState("person", check_name(local_name), token=token_hash(local_token)))
            except UsageError as exc:
                raise RoomError("bad_name", str(exc)) from None
        else:
            states.append(SeatState.of(who))
    return states, token
