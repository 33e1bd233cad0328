"""A rule set compiled into flat tables indexed by card id, for the engine's hot path."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Final, TypeVar

from eights.cards import ALL_CARDS, JOKER_RANK, NO_SUIT, RANKS, SUITS, Card, parse_rank
from eights.rules import RuleSet
from eights.rules.ruleset import card_pattern_matches

# Draw policies as small ints.
ONE_MAY_PLAY: Final = 0
ONE_ENDS_TURN: Final = 1
UNTIL_PLAYABLE: Final = 2
UP_TO_N: Final = 3
_POLICY = {
    "one_may_play": ONE_MAY_PLAY,
    "one_ends_turn": ONE_ENDS_TURN,
    "until_playable": UNTIL_PLAYABLE,
    "up_to_n": UP_TO_N,
}

#: ``match_rank`` after a wild: no card's rank equals it (D3).
NAMED: Final = -1
#: ``match_rank`` for "exactly this rank" (a 6 or 9 played on a 3) is ``EXACT + rank``.
EXACT: Final = 16

#: A card's compiled effect, one count per kind, in this order:
#: wild, skip, reverse, draw, chain, follow, penalty, choose_draw, swap, extra, jack_drop, ally, suicide, cancel.
Effect = tuple[int, int, int, int, int, int, int, int, int, int, int, int, int, int]
KINDS = (
    "wild",
    "skip",
    "reverse",
    "draw",
    "chain",
    "follow",
    "penalty",
    "choose_draw",
    "swap",
    "extra",
    "jack_drop",
    "ally",
    "suicide",
    "cancel",
)


class Tables:
    """Everything the engine looks up per card, built once per rule set."""

    __slots__ = (
        "bury",
        "chain",
        "chain_survives_out",
        "decks",
        "draw_at_will",
        "draw_limit",
        "effect",
        "exempt",
        "fewest_cards",
        "follow_blocks_out",
        "four_in_a_row",
        "guarantee_joker",
        "has_exempt",
        "jack",
        "match",
        "max_actions",
        "policy",
        "rank_class",
        "reshuffle",
        "rules",
        "stacking",
        "starter_effect",
        "starter_reverse_dealer_first",
        "teams",
        "turn_over",
        "two_player_extra_turn",
        "values",
        "wild",
    )

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        classes = {rank: rank for rank in range(JOKER_RANK + 1)}
        if rules.same_number:
            first = parse_rank(rules.same_number[0])
            for text in rules.same_number:
                classes[parse_rank(text)] = first
        self.rank_class: tuple[int, ...] = tuple(classes[RANKS[c]] for c in range(54))
        self.jack = bytes(1 if RANKS[c] == 11 else 0 for c in range(54))
        self.four_in_a_row = rules.four_in_a_row
        self.guarantee_joker = rules.guarantee_joker
        self.teams = rules.teams
        self.fewest_cards = rules.blocked_fewest_cards
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
        self.has_exempt = any(self.exempt)
        self.bury = _mask(rules.starter_bury)
        self.turn_over = _mask(rules.starter_turn_over)
        self.values: tuple[int, ...] = rules.value_table()
        # match[(match_rank + 1) * 5 + active_suit][card] is 1 when the card plays. A match_rank
        # below EXACT is a rank class (6 and 9 together where they count as one number).
        match: list[bytes] = []
        for match_rank in range(NAMED, EXACT + JOKER_RANK + 1):
            for suit in range(NO_SUIT + 1):
                match.append(
                    bytes(
                        1
                        if self.wild[c]
                        or SUITS[c] == suit != NO_SUIT
                        or self.rank_class[c] == match_rank
                        or RANKS[c] == match_rank - EXACT
                        else 0
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
        self.decks: dict[int, tuple[tuple[Card, ...], bool, int]] = {}

    def __reduce__(self) -> tuple[Callable[[RuleSet], Tables], tuple[RuleSet]]:
        # Derived from the rule set alone: a copy (pickle, deepcopy) is the cached compilation of
        # an equal rule set, not a second set of tables.
        return (tables_for, (self.rules,))

    def pack(self, players: int) -> list[Card]:
        """The full pack, in a fixed order, before shuffling."""
        return list(self.deck(players)[0])

    def deck(self, players: int) -> tuple[tuple[Card, ...], bool, int]:
        """The full pack for ``players`` (in a fixed order), whether it holds equal cards, and how
        many packs it is; worked out once per player count.

        :raises RulesError: when that many players cannot sit at these rules.
        """
        found = self.decks.get(players)
        if found is None:
            packs = self.rules.packs_for(players)
            ids = self.rules.pack(players)
            found = (tuple(ALL_CARDS[c] for c in ids), len(set(ids)) != len(ids), packs)
            self.decks[players] = found
        return found


def _compile(effects: tuple[str, ...]) -> Effect:
    counts = dict.fromkeys(KINDS, 0)
    for effect in effects:
        kind, _, count = effect.partition(":")
        counts[kind] += int(count) if count else 1
    c = counts
    return (
        min(c["wild"], 1),
        c["skip"],
        c["reverse"],
        c["draw"],
        c["chain"],
        min(c["follow"], 1),
        c["penalty"],
        c["choose_draw"],
        min(c["swap"], 1),
        min(c["extra"], 1),
        min(c["jack_drop"], 1),
        min(c["ally"], 1),
        min(c["suicide"], 1),
        min(c["cancel"], 1),
    )


def _mask(patterns: tuple[str, ...]) -> bytes:
    return bytes(1 if any(card_pattern_matches(p, c) for p in patterns) else 0 for c in range(54))


_T = TypeVar("_T")


def by_identity(cache: dict[int, tuple[RuleSet, _T]], rules: RuleSet, make: Callable[[RuleSet], _T]) -> _T:
    """``make(rules)``, kept in ``cache`` by the rule set's identity (each entry keeps its rule set
    alive, so that no other takes its id): found without hashing the rule set, a frozen value of
    many fields, which the engine and the bots ask about at every step. At most 64 entries."""
    found = cache.get(id(rules))
    if found is not None and found[0] is rules:
        return found[1]
    if len(cache) >= 64:
        cache.clear()
    value = make(rules)
    cache[id(rules)] = (rules, value)
    return value


_RECENT: dict[int, tuple[RuleSet, Tables]] = {}


def tables_for(rules: RuleSet) -> Tables:
    """The compiled tables of a rule set (cached: rule sets are frozen values)."""
    return by_identity(_RECENT, rules, _tables_for)


@lru_cache(maxsize=64)
def _tables_for(rules: RuleSet) -> Tables:
    """One set of tables for equal rule sets, however many copies of them there are."""
    return Tables(rules)
