"""Game records: a finished game as JSON (rules, seed or pack order, actions) and its replay."""

from __future__ import annotations

import json
import re
import reprlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from eights.cards import Card, CardError, parse_cards
from eights.engine import ActionError, Game, IllegalAction, parse_action
from eights.names import BadName, clean_name
from eights.rules import RulesError, RuleSet
from eights.words import count_words

FORMAT = "eights-record/1"


class RecordError(ValueError):
    """A record that cannot be read or does not replay; names what is wrong."""


@dataclass(frozen=True)
class GameRecord:
    rules: RuleSet
    players: int
    seed: int
    dealer: int
    deck: tuple[Card, ...] | None
    actions: tuple[str, ...]
    winners: tuple[int, ...] | None
    totals: tuple[int, ...] | None
    names: tuple[str, ...] = ()
    #: The line of the record file each action stood on, when read from one (for messages).
    lines: tuple[int, ...] | None = field(default=None, compare=False, repr=False)

    @classmethod
    def of(cls, game: Game, names: tuple[str, ...] = ()) -> GameRecord:
        """The record of a game that kept its log (``Game(..., log=True)``)."""
        if game.log is None:
            raise RecordError("this game was played without its log, so its actions were not kept")
        outcome = game.outcome
        return cls(
            rules=game.rules,
            players=game.players,
            seed=game.seed,
            dealer=game.first_dealer,
            deck=game.first_deck,
            actions=tuple(str(a) for a in game.actions),
            winners=outcome.winners if outcome else None,
            totals=outcome.totals if outcome else None,
            names=names,
        )

    def to_json(self) -> str:
        result = None
        if self.winners is not None and self.totals is not None:
            result = {"winners": list(self.winners), "totals": list(self.totals)}
        data: dict[str, Any] = {
            "format": FORMAT,
            "rules": self.rules.to_dict(),
            "players": self.players,
            "seed": self.seed,
            "dealer": self.dealer,
            "deck": [str(c) for c in self.deck] if self.deck is not None else None,
            "names": list(self.names),
            "actions": list(self.actions),
            "result": result,
        }
        return json.dumps(data, indent=1, ensure_ascii=False) + "\n"

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        """Read a record, checking every field's type.

        :raises RecordError: naming the field that is missing, unknown or malformed, and what it should hold.
        """
        if not text.strip():
            raise RecordError("not a JSON game record: the file is empty")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not a JSON game record: {_json_problem(exc)}") from None
        except RecursionError:
            raise RecordError("not a game record: its lists or objects are nested too deeply") from None
        except ValueError:  # Python refuses to read an integer of more than 4300 digits
            raise RecordError("not a game record: a number in it is too long to read") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(f'not a game record: expected "format": "{FORMAT}"')
        unknown = [key for key in data if key not in _FIELDS]
        if unknown:
            raise RecordError(f"the record has an unknown field {unknown[0]!r}; its fields are {', '.join(_FIELDS)}")
        missing = [key for key in _REQUIRED if key not in data]
        if missing:
            raise RecordError(f"the record lacks the field {missing[0]!r}; a record holds {', '.join(_FIELDS)}")
        try:
            rules = RuleSet.from_dict(data["rules"])
        except RulesError as exc:
            raise RecordError(f"the record's rules: {exc}") from None
        players = _whole(data, "players", "the number of players")
        deck = data.get("deck")
        if deck is not None:
            deck = _texts(data, "deck", 'the cards of the first deal, like "8H"')
            try:
                deck = tuple(parse_cards(deck))
            except CardError as exc:
                raise RecordError(f"the record's deck: {exc}") from None
        names = _texts(data, "names", "the players' names") if data.get("names") is not None else []
        if names and len(names) != players:
            raise RecordError(
                f"names: {len(names)} names for {players} players; give one name per seat, or none (an empty list)"
            )
        try:
            names = [clean_name(name) for name in names]
        except BadName as exc:
            raise RecordError(f"the record's {exc}") from None
        result = data.get("result")
        winners = totals = None
        if result is not None:
            if not isinstance(result, dict) or set(result) != {"winners", "totals"}:
                raise RecordError('result: expected {"winners": [seats], "totals": [points]} or null')
            winners = tuple(_wholes(result, "winners", "the winning seats"))
            totals = tuple(_wholes(result, "totals", "each seat's points"))
        return cls(
            rules=rules,
            players=players,
            seed=_whole(data, "seed", "the game's seed"),
            dealer=_whole(data, "dealer", "the first dealer's seat"),
            deck=deck,
            actions=tuple(_texts(data, "actions", 'actions like "play 8H" or "draw"')),
            winners=winners,
            totals=totals,
            names=tuple(names),
            lines=_action_lines(text, data["actions"]),
        )

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json(), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """Read a record file (UTF-8, with or without a byte-order mark).

        :raises RecordError: naming the file and what is wrong with it.
        """
        try:
            raw = Path(path).read_bytes()
        except OSError as exc:
            raise RecordError(f"cannot read {str(path)!r}: {exc.strerror or exc}") from None
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = raw[: exc.start].count(b"\n") + 1
            raise RecordError(
                f"{path}: line {line} is not UTF-8 text (byte 0x{raw[exc.start]:02x}); a game record is UTF-8 JSON"
            ) from None
        try:
            return cls.from_json(text)
        except RecordError as exc:
            raise RecordError(f"{path}: {exc}") from None

    def replay(self) -> Game:
        """Play the record's actions through the checked door.

        :raises RecordError: naming the action (its number, and its line of the file when read from one)
            that does not replay, or how the result differs from the record's.
        """
        try:
            game = Game(self.rules, self.players, self.seed, deck=self.deck, dealer=self.dealer)
        except RulesError as exc:
            raise RecordError(f"the record's game cannot start: {exc}") from None
        for index, text in enumerate(self.actions):
            where = f"action {index + 1}"
            if self.lines is not None:
                where += f" (line {self.lines[index]})"
            try:
                game.play(parse_action(text))
            except (ActionError, IllegalAction) as exc:
                raise RecordError(f"{where}, {text!r}, does not replay: {exc}") from None
        if self.winners is not None:
            outcome = game.outcome
            if outcome is None:
                raise RecordError(
                    f"the record's {count_words(len(self.actions), 'action')} "
                    f"{'leaves' if len(self.actions) == 1 else 'leave'} the game unfinished, "
                    f"but the record gives its result ({_result(self.winners, self.totals)})"
                )
            if outcome.winners != self.winners or outcome.totals != self.totals:
                raise RecordError(
                    f"the replay ends with {_result(outcome.winners, outcome.totals)}; "
                    f"the record says {_result(self.winners, self.totals)}"
                )
        return game


_FIELDS = ("format", "rules", "players", "seed", "dealer", "deck", "names", "actions", "result")
_REQUIRED = ("rules", "players", "seed", "dealer", "actions")


def _result(winners: tuple[int, ...], totals: tuple[int, ...] | None) -> str:
    seats = " and ".join(f"seat {seat}" for seat in winners) or "no one"
    points = f", totals {', '.join(str(t) for t in totals)}" if totals is not None else ""
    return f"{seats} winning{points}"


def _whole(data: dict[str, Any], key: str, what: str) -> int:
    value = data[key]
    if type(value) is not int:
        raise RecordError(f"{key}: {_shown(value)} is not a whole number; expected {what}")
    return value


def _wholes(data: dict[str, Any], key: str, what: str) -> list[int]:
    value = data.get(key)
    if not isinstance(value, list) or not all(type(x) is int for x in value):
        raise RecordError(f"{key}: {_shown(value)} is not a list of whole numbers; expected {what}")
    return value


def _texts(data: dict[str, Any], key: str, what: str) -> list[str]:
    value = data.get(key)
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise RecordError(f"{key}: {_shown(value)} is not a list of text; expected {what}")
    return value


_SHORT = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxstring, _SHORT.maxother, _SHORT.maxlong, _SHORT.maxlist = 2, 40, 40, 40, 4


def _shown(value: Any) -> str:
    """A value as a message shows it: short, whatever its size or depth; JSON's words for true, false, null."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    return _SHORT.repr(value)


#: The JSON reader's complaints, in words.
_JSON_PROBLEMS = {
    "Expecting value": "a value is missing",
    "Unterminated string starting at": "a text in quotes is not closed",
    "Expecting ',' delimiter": "a comma is missing",
    "Expecting ':' delimiter": "a colon is missing",
    "Expecting property name enclosed in double quotes": "a field name in double quotes is expected",
    "Extra data": "more follows the end of the record",
    "Invalid control character at": "a text in quotes holds a control character",
}


def _json_problem(exc: json.JSONDecodeError) -> str:
    where = f"line {exc.lineno}, column {exc.colno}"
    if not exc.doc[exc.pos :].strip() and exc.msg != "Extra data":
        return f"the file ends before the record does (at {where}): it may have been cut short"
    return f"{_JSON_PROBLEMS.get(exc.msg, exc.msg)} at {where}"


def _action_lines(text: str, actions: list[str]) -> tuple[int, ...] | None:
    """The line of the file each action stands on, where the text shows it plainly (one JSON string each)."""
    found = re.search(r'"actions"\s*:\s*\[', text)
    if found is None:
        return None
    lines: list[int] = []
    pos = found.end()
    line, counted = text.count("\n", 0, pos) + 1, pos
    decoder = json.JSONDecoder()
    try:
        while len(lines) < len(actions):
            pos = _skip_space(text, pos)
            if text[pos] != '"':
                return None
            value, end = decoder.raw_decode(text, pos)
            if value != actions[len(lines)]:
                return None
            line += text.count("\n", counted, pos)
            counted = pos
            lines.append(line)
            pos = _skip_space(text, end)
            if text[pos] == ",":
                pos += 1
    except (IndexError, ValueError):
        return None
    return tuple(lines)


def _skip_space(text: str, pos: int) -> int:
    while text[pos] in " \t\r\n":
        pos += 1
    return pos
