"""The learned player: a policy the repository trains with its own script, from its own environment.

It reads its seat's view (the engine's one redaction, ``eights.engine.view``), turns each legal
action into a few numbers (``ActionFeatures``: the cards of that suit and rank kept, the chance the
next player holds nothing that follows, counted from the cards not yet seen, whether a wild had
another card to play instead...), and plays the action whose weighted sum is highest: a
linear softmax policy, played greedily. Exact ties are broken by the bot's own seeded
``random.Random``, so a seed gives the same moves.

The weights are ``learned.json`` beside this module, written by ``python -m eights.research.train``
(REINFORCE against the normal player, stepping the games in the batched environment,
``eights.research.batch``); the file records the command, the seed and the trained policy's score
against the normal player. Playing needs the standard library only (the bots run in the browser too);
training needs numpy.

A policy exists for the rule sets and player counts the file lists (classic, at two and four
players). Elsewhere (another preset, a house rule, another count) the learned player is the normal
player: it is one (``HeuristicBot``), and plays its moves with its reasons. It does the same for a
decision none of its features reads (one legal action, or an action classic never offers).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any, Final, cast

from eights.bots.base import Hint, legal_moves
from eights.bots.heuristic import HeuristicBot
from eights.cards import CARD_COUNT, RANKS, SUITS, Suit
from eights.engine import Action, View
from eights.engine.actions import Draw, NameSuit, Pass, Play
from eights.engine.events import SuitNamed
from eights.engine.tables import tables_for
from eights.rules import RuleSet, load_preset

#: The weights file's format; a file of another format is refused with a word on retraining.
FORMAT: Final = 1
#: The file of trained weights, in this package.
WEIGHTS_FILE: Final = "learned.json"

#: What each feature of an action is, in the order of a policy's weights, with the words a hint gives
#: when it weighs most in a choice ("the next" player is the one after the seat; "they" that player).
FEATURES: Final[tuple[tuple[str, str], ...]] = (
    ("play", "a card that follows"),
    ("wild", "a wild card"),
    ("draw", "drawing a card"),
    ("goes_out", "you go out"),
    ("one_left", "one card left after it"),
    ("two_left", "two cards left after it"),
    ("suit_left", "you keep cards of its suit"),
    ("rank_left", "you keep cards of its rank"),
    ("changes_suit", "it changes the suit"),
    ("cannot_follow", "the next player likely holds nothing that follows"),
    ("cannot_follow_one", "the next player, on one card, likely cannot follow"),
    ("cannot_follow_two", "the next player, on two cards, likely cannot follow"),
    ("can_follow", "you keep a card that follows it"),
    ("cannot_and_can", "they likely cannot follow and you can"),
    ("their_named_suit", "the next player named this suit"),
    ("empties_suit", "it empties a suit from your hand"),
    ("longest_suit", "your longest suit"),
    ("suits_after", "suits left in your hand"),
    ("pairs_after", "cards of one rank kept together"),
    ("unseen_suit", "cards of this suit not yet seen"),
    ("wild_alternatives", "other cards that play"),
    ("wild_no_alternative", "nothing else plays"),
    ("wild_threat", "a player is close to going out"),
    ("wilds_left", "wilds kept"),
    ("wild_hand", "cards in your hand"),
    ("draw_with_plays", "cards that would play"),
    ("draw_only_wilds", "only a wild would play"),
    ("draw_only_wilds_threat", "only a wild plays and a player is close to going out"),
    ("draw_stock", "cards in the stock"),
    ("draw_cannot_follow", "the next player likely cannot follow the top card"),
    ("suit_mine", "cards of this suit in your hand"),
    ("suit_none", "a suit you hold none of"),
    ("suit_longest", "your longest suit"),
)
FEATURE_NAMES: Final = tuple(name for name, _ in FEATURES)
(
    PLAY_BIAS,
    WILD_BIAS,
    DRAW_BIAS,
    GOES_OUT,
    ONE_LEFT,
    TWO_LEFT,
    SUIT_LEFT,
    RANK_LEFT,
    CHANGES_SUIT,
    CANNOT_FOLLOW,
    CANNOT_FOLLOW_ONE,
    CANNOT_FOLLOW_TWO,
    CAN_FOLLOW,
    CANNOT_AND_CAN,
    THEIR_NAMED_SUIT,
    EMPTIES_SUIT,
    LONGEST_SUIT,
    SUITS_AFTER,
    PAIRS_AFTER,
    UNSEEN_SUIT,
    WILD_ALTERNATIVES,
    WILD_NO_ALTERNATIVE,
    WILD_THREAT,
    WILDS_LEFT,
    WILD_HAND,
    DRAW_WITH_PLAYS,
    DRAW_ONLY_WILDS,
    DRAW_ONLY_WILDS_THREAT,
    DRAW_STOCK,
    DRAW_CANNOT_FOLLOW,
    SUIT_MINE,
    SUIT_NONE,
    SUIT_LONGEST,
) = range(len(FEATURES))

#: The kinds of action the features read; any other (a stacked play, a burial, a choice of seat) is not.
_CARD, _WILD, _DRAW, _PASS, _SUIT, _UNREAD = range(6)


class LearnedError(ValueError):
    """A weights file that cannot be read, or was trained on other features; says how to retrain."""


def threat(count: float) -> float:
    """How close a hand of ``count`` cards is to going out, as a weight (the normal player's scale)."""
    if count <= 1:
        return 3.0
    if count == 2:
        return 1.5
    if count == 3:
        return 0.8
    return 0.4


def chance_none(unseen: float, followers: float, cards: float) -> float:
    """The chance that ``cards`` cards dealt at random from ``unseen`` hold none of ``followers``."""
    chance = 1.0
    for i in range(int(cards)):
        if unseen - i <= 0:
            break
        chance *= max(0.0, unseen - followers - i) / (unseen - i)
    return chance


class ActionFeatures:
    """Reads the features of a seat's legal actions off its view, for ``rules`` at ``players`` seats."""

    def __init__(self, rules: RuleSet, players: int) -> None:
        self.players = players
        t = tables_for(rules)
        self._wild = [bool(t.wild[card]) for card in range(CARD_COUNT)]
        self._pack = [0] * CARD_COUNT
        for card, copies in rules.pack_counts(players).items():
            self._pack[card] = copies

    def kind(self, action: Action) -> int:
        """What kind of action the features read ``action`` as (``_UNREAD`` for one they do not)."""
        if isinstance(action, Play) and not action.stack:
            return _WILD if self._wild[action.card] else _CARD
        if isinstance(action, Draw):
            return _DRAW
        if isinstance(action, Pass):
            return _PASS
        if isinstance(action, NameSuit):
            return _SUIT
        return _UNREAD

    def reads(self, actions: Sequence[Action]) -> bool:
        """Whether the features read every one of these actions."""
        return all(self.kind(action) != _UNREAD for action in actions)

    def rows(self, view: View, actions: Sequence[Action]) -> list[list[float]]:
        """The features of each of ``actions`` for the seat whose view is ``view``."""
        n = self.players
        me = view.seat if view.seat is not None else 0
        wild = self._wild
        hand = [0.0] * CARD_COUNT
        for held_card in view.hand:
            hand[held_card] += 1
        pile = [0.0] * CARD_COUNT
        for laid in view.discard:
            pile[laid] += 1
        held = 0.0
        wilds = 0.0
        by_suit = [0.0] * 4
        by_rank = [0.0] * 15
        unseen_suit = [0.0] * 4
        unseen_rank = [0.0] * 15
        unseen_wilds = 0.0
        unseen = 0.0
        unseen_card = [0.0] * CARD_COUNT
        for card in range(CARD_COUNT):
            count = hand[card]
            left = max(0.0, self._pack[card] - count - pile[card])
            unseen_card[card] = left
            unseen += left
            held += count
            if wild[card]:
                wilds += count
                unseen_wilds += left
            elif SUITS[card] < 4:
                by_suit[SUITS[card]] += count
                by_rank[RANKS[card]] += count
                unseen_suit[SUITS[card]] += left
                unseen_rank[RANKS[card]] += left
        longest = max(by_suit)
        suits = sum(1 for count in by_suit if count)
        pairs = sum(count - 1 for count in by_rank if count > 1)
        following = (me + (1 if view.direction == 1 or n == 2 else n - 1)) % n
        theirs = float(view.hand_counts[following])
        least = float(min(view.hand_counts[(me + i) % n] for i in range(1, n)))
        named = [0.0] * 4
        for event in view.history:
            if isinstance(event, SuitNamed) and event.seat == following:
                named = [0.0] * 4
                named[int(event.suit)] = 1.0
        active = int(view.active_suit) if view.active_suit is not None else 4
        top = view.top
        kinds = [self.kind(action) for action in actions]
        plays = sum(1 for kind in kinds if kind == _CARD)
        wild_plays = sum(1 for kind in kinds if kind == _WILD)
        stock = float(view.stock_count)
        one = float(theirs == 1)
        two = float(theirs == 2)
        rows: list[list[float]] = []
        for action, kind in zip(actions, kinds, strict=True):
            f = [0.0] * len(FEATURES)
            if kind in (_CARD, _WILD):
                f[GOES_OUT] = float(held == 1)
                f[ONE_LEFT] = float(held == 2)
                f[TWO_LEFT] = float(held == 3)
            if kind == _CARD:
                card = cast(Play, action).card
                suit, rank = SUITS[card], RANKS[card]
                left = by_suit[suit] - 1
                same = by_rank[rank] - 1
                cannot = chance_none(
                    unseen, unseen_suit[suit] + unseen_rank[rank] - unseen_card[card] + unseen_wilds, theirs
                )
                can = float(left + same > 0)
                f[PLAY_BIAS] = 1.0
                f[SUIT_LEFT] = left
                f[RANK_LEFT] = same
                f[CHANGES_SUIT] = float(suit != active)
                f[CANNOT_FOLLOW] = cannot
                f[CANNOT_FOLLOW_ONE] = cannot * one
                f[CANNOT_FOLLOW_TWO] = cannot * two
                f[CAN_FOLLOW] = can
                f[CANNOT_AND_CAN] = cannot * can
                f[THEIR_NAMED_SUIT] = named[suit]
                f[EMPTIES_SUIT] = float(left == 0)
                f[LONGEST_SUIT] = float(by_suit[suit] == longest)
                f[SUITS_AFTER] = suits - (left == 0)
                f[PAIRS_AFTER] = pairs - (same >= 1)
                f[UNSEEN_SUIT] = unseen_suit[suit] / 4
            elif kind == _WILD:
                f[WILD_BIAS] = 1.0
                f[WILD_ALTERNATIVES] = plays
                f[WILD_NO_ALTERNATIVE] = float(plays == 0)
                f[WILD_THREAT] = threat(least)
                f[WILDS_LEFT] = wilds - 1
                f[WILD_HAND] = held / 5
            elif kind == _DRAW:
                only_wilds = float(plays == 0 and wild_plays > 0)
                followers = unseen_suit[active] if active < 4 else 0.0
                if not wild[top] and SUITS[top] < 4:
                    followers += unseen_rank[RANKS[top]]
                f[DRAW_BIAS] = 1.0
                f[DRAW_WITH_PLAYS] = plays
                f[DRAW_ONLY_WILDS] = only_wilds
                f[DRAW_ONLY_WILDS_THREAT] = only_wilds * threat(least)
                f[DRAW_STOCK] = stock / 10
                f[DRAW_CANNOT_FOLLOW] = chance_none(unseen, followers + unseen_wilds, theirs)
            elif kind == _SUIT:
                suit = int(cast(NameSuit, action).suit)
                cannot = chance_none(unseen, unseen_suit[suit] + unseen_wilds, theirs)
                can = float(by_suit[suit] > 0)
                f[SUIT_MINE] = by_suit[suit]
                f[SUIT_NONE] = float(by_suit[suit] == 0)
                f[SUIT_LONGEST] = float(by_suit[suit] == longest)
                f[CANNOT_FOLLOW] = cannot
                f[CANNOT_FOLLOW_ONE] = cannot * one
                f[CANNOT_FOLLOW_TWO] = cannot * two
                f[CAN_FOLLOW] = can
                f[CANNOT_AND_CAN] = cannot * can
                f[THEIR_NAMED_SUIT] = named[suit]
                f[UNSEEN_SUIT] = unseen_suit[suit] / 4
            rows.append(f)
        return rows


@dataclass(frozen=True)
class Policy:
    """A linear policy for one rule set at one player count: each action's score is its features' weighted sum."""

    preset: str
    players: int
    weights: tuple[float, ...]
    #: What the weights file says of it: how it was trained and what it scored.
    about: dict[str, Any]

    @functools.cached_property
    def features(self) -> ActionFeatures:
        return ActionFeatures(load_preset(self.preset), self.players)

    def scores(self, view: View, actions: Sequence[Action]) -> list[float]:
        """Each action's score for the seat whose view is ``view``."""
        w = self.weights
        return [sum(wi * fi for wi, fi in zip(w, row, strict=True)) for row in self.features.rows(view, actions)]


@dataclass(frozen=True)
class Policies:
    """The trained policies, by rule set and player count."""

    by_table: dict[tuple[RuleSet, int], Policy]
    #: The weights file's own header: the command that made it, and its seed.
    header: dict[str, Any]

    def get(self, rules: RuleSet, players: int) -> Policy | None:
        return self.by_table.get((rules, players))

    def __deepcopy__(self, memo: dict[int, Any]) -> Policies:
        # Read only: a copy of a bot (the web table thinks on one each decision) shares its policies.
        return self

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Policies:
        """Policies from a weights file's JSON.

        :raises LearnedError: for another format, or weights of features other than ``FEATURES``.
        """
        retrain = "retrain it: python -m eights.research.train (docs/research.md)"
        if data.get("format") != FORMAT:
            raise LearnedError(f"weights file of format {data.get('format')!r}, not {FORMAT}; {retrain}")
        if tuple(data.get("features", ())) != FEATURE_NAMES:
            raise LearnedError(f"the weights file was trained on other features; {retrain}")
        policies: dict[tuple[RuleSet, int], Policy] = {}
        for entry in data["policies"]:
            weights = tuple(float(w) for w in entry["weights"])
            if len(weights) != len(FEATURES):
                raise LearnedError(f"{len(weights)} weights for {len(FEATURES)} features; {retrain}")
            about = {key: value for key, value in entry.items() if key != "weights"}
            policy = Policy(entry["preset"], int(entry["players"]), weights, about)
            policies[(load_preset(policy.preset), policy.players)] = policy
        return cls(policies, {key: value for key, value in data.items() if key != "policies"})


@functools.cache
def trained() -> Policies:
    """The policies of the weights file shipped with the package (read once)."""
    text = resources.files("eights.bots").joinpath(WEIGHTS_FILE).read_text(encoding="utf-8")
    return Policies.from_data(json.loads(text))


class LearnedBot(HeuristicBot):
    """The trained policy where one exists for the table, the normal player elsewhere; see the module docstring."""

    name = "learned"

    def __init__(self, seed: int | None = None, policies: Policies | None = None) -> None:
        super().__init__(seed)
        self.policies = policies if policies is not None else trained()

    def choose(self, view: View) -> Action:
        return self.learned(view)[0]

    def hint(self, view: View) -> Hint:
        action, reason = self.learned(view)
        return Hint(action, reason)

    def learned(self, view: View) -> tuple[Action, str]:
        """The action to take and the reason, in words: the policy's best-scored action where it reads
        the decision, else the normal player's."""
        legal = legal_moves(view)
        policy = self.policies.get(view.rules, view.players)
        if policy is None or len(legal) == 1 or not policy.features.reads(legal):
            return self.decide(view)
        scores = policy.scores(view, legal)
        top = max(scores)
        best = [i for i, score in enumerate(scores) if score == top]
        pick = best[self.rng.randrange(len(best))] if len(best) > 1 else best[0]
        runner = max((i for i in range(len(scores)) if i != pick), key=lambda i: scores[i])
        return legal[pick], _reason(policy, view, legal[pick], legal[runner])


def _reason(policy: Policy, view: View, chosen: Action, runner: Action) -> str:
    """The action in words, and the feature that weighs most in its lead over the next best action."""
    mine, theirs = policy.features.rows(view, [chosen, runner])
    lead = [w * (a - b) for w, a, b in zip(policy.weights, mine, theirs, strict=True)]
    most = max(range(len(lead)), key=lambda i: lead[i])
    return f"{_words(chosen)}: the trained policy's choice ({FEATURES[most][1]})"


def _words(action: Action) -> str:
    if isinstance(action, NameSuit):
        return f"name {Suit(action.suit).name.lower()}"
    return str(action)


__all__ = [
    "FEATURES",
    "FEATURE_NAMES",
    "ActionFeatures",
    "LearnedBot",
    "LearnedError",
    "Policies",
    "Policy",
    "trained",
]
