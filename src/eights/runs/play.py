"""Computer players play a game to its end: the one loop behind the tournaments, the lab, the batch
simulator's checked games and ``eights watch``.

Each decision goes through the checked door (``Game.play``) with the seat's own view, as a person's would;
what each one was is given to the caller, who measures or narrates it."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from eights.bots import Bot
from eights.engine import Event, Game, View, view


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of a game played out: who made it, what they saw, what followed."""

    seat: int
    seen: View
    events: list[Event]


def decisions(game: Game, bots: Sequence[Bot]) -> Iterator[Decision]:
    """Play ``game`` to its end, ``bots[seat]`` choosing for each seat from its view; each decision as it
    is made."""
    while not game.is_over:
        seat = game.to_act
        seen = view(game, seat)
        yield Decision(seat, seen, game.play(bots[seat].choose(seen), seat))


def play_out(game: Game, bots: Sequence[Bot]) -> None:
    """Play ``game`` to its end, ``bots[seat]`` choosing for each seat."""
    for _ in decisions(game, bots):
        pass
