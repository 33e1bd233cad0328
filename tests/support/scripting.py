"""Scripted deals for rule tests (exact hands, starter and stock, no shuffling) and what the rule tests
read of a game: its cards, a snapshot of everything a refused action must leave untouched, its events."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eights.cards import Card, parse_cards
from eights.engine import Game
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
