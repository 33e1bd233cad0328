"""What a phone needs to score a sheet by itself, generated from the rules (issue 30).

The web score sheet keeps working with no network: the page scores rounds on the phone from this data
and the server rescores them with ``Sheet`` (the only authority) when it can reach it again. Nothing
here is a second table: every figure is read from the rule set, the engine's match functions'
inputs (``eights.rules.scoring.round_points``, ``match_over``, ``match_winners``) and a ``Setup`` made for
each player count, so the phone's scoring follows the rules as they change.
"""

from __future__ import annotations

from typing import Any

from eights.rules import RulesError, RuleSet
from eights.scorecard.setup import MAX_PLAYERS, MAX_ROUNDS, MIN_PLAYERS, Setup
from eights.scorecard.sheet import Sheet

#: The version of the layout below; the page refuses data of another version.
SCORING_FORMAT = 1


def pack_list(setup: Setup) -> list[dict[str, Any]]:
    """The cards of the table's pack in the picker's order (suit by suit, jokers last), each with its
    suit, its copies and its value in the rule set's table."""
    order = sorted(setup.pack, key=lambda card: (card.is_joker, card.suit or 0, card.rank, int(card)))
    return [
        {
            "card": str(card),
            "suit": None if card.suit is None else str(card.suit),
            "copies": setup.pack[card],
            "value": setup.values[card],
        }
        for card in order
    ]


def table_data(rules: RuleSet, players: int) -> dict[str, Any]:
    """The scoring of ``players`` at these rules: the pack with each card's value and copies, the hand
    sizes, the target, the planned rounds, the scoring in words, and the bounds a round is checked on.

    :raises RulesError: when that many players cannot play these rules.
    """
    rules.check_players(players)
    sheet = Sheet.new(rules, [f"P{seat}" for seat in range(1, players + 1)], "P1")
    setup = sheet.setup
    return {
        "players": players,
        "pack": pack_list(setup),
        "hand_sizes": list(rules.schedule) or [rules.hand_size(players, 0)],
        "target": rules.match_target(players),
        "planned": list(setup.schedule),
        "shown_target": setup.target,
        "scoring_words": sheet.describe_scoring(),
        "most_points": setup.most_points,
        "cards_in_hands": setup.cards_in_hands,
    }


def scoring_data(rules: RuleSet) -> dict[str, Any]:
    """Everything the page's scoring reads, for every player count these rules seat on a sheet.

    ``scoring`` is ``own_hand`` (everyone but the player out adds their own hand) or ``winner_collects``
    (the player out scores the others' hands; a blocked round's single winner the differences);
    ``blocked`` says who wins a blocked round; ``lowest_wins`` which total wins; ``schedule`` and
    ``hands`` end the match after so many rounds, ``target`` (per player count) when a total reaches it;
    ``most_rounds`` is the most a sheet holds (``MAX_ROUNDS``).

    :raises SheetError: for rules that plan more rounds than a sheet holds.
    """
    tables = {}
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        try:
            tables[str(players)] = table_data(rules, players)
        except RulesError:
            continue
    return {
        "format": SCORING_FORMAT,
        "preset": rules.name,
        "title": rules.title,
        "options": rules.changes()[1],
        "keeps_points": rules.score_keeping,
        "scoring": rules.scoring,
        "blocked": "fewest_cards" if rules.blocked_fewest_cards else "lowest_hand",
        "lowest_wins": rules.lowest_wins,
        "teams": bool(rules.teams),
        "schedule": len(rules.schedule),
        "hands": rules.hands,
        "most_rounds": MAX_ROUNDS,
        "tables": tables,
    }


__all__ = ["SCORING_FORMAT", "pack_list", "scoring_data", "table_data"]
