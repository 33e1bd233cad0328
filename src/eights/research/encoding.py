"""Numbers for learning agents: a fixed action space per rule set and a seat's view as a vector.

The PettingZoo environment (``eights.research.pettingzoo``), the OpenSpiel game (``eights.research.openspiel``), the
batched environment (``eights.research.batch``) and the Gymnasium one (``eights.research.gymnasium``) all read the game
through this module, so an action has one number and an observation one layout in all of them.
Standard library only: the wrappers turn the lists and buffers into arrays.

The action space (``ActionSpace(rules, players)``) is fixed for a rule set and a player count.
It lists, in this order:

1. a play of each card the pack holds (card id order: ``AC AD AH AS 2C ... KS JK GJ``, only
   those in the pack); a jack dropped after a queen is such a play too;
2. where stacking is on, every stacked play the pack allows: for each top card, every choice
   of cards of its rank to lay under it (at most the copies the pack holds), in card order;
3. ``draw``, then ``pass``;
4. naming each suit, clubs, diamonds, hearts, spades;
5. where four in a row is played, burying each card the pack holds;
6. where a card lets its player choose a player (``choose_draw``, ``swap``), choosing each seat.

The observation (``encode(view, space)``) is a flat list of numbers built from the engine's one
redaction (``eights.engine.view``), never from the game itself. Seats are relative to the
observing seat: position 0 is the seat itself, 1 the next seat clockwise, and so on (a
spectator's view, ``seat`` None, is in table order). ``observation_layout(players)`` gives the
parts in order, each a name and a length:

==================  ============  ==========================================================
part                length        meaning
==================  ============  ==========================================================
hand                54            copies of each card id in the seat's hand
top                 54            the top card of the discard pile (one-hot)
active_suit         5             the suit to follow (C, D, H, S), or none: a joker waits
suit_named          1             1 when that suit was named after a wild
phase               11            what the seat to act faces (``eights.engine.game.PHASES``)
direction           1             1 clockwise, 0 counter-clockwise
to_act              n             the seat to act (one-hot, relative)
dealer              n             the dealer (one-hot, relative)
hand_counts         n             cards in each hand
chain               1             cards a pending chain of 2s makes the next player draw
follow_rank         15            the rank to follow after a 3 or 10 (index 0: none)
drawn               54            the card just drawn that may be played (own only)
stock               1             cards in the stock
discard_count       1             cards in the discard pile
round               1             the round being played (1-based)
rounds              1             the rounds a schedule plays (0: no schedule)
totals              n             each seat's match score
cancel_pending      1             a 3 waits to cancel the next card (baby-eating)
run_rank            15            the rank of a run towards four in a row (index 0: none)
run_length          1             its length
hoarder             n             the Guarantee Joker's victim while its hold lasts (one-hot)
combo_armed         1             the Guarantee Joker combo can still happen
played              n x 54        the cards each seat has laid this round (played, dropped, buried)
discard_pile        54            copies of each card in the discard pile
drawn_counts        n             cards each seat has drawn this round
named_suits         n x 4         the last suit each seat named this round (one-hot)
==================  ============  ==========================================================

Every number is 0 or more; counts are raw (not scaled), so a learner may scale them itself.

``encode`` builds the vector from a view, whose history is the round's whole log redacted for the
seat: the reference, and too slow to call at every step of a learner. ``eights.research.observer`` keeps
every seat's vector of one game up to date as it is played (``Observer``), says what a step brought the
seats (``step_rewards``) and steps many games at once (``Batch``); tests hold it equal to ``encode(view(
game, seat))`` at every step.

``table_text(game)`` is the table in plain lines as the seat to act sees it (PettingZoo's ansi
render, OpenSpiel's state string).
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import product
from typing import cast

from eights.cards import CARD_COUNT, RANKS, Card
from eights.engine import Action, Game, View, view
from eights.engine.actions import (
    BURY,
    CHOOSE,
    DRAW,
    NAME_SUIT,
    PASS,
    PLAY,
    Bury,
    ChoosePlayer,
    Draw,
    NameSuit,
    Pass,
    Play,
)
from eights.engine.events import (
    CardBuried,
    CardPlayed,
    CardsDrawn,
    JackDropped,
    SuitNamed,
)
from eights.engine.phases import PHASES
from eights.rules import RuleSet

#: Ranks run 1 (ace) to 14 (a joker): a one-hot of a rank has a slot 0 for none.
RANK_SLOTS = 15
#: The events the plain table repeats, the latest last.
RENDERED_EVENTS = 6
#: The effects that make a player choose a seat.
CHOOSING_EFFECTS = ("choose_draw", "swap")


class ActionSpace:
    """Every action a game of ``rules`` at ``players`` seats can offer, numbered (see the module docstring)."""

    __slots__ = ("_bury", "_choose", "_draw", "_pass", "_play", "_suit", "actions", "index", "players", "rules")

    def __init__(self, rules: RuleSet, players: int) -> None:
        """:raises RulesError: when ``players`` cannot play ``rules``."""
        counts = rules.pack_counts(players)
        actions: list[Action] = [PLAY[card] for card in counts]
        if rules.stacking:
            actions += stacked_plays(counts)
        actions += [DRAW, PASS, *NAME_SUIT]
        if rules.four_in_a_row:
            actions += [BURY[card] for card in counts]
        kinds = {effect.partition(":")[0] for _, effects in rules.effects for effect in effects}
        if kinds & set(CHOOSING_EFFECTS):
            actions += [CHOOSE[seat] for seat in range(players)]
        self.rules = rules
        self.players = players
        self.actions: tuple[Action, ...] = tuple(actions)
        self.index: dict[Action, int] = {action: i for i, action in enumerate(self.actions)}
        # The numbers of the actions that are one object each (``PLAY[card]``, ``DRAW``...), by card, suit
        # or seat (-1: not in this space), so that ``number`` finds them without hashing.
        found = self.index.get
        self._play = [found(PLAY[card], -1) for card in range(CARD_COUNT)]
        self._bury = [found(BURY[card], -1) for card in range(CARD_COUNT)]
        self._suit = [found(suit, -1) for suit in NAME_SUIT]
        self._choose = [found(CHOOSE[seat], -1) for seat in range(players)]
        self._draw = found(DRAW, -1)
        self._pass = found(PASS, -1)

    def __len__(self) -> int:
        return len(self.actions)

    def __reduce__(self) -> tuple[type[ActionSpace], tuple[RuleSet, int]]:
        # Made again from its rules (pickle and deepcopy; the compiled class has no other way).
        return (ActionSpace, (self.rules, self.players))

    def number(self, action: Action) -> int:
        """The action's number.

        :raises ValueError: for an action this rule set never offers.
        """
        kind = type(action)
        number = -1
        if kind is Play:
            play = cast(Play, action)
            number = self.index.get(play, -1) if play.stack else self._play[play.card]
        elif kind is Draw:
            number = self._draw
        elif kind is Pass:
            number = self._pass
        elif kind is NameSuit:
            number = self._suit[cast(NameSuit, action).suit]
        elif kind is Bury:
            number = self._bury[cast(Bury, action).card]
        elif kind is ChoosePlayer:
            seat = cast(ChoosePlayer, action).seat
            number = self._choose[seat] if seat < len(self._choose) else -1
        if number < 0:
            raise ValueError(f"{action} is not in the action space of {self.rules.name}")
        return number

    def mask(self, legal: Iterable[Action]) -> list[int]:
        """1 for each legal action's number, 0 elsewhere."""
        out = [0] * len(self.actions)
        for action in legal:
            out[self.number(action)] = 1
        return out


def stacked_plays(counts: dict[Card, int]) -> list[Action]:
    """Every play of two or more cards of one rank the pack (``counts``: copies of each card) allows:
    a top card, and under it any choice of the other copies of its rank (the engine's stacks)."""
    plays: list[Action] = []
    by_rank: dict[int, list[Card]] = {}
    for card in counts:
        by_rank.setdefault(RANKS[card], []).append(card)
    for cards in by_rank.values():
        for top in cards:
            others = [(c, counts[c] - (c == top)) for c in sorted(cards)]
            others = [(c, k) for c, k in others if k > 0]
            for picks in product(*(range(k + 1) for _, k in others)):
                stack = tuple(c for (c, _), k in zip(others, picks, strict=True) for _ in range(k))
                if stack:
                    plays.append(Play(top, stack))
    return plays


def observation_layout(players: int) -> list[tuple[str, int]]:
    """The observation's parts in order: (name, length); see the module docstring."""
    n = players
    return [
        ("hand", CARD_COUNT),
        ("top", CARD_COUNT),
        ("active_suit", 5),
        ("suit_named", 1),
        ("phase", len(PHASES)),
        ("direction", 1),
        ("to_act", n),
        ("dealer", n),
        ("hand_counts", n),
        ("chain", 1),
        ("follow_rank", RANK_SLOTS),
        ("drawn", CARD_COUNT),
        ("stock", 1),
        ("discard_count", 1),
        ("round", 1),
        ("rounds", 1),
        ("totals", n),
        ("cancel_pending", 1),
        ("run_rank", RANK_SLOTS),
        ("run_length", 1),
        ("hoarder", n),
        ("combo_armed", 1),
        ("played", n * CARD_COUNT),
        ("discard_pile", CARD_COUNT),
        ("drawn_counts", n),
        ("named_suits", n * 4),
    ]


def observation_size(players: int) -> int:
    return sum(size for _, size in observation_layout(players))


def encode(view: View) -> list[float]:
    """The seat's view as the vector ``observation_layout(view.players)`` describes."""
    n = view.players
    me = view.seat if view.seat is not None else 0

    def rel(seat: int) -> int:
        return (seat - me) % n

    def one_hot(size: int, at: int | None) -> list[float]:
        out = [0.0] * size
        if at is not None:
            out[at] = 1.0
        return out

    def seats(values: Iterable[float]) -> list[float]:
        out = [0.0] * n
        for seat, value in enumerate(values):
            out[rel(seat)] = float(value)
        return out

    hand = [0.0] * CARD_COUNT
    for card in view.hand:
        hand[card] += 1
    discard = [0.0] * CARD_COUNT
    for card in view.discard:
        discard[card] += 1
    played = [[0.0] * CARD_COUNT for _ in range(n)]
    drawn_counts = [0.0] * n
    named = [[0.0] * 4 for _ in range(n)]
    for event in view.history:
        if isinstance(event, CardPlayed):
            for card in (*event.stack, event.card):
                played[rel(event.seat)][card] += 1
        elif isinstance(event, JackDropped | CardBuried):
            played[rel(event.seat)][event.card] += 1
        elif isinstance(event, CardsDrawn):
            drawn_counts[rel(event.seat)] += event.count
        elif isinstance(event, SuitNamed):
            named[rel(event.seat)] = one_hot(4, int(event.suit))
    run_rank, run_length = view.run
    vector = [
        *hand,
        *one_hot(CARD_COUNT, view.top),
        *one_hot(5, int(view.active_suit) if view.active_suit is not None else 4),
        float(view.suit_named),
        *one_hot(len(PHASES), PHASES.index(view.phase)),
        1.0 if view.direction == 1 else 0.0,
        *one_hot(n, rel(view.to_act) if view.to_act >= 0 else None),
        *one_hot(n, rel(view.dealer)),
        *seats(view.hand_counts),
        float(view.chain),
        *one_hot(RANK_SLOTS, view.follow_rank or 0),
        *one_hot(CARD_COUNT, view.drawn),
        float(view.stock_count),
        float(view.discard_count),
        float(view.round),
        float(view.rounds or 0),
        *seats(view.totals),
        float(view.cancel_pending),
        *one_hot(RANK_SLOTS, run_rank),
        float(run_length),
        *one_hot(n, rel(view.guarantee_hoarder) if view.guarantee_hoarder is not None else None),
        float(view.combo_armed),
        *(x for row in played for x in row),
        *discard,
        *drawn_counts,
        *(x for row in named for x in row),
    ]
    return vector


def table_text(game: Game) -> str:
    """The table as the seat to act sees it (a spectator's once the game is over), in plain lines."""
    seat = game.to_act if game.to_act >= 0 else None
    v = view(game, seat)
    rules = v.rules
    way = "clockwise" if v.direction == 1 else "counter-clockwise"
    suit = v.active_suit.name.lower() if v.active_suit is not None else "a suit to be named"
    rounds = f" of {v.rounds}" if v.rounds else ""
    lines = [f"{rules.title}: round {v.round}{rounds}, {v.players} players, play goes {way}"]
    lines.append(
        f"Top card {v.top.pretty()}, suit to follow {suit}{' (named)' if v.suit_named else ''}; "
        f"stock {v.stock_count}, discard pile {v.discard_count}"
    )
    if v.chain:
        lines.append(f"A chain of 2s is pending: {v.chain} cards.")
    for other in range(v.players):
        marks = (" dealer" if other == v.dealer else "") + (" to act" if other == v.to_act else "")
        cards = v.hand_counts[other]
        lines.append(f"  seat {other}: {cards} card{'' if cards == 1 else 's'}, score {v.totals[other]}{marks}")
    if seat is not None:
        lines.append(f"Seat {seat}'s hand: {' '.join(c.pretty() for c in sorted(v.hand)) or 'empty'}")
        lines.append(f"Phase {v.phase}; legal: {', '.join(str(a) for a in v.legal)}")
    else:
        lines.append(f"Game over: winners {', '.join(f'seat {w}' for w in v.winners or ())}")
    lines += [f"  {event.words()}" for event in v.history[-RENDERED_EVENTS:]]
    return "\n".join(lines)


__all__ = [
    "ActionSpace",
    "encode",
    "observation_layout",
    "observation_size",
    "stacked_plays",
    "table_text",
]
