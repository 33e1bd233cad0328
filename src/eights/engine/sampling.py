"""Determinization: a full game consistent with one seat's view, hidden cards sampled.

Search bots never see the real game. They get a ``View`` and call ``sample(view, rng)``:
the seat's own hand, the discard pile and every public field are copied; the cards the
seat has not seen are dealt at random to the other hands (at their known sizes) and the
stock, except cards the seat knows the place of (a card it gave away in a blind swap).
The sampled game has its own RNG, drawn from ``rng``: future shuffles are unknown too.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from eights.cards import ALL_CARDS, Card
from eights.engine.events import (
    CardBuried,
    CardPlayed,
    CardsDrawn,
    CardsSwapped,
    GuaranteeJoker,
    JackDropped,
    RoundStarted,
    SuicideKing,
)
from eights.engine.game import Game, shuffle
from eights.engine.tables import Tables, tables_for
from eights.engine.views import View
from eights.engine.views import view as view_of


def known_cards(view: View) -> dict[int, Counter[Card]]:
    """Cards the seat knows to be in other hands: those it gave away in a swap, until played."""
    known: dict[int, Counter[Card]] = {}
    for event in view.history:
        if isinstance(event, CardsSwapped):
            if event.seat == view.seat and event.gave is not None:
                known.setdefault(event.target, Counter())[event.gave] += 1
            elif event.target == view.seat and event.got is not None:
                known.setdefault(event.seat, Counter())[event.got] += 1
            for other in (event.seat, event.target):
                if other != view.seat and event.gave is None:
                    known.pop(other, None)  # a swap the seat did not see: forget that hand
        elif isinstance(event, CardPlayed | JackDropped | CardBuried):
            cards = known.get(event.seat)
            if cards and cards[event.card]:
                cards[event.card] -= 1
        elif isinstance(event, SuicideKing):
            known.clear()
        elif isinstance(event, CardsDrawn) and event.reason != "draw" and view.public is not None:
            hoarder = dict(view.public.fields).get("hoarder", -1)
            if isinstance(hoarder, int) and hoarder >= 0:
                known.pop(hoarder, None)  # cards taken at random from the hoarder
    return {seat: +cards for seat, cards in known.items() if seat != view.seat}


def lacking_mask(t: Tables, lacking: int) -> bytes:
    """The cards a forced draw showed its drawer did not hold: ``CardsDrawn.lacking``'s row of
    the match table, less the cards a player may hold back."""
    row = t.match[lacking]
    if not t.has_exempt:
        return bytes(row)
    return bytes(r and not x for r, x in zip(row, t.exempt, strict=True))


def draw_constraints(view: View) -> dict[int, list[tuple[bytes, int]]]:
    """What the seat can infer from the others' forced draws this round.

    A forced draw is public: it shows that the drawer held no card that matched (or
    followed), but for cards that may be held back (``CardsDrawn.lacking``). A card
    still held now that was already held at several forced draws matched none of
    them. For each other seat, layers from its oldest forced draw to its last: a
    mask of the cards its cards of that layer cannot be (every draw since, the
    layer's included, ruled them out), and how many of its cards come from that
    layer at least (the hand's size at the draw, less the cards laid since and the
    older layers). A blind swap, the Suicide King and the Guarantee Joker make a
    hand unknown again.
    """
    seat_me = view.seat
    t = tables_for(view.rules)
    counts = [0] * view.players
    # seat: one (mask, cards then) per forced draw, oldest first, and the cards laid since each
    found: dict[int, list[tuple[bytes, int]]] = {}
    since: dict[int, list[int]] = {}

    def laid(seat: int, k: int) -> None:
        counts[seat] -= k
        laid_since = since.get(seat, [])
        for i in range(len(laid_since)):
            laid_since[i] += k

    for event in view.history:
        if isinstance(event, CardPlayed):
            laid(event.seat, 1 + len(event.stack))
        elif isinstance(event, JackDropped | CardBuried):
            laid(event.seat, 1)
        elif isinstance(event, CardsDrawn):
            if event.lacking >= 0:
                found.setdefault(event.seat, []).append((lacking_mask(t, event.lacking), counts[event.seat]))
                since.setdefault(event.seat, []).append(0)
            counts[event.seat] += event.count
        elif isinstance(event, RoundStarted):
            counts = [event.hand_size] * view.players
            found.clear()
            since.clear()
        elif isinstance(event, CardsSwapped):
            for seat in (event.seat, event.target):
                found.pop(seat, None)
                since.pop(seat, None)
        elif isinstance(event, SuicideKing):
            counts = [view.rules.deal] * view.players
            found.clear()
            since.clear()
        elif isinstance(event, GuaranteeJoker):
            return {}
    out: dict[int, list[tuple[bytes, int]]] = {}
    for seat, draws in found.items():
        if seat == seat_me:
            continue
        # Each draw's mask joins every older draw's: the newest first.
        unions: list[bytes] = []
        union = bytes(len(draws[0][0]))
        for mask, _ in reversed(draws):
            union = bytes(a or b for a, b in zip(union, mask, strict=True))
            unions.append(union)
        unions.reverse()
        layers: list[tuple[bytes, int]] = []
        older = 0  # cards counted in older layers
        for union, (_, then), gone in zip(unions, draws, since[seat], strict=True):
            held = then - gone
            if held > older:
                layers.append((union, held - older))
                older = held
        if layers:
            out[seat] = layers
    return out


def sample(view: View, rng: random.Random) -> Game:
    """A game consistent with ``view``: what the seat knows is exact, the rest at random.

    :raises ValueError: for a spectator's view (no seat) or a view without public state.
    """
    if view.seat is None or view.public is None:
        raise ValueError("sampling needs a seat's view")
    public = view.public
    game = Game.__new__(Game)
    game.rules = view.rules
    game.players = view.players
    game.t = tables_for(view.rules)
    for name, value in public.fields:
        setattr(game, name, value)
    game.totals = list(public.totals)
    game.queue = list(public.queue)
    game.jack_queue = list(public.jack_queue)
    game.drawn = public.drawn
    game.discard = list(view.discard)
    return _deal(game, view.seat, list(view.hand), view.hand_counts, known_cards(view), rng)


def seat_world(game: Game, seat: int, rng: random.Random) -> Game:
    """``sample(view(game, seat), rng)``, the same world from the same random state, without the view.

    For a search, which asks for many: the public fields and the seat's hand are read from
    ``game`` as ``view`` reads them, and the rest is dealt by the code ``sample`` deals with.
    Where a blind swap in the log may have shown the seat a card of another hand
    (``known_cards``), the world is sampled from the view.
    """
    if game.log and any(type(event) is CardsSwapped for event in game.log):
        return sample(view_of(game, seat), rng)
    world = game.shallow_copy()
    world.totals = game.totals[:]
    world.queue = game.queue[:]
    world.jack_queue = game.jack_queue[:]
    world.drawn = game.drawn if seat == game.to_act else -1
    world.discard = game.discard[:]
    return _deal(world, seat, game.hands[seat][:], [len(h) for h in game.hands], {}, rng)


def _deal(
    game: Game,
    seat: int,
    own: list[Card],
    counts: Sequence[int],
    known: dict[int, Counter[Card]],
    rng: random.Random,
) -> Game:
    """Finish ``game``, whose public fields, discard pile and drawn card are set: ``own`` is the
    seat's hand, ``known`` the cards it knows in other hands; the rest is dealt from ``rng``."""
    n = game.players
    game.seed = rng.getrandbits(48)
    game.rng = random.Random(game.seed)
    game.log = None
    game.actions = []
    game.first_deck = None
    game.outcome = None
    game.last_round = None
    # The cards nobody has seen, counted by card id; listed in the pack's order, each as often as unseen.
    deck = game.t.deck(n)[0]
    pool = [0] * len(ALL_CARDS)
    for card in deck:
        pool[card] += 1
    for card in own:
        pool[card] -= 1
    for card in game.discard:
        pool[card] -= 1
    hands: list[list[Card]] = [[] for _ in range(n)]
    hands[seat] = own
    for other, cards in known.items():
        hand: list[Card] = []
        for card, count in cards.items():
            hand += [card] * min(count, pool[card])
        del hand[counts[other] :]
        for card in hand:
            pool[card] -= 1
        hands[other] = hand
    unseen: list[Card] = []
    for card in dict.fromkeys(deck):
        if pool[card] > 0:
            unseen += [card] * pool[card]
    shuffle(rng, unseen)
    for other in range(n):
        if other != seat:
            need = counts[other] - len(hands[other])
            hands[other] += unseen[:need]
            del unseen[:need]
    game.hands = hands
    game.stock = unseen
    return game
