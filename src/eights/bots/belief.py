"""What the search believes of the other hands: a particle filter that reads their moves.

``eights.bots.ismcts.Worlds`` deals the unseen cards at random, but for what forced
draws and named suits showed. A player at the table reads more than that: the other
player laid this card rather than that one, kept a drawn card, named hearts. This
module reads every such choice through a model of the other player, the normal player
(``eights.bots.heuristic``, a decent human's rules of thumb, which makes the same choice
whenever it holds the same cards at the same table):

- A ``Belief`` holds particles: full games consistent with one seat's view, each with
  a weight. The first are dealt by ``Worlds``.
- At the seat's next decision, every particle replays what the table saw since (the
  view's history), on the engine's own transitions. Where a particle's hidden cards
  cannot have made what was seen, they are mended the least it takes: a card another
  seat laid is swapped into its hand from the unseen cards, a hand that drew is
  cleared of cards its draw showed it lacked, a drawn card is one that plays (or not)
  as the player then did, and the seat's own draws are the cards it saw.
- Each choice another seat made, out of two or more legal actions, multiplies the
  particle's weight by 1 where the model holding that particle's cards makes the same
  choice, else by ``MISMATCH``. When the effective number of particles falls below
  half, they are resampled in proportion to their weights.
- ``deal`` gives a world for the search: a particle picked by weight, with its stock
  in a fresh random order.

Where the replay cannot follow the history (a new round, an event it does not model,
every particle lost), the belief starts again from ``Worlds``. It never looks at a
hidden card: its only input is the view.

An update may be given a budget (the search's: ``eights.bots.turnplan.Budget``, which counts
every step replayed and every position the model's plans examine, and has the search's
deadline): once it is spent, the update replays no further particle once one is live (or once
``DEADLINE_TRIES`` were tried with none live: then it starts again from ``Worlds``), and
resamples the live ones back to the full count. The particles it did not replay are dropped;
the belief stays usable, only less varied. Without a budget the update replays every particle.
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Callable
from typing import Protocol

from eights.bots.heuristic import HeuristicBot, read_voids
from eights.bots.turnplan import Budget
from eights.cards import Card
from eights.engine import View
from eights.engine.actions import Action, Draw, NameSuit, Pass, Play
from eights.engine.events import (
    CardPlayed,
    CardsDrawn,
    Event,
    Passed,
    PlayerSkipped,
    Reshuffled,
    SuitNamed,
    redact,
)
from eights.engine.game import Game, shuffle
from eights.engine.sampling import lacking_mask

#: Particles kept per decision.
PARTICLES = 128
#: The weight kept by a particle whose other seat the model would not have made the choice seen.
MISMATCH = 0.01
#: Stock cards tried as another seat's drawn card before a particle is given up.
DRAWN_TRIES = 16
#: Particles replayed past an update's budget, none of them live, before the belief starts again.
DEADLINE_TRIES = 8


class Dealer(Protocol):
    """Anything that deals worlds: ``eights.bots.ismcts.Worlds``, or a ``Belief``."""

    def deal(self) -> Game: ...


class Belief:
    """Weighted worlds consistent with one seat's view; see the module docstring."""

    __slots__ = (
        "_cumulative",
        "_history",
        "_round",
        "cut",
        "fresh",
        "model",
        "particles",
        "replayed",
        "rng",
        "size",
        "weights",
    )

    def __new__(cls, *args: object, **kwargs: object) -> Belief:
        # Spelled out so that pickle's ``Belief.__new__(Belief)`` makes an empty belief in the
        # compiled build too (a compiled class's default ``__new__`` runs ``__init__``).
        return super().__new__(cls)

    def __init__(
        self, rng: random.Random, model: HeuristicBot, fresh: Callable[[View], Dealer], size: int = PARTICLES
    ) -> None:
        """``model`` plays the other seats in every particle; ``fresh(view)`` deals the first
        particles (and new ones whenever the replay loses the thread); ``size`` particles."""
        self.rng = rng
        self.model = model
        self.fresh = fresh
        self.size = size
        self.particles: list[Game] = []
        self.weights: list[float] = []
        self._cumulative: list[float] = []
        self._history: tuple[Event, ...] = ()
        self._round = -1
        #: Particles the last update replayed, and whether its budget cut it short.
        self.replayed = 0
        self.cut = False

    def update(self, view: View, budget: Budget | None = None) -> None:
        """Bring the particles up to ``view``: replay what happened since the last update, and weigh it.

        ``budget``, once spent, stops the replay early; see the module docstring.
        """
        history = view.history
        old = self._history
        self.replayed = 0
        self.cut = False
        if self.particles and self._round == view.round and len(old) <= len(history) and history[: len(old)] == old:
            if len(old) < len(history):
                self._advance(view, len(old), budget)
        else:
            self._start(view)
        self._history = history
        self._round = view.round
        total = 0.0
        cumulative = []
        for w in self.weights:
            total += w
            cumulative.append(total)
        self._cumulative = cumulative

    def deal(self) -> Game:
        """A world for the search: a particle picked by weight, its stock in a fresh random order."""
        rng = self.rng
        cumulative = self._cumulative
        i = bisect.bisect_left(cumulative, rng.random() * cumulative[-1])
        game = self.particles[min(i, len(cumulative) - 1)].clone(rng=rng)
        shuffle(rng, game.stock)
        return game

    # ----- keeping the particles ------------------------------------------------------------

    def _start(self, view: View) -> None:
        dealer = self.fresh(view)
        particles = []
        for _ in range(self.size):
            game = dealer.deal()
            game.rng = random.Random(self.rng.getrandbits(48))
            game.log = list(view.history)
            game.actions = []
            particles.append(game)
        self.particles = particles
        self.weights = [1.0] * len(particles)

    def _advance(self, view: View, since: int, budget: Budget | None = None) -> None:
        me = view.seat
        assert me is not None
        hand = sorted(view.hand)
        live: list[Game] = []
        weights: list[float] = []
        asked: dict[tuple[int, int, tuple[Card, ...]], Action] = {}  # the model's choices, shared by copies
        asked_voids: dict[int, set[int]] = {}
        tried = 0
        for game, weight in zip(self.particles, self.weights, strict=True):
            if budget is not None and tried and (live or tried >= DEADLINE_TRIES) and budget.over():
                self.cut = True
                break
            tried += 1
            weight = self._replay(game, weight, view.history, since, me, asked, asked_voids, budget)
            if (
                weight > 0.0
                and game.to_act == view.to_act
                and len(game.stock) == view.stock_count
                and sorted(game.hands[me]) == hand
            ):
                live.append(game)
                weights.append(weight)
        self.replayed = tried
        total = sum(weights)
        if not live or total <= 0.0:
            self._start(view)
            return
        square = sum(w * w for w in weights)
        if len(live) == self.size and total * total >= 0.5 * self.size * square:
            self.particles = live
            self.weights = weights
            return
        # Resample (systematic): heavy particles are copied, light ones dropped.
        step = total / self.size
        at = self.rng.random() * step
        particles: list[Game] = []
        taken: set[int] = set()
        i = 0
        reached = weights[0]
        for k in range(self.size):
            target = at + k * step
            while reached < target and i < len(live) - 1:
                i += 1
                reached += weights[i]
            game = live[i]
            if i in taken:
                copy = game.clone()
                copy.log = list(game.log or ())
                game = copy
            taken.add(i)
            particles.append(game)
        self.particles = particles
        self.weights = [1.0] * self.size

    # ----- replaying the table ------------------------------------------------------------

    def _replay(
        self,
        game: Game,
        weight: float,
        history: tuple[Event, ...],
        at: int,
        me: int,
        asked: dict[tuple[int, int, tuple[Card, ...]], Action],
        asked_voids: dict[int, set[int]],
        budget: Budget | None = None,
    ) -> float:
        """Replay ``history[at:]`` on ``game``; the particle's new weight (0 when it cannot follow).

        ``asked`` keeps the model's choices by place in the history, drawn card and hand: every
        particle there agrees on the rest of what the model sees; ``asked_voids`` the suits its
        view shows the other seat lacks, by place in the history. ``budget`` counts each step
        replayed and the model's plans.
        """
        log = game.log
        assert log is not None
        while at < len(history):
            event = history[at]
            actor = game.to_act
            if actor != me and not self._mend(game, event, actor):
                return 0.0
            legal = game.legal_actions()
            action = _action_for(event, legal)
            if action is None:
                return 0.0
            if actor != me and len(legal) > 1:
                key = (at, game.drawn, tuple(game.hands[actor]))
                choice = asked.get(key)
                if choice is None:
                    # The suits the actor's view shows this seat lacks (the other seat where the model
                    # plans: two players), read once for all the particles at this point of the history.
                    voids = asked_voids.get(at)
                    if voids is None:
                        voids = asked_voids[at] = read_voids(history[:at]).get(me, set())
                    choice = asked[key] = self.model.quick_move(game, voids, budget)
                if choice != action:
                    weight *= MISMATCH
            _rig_own_draws(game, history, at, me)
            if actor != me and type(action) is Draw and not self._pick_drawn(game, action, history, at, me):
                return 0.0
            start = len(log)
            game.apply(action)
            if budget is not None:
                budget.nodes += 1
            for k in range(start, len(log)):
                i = at + k - start
                if i >= len(history) or redact(log[k], me) != history[i]:
                    return 0.0
            at += len(log) - start
        return weight

    def _mend(self, game: Game, event: Event, actor: int) -> bool:
        """Make ``game``'s hidden cards able to produce ``event`` by ``actor``; False when they cannot."""
        if isinstance(event, CardPlayed):
            return self._mend_laid(game, event, actor)
        if isinstance(event, CardsDrawn) and event.lacking >= 0:
            return self._mend_lacking(game, event.lacking, actor)
        return True

    def _mend_laid(self, game: Game, event: CardPlayed, actor: int) -> bool:
        hand = game.hands[actor]
        stock = game.stock
        if game.drawn >= 0:  # only the drawn card may be laid: make it the one laid
            card = event.card
            if game.drawn != card:
                if card not in stock:
                    return False
                j = stock.index(card)
                i = hand.index(Card(game.drawn))
                stock[j], hand[i] = hand[i], card
                game.drawn = card
            return True
        need = [event.card, *event.stack]
        for card in need:
            if hand.count(card) >= need.count(card):
                continue
            if card not in stock:
                return False
            free = [i for i, c in enumerate(hand) if c not in need]
            if not free:
                return False
            i = free[self.rng.randrange(len(free))]
            j = stock.index(card)
            stock[j], hand[i] = hand[i], card
        return True

    def _mend_lacking(self, game: Game, lacking: int, actor: int) -> bool:
        shown = lacking_mask(game.t, lacking)  # the cards the draw shows the hand lacks
        hand = game.hands[actor]
        stock = game.stock
        wrong = [i for i, c in enumerate(hand) if shown[c]]
        if not wrong:
            return True
        allowed = [j for j, c in enumerate(stock) if not shown[c]]
        if len(allowed) < len(wrong):
            return False
        for i, j in zip(wrong, self.rng.sample(allowed, len(wrong)), strict=True):
            hand[i], stock[j] = stock[j], hand[i]
        return True

    def _pick_drawn(self, game: Game, draw: Action, history: tuple[Event, ...], at: int, me: int) -> bool:
        """Put on the stock a card that, drawn by the seat to act, leads to what was seen next."""
        actor = game.to_act
        stock = game.stock
        if not stock:
            return True  # the draw reshuffles first: whatever comes
        top = len(stock) - 1
        after = history[at + 1] if at + 1 < len(history) else None
        if isinstance(after, CardPlayed) and after.seat == actor:
            card = after.card
            hand = game.hands[actor]
            if stock[top] == card:
                return True
            if card in stock:
                j = stock.index(card)
                stock[j], stock[top] = stock[top], card
                return True
            if card in hand:
                i = hand.index(card)
                hand[i], stock[top] = stock[top], card
                return True
            return False
        # Whether the drawer acted again (kept a card that plays, or drew again; a card it laid is handled above).
        again = isinstance(after, Passed | SuitNamed | CardsDrawn) and after.seat == actor
        mine = {c for e in history[at:] if isinstance(e, CardsDrawn) and e.seat == me and e.cards for c in e.cards}
        order = [j for j in range(len(stock)) if stock[j] not in mine]
        shuffle(self.rng, order)
        for j in order[:DRAWN_TRIES]:
            stock[j], stock[top] = stock[top], stock[j]
            trial = game.clone()
            trial.apply(draw)
            if (trial.to_act == actor) == again:
                return True
            stock[j], stock[top] = stock[top], stock[j]
        return False


def _action_for(event: Event, legal: list[Action]) -> Action | None:
    """The legal action that starts ``event``, if it is one an action starts."""
    kind = type(event)
    for action in legal:
        k = type(action)
        if kind is CardPlayed:
            if k is Play and action.card == event.card and action.stack == event.stack:  # type: ignore[attr-defined]
                return action
        elif kind is SuitNamed:
            if k is NameSuit and action.suit == event.suit:  # type: ignore[attr-defined]
                return action
        elif kind is CardsDrawn:
            if k is Draw:
                return action
        elif kind is Passed or kind is PlayerSkipped:
            if k is Pass:
                return action
        else:
            return None
    return None


def _rig_own_draws(game: Game, history: tuple[Event, ...], at: int, me: int) -> None:
    """Order ``game``'s stock so that the seat's coming draws (up to a reshuffle) are the cards it saw."""
    stock = game.stock
    k = 0
    for event in history[at:]:
        kind = type(event)
        if kind is Reshuffled:
            return
        if kind is not CardsDrawn:
            continue
        if event.seat != me or not event.cards:  # type: ignore[attr-defined]
            k += event.count  # type: ignore[attr-defined]
            continue
        for card in event.cards:  # type: ignore[attr-defined]
            slot = len(stock) - 1 - k
            if slot < 0:
                return
            if stock[slot] != card:
                if card in stock:
                    j = stock.index(card)
                    stock[j], stock[slot] = stock[slot], stock[j]
                else:
                    for seat, hand in enumerate(game.hands):
                        if seat != me and card in hand:
                            hand[hand.index(card)] = stock[slot]
                            stock[slot] = card
                            break
            k += 1
