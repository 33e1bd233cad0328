"""Scripted deals for rule tests: exact hands, starter and stock, no shuffling."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eights.engine import Game
from eights.engine.scripted import deck_for
from eights.rules import RuleSet, load_preset


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
