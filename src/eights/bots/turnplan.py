"""The normal player's turn planner, for two-player hands where the first out wins.

With two players a skip, a reverse or a draw card gives its player another turn
(D26), so one turn can lay several cards, and what matters is where the whole turn
ends. The planner lays out every way the turn can go, on the engine's own
transitions (a world dealt from the seat's view by ``eights.engine.sampling``; the
seat's own cards and the table are exact, and no hidden card is looked at): each
card, each suit named for a wild, playing a drawn card or keeping it. It scores
where each line ends with a player's rules of thumb, weighed as a logistic model of
the chance to win the hand (``WEIGHTS``):

- each card held costs, each card the other holds helps; one or two cards left are
  worth more than their count, the other's last cards cost more;
- the chance that the other holds nothing to follow the top card (counted from the
  cards not yet seen, and the suits they drew on), and whether the seat can follow it
  again itself, with a card other than an 8, and both at once;
- 8s and skip, reverse and draw cards held are worth keeping, an 8 most of all near
  the end; fewer suits and more pairs in hand are better.

The weights were fitted by ``bench/fit_normal.py``, over games of this player against
the random one in 2-player ``action``. First to where turns ended and who won
(``TURN_END_WEIGHTS``): with them the normal player wins 72.7% of 8000 such games
where the rules of thumb alone won 68.4%, and 87.7% of 8000 in 2-player ``classic``
where they won 84.1% of 4000. Then on the choices themselves (``WEIGHTS``): every
legal action played out on common deals, its wins regressed on where its line ends.
That taught it, above all, to name a suit it holds rather than one the other seems
to lack: 73.6% of the 8000 ``action`` games (73.1% against 71.9% on other deals), but
86.9% in ``classic``, whose 8s are its only special cards; so the refined weights play
where a card gives another turn, and the first ones elsewhere (``weights_for``).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import final

from eights.cards import RANKS, SUITS, Suit
from eights.engine import Action, View
from eights.engine.actions import Draw, NameSuit, Pass, Play
from eights.engine.game import Game
from eights.engine.sampling import sample
from eights.engine.tables import KINDS, Effect, Tables, by_identity, tables_for
from eights.rules import RuleSet

#: The features of a turn's end, in the order of ``WEIGHTS``.
FEATURES = (
    "bias",
    "cards",
    "their_cards",
    "they_cannot_follow",
    "can_follow",
    "wilds",
    "free_cards",
    "suits",
    "pairs",
    "one_card",
    "they_hold_one",
    "two_cards",
    "they_hold_two",
    "wilds_near_the_end",
    "they_cannot_follow_near_their_end",
    "one_over_cards",
    "one_over_their_cards",
    "follows_plainly",
    "they_cannot_follow_and_it_follows_plainly",
)
#: The features the fit to turn ends weighs; the rest only the fit to decisions.
TURN_END_FEATURES = FEATURES[: FEATURES.index("follows_plainly")]

#: Log-odds of winning the hand per unit of each feature, as fitted to where turns ended
#: (``bench/fit_normal.py turn-ends``; the last two features are not in that fit). Used
#: where no card gives another turn (``classic``): there the weights refined on ``action``'s
#: decisions won 86.9% of 8000 games against the random player, these 87.7%.
TURN_END_WEIGHTS: tuple[float, ...] = (
    2.336,
    -0.2,
    0.063,
    0.334,
    0.269,
    0.337,
    0.285,
    -0.351,
    0.154,
    1.255,
    -0.138,
    0.272,
    -0.436,
    0.316,
    0.994,
    -1.599,
    -2.173,
    0.0,
    0.0,
)

#: ``TURN_END_WEIGHTS`` refined on the choices themselves (``bench/fit_normal.py decisions``):
#: each legal action's chance to win, played out from common deals, regressed on where its
#: line ends. Used where skip, reverse or draw cards give another turn (``action``).
WEIGHTS: tuple[float, ...] = (
    2.336,
    -0.207,
    -0.052,
    0.082,
    0.072,
    0.381,
    0.127,
    -0.28,
    0.28,
    1.152,
    -0.2,
    0.258,
    -0.337,
    0.145,
    0.935,
    -1.64,
    -2.19,
    0.165,
    0.064,
)

#: The value of a line that goes out: the hand is won.
WON = 50.0
#: Card effects the planner knows how to weigh; rule sets with others keep the plain rules of thumb.
_PLANNED_KINDS = frozenset(("wild", "skip", "reverse", "draw", "chain"))
#: Positions in a compiled effect of the kinds that give another turn with two players (free cards).
_FREE = tuple(KINDS.index(kind) for kind in ("skip", "reverse", "draw", "chain"))
#: How many cards a turn may lay before the planner stops looking further.
_DEPTH = 12
#: Positions the planner examines for one decision at most (``TurnPlanner.best``). Ordinary hands need
#: far fewer: no decision of 300 games of 2-player ``action`` between normal players examined more than
#: 85 (295 with 12-card hands); fifteen-card hands from two packs with stacking reach some 15,000 at
#: worst (``bench/hint.py``); the issue's fifty-card hands took minutes without a bound.
PLAN_NODES = 20_000
#: Positions examined between two looks at the clock, where a budget has a deadline.
CLOCK_EVERY = 64


_PLANNABLE: dict[int, tuple[RuleSet, bool]] = {}
_WEIGHTS: dict[int, tuple[RuleSet, tuple[float, ...]]] = {}


def plannable(rules: RuleSet, players: int) -> bool:
    """Whether the planner plays this game: two players, the first out wins, plain action cards."""
    return players == 2 and by_identity(_PLANNABLE, rules, _plannable_by_two)


def _plannable_by_two(rules: RuleSet) -> bool:
    if rules.points_decide(2):
        return False
    t = tables_for(rules)
    used = {KINDS[i] for effect in t.effect if effect is not None for i, count in enumerate(effect) if count}
    return used <= _PLANNED_KINDS


def weights_for(rules: RuleSet) -> tuple[float, ...]:
    """``WEIGHTS`` where a card gives another turn with two players, else ``TURN_END_WEIGHTS``."""
    return by_identity(_WEIGHTS, rules, _weights)


def _weights(rules: RuleSet) -> tuple[float, ...]:
    t = tables_for(rules)
    return WEIGHTS if any(gives_another_turn(effect) for effect in t.effect) else TURN_END_WEIGHTS


def gives_another_turn(effect: Effect | None) -> bool:
    """Whether a card of this compiled effect gives its player another turn with two players (D26)."""
    return effect is not None and any(effect[i] for i in _FREE)


@final
class Budget:
    """The work one decision may do: ``limit`` positions examined at most (``nodes`` counts them), and,
    where it has a ``deadline`` (a ``time.perf_counter()`` value), no later than that, looked at every
    ``CLOCK_EVERY`` positions. The count is what makes a decision stop at the same place whatever the
    machine's load; the deadline is a guard. One budget is shared by every part of a decision (a search,
    the plans of its play-outs and of its belief's replays); once spent, it stays spent."""

    def __init__(self, limit: int, deadline: float | None = None) -> None:
        self.nodes = 0
        self.limit = limit
        self.deadline = math.inf if deadline is None else deadline
        self._look = CLOCK_EVERY

    def going(self, stop: int) -> bool:
        """Whether the work may go on: fewer than ``stop`` positions examined, and the budget not spent."""
        nodes = self.nodes
        if nodes >= stop or nodes >= self.limit:
            return False
        if nodes >= self._look:
            self._look = nodes + CLOCK_EVERY
            if time.perf_counter() >= self.deadline:
                self.limit = nodes
                return False
        return True

    def over(self) -> bool:
        """Whether the budget is spent: its positions, or its time (looked at now)."""
        if self.nodes < self.limit and time.perf_counter() >= self.deadline:
            self.limit = self.nodes
        return self.nodes >= self.limit


@dataclass(frozen=True, slots=True)
class Plan:
    """The best line of a turn: its actions, and where it ends."""

    actions: tuple[Action, ...]
    value: float
    #: The features where the line ends (None where it goes out).
    ending: tuple[float, ...] | None

    @property
    def win_chance(self) -> float:
        """The model's chance to win the hand after this line."""
        if self.ending is None:
            return 1.0 if self.value > 0 else 0.0
        return 1.0 / (1.0 + math.exp(-max(min(self.value, 30.0), -30.0)))

    def feature(self, name: str) -> float:
        return self.ending[FEATURES.index(name)] if self.ending is not None else 0.0


def planner_for(
    view: View,
    rng: random.Random,
    voids: set[int],
    weights: tuple[float, ...] | None = None,
    budget: Budget | None = None,
) -> TurnPlanner:
    """The planner of the seat of ``view``, in a world dealt from it (``sample(view, rng)``)."""
    assert view.seat is not None
    return TurnPlanner(sample(view, rng), view.seat, voids, weights, budget)


@final
class TurnPlanner:
    """Plans one seat's turn; see the module docstring."""

    def __init__(
        self,
        world: Game,
        seat: int,
        voids: set[int],
        weights: tuple[float, ...] | None = None,
        budget: Budget | None = None,
    ) -> None:
        """``world`` is a game as ``seat`` may know it: its hidden cards dealt at random
        (``eights.engine.sampling``: ``sample`` from a view, or ``seat_world`` in a search's play-out).
        ``budget``: the decision's (a search shares its own), else one of ``PLAN_NODES`` positions."""
        self.me = seat
        self.other = 1 - seat
        self.world = world
        self.t: Tables = world.t
        #: How many of each card id the pack holds.
        self.pack = [0] * len(SUITS)
        for card in world.t.deck(world.players)[0]:
            self.pack[card] += 1
        self.weights = weights if weights is not None else weights_for(world.rules)
        #: Suits the other seat seems not to hold (it drew on them).
        self.voids = voids
        #: The unseen cards, and those that follow: by cards in hand and pile, card to follow, void.
        self._unseen: dict[tuple[int, int, bool], tuple[int, int]] = {}
        self.budget = budget if budget is not None else Budget(PLAN_NODES)
        #: The count of positions (the budget's) at which the line being laid out stops looking further.
        self._stop = 0

    def best(self, legal: Sequence[Action]) -> tuple[Action, Plan]:
        """The legal action that starts the best line, and that line.

        At most ``PLAN_NODES`` positions of the budget are examined (and one more per legal action): each
        action's lines get an even share of what is left when it comes, and a line whose share is spent
        ends where it is, scored as the turn's end (only a pathological hand comes near it).
        """
        budget = self.budget
        end = min(budget.nodes + PLAN_NODES, budget.limit)
        best: tuple[Action, Plan] | None = None
        left = len(legal)
        for action in legal:
            plan = self.line(action, budget.nodes + max(end - budget.nodes, 0) // left)
            left -= 1
            if best is None or plan.value > best[1].value + 1e-9:
                best = (action, plan)
        assert best is not None
        return best

    def line(self, action: Action, stop: int = -1) -> Plan:
        """The best line of the turn that starts with ``action``, found before the budget counts ``stop``
        positions (-1: ``PLAN_NODES`` more)."""
        # The lines share the world's random source: a line's value does not depend on the
        # order of the stock, the only thing it shuffles.
        self._stop = stop if stop >= 0 else self.budget.nodes + PLAN_NODES
        world = self.world
        return self._line(world.clone(rng=world.rng), action, 0)

    def _line(self, game: Game, action: Action, depth: int) -> Plan:
        me = self.me
        budget = self.budget
        budget.nodes += 1
        if type(action) is Draw:
            # What comes is unknown: score the turn's end with one card more and no other change.
            ending = self.features(game, extra=1)
            return Plan((action,), self.value(ending), ending)
        if type(action) is Pass:
            ending = self.features(game)
            return Plan((action,), self.value(ending), ending)
        r0 = game.round_index
        game.apply(action)
        if game.round_index != r0 or game.is_over:
            last = game.last_round
            won = last is not None and me in last.winners
            shared = last is not None and len(last.winners) > 1
            return Plan((action,), 0.0 if shared else (WON if won else -WON), None)
        if game.to_act != me or depth >= _DEPTH or not budget.going(self._stop):
            ending = self.features(game)
            return Plan((action,), self.value(ending), ending)
        best: Plan | None = None
        for follow in game.legal_actions():
            plan = self._line(game.clone(rng=game.rng), follow, depth + 1)
            if best is None or plan.value > best.value:
                best = plan
            if not budget.going(self._stop):
                break  # the budget is spent: the best line found so far
        assert best is not None
        return Plan((action, *best.actions), best.value, best.ending)

    def value(self, ending: tuple[float, ...]) -> float:
        return sum(w * x for w, x in zip(self.weights, ending, strict=True))

    def features(self, game: Game, extra: int = 0) -> tuple[float, ...]:
        """Where a turn ends, from the seat's knowledge: its hand, the table, the other's count."""
        t = self.t
        hand = game.hands[self.me]
        theirs = len(game.hands[self.other])
        suit = game.active_suit
        key = (game.match_rank + 1) * 5 + suit
        match = t.match[key]
        void = suit in self.voids
        # A line of the turn moves cards from the hand to the pile, which leaves the same cards
        # unseen; only a reshuffle, which shrinks the pile, changes them.
        seen = (len(hand) + len(game.discard), key, void)
        counts = self._unseen.get(seen)
        if counts is None:
            unseen = self.pack[:]
            for card in hand:
                unseen[card] -= 1
            for card in game.discard:
                unseen[card] -= 1
            total = follow = 0
            for cid, count in enumerate(unseen):
                if count > 0:
                    total += count
                    if match[cid] and not (void and SUITS[cid] == suit and not t.wild[cid]):
                        follow += count
            counts = self._unseen[seen] = (total, follow)
        total, follow = counts
        # The chance that a hand of their size, dealt from the unseen cards, holds no card that follows.
        stuck = 1.0
        for i in range(theirs):
            if total - i <= 0:
                break
            stuck *= max(total - follow - i, 0) / (total - i)
        wilds = free = 0
        suits: set[int] = set()
        for card in hand:
            if t.wild[card]:
                wilds += 1
                continue
            suits.add(SUITS[card])
            if gives_another_turn(t.effect[card]):
                free += 1
        can_follow = plainly = False
        for c in hand:
            if match[c]:
                can_follow = True
                if not t.wild[c]:
                    plainly = True
                    break
        pairs = len(hand) - len({RANKS[c] for c in hand})
        n = len(hand) + extra
        near_them = theirs <= 2
        return (
            1.0,
            float(n),
            float(theirs),
            stuck,
            float(can_follow),
            float(wilds),
            float(free),
            float(len(suits)),
            float(pairs),
            float(n == 1),
            float(theirs == 1),
            float(n == 2),
            float(theirs == 2),
            float(wilds * (n <= 3)),
            stuck * near_them,
            1.0 / n if n else 1.0,
            1.0 / max(theirs, 1),
            float(plainly),
            stuck * plainly,
        )


def describe(plan: Plan, first: Action) -> str:
    """The line in words, for a hint: ``play Q♠, then 4♠``."""
    words = []
    for action in plan.actions:
        if isinstance(action, Play):
            words.append(" ".join(c.pretty() for c in action.cards))
        elif isinstance(action, NameSuit):
            words.append(f"name {Suit(action.suit).name.lower()}")
        elif isinstance(action, Draw):
            words.append("draw")
        elif isinstance(action, Pass):
            words.append("keep it" if words or isinstance(first, Pass) else "pass")
    head = f"play {words[0]}" if isinstance(first, Play) else words[0]
    return ", then ".join([head, *words[1:]])
