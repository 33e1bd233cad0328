"""The normal player: plays like a decent human, from its seat's view alone.

It scores each legal action with a few rules of thumb a good player uses:

- shed the cards that cost most (the preset's scoring table; in ``baby-eating``,
  which keeps no score, the cards with the strongest effects);
- keep wilds (8s, and the jokers and K of hearts in ``baby-eating``) for when
  nothing else plays;
- stay in suits it holds (after a play, cards left in the new suit) and steer
  to suits the next player seems not to hold (they drew on them);
- aim skips, reverses and draw cards at a player close to going out, and use
  two-player extra turns;
- answer a chain of 2s with a 2;
- in ``derange``, plan a follow-me turn to its end: which extra 3s or 10s to lay,
  in which order, and which card follows;
- name its longest suit, pick the 5's and the 7's targets, drop its jacks in a
  useful order and bury the card it least wants.

In two-player hands where the first out wins (``classic``, ``action``), where a
skip, reverse or draw card gives another turn, it plans the whole turn instead and
weighs where each line ends (``eights.bots.turnplan``), with two rules of thumb on
top (each measured over 8000 games against the random player, on two sets of deals):

- after a wild it names a suit it holds outside its wilds, when it holds one; the
  plan alone sometimes named a suit the other seemed to lack that the hand lacked
  too (``action``: 74.3% and 74.0%, where the plan alone won 74.0% and 73.8%;
  ``classic``: 87.8% and 88.5% against 87.7% and 87.9%);
- a card it draws that follows and gives another turn it plays at once; the plan
  alone often kept it, the turn after it ending in a draw (``action``: 74.0% and
  73.8% against 73.6% and 73.1%).

Every choice comes with a reason a player can read (``hint``). The bot is seeded
and uses its own ``random.Random`` only to break exact ties.

Kept whole, a little past the package's 600 lines, for a reason: the normal player is one set of rules
of thumb, each a method that scores a card or a choice and says why, weighed against the others; read
apart, a weight's reason would be in another file from the rule it balances. The functions at its end are
its own as well: ``read_voids`` is the reading of the history its rules steer by, which a search hands to
``quick_move`` ready-made (``eights.bots.belief``), and ``_drawn_to_play`` and ``_suits_to_name`` are the two
rules of thumb on top of the plan measured above, shared by ``_plan`` and ``quick_move``. Moved into
``eights.bots.turnplan`` they would be compiled apart from the figures that justify them, and moved out of
here at all they would leave this file past 600 lines still.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from eights.bots.base import Hint, legal_moves
from eights.bots.turnplan import PLAN_NODES, Budget, TurnPlanner, describe, gives_another_turn, plannable, planner_for
from eights.cards import RANKS, SUITS, Card, Suit
from eights.engine import Action, View
from eights.engine import view as view_of
from eights.engine.actions import Bury, ChoosePlayer, Draw, NameSuit, Pass, Play
from eights.engine.events import CardPlayed, CardsDrawn, Event, JackDropped, RoundStarted, StarterTurned, SuitNamed
from eights.engine.game import Game
from eights.engine.phases import DRAWN_PHASE, PLAY_PHASE, SUIT_PHASE
from eights.engine.sampling import seat_world
from eights.engine.tables import NAMED, Tables, tables_for

# Positions in a compiled effect (eights.engine.tables.Effect).
WILD, SKIP, REVERSE, DRAW2, CHAIN, FOLLOW, PENALTY, CHOOSE, SWAP, EXTRA, JACKS, ALLY, SUICIDE, CANCEL = range(14)

#: Bonus for a play that empties the hand: it wins the round.
OUT = 100.0
#: How much a wild is worth keeping while another card plays.
WILD_KEEP = 1.5
#: Where points do not decide: how much a strong card is worth keeping, and a pair of one rank.
KEEP_STRONG = 0.3
PAIR_KEEP = 0.3
#: What a draw costs, in the same units as shedding (a card of about 10 points is 1.0).
DRAW_COST = 1.0


def threat(count: int) -> float:
    """How close a hand of ``count`` cards is to going out, as a weight."""
    if count <= 1:
        return 3.0
    if count == 2:
        return 1.5
    if count == 3:
        return 0.8
    return 0.4


@dataclass
class Situation:
    """What the bot reads from its view once per decision."""

    view: View
    t: Tables
    me: int
    n: int
    hand: list[Card]
    counts: tuple[int, ...]
    scored: bool
    #: Whether points decide the match (several rounds scored), not only who goes out first.
    points_decide: bool
    ally: int | None
    #: Suits each seat seems not to hold: it drew while that suit was asked for.
    voids: dict[int, set[int]] = field(default_factory=dict)

    @property
    def next_seat(self) -> int:
        return (self.me + self.view.direction) % self.n

    def is_opponent(self, seat: int) -> bool:
        return seat != self.me and seat != self.ally


class HeuristicBot:
    """Rules of thumb of a decent human player; see the module docstring."""

    name = "normal"
    #: Weights of the rules of thumb (class attributes so an experiment can change them).
    extra_turn = 0.5
    suit_weight = 0.35

    def __init__(self, seed: int | None = None, weights: tuple[float, ...] | None = None) -> None:
        self.rng = random.Random(seed)
        #: The turn planner's weights; None for ``eights.bots.turnplan.weights_for`` the rules.
        self.weights = weights
        #: A time (``time.perf_counter()``) by which the turn planner stops, whatever is left of its node
        #: budget (None: no time limit, the same move on every machine). A server sets it on the copy of
        #: the bot a thread thinks with, so that the thread ends at the decision's deadline.
        self.deadline: float | None = None

    def choose(self, view: View) -> Action:
        return self.decide(view)[0]

    def hint(self, view: View) -> Hint:
        action, reason = self.decide(view)
        return Hint(action, reason)

    # ----- the decision -----------------------------------------------------------------

    def decide(self, view: View, plan: bool = True) -> tuple[Action, str]:
        """The action to take and the reason, in words. Without ``plan``, the rules of thumb alone, where
        the turn planner would plan the turn (``fallback``)."""
        legal = legal_moves(view)
        s = self._situation(view)
        phase = view.phase
        planned = plan and plannable(view.rules, s.n)
        if phase == "name_suit":
            if planned:
                return self._plan(s)
            return self._name_suit(s)
        if phase == "choose_draw":
            return self._choose_target(s, "draw")
        if phase == "choose_swap":
            return self._choose_target(s, "swap")
        if phase == "bury":
            return self._bury(s)
        if phase == "drop_jacks":
            return self._drop_jack(s)
        if len(legal) == 1:
            return legal[0], _only_reason(legal[0])
        if planned and not view.chain and phase in ("play", "play_drawn"):
            return self._plan(s)
        return self._play(s)

    def fallback(self, view: View) -> Action:
        """A cheap move: the rules of thumb alone, never the turn planner (``decide(view, plan=False)``).
        Its work grows with the hand and the legal moves only, whatever the position."""
        return self.decide(view, plan=False)[0]

    def quick_move(self, game: Game, voids: set[int] | None = None, budget: Budget | None = None) -> Action:
        """``decide(view(game, game.to_act))[0]``: the same move from the same random state, for a
        search, which asks for many (in its play-outs, and in its belief's replays).

        ``voids`` are the suits the seat's view shows the other seat lacks
        (``read_voids(view.history).get(other, set())``), which a search replaying one history in
        many games reads once for all; None where the game keeps no log (its view has no history).
        Where the turn planner decides, it plans in ``seat_world(game, seat)``, the world ``sample``
        would deal from the seat's view (the engine's own reading of the game for one seat), and
        no reason is put in words; every other choice is made from the view. ``budget``: the
        search's, which the plan's positions count in (None: the decision's own, as ``decide``'s).
        """
        seat = game.to_act
        phase = game.phase
        if (
            (voids is None and game.log)
            or not (phase == SUIT_PHASE or (phase in (PLAY_PHASE, DRAWN_PHASE) and not game.chain))
            or not plannable(game.rules, game.players)
        ):
            return self.decide(view_of(game, seat))[0]
        legal = game.legal_actions()
        if phase != SUIT_PHASE and len(legal) == 1:
            return legal[0]
        t = game.t
        hand = game.hands[seat]
        drawn = _drawn_to_play(t, game.drawn, legal)
        if drawn is not None:
            return drawn
        choices = _suits_to_name(t, hand, legal) if phase == SUIT_PHASE else legal
        world = seat_world(game, seat, self.rng)
        spend = budget if budget is not None else self._budget()
        planner = TurnPlanner(world, seat, voids if voids is not None else set(), self.weights, spend)
        return planner.best(choices)[0]

    def _budget(self) -> Budget:
        """A decision's own budget: ``PLAN_NODES`` positions, and the bot's ``deadline``."""
        return Budget(PLAN_NODES, self.deadline)

    def _plan(self, s: Situation) -> tuple[Action, str]:
        """Two players, first out wins: the best line of the whole turn (``eights.bots.turnplan``)."""
        view = s.view
        drawn = view.drawn
        play = _drawn_to_play(s.t, -1 if drawn is None else drawn, view.legal)
        if play is not None and drawn is not None:
            return play, f"play the drawn {drawn.pretty()}: it gives you another turn"
        legal = _suits_to_name(s.t, view.hand, view.legal) if view.phase == "name_suit" else view.legal
        planner = planner_for(view, self.rng, s.voids.get(1 - s.me, set()), self.weights, self._budget())
        action, plan = planner.best(legal)
        line = describe(plan, action)
        if plan.ending is None:
            return action, f"{line}: you go out"
        chance = f"about {plan.win_chance:.0%} to win"
        if plan.feature("they_cannot_follow") >= 0.5:
            return action, f"{line}: the other player likely holds nothing that follows ({chance})"
        if isinstance(action, Pass) and view.drawn is not None and s.t.wild[view.drawn]:
            return action, f"{line}: keep the 8 for when nothing else plays ({chance})"
        if len(plan.actions) > 1 and isinstance(plan.actions[1], Play):
            return action, f"{line}: you play again at once ({chance})"
        return action, f"{line}: the best hand to keep ({chance})"

    def _situation(self, view: View) -> Situation:
        assert view.seat is not None
        me = view.seat
        ally = None
        for a, b in view.teams:
            if me == a:
                ally = b
            elif me == b:
                ally = a
        return Situation(
            view=view,
            t=tables_for(view.rules),
            me=me,
            n=view.players,
            hand=list(view.hand),
            counts=view.hand_counts,
            scored=bool(view.rules.score_values),
            points_decide=view.rules.points_decide(view.players),
            ally=ally,
            voids=read_voids(view.history),
        )

    # ----- card values ------------------------------------------------------------------

    def shed(self, s: Situation, card: Card) -> float:
        """How much getting rid of ``card`` is worth, apart from its effect.

        Where points decide the match, its points. Where the first out wins a game
        whose cards have values (one hand of ``action`` or ``classic``), a strong card
        is worth keeping: it gives the extra turn that goes out. In ``baby-eating``
        (no values) strong cards are worth using while they can be. (Both measured
        against the random player: ``eights tournament --bots normal,easy``.)
        """
        if s.points_decide:
            return s.t.values[card] / 10.0
        if s.scored:
            return -KEEP_STRONG * self.power(s, card)
        return 0.3 * self.power(s, card)

    def power(self, s: Situation, card: Card) -> float:
        """A card's effect strength, where no score says what a card costs (baby-eating)."""
        e = s.t.effect[card]
        if e is None:
            return 0.0
        two = s.n == 2 and s.t.two_player_extra_turn
        return (
            2.0 * e[WILD]
            + (1.5 if two else 1.0) * min(e[SKIP], 2)
            + (1.5 if two else 0.5) * e[REVERSE]
            + 1.0 * e[DRAW2]
            + 0.5 * e[CHAIN]
            + 0.5 * e[PENALTY]
            + 0.8 * e[CHOOSE]
            + 0.3 * e[SWAP]
            + 1.5 * e[EXTRA]
            + 0.5 * e[JACKS]
            + 0.3 * e[CANCEL]
        )

    def is_kept(self, s: Situation, card: Card) -> bool:
        """A card worth holding back for when nothing else plays."""
        return bool(s.t.wild[card] or (s.t.has_exempt and s.t.exempt[card]))

    # ----- playing cards ------------------------------------------------------------------

    def _play(self, s: Situation) -> tuple[Action, str]:
        view = s.view
        legal = view.legal
        plays = [a for a in legal if isinstance(a, Play)]
        other = next((a for a in legal if not isinstance(a, Play)), None)
        if not plays:
            assert other is not None
            return other, "no card plays: draw one" if isinstance(other, Draw) else "nothing to play or draw: pass"
        if view.chain and view.phase == "play":
            best = max(plays, key=lambda p: (self._suit_left(s, p), self.shed(s, p.card)))
            e = s.t.effect[best.card]
            total = view.chain + (e[CHAIN] if e is not None else 0) * len(best.cards)
            return best, f"answer the chain with {_cards(best)}: the next player faces {total} cards"
        scored = [(self._score(s, p), p) for p in plays]
        top = max(score for (score, _), _ in scored)
        best_list = [(score, reason, p) for (score, reason), p in scored if score >= top - 1e-9]
        score, reason, best = best_list[self.rng.randrange(len(best_list))] if len(best_list) > 1 else best_list[0]
        if isinstance(other, Draw | Pass) and all(self.is_kept(s, p.card) for p in plays):
            # Only cards worth keeping play (a wild, the K of hearts): play one when stuck, unless it hurts.
            e = s.t.effect[best.card]
            if e is not None and e[SUICIDE] and score < 0:
                return other, f"{'draw' if isinstance(other, Draw) else 'pass'}: keep {_cards(best)} for later"
            if view.phase == "extra_card" and len(s.hand) > 2:
                return other, f"pass: keep {_cards(best)} for when nothing else plays"
        return best, reason

    def _suit_left(self, s: Situation, play: Play) -> int:
        suit = SUITS[play.card]
        left = Counter(s.hand)
        left.subtract(play.cards)
        return sum(k for c, k in left.items() if SUITS[c] == suit and k > 0)

    def _score(self, s: Situation, play: Play) -> tuple[float, str]:
        """A play's worth, and the reason that weighs most in it."""
        t = s.t
        card = play.card
        cards = play.cards
        left = Counter(s.hand)
        left.subtract(cards)
        rest = list(left.elements())
        effect = t.effect[card]
        follows = effect is not None and effect[FOLLOW] and s.view.phase != "follow_drawn"
        if follows:
            value, plan = self._plan_follow(s, tuple(sorted(rest)), RANKS[card], SUITS[card], {}, [0])
            value += sum(self.shed(s, c) for c in cards)
            if plan:
                return value, f"play {_cards(play)}: follow-me then {plan}"
            return value, f"play {_cards(play)}: follow-me sheds it"
        if not rest:
            return OUT, f"play {_cards(play)} and go out"
        reasons: list[tuple[float, str]] = []
        shed = sum(self.shed(s, c) for c in cards)
        if s.points_decide:
            points = sum(t.values[c] for c in cards)
            reasons.append((shed, f"play {_cards(play)} to shed {points} points"))
        elif s.scored:
            reasons.append((shed, f"play {_cards(play)}: keep your strong cards to go out with"))
        else:
            reasons.append((shed, f"play {_cards(play)}: a strong card, used while it can be"))
        value = shed
        if self.is_kept(s, card):
            e = t.effect[card]
            if e is None or not e[SUICIDE]:
                value += -self.shed(s, card) - WILD_KEEP
                reasons.append((99.0, f"play {_cards(play)}: nothing else plays"))
        bonus, why = self._effect(s, play, rest)
        value += bonus
        if why:
            reasons.append((bonus, f"play {_cards(play)}: {why}"))
        if not t.wild[card]:
            suit = SUITS[card]
            word = Suit(suit).name.lower()
            mine = sum(1 for c in rest if SUITS[c] == suit)
            value += self.suit_weight * mine + 0.1 * sum(1 for c in rest if RANKS[c] == RANKS[card])
            nxt = s.next_seat
            if s.is_opponent(nxt) and suit in s.voids.get(nxt, ()):
                value += 0.6
                reasons.append((0.6, f"play {_cards(play)}: the next player seems to hold no {word}"))
            if mine >= 2:
                reasons.append((self.suit_weight * mine, f"play {_cards(play)}: you keep {mine} more {word}"))
        else:
            value += self.suit_weight * self._longest(rest)[1]
        value += 0.3 * (len(cards) - 1)
        if not s.points_decide:
            # Pairs left in hand keep a way to change suit by rank.
            ranks = Counter(RANKS[c] for c in rest)
            value += PAIR_KEEP * sum(k - 1 for k in ranks.values())
        reason = max(reasons, key=lambda r: r[0])[1]
        return value, reason

    def _effect(self, s: Situation, play: Play, rest: list[Card]) -> tuple[float, str]:
        """What a card's effect is worth here, and why."""
        t = s.t
        card = play.card
        e = t.effect[card]
        view = s.view
        if e is None:
            return 0.0, ""
        if view.cancel_pending:
            return -0.3 * self.power(s, card), "the 3 on top cancels its effect, but it sheds"
        k = len(play.cards)
        n = s.n
        me = s.me
        d = view.direction
        nxt = (me + d) % n
        counts = s.counts
        bonus = 0.0
        why = ""

        def foe(seat: int) -> float:
            # Hurting an opponent is good, hurting the ally bad, hurting oneself (cannot happen) nothing.
            if seat == me:
                return 0.0
            return threat(counts[seat]) if s.is_opponent(seat) else -threat(counts[seat])

        two = n == 2 and t.two_player_extra_turn
        if e[SUICIDE]:
            mine = len(rest)
            best_foe = min((counts[x] for x in range(n) if s.is_opponent(x)), default=mine)
            bonus = 0.6 * ((mine - 6) - (best_foe - 6)) - 0.5
            why = "the Suicide King deals everyone six: you hold more than the others" if bonus > 0 else ""
            return bonus, why
        if two and (e[SKIP] or e[REVERSE] or e[DRAW2]):
            follow, with_card = self._continuation(s, card, rest, must_draw=True)
            bonus += self.extra_turn + follow
            why = f"you play again at once ({with_card} next)" if with_card else "you play again at once"
        elif e[ALLY] and t.teams and s.ally is not None:
            bonus += 1.0
            why = "the turn passes to your ally"
        elif e[SKIP] and n > 2:
            victims = [(me + d * i) % n for i in range(1, min(e[SKIP] * k, n - 1) + 1)]
            bonus += sum(foe(v) for v in victims)
            if victims and s.is_opponent(victims[0]):
                why = f"skips seat {victims[0]}, who holds {counts[victims[0]]} cards"
        elif e[REVERSE] and n > 2 and (e[REVERSE] * k) % 2:
            back = (me - d) % n
            bonus += 0.6 * (foe(nxt) - foe(back))
            if bonus > 0:
                why = f"turns play away from seat {nxt}, who holds {counts[nxt]} cards"
        if e[DRAW2]:
            bonus += 0.5 * e[DRAW2] * k * (1 + max(foe(nxt), 0)) if s.is_opponent(nxt) else -1.0
            if s.is_opponent(nxt):
                why = f"the next player draws {e[DRAW2] * k} and misses a turn"
        if e[CHAIN]:
            total = view.chain + e[CHAIN] * k
            bonus += 0.3 * total * (1 + max(foe(nxt), 0)) if s.is_opponent(nxt) else -0.5
            if s.is_opponent(nxt):
                why = f"the next player plays a 2 or draws {total}"
        if e[PENALTY] and not e[WILD]:
            victim = nxt
            if two and (e[SKIP] or e[REVERSE]):
                victim = 1 - me
            amount = e[PENALTY] * k
            bonus += 0.4 * amount * (1 + max(foe(victim), 0)) if s.is_opponent(victim) else -0.4 * amount
            if s.is_opponent(victim) and not why:
                why = f"the next player draws {amount}"
        if e[EXTRA]:
            follow, with_card = self._continuation(s, card, rest, must_draw=False)
            bonus += self.extra_turn + follow
            if not why:
                why = f"you play one more card ({with_card})" if with_card else "you play one more card"
        if e[JACKS]:
            jacks = sum(1 for c in rest if t.jack[c])
            bonus += 0.9 * jacks - 0.3
            if jacks:
                why = f"you drop your {jacks} jack{'s' if jacks > 1 else ''} too"
        if e[CHOOSE]:
            bonus += 0.4 * (1 + max((threat(counts[x]) for x in range(n) if s.is_opponent(x)), default=0))
            why = why or "you choose who draws"
        if e[SWAP]:
            bonus += 0.1
        if e[CANCEL]:
            bonus += 0.2
        return bonus, why

    def _continuation(self, s: Situation, card: Card, rest: list[Card], must_draw: bool) -> tuple[float, str]:
        """The best next play of the same turn, after ``card`` gives another turn (or an extra card)."""
        t = s.t
        if t.wild[card]:
            suit, match_rank = self._longest(rest)[0], NAMED
        else:
            suit, match_rank = SUITS[card], t.rank_class[card]
        if suit < 0:
            suit = 4
        row = t.match[(match_rank + 1) * 5 + suit]
        best, name = (-DRAW_COST if must_draw else 0.0), ""
        for c in dict.fromkeys(rest):
            if not row[c]:
                continue
            left = list(rest)
            left.remove(c)
            if not left:
                return OUT / 2, Card(c).pretty()
            value = self.shed(s, c)
            if self.is_kept(s, c):
                value -= self.shed(s, c) + WILD_KEEP
            else:
                value += self.suit_weight * sum(1 for x in left if SUITS[x] == SUITS[c])
            if value > best:
                best, name = value, Card(c).pretty()
        return best, name

    def _longest(self, hand: list[Card] | tuple[Card, ...]) -> tuple[int, int]:
        """The suit held most (ties: the one worth most to shed), and how many."""
        by_suit = Counter(SUITS[c] for c in hand if SUITS[c] < 4)
        if not by_suit:
            return -1, 0
        suit = max(by_suit, key=lambda x: (by_suit[x], -x))
        return suit, by_suit[suit]

    # ----- derange's follow-me ------------------------------------------------------------

    def _plan_follow(
        self,
        s: Situation,
        hand: tuple[Card, ...],
        rank: int,
        suit: int,
        memo: dict[tuple[tuple[Card, ...], int, int], tuple[float, str]],
        budget: list[int],
    ) -> tuple[float, str]:
        """The best value of a follow-me turn from here (cards laid after the one on top)."""
        key = (hand, rank, suit)
        if key in memo:
            return memo[key]
        budget[0] += 1
        t = s.t
        options = dict.fromkeys(c for c in hand if RANKS[c] == rank or SUITS[c] == suit or t.wild[c])
        has_follow = any(SUITS[c] == suit or t.wild[c] for c in options)
        # Without a follow-me card the player may also draw (and play the card if it follows).
        best = (-DRAW_COST, "draw to follow") if not has_follow else (-1e9, "")
        for c in options:
            rest = list(hand)
            rest.remove(c)
            rest_t = tuple(rest)
            value = self.shed(s, c)
            e = t.effect[c]
            if e is not None and e[FOLLOW]:
                if budget[0] > 400:
                    sub = (self.suit_weight * sum(1 for x in rest if SUITS[x] == SUITS[c]) - DRAW_COST * 0.5, "")
                else:
                    sub = self._plan_follow(s, rest_t, RANKS[c], SUITS[c], memo, budget)
                value += sub[0]
            elif not rest:
                value = OUT
            elif t.wild[c]:
                value += -self.shed(s, c) - WILD_KEEP + self.suit_weight * self._longest(rest)[1]
            else:
                value += self.suit_weight * sum(1 for x in rest if SUITS[x] == SUITS[c])
            if value > best[0]:
                best = (value, f"{Card(c).pretty()}")
        memo[key] = best
        return best

    # ----- other choices ----------------------------------------------------------------

    def _name_suit(self, s: Situation) -> tuple[Action, str]:
        by_suit = Counter(SUITS[c] for c in s.hand if SUITS[c] < 4)
        legal = {a.suit: a for a in s.view.legal if isinstance(a, NameSuit)}
        nxt = s.next_seat
        voids = s.voids.get(nxt, set()) if s.is_opponent(nxt) else set()
        if by_suit:
            worth: defaultdict[int, float] = defaultdict(float)
            for c in s.hand:
                if SUITS[c] < 4:
                    worth[SUITS[c]] += self.shed(s, c)
            suit = max(legal, key=lambda x: (by_suit[x], x in voids, worth[x], -x))
            word = Suit(suit).name.lower()
            if sum(1 for x in by_suit if by_suit[x] == by_suit[suit]) > 1 and suit in voids:
                return legal[suit], f"name {word}: your longest suit, and the next player seems to hold none"
            return legal[suit], f"name {word}: your longest suit"
        # Only wilds left (or nothing): name a suit the next player seems to lack, else the most played.
        seen = Counter(SUITS[c] for c in s.view.discard if SUITS[c] < 4)
        suit = max(legal, key=lambda x: (x in voids, seen[x], -x))
        return legal[suit], f"name {Suit(suit).name.lower()}: the suit the others are likeliest to lack"

    def _choose_target(self, s: Situation, kind: str) -> tuple[Action, str]:
        legal = [a for a in s.view.legal if isinstance(a, ChoosePlayer)]
        n = s.n
        order = {(s.me + s.view.direction * i) % n: i for i in range(n)}
        foes = [a for a in legal if s.is_opponent(a.seat)]
        pool = foes or [a for a in legal if a.seat != s.me] or legal
        best = min(pool, key=lambda a: (s.counts[a.seat], order[a.seat]))
        count = s.counts[best.seat]
        if kind == "draw":
            return best, f"seat {best.seat} draws: the closest to going out ({count} cards)"
        return best, f"swap with seat {best.seat}: the fewest cards ({count})"

    def _bury(self, s: Situation) -> tuple[Action, str]:
        legal = [a for a in s.view.legal if isinstance(a, Bury)]
        t = s.t
        if s.scored:
            best = max(legal, key=lambda a: (t.values[a.card], -self._suit_count(s, a.card), a.card))
            return best, f"bury {best.card.pretty()}: your highest-value card ({t.values[best.card]} points)"
        best = min(legal, key=lambda a: (self._keep_value(s, a.card), a.card))
        return best, f"bury {best.card.pretty()}: the card hardest to get rid of"

    def _keep_value(self, s: Situation, card: Card) -> float:
        """How much a card is worth holding (baby-eating): wilds most, then effects, then suit support."""
        t = s.t
        return (
            10.0 * self.is_kept(s, card)
            + self.power(s, card)
            + 0.5 * (self._suit_count(s, card) - 1)
            + 0.3 * (sum(1 for c in s.hand if t.rank_class[c] == t.rank_class[card]) - 1)
        )

    def _suit_count(self, s: Situation, card: Card) -> int:
        return sum(1 for c in s.hand if SUITS[c] == SUITS[card] and SUITS[c] < 4)

    def _drop_jack(self, s: Situation) -> tuple[Action, str]:
        legal = [a for a in s.view.legal if isinstance(a, Play)]
        if len(legal) == 1:
            return legal[0], f"drop {legal[0].card.pretty()}: the queen makes everyone drop their jacks"
        # The last jack dropped is what the next player must match: keep the one of the longest suit for last.
        best = min(legal, key=lambda a: (self._suit_count(s, a.card), a.card))
        return best, f"drop {best.card.pretty()} first: the last jack dropped should be of your longest suit"


# ----- reading the history ------------------------------------------------------------


def read_voids(history: Sequence[Event]) -> dict[int, set[int]]:
    """Suits each seat seems to lack this round (a view's ``history``): it drew (by choice or need)
    while that suit was asked for. Only what every seat sees is read."""
    voids: dict[int, set[int]] = {}
    suit = -1
    for event in history:
        kind = type(event)
        if kind is CardPlayed or kind is JackDropped:
            card = event.card  # type: ignore[attr-defined]
            suit = SUITS[card]
            held = voids.get(event.seat)  # type: ignore[attr-defined]
            if held and suit in held:
                held.discard(suit)
        elif kind is StarterTurned:
            suit = SUITS[event.card]  # type: ignore[attr-defined]
        elif kind is SuitNamed:
            suit = int(event.suit)  # type: ignore[attr-defined]
        elif kind is CardsDrawn and event.reason == "draw" and 0 <= suit < 4:  # type: ignore[attr-defined]
            voids.setdefault(event.seat, set()).add(suit)  # type: ignore[attr-defined]
        elif kind is RoundStarted:
            voids.clear()
    return voids


def _drawn_to_play(t: Tables, drawn: int, legal: Sequence[Action]) -> Action | None:
    """The play of a drawn card that gives another turn (played at once), if there is one."""
    if drawn < 0 or not gives_another_turn(t.effect[drawn]):
        return None
    for action in legal:
        if isinstance(action, Play) and action.card == drawn:
            return action
    return None


def _suits_to_name(t: Tables, hand: Sequence[Card], legal: Sequence[Action]) -> Sequence[Action]:
    """The suits to name after a wild: those the hand holds outside its wilds, when it holds one."""
    held = {SUITS[c] for c in hand if not t.wild[c]}
    return tuple(a for a in legal if isinstance(a, NameSuit) and a.suit in held) or legal


def _cards(play: Play) -> str:
    return " ".join(c.pretty() for c in play.cards)


def _only_reason(action: Action) -> str:
    if isinstance(action, Play):
        return f"play {_cards(action)}: the only legal move"
    if isinstance(action, Draw):
        return "draw: no card plays"
    if isinstance(action, Pass):
        return "pass: nothing to play or draw"
    if isinstance(action, NameSuit):
        return f"name {Suit(action.suit).name.lower()}"
    return f"{action}: the only legal move"
