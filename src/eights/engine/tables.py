"""A rule set compiled into flat tables indexed by card id, for the engine's hot path."""

from __future__ import annotations

from functools import lru_cache

from eights.cards import ALL_CARDS, JOKER_RANK, NO_SUIT, RANKS, SUITS, Card, parse_rank
from eights.rules import RuleSet
from eights.rules.ruleset import card_pattern_matches

# Draw policies as small ints.
ONE_MAY_PLAY, ONE_ENDS_TURN, UNTIL_PLAYABLE, UP_TO_N = range(4)
_POLICY = {
    "one_may_play": ONE_MAY_PLAY,
    "one_ends_turn": ONE_ENDS_TURN,
    "until_playable": UNTIL_PLAYABLE,
    "up_to_n": UP_TO_N,
}

#: ``match_rank`` after a wild: no card's rank equals it (D3).
NAMED = -1

# A card's compiled effect: (wild, skips, reverses, draw, chain, follow).
Effect = tuple[int, int, int, int, int, int]


class Tables:
    """Everything the engine looks up per card, built once per rule set."""

    __slots__ = (
        "bury",
        "chain",
        "chain_survives_out",
        "draw_at_will",
        "draw_limit",
        "effect",
        "exempt",
        "follow_blocks_out",
        "match",
        "max_actions",
        "policy",
        "reshuffle",
        "rules",
        "stacking",
        "starter_effect",
        "starter_reverse_dealer_first",
        "turn_over",
        "two_player_extra_turn",
        "values",
        "wild",
    )

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        table = rules.effect_table()
        effect: list[Effect | None] = [None] * 54
        starter: list[Effect | None] = [None] * 54
        kinds = set(rules.starter_effects)
        for cid, effects in table.items():
            effect[cid] = _compile(effects)
            starter_only = tuple(e for e in effects if e.partition(":")[0] in kinds)
            starter[cid] = _compile(starter_only) if starter_only else None
        self.effect: tuple[Effect | None, ...] = tuple(effect)
        self.starter_effect: tuple[Effect | None, ...] = tuple(starter)
        self.wild = bytes(1 if e is not None and e[0] else 0 for e in effect)
        self.chain = bytes(1 if e is not None and e[4] else 0 for e in effect)
        self.exempt = _mask(rules.forced_play_exempt)
        self.bury = _mask(rules.starter_bury)
        self.turn_over = _mask(rules.starter_turn_over)
        self.values: tuple[int, ...] = rules.value_table()
        # match[(match_rank + 1) * 5 + active_suit][card] is 1 when the card plays.
        match: list[bytes] = []
        for match_rank in range(NAMED, JOKER_RANK + 1):
            for suit in range(NO_SUIT + 1):
                match.append(
                    bytes(
                        1 if self.wild[c] or SUITS[c] == suit != NO_SUIT or RANKS[c] == match_rank else 0
                        for c in range(54)
                    )
                )
        self.match: tuple[bytes, ...] = tuple(match)
        self.policy = _POLICY[rules.draw]
        self.draw_at_will = rules.draw_at_will
        self.draw_limit = rules.draw_limit
        self.reshuffle = rules.reshuffle
        self.stacking = rules.stacking
        self.two_player_extra_turn = rules.two_player_extra_turn
        self.chain_survives_out = rules.chain_survives_out
        self.follow_blocks_out = rules.follow_blocks_out
        self.starter_reverse_dealer_first = rules.starter_reverse_dealer_first
        self.max_actions = rules.max_actions

    def pack(self, packs: int) -> list[Card]:
        """The full pack, in a fixed order, before shuffling."""
        return list(ALL_CARDS[:52]) * packs + list(ALL_CARDS[52 : 52 + self.rules.jokers])


def _compile(effects: tuple[str, ...]) -> Effect:
    wild = skip = rev = draw = chain = follow = 0
    for effect in effects:
        kind, _, count = effect.partition(":")
        if kind == "wild":
            wild = 1
        elif kind == "skip":
            skip += 1
        elif kind == "reverse":
            rev += 1
        elif kind == "draw":
            draw += int(count)
        elif kind == "chain":
            chain += int(count)
        elif kind == "follow":
            follow = 1
    return (wild, skip, rev, draw, chain, follow)


def _mask(patterns: tuple[str, ...]) -> bytes:
    return bytes(1 if any(card_pattern_matches(p, c) for p in patterns) else 0 for c in range(54))


@lru_cache(maxsize=64)
def tables_for(rules: RuleSet) -> Tables:
    """The compiled tables of a rule set (cached: rule sets are frozen values)."""
    return Tables(rules)


__all__ = ["NAMED", "Tables", "parse_rank", "tables_for"]
