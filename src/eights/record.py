"""Game records: a finished game as JSON (rules, seed or pack order, actions) and its replay."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from eights.cards import Card, CardError, parse_cards
from eights.engine import ActionError, Game, IllegalAction, parse_action
from eights.rules import RulesError, RuleSet

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
        data: dict[str, Any] = {
            "format": FORMAT,
            "rules": self.rules.to_dict(),
            "players": self.players,
            "seed": self.seed,
            "dealer": self.dealer,
            "deck": [str(c) for c in self.deck] if self.deck is not None else None,
            "names": list(self.names),
            "actions": list(self.actions),
            "result": {"winners": list(self.winners), "totals": list(self.totals)}
            if self.winners is not None
            else None,
        }
        return json.dumps(data, indent=1, ensure_ascii=False) + "\n"

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        """:raises RecordError: naming what is missing or malformed."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not a JSON game record: {exc}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(f'not a game record: expected "format": "{FORMAT}"')
        try:
            rules = RuleSet.from_dict(data["rules"])
            result = data.get("result")
            deck = data.get("deck")
            return cls(
                rules=rules,
                players=int(data["players"]),
                seed=int(data["seed"]),
                dealer=int(data["dealer"]),
                deck=tuple(parse_cards(deck)) if deck is not None else None,
                actions=tuple(str(a) for a in data["actions"]),
                winners=tuple(result["winners"]) if result else None,
                totals=tuple(result["totals"]) if result else None,
                names=tuple(data.get("names", ())),
            )
        except KeyError as exc:
            raise RecordError(f"game record lacks the field {exc.args[0]!r}") from None
        except (RulesError, CardError, TypeError, ValueError) as exc:
            raise RecordError(f"game record is malformed: {exc}") from None

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json(), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"cannot read {str(path)!r}: {exc.strerror}") from None
        return cls.from_json(text)

    def replay(self) -> Game:
        """Play the record's actions through the checked door.

        :raises RecordError: when an action is illegal or the result differs from the record's.
        """
        try:
            game = Game(self.rules, self.players, self.seed, deck=self.deck, dealer=self.dealer)
        except RulesError as exc:
            raise RecordError(f"record cannot start: {exc}") from None
        for index, text in enumerate(self.actions):
            try:
                game.play(parse_action(text))
            except (ActionError, IllegalAction) as exc:
                raise RecordError(f"action {index + 1} ({text!r}) does not replay: {exc}") from None
        if self.winners is not None:
            outcome = game.outcome
            if outcome is None or outcome.winners != self.winners or outcome.totals != self.totals:
                got = (outcome.winners, outcome.totals) if outcome else "an unfinished game"
                raise RecordError(f"replay ended with {got}, the record says {(self.winners, self.totals)}")
        return game
