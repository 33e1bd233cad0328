"""Scripted deals for rule tests (exact hands, starter and stock, no shuffling; a shuffle after the deal stacked
with ``rig``), the moves they make (checked actions, a whole game played out), and what they read of a game: its
cards, a snapshot of everything a refused action must leave untouched, its events, its legal actions."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from eights.cards import Card, parse_cards
from eights.engine import Game, Play
from eights.engine.events import Event
from eights.engine.scripted import deck_for
from eights.rules import RulesError, RuleSet, load_preset


def scripted(
    rules: str | RuleSet,
    hands: Sequence[str],
    starter: str,
    stock: str = "",
    *,
    dealer: int = 0,
    options: Sequence[str] = (),
    **fields: Any,
) -> Game:
    """A game whose first round deals ``hands`` (seat 0 first), turns ``starter``
    (several cards when the first are buried or turned over) and leaves ``stock``
    (top first). The deal size is set to the hands' size; ``fields`` override rules.
    """
    base = load_preset(rules) if isinstance(rules, str) else rules
    if options:
        base = base.with_options(list(options))
    size = len(hands[0].split())
    changes: dict[str, Any] = {"deal": size, "deal_two_players": 0, "deal_extra_packs": 0}
    if base.schedule and "rounds" not in fields:
        changes.update(rounds=[size], short_rounds=False)
    changes.update(fields)
    game_rules = base.replace(**changes)
    return Game(game_rules, len(hands), seed=0, deck=deck_for(dealer, hands, starter, stock), dealer=dealer)


class StackedShuffle(random.Random):
    """A random source whose shuffle leaves ``first`` on top (popped first, in that order), the rest
    beneath from the lowest card id up. With several packs, each card listed is one copy."""

    def __init__(self, first: str) -> None:
        super().__init__(0)
        self.first = cards(first)

    def shuffle(self, x: list) -> None:  # type: ignore[override]
        rest = Counter(x)
        top = []
        for card in self.first:
            if rest[card]:
                rest[card] -= 1
                top.append(card)
        x[:] = sorted(rest.elements(), reverse=True) + top[::-1]


def rig(game: Game, first: str) -> None:
    """From now on every shuffle of ``game`` puts ``first`` on top of the pile it makes: where a shuffle
    matters (a deal after the deal, a reshuffle), the test reads like a stacked deck at a real table."""
    game.rng = StackedShuffle(first)


def act(game: Game, seat: int, *actions: str) -> list[Event]:
    """Checked actions by ``seat`` (which must be the seat to act); the events they caused."""
    events: list[Event] = []
    for action in actions:
        events += game.play(action, seat=seat)
    return events


def play_out(game: Game) -> None:
    """Finish the game with a fixed policy: always the first legal action."""
    while not game.is_over:
        game.apply(game.legal_actions()[0])


def cards(text: str) -> list[Card]:
    """The cards a text names (``"8C QH"``)."""
    return parse_cards(text)


def snapshot(game: Game) -> tuple[object, ...]:
    """Everything a refused action must leave untouched."""
    return (
        tuple(tuple(hand) for hand in game.hands),
        tuple(game.stock),
        tuple(game.discard),
        game.turn,
        game.to_act,
        game.direction,
        game.phase_name,
        game.chain,
        game.active_suit,
        game.cancel,
        game.hoarder,
        game.armed,
        game.run_len,
        tuple(game.queue),
        tuple(game.jack_queue),
        tuple(game.totals),
        len(game.log),
        tuple(game.legal_actions()),
    )


def events_of(game: Game, kind: type) -> list[Any]:
    """The game's events of one kind, in order."""
    return [e for e in game.log if isinstance(e, kind)]


def of(events: list[Event], kind: type) -> list[Any]:
    """The events of one kind among ``events``, in order."""
    return [e for e in events if isinstance(e, kind)]


def since(game: Game, mark: int) -> list[Event]:
    """The game's events from the ``mark``-th on."""
    return list(game.log[mark:])


def legal(game: Game) -> set[Any]:
    """The actions legal now."""
    return set(game.legal_actions())


def plays(text: str) -> set[Play]:
    """The plays of the cards a text names, one card each."""
    return {Play(c) for c in cards(text)}


def pack_size(game: Game) -> int:
    """The cards in play: every hand, the stock and the discard pile."""
    return sum(map(len, game.hands)) + len(game.stock) + len(game.discard)


def fitting_players(rules: RuleSet, most: int = 16) -> list[int]:
    """Every player count from 2 to ``most`` that these rules seat."""
    fit = []
    for n in range(2, most + 1):
        try:
            rules.check_players(n)
        except RulesError:
            continue
        fit.append(n)
    return fit
