"""The hard and expert players: information-set Monte Carlo tree search (IS-MCTS).

The design follows OpenSpiel's ``python/algorithms/ismcts.py`` (Cowling, Powley and
Whitehouse 2012): the bot never sees the game, only its seat's ``View``. Each
iteration

1. deals a world consistent with the view (``Worlds``, a resampler built on
   ``eights.engine.sampling.sample``: the seat's own hand, the table and every
   card it knows the place of are exact; the unseen cards are dealt at random,
   but for what the others' forced draws showed they lacked, and a card of the
   suit a player has just named, as a player would read it). In two-player hands
   where the first out wins, the worlds come instead from a belief that reads every
   move of the other player as the normal player's (``eights.bots.belief``);
2. walks one tree shared by every world, keyed by the actions taken from the root
   and the seat to act after each (so out-of-turn choices, jack drops and burying,
   sit in the tree like any other); at each node it picks, among the actions legal
   in this world, an untried one, else the best by UCT with availability counts
   (``mean + c * sqrt(ln(times available) / visits)``);
3. rolls the world out to the end of the round with a cheap policy (a random
   card when one plays, else the other action; a wild names a suit of the hand),
   with an optional depth cut evaluated from the hand sizes;
4. backs up one reward per seat: the share of the round won, or where the match
   is scored over several rounds the round's points against the others'.

The decision is a paired test. Half the budget grows the tree; then the actions it
visited most (``DUEL_RIVALS``) are played against the normal player's move on the
same fresh deals, each deal played out once after each action with the same random
choices afterwards (common random numbers), so the luck of the deal cancels out of
each difference; where the belief reads the other player, the normal player also
plays the rest of the seat's turn and the other's next turn in these play-outs, as
the belief expects the other to play. The best rival replaces the normal player's
move only where its mean gain exceeds ``trust`` standard errors of those paired
differences; otherwise the normal player's move stands. These games are mostly luck,
and a few thousand deals compared unpaired cannot tell apart moves whose chances
differ by a point or two
(against the normal player with its turn-end weights in 2-player action: the tree's
means compared unpaired won 57.5% of 200 games at 2000 simulations, the paired test
59.5% of 400 at 3000, on the deals of seed 7). Budgets: a time limit per decision
(``seconds``), a count of simulations, tree iterations and paired play-outs together
(``iterations``), or both (whichever ends first); and always a count of positions
(``nodes``: every engine step of the walks, play-outs and the belief's replays, and every
position the normal player's plans examine in them, ``eights.bots.turnplan.Budget``), by
default far more than those budgets take on ordinary hands, which stops a decision on a
pathological hand at the same place on every machine. A decision with one legal action returns at once. All
randomness comes from the bot's own ``random.Random(seed)``.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter

from eights.bots.base import Hint, legal_moves
from eights.bots.belief import Belief, Dealer
from eights.bots.heuristic import HeuristicBot
from eights.bots.playout import TOTAL, VISITS, Edge, Reward, grow
from eights.bots.playout import duel as play_duel
from eights.bots.turnplan import Budget, plannable
from eights.cards import SUITS, Card
from eights.engine import Action, View
from eights.engine.events import (
    CardPlayed,
    CardsDrawn,
    CardsSwapped,
    JackDropped,
    RoundStarted,
    SuicideKing,
    SuitNamed,
)
from eights.engine.game import Game, shuffle
from eights.engine.sampling import draw_constraints, known_cards, sample
from eights.engine.tables import tables_for

#: Default time per decision, in seconds.
HARD_SECONDS = 0.2
EXPERT_SECONDS = 1.0
#: The UCT exploration constant (rewards are in [0, 1]).
UCT_C = 0.7
#: Where points decide the match, the share of a round's reward that comes from its points (the rest
#: from going out first): points are what the match counts.
POINTS_WEIGHT = 1.0
#: How many standard errors the search must find before it overrides the normal player's choice.
TRUST = 1.0
#: How many of the search's most visited actions are tested against the normal player's move.
DUEL_RIVALS = 2
#: The fewest common deals on which a paired test may override the normal player.
MIN_DEALS = 10
#: Positions one decision examines at most by default (its tree, its paired test and the belief's update
#: together): so many per simulation of an ``iterations`` budget, and per second of a ``seconds`` budget,
#: whichever is less. Ordinary hands take far fewer: at most 122 a simulation (``expert@100`` on every
#: preset) and 280,000 a second on a 2-core machine of 2026.
NODES_PER_ITERATION = 2_000
NODES_PER_SECOND = 5_000_000


class Worlds:
    """Deals worlds consistent with one view: a resampler for ``sample(view, rng)``.

    ``sample`` builds one full game from the view; the cards it dealt at random
    (the other hands' unknown cards and the stock) are then dealt again, in a new
    random order, for every world. That is the same distribution as calling
    ``sample`` each time, at a fraction of the cost.
    """

    __slots__ = ("constraints", "fixed", "hidden", "rng", "sizes", "template")

    def __init__(self, view: View, rng: random.Random, infer: bool = True) -> None:
        template = sample(view, rng)
        me = view.seat
        known = known_cards(view)
        fixed: list[list[Card]] = []
        sizes: list[int] = []
        hidden: list[Card] = []
        for seat, hand in enumerate(template.hands):
            if seat == me:
                fixed.append(list(hand))
                sizes.append(0)
                continue
            want = Counter(known.get(seat, ()))
            keep: list[Card] = []
            for card in hand:
                if want[card] > 0:
                    want[card] -= 1
                    keep.append(card)
                else:
                    hidden.append(card)
            fixed.append(keep)
            sizes.append(len(hand) - len(keep))
        hidden.extend(template.stock)
        sizes_left = sizes[:]
        #: (seat, mask of the cards ruled out, how many of its cards): one card of the suit a seat
        #: just named; then cards that cannot be among those playable at its forced draws, the
        #: oldest first (ruled out by the most draws).
        constraints = []
        for seat, suit in (named_suits(view) if infer else {}).items():
            if sizes[seat]:
                constraints.append((seat, bytes(SUITS[c] != suit for c in range(len(SUITS))), 1))
                sizes_left[seat] -= 1
        for seat, layers in (draw_constraints(view) if infer else {}).items():
            room = sizes_left[seat]
            for mask, need in layers:
                if room > 0:
                    constraints.append((seat, mask, min(need, room)))
                    room -= need
        # The tightest first, so that a greedy deal rarely runs short of allowed cards.
        constraints.sort(key=lambda x: sum(1 for c in hidden if not x[1][c]) - x[2])
        self.constraints = constraints
        self.template = template
        self.fixed = fixed
        self.sizes = sizes
        self.hidden = hidden
        self.rng = rng

    def deal(self) -> Game:
        """A new world: the template game with the hidden cards dealt anew."""
        t = self.template
        g = t.shallow_copy()
        cards = self.hidden[:]
        shuffle(self.rng, cards)
        fixed = self.fixed
        if self.constraints:
            fixed = fixed[:]
            for seat, mask, need in self.constraints:
                picked: list[Card] = []
                rest: list[Card] = []
                for c in cards:
                    if len(picked) < need and not mask[c]:
                        picked.append(c)
                    else:
                        rest.append(c)
                fixed[seat] = fixed[seat] + picked
                cards = rest
        hands = []
        at = 0
        for keep, base, size in zip(fixed, self.fixed, self.sizes, strict=True):
            size -= len(keep) - len(base)  # the cards a constraint already picked
            hands.append(keep + cards[at : at + size])
            at += size
        g.hands = hands
        g.stock = cards[at:]
        g.discard = t.discard[:]
        g.totals = t.totals[:]
        g.queue = t.queue[:]
        g.jack_queue = t.jack_queue[:]
        g.rng = self.rng
        return g


class ISMCTSBot:
    """Information-set MCTS over sampled worlds; see the module docstring."""

    def __init__(
        self,
        seed: int | None = None,
        *,
        seconds: float | None = HARD_SECONDS,
        iterations: int | None = None,
        c: float = UCT_C,
        depth: int | None = None,
        points_weight: float = POINTS_WEIGHT,
        infer: bool = True,
        trust: float | None = TRUST,
        model: bool = True,
        name: str = "hard",
        nodes: int | None = None,
    ) -> None:
        """``seconds`` and ``iterations`` bound each decision (None: no bound of that kind; at
        least one is needed). ``depth`` cuts rollouts after that many actions and scores the
        hands instead. ``points_weight`` is the share of a round's reward that comes from
        its points, where the match is scored over several rounds. ``infer`` deals the others'
        hands knowing what their forced draws showed (``draw_constraints``) and, as players
        do, reading a suit just named as one its namer holds (``named_suits``). ``trust`` keeps
        the normal player's choice unless a rival beat it on common deals by that many standard
        errors of the paired differences (None: no test, take the action searched most on the
        whole budget). ``model``, in two-player hands where the first out wins, reads the other
        player's moves as the normal player's (``eights.bots.belief``) and lets the normal player
        play the rest of the seat's turn and the other's next turn in the paired test. ``nodes``
        bounds the positions a decision examines, whatever its other budgets (None: ``node_budget``).
        """
        if seconds is None and iterations is None:
            raise ValueError("a search needs a budget: seconds, iterations or both")
        if nodes is not None and (type(nodes) is not int or nodes < 1):
            raise ValueError(f"nodes: {nodes!r} is not a budget; give a whole number, 1 or more")
        if iterations is not None and (type(iterations) is not int or iterations < 1):
            raise ValueError(f"iterations: {iterations!r} is not a budget; give a whole number, 1 or more")
        if seconds is not None and seconds <= 0:
            raise ValueError(f"seconds: {seconds} is not a budget; give a positive time")
        self.name = name
        self.rng = random.Random(seed)
        self.seconds = seconds
        self.iterations = iterations
        self.c = c
        self.depth = depth
        self.points_weight = points_weight
        self.infer = infer
        self.trust = trust
        self.model = model
        self.nodes = nodes
        #: The normal player, whose move stands unless the search finds a clearly better one.
        self.guide = HeuristicBot(seed)
        #: What the search believes of the other hand, read through the normal player's eyes.
        self.belief = Belief(self.rng, self.guide, self._fresh_worlds)
        #: The budget the belief's update counts in and stops at, while a search asks for worlds.
        self._budget: Budget | None = None
        #: The normal player's reason, when its move stood at the last decision.
        self._kept_usual: str | None = None
        #: Simulations run by the last decision, tree iterations and paired play-outs (0 when forced),
        #: and the positions it examined.
        self.last_iterations = 0
        self.last_nodes = 0
        self._last_root: dict[Action, Edge] = {}
        #: The last paired test: (rival, mean gain over the normal player's move, standard error, deals).
        self.last_duel: list[tuple[Action, float, float, int]] | None = None

    # ----- the Bot protocol ---------------------------------------------------------------

    def choose(self, view: View) -> Action:
        legal = legal_moves(view)
        self._kept_usual = None
        self.last_duel = None
        if len(legal) == 1:
            self.last_iterations = self.last_nodes = 0
            self._last_root = {}
            return legal[0]
        if self.trust is None:
            root = self.search(view, self.iterations, self.seconds)
            return max(legal, key=lambda a: root[a][VISITS] if a in root else -1)
        # Half the budget searches the tree; the other half tests its picks against the normal
        # player's move on common deals.
        clock = time.perf_counter
        start = clock()
        iterations = self.iterations
        seconds = self.seconds
        root = self.search(
            view,
            iterations=None if iterations is None else max(1, iterations // 2),
            seconds=None if seconds is None else seconds / 2,
            nodes=max(1, self.node_budget() // 2),
        )
        usual, reason = self.guide.decide(view)
        searched = sorted((a for a in legal if a in root and root[a][VISITS]), key=lambda a: -root[a][VISITS])
        rivals = [a for a in searched[:DUEL_RIVALS] if a != usual]
        if not rivals:
            self._kept_usual = reason
            return usual
        left = None if iterations is None else iterations - self.last_iterations
        if left is not None and left < (len(rivals) + 1) * MIN_DEALS:
            self._kept_usual = reason
            return usual
        deadline = None if seconds is None else start + seconds
        nodes = self.node_budget() - self.last_nodes
        duel = self.duel(view, usual, rivals, rollouts=left, deadline=deadline, nodes=nodes)
        self.last_duel = duel
        best, gain, se, deals = max(duel, key=lambda d: d[1])
        if deals >= MIN_DEALS and gain > self.trust * se:
            return best
        self._kept_usual = reason
        return usual

    def hint(self, view: View) -> Hint:
        action = self.choose(view)
        if self._kept_usual is not None:
            return Hint(action, f"{self._kept_usual} (no move scored clearly better in {self.last_iterations} deals)")
        duel = {rival: (gain, deals) for rival, gain, _, deals in self.last_duel or ()}
        if action in duel:
            gain, deals = duel[action]
            return Hint(action, f"{action}: scores {gain:+.0%} over the usual move on {deals} common deals")
        edge = self._last_root.get(action)
        if not edge or not edge[VISITS]:
            return Hint(action, "the only legal move")
        rate = edge[TOTAL] / edge[VISITS]
        return Hint(action, f"{action}: the best in {self.last_iterations} simulated deals (scores {rate:.0%})")

    # ----- the search ---------------------------------------------------------------------

    def worlds(self, view: View) -> Dealer:
        """The dealer of the worlds the search plays in: every one consistent with ``view``.

        The belief's update, if it has one to do, counts in the decision's budget and stops once it is
        spent (``_budget``, set by ``search`` and ``duel`` while they call this; None outside them).
        """
        if self.modelled(view):
            self.belief.update(view, self._budget)
            return self.belief
        return Worlds(view, self.rng, self.infer)

    def _fresh_worlds(self, view: View) -> Worlds:
        """The belief's first particles, and new ones when it loses the thread (a method, not a
        lambda, so that the bot can be pickled)."""
        return Worlds(view, self.rng, self.infer)

    def node_budget(self) -> int:
        """The positions a decision examines at most: ``nodes``, or ``NODES_PER_ITERATION`` a simulation of
        the ``iterations`` budget and ``NODES_PER_SECOND`` a second of the ``seconds`` budget, the lesser."""
        if self.nodes is not None:
            return self.nodes
        bounds = []
        if self.iterations is not None:
            bounds.append(self.iterations * NODES_PER_ITERATION)
        if self.seconds is not None:
            bounds.append(max(1, int(self.seconds * NODES_PER_SECOND)))
        return min(bounds)

    def modelled(self, view: View) -> bool:
        """Whether the other player is read as the normal player: two players, the first out wins."""
        return self.model and plannable(view.rules, view.players)

    def search(
        self, view: View, iterations: int | None, seconds: float | None, nodes: int | None = None
    ) -> dict[Action, Edge]:
        """Search the tree from ``view`` for that many iterations or seconds, and ``nodes`` positions at most
        (None: ``node_budget``); the root's edges by action. The belief's update counts in both."""
        deadline = None if seconds is None else time.perf_counter() + seconds
        budget = Budget(self.node_budget() if nodes is None else nodes, deadline)
        self._budget = budget
        try:
            worlds = self.worlds(view)
        finally:
            self._budget = None
        reward = Reward(view.rules, view.players, self.points_weight)
        depth = self.depth if self.depth is not None else 1 << 30
        wild = tables_for(view.rules).wild
        root: dict[Action, Edge] = {}
        limit = iterations if iterations is not None else 1 << 62
        done = grow(root, worlds, reward, self.rng, self.c, depth, wild, limit, budget)
        self.last_iterations = done
        self.last_nodes = budget.nodes
        self._last_root = root
        return root

    def duel(
        self,
        view: View,
        usual: Action,
        rivals: list[Action],
        rollouts: int | None,
        deadline: float | None,
        nodes: int | None = None,
    ) -> list[tuple[Action, float, float, int]]:
        """Each rival against ``usual`` on common deals: (rival, mean gain, its standard error, deals).

        Every deal is played out once after each action with the same cards and the same
        random choices afterwards (common random numbers), so the luck of the deal cancels
        out of each difference: a paired test, far sharper than comparing the tree's means.
        ``rollouts`` bounds the play-outs (one per action and deal), ``deadline`` the time,
        ``nodes`` the positions (None: ``node_budget``), the belief's update's included.
        """
        budget = Budget(self.node_budget() if nodes is None else max(1, nodes), deadline)
        self._budget = budget
        try:
            worlds = self.worlds(view)
        finally:
            self._budget = None
        me = view.seat
        assert me is not None
        reward = Reward(view.rules, view.players, self.points_weight)
        wild = tables_for(view.rules).wild
        depth = self.depth if self.depth is not None else 1 << 30
        model = self.guide if self.modelled(view) else None
        actions = [usual, *rivals]
        limit = (rollouts // len(actions)) if rollouts is not None else 1 << 62
        sums, squares, deals = play_duel(worlds, actions, reward, self.rng, wild, depth, model, me, limit, budget)
        self.last_iterations += deals * len(actions)
        self.last_nodes += budget.nodes
        out = []
        for i, rival in enumerate(rivals):
            mean = sums[i] / deals
            var = max(squares[i] / deals - mean * mean, 0.0) * deals / max(deals - 1, 1)
            out.append((rival, mean, math.sqrt(var / deals), deals))
        return out


def named_suits(view: View) -> dict[int, int]:
    """The suit each other seat named at its last move, if it named one: a player names a suit it holds.

    A model of players, not a fact (the random player names any suit): it holds until the
    seat lays a card or draws for its turn.
    """
    named: dict[int, int] = {}
    for event in view.history:
        kind = type(event)
        if kind is SuitNamed:
            named[event.seat] = int(event.suit)  # type: ignore[attr-defined]
        elif kind is CardPlayed or kind is JackDropped or (kind is CardsDrawn and event.reason == "draw"):  # type: ignore[attr-defined]
            named.pop(event.seat, None)  # type: ignore[attr-defined]
        elif kind is CardsSwapped:
            named.pop(event.seat, None)  # type: ignore[attr-defined]
            named.pop(event.target, None)  # type: ignore[attr-defined]
        elif kind is RoundStarted or kind is SuicideKing:
            named.clear()
    named.pop(view.seat, None)  # type: ignore[arg-type]
    return named
