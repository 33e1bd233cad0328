"""The game: one match of any preset, as a deterministic state machine.

``Game(rules, players, seed=...)`` deals the first round; ``legal_actions()``
lists what the player to act may do; ``play(action)`` is the checked door (it
raises an ``IllegalAction`` naming the rule and leaves the game untouched) and
``apply(action)`` the unchecked fast path for search. Rounds follow each other by
themselves: scoring, dealer rotation and the match end happen inside ``apply``.

All randomness (first dealer, shuffles, reshuffles, a blind swap) comes from the
game's own ``random.Random``; the same seed and actions replay the same game.

Most choices belong to the player whose turn it is (``turn``); some belong to
others (jacks dropped after a queen, cards buried after four in a row):
``to_act`` is always the seat that must act now.

Kept whole, past the package's 600 lines, for a reason: the compiled build (mypyc) makes ``Game`` one
native class whose rule steps call each other directly and read its fields as C slots; spread over
modules or mixins, every step of a search would go back through Python's attribute lookups. Its English
lives apart (``eights.engine.explain``), and its phases (``eights.engine.phases``).
"""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import product
from typing import Final, TypeVar, cast

from eights.cards import RANKS as _RANKS
from eights.cards import SUITS as _SUITS
from eights.cards import Card, Suit
from eights.engine import errors
from eights.engine.actions import (
    ACTION_FORMS,
    BURY,
    CHOOSE,
    DRAW,
    NAME_SUIT,
    PASS,
    PLAY,
    Action,
    ActionError,
    Bury,
    ChoosePlayer,
    Draw,
    NameSuit,
    Play,
)
from eights.engine.events import (
    Cancelled,
    CardBuried,
    CardPlayed,
    CardsDrawn,
    CardsSwapped,
    ChainGrew,
    DirectionReversed,
    Event,
    FollowMe,
    FourInARow,
    GameOver,
    GuaranteeEnded,
    GuaranteeJoker,
    JackDropped,
    Passed,
    PlayerSkipped,
    Reshuffled,
    RoundOver,
    RoundStarted,
    StarterBuried,
    StarterTurned,
    SuicideKing,
    SuitNamed,
)
from eights.engine.explain import explain
from eights.engine.phases import (
    BURY_PHASE,
    CHOOSE_DRAW_PHASE,
    CHOOSE_SWAP_PHASE,
    DRAWN_PHASE,
    EXTRA_PHASE,
    FOLLOW_DRAWN_PHASE,
    FOLLOW_PHASE,
    JACK_PHASE,
    OVER_PHASE,
    PHASES,
    PLAY_PHASE,
    SUIT_PHASE,
)
from eights.engine.tables import EXACT, NAMED, ONE_ENDS_TURN, ONE_MAY_PLAY, UP_TO_N, Effect, Tables, tables_for
from eights.rules import RulesError, RuleSet
from eights.rules.scoring import Outcome, match_over, match_winners, round_points

NO_PENDING: Final = (0, 0, 0, 0, 0)
_T = TypeVar("_T")
# Final names: the compiled build reads them as constants, not as module attributes.
RANKS: Final = _RANKS
SUITS: Final = _SUITS
#: Every field of a game (its ``__slots__``; a compiled class does not keep that attribute).
FIELDS = (
    "actions",
    "active_suit",
    "armed",
    "cancel",
    "chain",
    "choose_count",
    "dealer",
    "direction",
    "discard",
    "drawn",
    "draws",
    "dupes",
    "first_dealer",
    "first_deck",
    "follow_rank",
    "hands",
    "hoarder",
    "jack_owner",
    "jack_queue",
    "last_round",
    "log",
    "match_rank",
    "outcome",
    "packs",
    "passes",
    "pending",
    "phase",
    "players",
    "queue",
    "resume",
    "rng",
    "round_actions",
    "round_index",
    "rules",
    "run_len",
    "run_number",
    "seed",
    "stock",
    "t",
    "top_player",
    "totals",
    "turn",
)


def shuffle(rng: random.Random, cards: list[_T]) -> None:
    """``rng.shuffle(cards)``: the same order from the same state of ``rng``.

    For a plain ``random.Random`` this is its own algorithm (``Random.shuffle`` over
    ``_randbelow_with_getrandbits``) written out, so that the compiled build runs it without a
    Python call per card; any other random source shuffles by its own method.
    """
    if type(rng) is not random.Random:
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def randbelow(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for ``n`` of 1 or more: the same number from the same state of ``rng``.

    For a plain ``random.Random`` this is its own algorithm (``_randbelow_with_getrandbits``)
    written out, as ``shuffle`` does, so that the compiled build runs it without a Python call.
    """
    if type(rng) is not random.Random:
        return rng.randrange(n)
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


class Game:
    """A match in progress. See the module docstring."""

    __slots__ = FIELDS

    rules: RuleSet
    players: int
    seed: int
    packs: int
    rng: random.Random
    log: list[Event] | None
    t: Tables
    hands: list[list[Card]]
    stock: list[Card]
    discard: list[Card]
    #: The seat whose turn it is (the seat to act, but for out-of-turn choices).
    turn: int
    direction: int
    phase: int
    active_suit: int
    #: The rank class a card must match (``NAMED`` after a wild, ``EXACT + rank`` after a 3).
    match_rank: int
    chain: int
    follow_rank: int
    drawn: int
    draws: int
    passes: int
    #: A wild's remaining effects, applied once its suit is named: skip, reverse, draw, penalty, ally.
    pending: tuple[int, int, int, int, int]
    round_actions: int
    round_index: int
    dealer: int
    totals: list[int]
    outcome: Outcome | None
    last_round: RoundOver | None
    #: Every action applied, kept while the game keeps its event log (for records).
    actions: list[Action]
    first_deck: tuple[Card, ...] | None
    first_dealer: int
    #: A 3 is on top: the next card played has no effect (baby-eating).
    cancel: int
    run_number: int
    run_len: int
    #: The seat that laid the top card (-1: the starter).
    top_player: int
    #: The Guarantee Joker's victim while its hold lasts, else -1; ``armed`` while the combo can happen.
    hoarder: int
    armed: bool
    #: Seats still to bury after four in a row, and still to drop jacks; the first acts.
    queue: list[int]
    jack_queue: list[int]
    #: Whether a hand may hold equal cards (several packs): legal plays are then deduplicated.
    dupes: bool
    #: What resumes after burying: the fourth card's effect, or the jack drop.
    resume: tuple[int, int, int, int] | None
    jack_owner: int
    choose_count: int

    def __new__(cls, *args: object, **kwargs: object) -> Game:
        # Spelled out so that ``Game.__new__(Game)`` makes an empty game in the compiled build too
        # (a compiled class's default ``__new__`` runs ``__init__``): copies, samples and pickle use it.
        return super().__new__(cls)

    def __init__(
        self,
        rules: RuleSet,
        players: int,
        seed: int | None = None,
        *,
        deck: Sequence[Card] | None = None,
        dealer: int | None = None,
        log: bool = True,
    ) -> None:
        """Start a match and deal its first round.

        ``deck`` fixes the first round's pack order (top card first); it may be
        shorter than the full pack but holds no card more often than the pack
        does. ``dealer`` fixes the first dealer (else drawn from the seed).

        :raises RulesError: when the players, packs or deal cannot be played.
        """
        self.t = tables_for(rules)
        _, self.dupes, self.packs = self.t.deck(players)
        self.rules = rules
        self.players = players
        self.seed = int.from_bytes(os.urandom(6), "big") if seed is None else seed
        self.rng = random.Random(self.seed)
        self.log = [] if log else None
        self.totals = [0] * players
        self.outcome = None
        self.last_round = None
        self.round_index = 0
        drawn_dealer = self.rng.randrange(players)  # drawn even when fixed, so the shuffles do not depend on it
        if dealer is None:
            dealer = drawn_dealer
        elif not 0 <= dealer < players:
            raise RulesError(f"dealer: {dealer} is not a seat; valid: 0-{players - 1}")
        self.dealer = self.first_dealer = dealer
        self.actions = []
        self.armed = True
        self.first_deck = None
        if deck is not None:
            deck = self._check_deck(deck)
            self.first_deck = tuple(deck)
        self._start_round(list(deck) if deck is not None else None)

    # ----- reading the state ------------------------------------------------

    @property
    def to_act(self) -> int:
        """The seat that must act now (-1 once the game is over)."""
        phase = self.phase
        if phase == OVER_PHASE:
            return -1
        if phase == JACK_PHASE:
            return self.jack_queue[0]
        if phase == BURY_PHASE:
            return self.queue[0]
        return self.turn

    @property
    def is_over(self) -> bool:
        return self.phase == OVER_PHASE

    @property
    def top(self) -> Card:
        return self.discard[-1]

    @property
    def phase_name(self) -> str:
        return PHASES[self.phase]

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player this round."""
        return self.rules.hand_size(self.players, self.round_index)

    def ally(self, seat: int) -> int | None:
        """The seat's team-mate, in a team game (D32)."""
        return (seat + self.players // 2) % self.players if self.t.teams else None

    def can_draw(self) -> bool:
        return bool(self.stock) or (self.t.reshuffle and len(self.discard) > 1)

    def playable(self, card: int) -> bool:
        """Whether ``card`` matches the top card now (rank, active suit, or wild)."""
        return bool(self.t.match[(self.match_rank + 1) * 5 + self.active_suit][card])

    def legal_actions(self) -> list[Action]:
        """Every action the seat to act may take; empty once the game is over."""
        phase = self.phase
        t = self.t
        if phase == PLAY_PHASE:
            hand = self.hands[self.turn]
            if self.chain:
                mask = t.chain
                plays = self._plays([c for c in hand if mask[c]], hand)
                plays.append(DRAW)
                return plays
            mask = t.match[(self.match_rank + 1) * 5 + self.active_suit]
            if t.stacking or self.dupes:
                plays = self._plays([c for c in hand if mask[c]], hand)
            else:
                plays = [PLAY[c] for c in hand if mask[c]]
            if t.policy == UP_TO_N and self.draws >= t.draw_limit:
                plays.append(PASS)
                return plays
            # Under the Guarantee Joker's hold a player who cannot match is skipped instead of drawing.
            can_draw = self.hoarder < 0 and (bool(self.stock) or (t.reshuffle and len(self.discard) > 1))
            if plays:
                if t.has_exempt and all(t.exempt[p.card] for p in plays if isinstance(p, Play)):
                    # Only cards that may be held back: draw (or pass, with nothing to draw) instead.
                    plays.append(DRAW if can_draw else PASS)
                elif can_draw and t.draw_at_will:
                    plays.append(DRAW)
                return plays
            return [DRAW] if can_draw else [PASS]
        if phase == SUIT_PHASE:
            return list(NAME_SUIT)
        if phase == DRAWN_PHASE:
            drawn = self.drawn
            hand = self.hands[self.turn]
            if t.stacking:
                mask = t.match[(self.match_rank + 1) * 5 + self.active_suit]
                plays = [
                    p
                    for p in self._plays([c for c in hand if mask[c]], hand)
                    if isinstance(p, Play) and drawn in p.cards
                ]
            else:
                plays = [PLAY[drawn]]
            plays.append(PASS)
            return plays
        if phase == FOLLOW_PHASE:
            hand = self.hands[self.turn]
            suit, rank, wild = self.active_suit, self.follow_rank, t.wild
            follow = [c for c in hand if SUITS[c] == suit or wild[c]]
            plays = self._plays([c for c in hand if RANKS[c] == rank] + follow, hand, stack=False)
            if follow:
                return plays
            can_draw = bool(self.stock) or (t.reshuffle and len(self.discard) > 1)
            plays.append(DRAW if can_draw else PASS)
            return plays
        if phase == FOLLOW_DRAWN_PHASE:
            return [PLAY[self.drawn]]
        if phase == JACK_PHASE:
            jack = t.jack
            return [PLAY[c] for c in dict.fromkeys(self.hands[self.jack_queue[0]]) if jack[c]]
        if phase == BURY_PHASE:
            return [BURY[c] for c in dict.fromkeys(self.hands[self.queue[0]])]
        if phase == CHOOSE_DRAW_PHASE:
            return [CHOOSE[s] for s in range(self.players)]
        if phase == CHOOSE_SWAP_PHASE:
            return [CHOOSE[s] for s in range(self.players) if s != self.turn]
        if phase == EXTRA_PHASE:
            hand = self.hands[self.turn]
            mask = t.match[(self.match_rank + 1) * 5 + self.active_suit]
            plays = self._plays([c for c in hand if mask[c]], hand)
            if not plays or all(t.exempt[p.card] for p in plays if isinstance(p, Play)):
                plays.append(PASS)
            return plays
        return []

    def _plays(self, playable: list[Card], hand: list[Card], stack: bool = True) -> list[Action]:
        """Play actions for these playable cards, without repeats; stacks when stacking is on."""
        tops = list(dict.fromkeys(playable))
        if not (stack and self.t.stacking):
            return [PLAY[c] for c in tops]
        plays: list[Action] = []
        counts = Counter(hand)
        for top in tops:
            others = [(c, counts[c] - (c == top)) for c in sorted(counts) if RANKS[c] == RANKS[top]]
            others = [(c, k) for c, k in others if k > 0]
            for picks in product(*(range(k + 1) for _, k in others)):
                stack_cards = tuple(c for (c, _), k in zip(others, picks, strict=True) for _ in range(k))
                plays.append(Play(top, stack_cards) if stack_cards else PLAY[top])
        return plays

    # ----- the checked door -------------------------------------------------

    def play(self, action: object, seat: int | None = None) -> list[Event]:
        """Apply an action (an ``Action`` or its text) after checking it; returns the events it caused.

        ``seat``, when given, must be the seat to act. The door takes any object, so that both builds
        (the compiled one checks its annotations) refuse what is no action alike.

        :raises ActionError: for anything that is not an action or its text, naming what was given.
        :raises IllegalAction: (a subclass naming the rule) and leaves the game as it was.
        """
        if isinstance(action, str):
            from eights.engine.actions import parse_action

            action = parse_action(action)
        elif not isinstance(action, Action):
            given = repr(action)
            given = given if len(given) <= 40 else given[:39] + "…"
            raise ActionError(
                f"{given} ({type(action).__name__}) is not an action: give an Action or its text; valid: {ACTION_FORMS}"
            )
        if self.phase == OVER_PHASE:
            raise errors.GameIsOver("the game is over: no more actions")
        acting = self.to_act
        if seat is not None and seat != acting:
            raise errors.NotYourTurn(f"seat {acting} must act now ({PHASES[self.phase]}), not seat {seat}")
        legal = self.legal_actions()
        if action not in legal:
            raise explain(self, action, legal)
        start = len(self.log) if self.log is not None else 0
        self.apply(action)
        return self.log[start:] if self.log is not None else []

    # ----- the unchecked fast path ------------------------------------------

    def apply(self, action: Action) -> None:
        """Apply a legal action without checking it (for search). An illegal one corrupts the game."""
        self.round_actions += 1
        if self.log is not None:
            self.actions.append(action)
        kind = type(action)
        if kind is Play:
            if self.phase == JACK_PHASE:
                self._drop_jack(cast(Play, action).card)
            else:
                self._play(cast(Play, action))
        elif kind is Draw:
            self._draw()
        elif kind is NameSuit:
            self._name_suit(cast(NameSuit, action).suit)
        elif kind is Bury:
            self._bury(cast(Bury, action).card)
        elif kind is ChoosePlayer:
            self._choose(cast(ChoosePlayer, action).seat)
        else:
            self._pass()
        if self.round_actions >= self.t.max_actions and self.phase != OVER_PHASE:
            self._round_over(None, "cap")

    def _play(self, action: Play) -> None:
        seat = self.turn
        hand = self.hands[seat]
        discard = self.discard
        card = action.card
        stack = action.stack
        t = self.t
        for c in stack:
            hand.remove(c)
            discard.append(c)
        hand.remove(card)
        discard.append(card)
        self.passes = 0
        log = self.log
        if log is not None:
            log.append(CardPlayed(seat, card, stack))
        self.active_suit = SUITS[card]
        cancelled = self.cancel
        if cancelled:
            # D24: the card on a 3 has no effect; a 6 or 9 on it matches only its own rank.
            self.cancel = 0
            self.match_rank = EXACT + RANKS[card]
            if log is not None and t.effect[card] is not None:
                log.append(Cancelled(card))
        else:
            self.match_rank = t.rank_class[card]
        effect = t.effect[card]
        previous_player = self.top_player
        self.top_player = seat
        if t.guarantee_joker and card == 53 and self.armed and discard[-2] == 52 and 0 <= previous_player != seat:
            self._guarantee(previous_player)
        elif self.hoarder >= 0:
            self._check_hold()
        if not hand:
            if effect is not None and not cancelled:
                if effect[5] and t.follow_blocks_out:
                    self._follow(seat, card)
                    return
                if effect[4] and t.chain_survives_out:
                    victim = (seat + self.direction) % self.players
                    self._give(victim, self.chain + effect[4] * (len(stack) + 1), "chain")
                    self.chain = 0
            self._round_over(seat, "out")
            return
        if t.four_in_a_row and self._run(seat, card, len(stack) + 1):
            self.resume = (0, seat, int(card), (len(stack) + 1) * 2 + cancelled)
            return
        if effect is None:
            self._advance(0, 0, 0)
        else:
            self._effects(seat, card, effect, cancelled, len(stack) + 1)

    def _effects(self, seat: int, card: Card, effect: Effect, cancelled: int, k: int) -> None:
        """Resolve a laid card's effects (``k`` cards of it, stacked)."""
        wild, skip, rev, draw, chain, follow, penalty, choose, swap, extra, jacks, ally, suicide, cancel = effect
        if cancelled:
            if wild:
                self.phase = SUIT_PHASE  # a wild on a 3 still names its suit
                self.pending = NO_PENDING
            else:
                self._advance(0, 0, 0)
            return
        if k > 1:
            skip, rev, draw, chain, penalty = skip * k, rev * k, draw * k, chain * k, penalty * k
        if cancel:
            self.cancel = 1
        if chain:
            self.chain += chain
            if self.log is not None:
                self.log.append(ChainGrew(self.chain))
        if follow:
            self._follow(seat, card)
        elif suicide:
            self._suicide(seat)
            self._advance(0, 0, 0)
        elif jacks:
            n = self.players
            d = self.direction
            self.jack_queue = [(seat + d * i) % n for i in range(1, n + 1)]
            self.jack_owner = seat
            self._next_jack()
        elif choose:
            self.phase = CHOOSE_DRAW_PHASE
            self.choose_count = choose
        elif swap:
            self.phase = CHOOSE_SWAP_PHASE
        elif extra:
            if penalty:
                self._give((seat + self.direction) % self.players, penalty, "penalty")
            if self.phase != OVER_PHASE:
                self.phase = EXTRA_PHASE
        elif wild:
            self.phase = SUIT_PHASE
            self.pending = (skip, rev, draw, penalty, ally)
        else:
            self._advance(skip, rev, draw, penalty, ally)

    def _follow(self, seat: int, card: Card) -> None:
        self.phase = FOLLOW_PHASE
        self.follow_rank = RANKS[card]
        if self.log is not None:
            self.log.append(FollowMe(seat, card))

    def _name_suit(self, suit: int) -> None:
        self.active_suit = int(suit)  # a plain int, as the compiled build stores it, not the Suit named
        self.match_rank = NAMED
        if self.log is not None:
            self.log.append(SuitNamed(self.turn, Suit(suit)))
        self._advance(*self.pending)

    def _advance(self, skip: int, rev: int, draw: int, penalty: int = 0, ally: int = 0) -> None:
        """End the turn: reverses, a draw card's victim, skips; then the next player."""
        n = self.players
        cur = self.turn
        log = self.log
        if rev:
            for _ in range(rev):
                self.direction = -self.direction
                if log is not None:
                    log.append(DirectionReversed(self.direction))
        if draw:
            skip += 1
        d = self.direction
        if ally and self.t.teams:
            nxt = (cur + n // 2) % n  # D32: a team K passes the turn straight to the ally
            if log is not None:
                for i in range(1, n // 2):
                    log.append(PlayerSkipped((cur + d * i) % n))
        elif n == 2 and (skip or rev) and self.t.two_player_extra_turn:
            # D26: with two players any skip or reverse gives the same player another turn.
            if draw or penalty:
                self._give(1 - cur, draw or penalty, "penalty")
            if log is not None and skip:
                log.append(PlayerSkipped(1 - cur))
            nxt = cur
        elif skip:
            if draw or penalty:
                self._give((cur + d) % n, draw or penalty, "penalty")
            if log is not None:
                for i in range(1, skip + 1):
                    if (cur + d * i) % n != cur:
                        log.append(PlayerSkipped((cur + d * i) % n))
            nxt = (cur + d * (1 + skip)) % n
        else:
            nxt = (cur + d) % n
            if penalty:
                self._give(nxt, penalty, "penalty")  # D23: the victim still plays their turn
        if self.phase == OVER_PHASE:
            return
        self.turn = nxt
        self.phase = PLAY_PHASE
        self.draws = 0
        self.drawn = -1

    def _draw(self) -> None:
        seat = self.turn
        if self.chain:
            got = self._give(seat, self.chain, "chain")
            self.chain = 0
            if got:
                self.passes = 0
            self._advance(0, 0, 0)
            return
        phase = self.phase
        if self.log is not None:
            # The draw is public: it shows the hand held no card that follows, or none that matches.
            if phase == FOLLOW_PHASE:
                lacking = (NAMED + 1) * 5 + self.active_suit
            else:
                lacking = -1 if self.t.draw_at_will else (self.match_rank + 1) * 5 + self.active_suit
        card = self._take()
        self.hands[seat].append(card)
        self.passes = 0
        if self.log is not None:
            self.log.append(CardsDrawn(seat, 1, "draw", (card,), lacking))
        if phase == FOLLOW_PHASE:
            if SUITS[card] == self.active_suit or self.t.wild[card]:
                self.phase = FOLLOW_DRAWN_PHASE
                self.drawn = int(card)
            else:
                self._advance(0, 0, 0)
            return
        policy = self.t.policy
        if policy == ONE_MAY_PLAY:
            if self.t.match[(self.match_rank + 1) * 5 + self.active_suit][card]:
                self.phase = DRAWN_PHASE
                self.drawn = int(card)
            else:
                self._advance(0, 0, 0)
        elif policy == ONE_ENDS_TURN:
            self._advance(0, 0, 0)
        else:
            self.draws += 1

    def _pass(self) -> None:
        seat = self.turn
        if self.log is not None:
            held = self.hoarder >= 0 and self.phase == PLAY_PHASE
            self.log.append(PlayerSkipped(seat) if held else Passed(seat))
        if self.phase == PLAY_PHASE and not self.draws:
            self.passes += 1
            if self.passes >= self.players:
                self._round_over(None, "blocked")
                return
        self._advance(0, 0, 0)

    def _take(self) -> Card:
        """The top card of the stock, reshuffling the discard pile first when it is empty."""
        stock = self.stock
        if not stock:
            self._reshuffle()
        return stock.pop()

    def _reshuffle(self) -> None:
        discard = self.discard
        rest = discard[:-1]
        del discard[:-1]
        shuffle(self.rng, rest)
        self.stock.extend(rest)
        if self.log is not None:
            self.log.append(Reshuffled(len(rest)))

    def _give(self, seat: int, count: int, reason: str) -> int:
        """``seat`` draws up to ``count`` cards; fewer when the piles run out. Returns how many.

        Under the Guarantee Joker's hold the cards come at random from the hoarder's hand.
        """
        got: list[Card] = []
        hoarder = self.hoarder
        if hoarder >= 0:
            source = self.hands[hoarder]
            if seat != hoarder:
                for _ in range(min(count, len(source))):
                    got.append(source.pop(self.rng.randrange(len(source))))
        else:
            stock = self.stock
            for _ in range(count):
                if not stock:
                    if not (self.t.reshuffle and len(self.discard) > 1):
                        break
                    self._reshuffle()
                got.append(stock.pop())
        self.hands[seat].extend(got)
        if self.log is not None:
            self.log.append(CardsDrawn(seat, len(got), reason, tuple(got)))
        if hoarder >= 0 and got and not self.hands[hoarder]:
            self._round_over(hoarder, "out")  # the hoarder's hand emptied: out, like any other
        return len(got)

    # ----- baby-eating's table-wide effects ----------------------------------

    def _run(self, seat: int, card: Card, k: int) -> bool:
        """Count four in a row (D30); on the fourth card start the burying and return True."""
        number = self.t.rank_class[card]
        if number == self.run_number:
            self.run_len += k
        else:
            self.run_number, self.run_len = number, k
        if self.run_len < 4:
            return False
        self.run_number, self.run_len = -1, 0
        n, d = self.players, self.direction
        self.queue = [(seat + d * i) % n for i in range(n)]
        self.phase = BURY_PHASE
        if self.log is not None:
            self.log.append(FourInARow(seat, RANKS[card]))
        return True

    def _bury(self, card: Card) -> None:
        seat = self.queue.pop(0)
        hand = self.hands[seat]
        hand.remove(card)
        self.discard.insert(0, card)
        if self.log is not None:
            self.log.append(CardBuried(seat, card))
        if not hand:
            self._round_over(seat, "out")
            return
        if self.hoarder >= 0:
            self._check_hold()
        if self.queue:
            return
        resume = self.resume
        self.resume = None
        assert resume is not None
        kind, owner, fourth, flags = resume
        if kind == 1:
            self._next_jack()
            return
        self.turn = owner
        self.phase = PLAY_PHASE
        effect = self.t.effect[fourth]
        if effect is None:
            self._advance(0, 0, 0)
        else:
            self._effects(owner, Card(fourth), effect, flags & 1, flags >> 1)

    def _next_jack(self) -> None:
        """Hand the jack drop to the next seat holding a jack, or end it (after the queen's player)."""
        queue = self.jack_queue
        jack = self.t.jack
        while queue and not any(jack[c] for c in self.hands[queue[0]]):
            queue.pop(0)
        if queue:
            self.phase = JACK_PHASE
            return
        self.turn = self.jack_owner
        self.phase = PLAY_PHASE
        self._advance(0, 0, 0)  # the next player matches the last jack dropped

    def _drop_jack(self, card: Card) -> None:
        seat = self.jack_queue[0]
        hand = self.hands[seat]
        hand.remove(card)
        self.discard.append(card)
        self.active_suit = SUITS[card]
        self.match_rank = self.t.rank_class[card]
        self.top_player = seat
        if self.log is not None:
            self.log.append(JackDropped(seat, card))
        if self.hoarder >= 0:
            self._check_hold()
        if not hand:
            self._round_over(seat, "out")
            return
        if self.t.four_in_a_row and self._run(seat, card, 1):
            self.resume = (1, self.jack_owner, int(card), 0)  # the drop goes on after the burying
            return
        self._next_jack()

    def _choose(self, target: int) -> None:
        seat = self.turn
        if self.phase == CHOOSE_DRAW_PHASE:
            self._give(target, self.choose_count, "chosen")
        else:
            mine, theirs = self.hands[seat], self.hands[target]
            # D46: both cards are picked from the hands as they stand, then swap at once.
            gave = mine.pop(self.rng.randrange(len(mine)))
            got = theirs.pop(self.rng.randrange(len(theirs)))
            mine.append(got)
            theirs.append(gave)
            if self.log is not None:
                self.log.append(CardsSwapped(seat, target, gave, got))
        if self.phase != OVER_PHASE:
            self._advance(0, 0, 0)

    def _suicide(self, seat: int) -> None:
        """The K of hearts: every other card shuffled, six dealt to each from the next player (D29)."""
        king = self.discard.pop()
        cards = self.stock + self.discard
        for hand in self.hands:
            cards += hand
            hand.clear()
        shuffle(self.rng, cards)
        n, d = self.players, self.direction
        size = self.rules.deal
        for _ in range(size):
            for i in range(1, n + 1):
                self.hands[(seat + d * i) % n].append(cards.pop())
        self.stock = cards
        self.discard = [king]
        if self.run_len:  # the K of hearts starts a new run, unless it just completed four in a row
            self.run_number, self.run_len = self.t.rank_class[king], 1
        if self.log is not None:
            self.log.append(SuicideKing(seat, tuple(tuple(h) for h in self.hands)))
        if self.hoarder >= 0:
            self.hoarder = -1
            if self.log is not None:
                self.log.append(GuaranteeEnded())
        self.armed = True  # D47

    def _guarantee(self, victim: int) -> None:
        """The Guarantee Joker combo (D31): the other joker's player takes the whole draw pile."""
        taken = self.stock[::-1]
        self.stock.clear()
        self.hands[victim].extend(taken)
        self.hoarder = victim
        self.armed = False
        if self.log is not None:
            self.log.append(GuaranteeJoker(victim, len(taken)))
        self._check_hold()

    def _check_hold(self) -> None:
        """End the Guarantee Joker's hold once the piles hold 3 cards per player."""
        if len(self.stock) + len(self.discard) >= 3 * self.players:
            self.hoarder = -1
            if self.log is not None:
                self.log.append(GuaranteeEnded())

    # ----- rounds and the match ---------------------------------------------

    def _check_deck(self, deck: Sequence[Card | str]) -> list[Card]:
        cards = [c if isinstance(c, Card) else Card.parse(c) for c in deck]
        extra = Counter(cards) - Counter(self.t.pack(self.players))
        if extra:
            card = next(iter(extra))
            raise RulesError(f"deck: {card} appears more often than the {self.packs} pack(s) hold it")
        need = self.players * self.hand_size + 1
        if len(cards) < need:
            raise RulesError(
                f"deck: {len(cards)} cards cannot deal {self.hand_size} to {self.players} players "
                f"and a starter ({need} needed)"
            )
        return cards

    def _start_round(self, deck: list[Card] | None = None) -> None:
        n = self.players
        t = self.t
        size = self.rules.hand_size(n, self.round_index)
        if deck is None:
            deck = list(t.deck(n)[0])
            shuffle(self.rng, deck)
        stock = deck[::-1]  # the top of the pack is the end of the list
        dealer = self.dealer
        hands: list[list[Card]] = [[] for _ in range(n)]
        for _ in range(size):
            for k in range(1, n + 1):
                hands[(dealer + k) % n].append(stock.pop())
        self.hands = hands
        self.stock = stock
        self.discard = []
        self.direction = 1
        self.chain = 0
        self.follow_rank = 0
        self.drawn = -1
        self.draws = 0
        self.passes = 0
        self.pending = NO_PENDING
        self.round_actions = 0
        self.cancel = 0
        self.run_number = -1
        self.run_len = 0
        self.top_player = -1
        self.hoarder = -1
        self.queue = []
        self.jack_queue = []
        self.resume = None
        self.jack_owner = -1
        self.choose_count = 0
        self.turn = dealer
        self.phase = PLAY_PHASE
        log = self.log
        if log is not None:
            log.append(RoundStarted(self.round_index + 1, dealer, size, tuple(tuple(h) for h in hands)))
        starter = stock.pop()
        if log is not None:
            log.append(StarterTurned(starter))
        # Burying (D34): back into the middle of the stock, and the next card turned.
        while t.bury[starter] and any(not t.bury[c] for c in stock):
            stock.insert(len(stock) - len(stock) // 2, starter)
            if log is not None:
                log.append(StarterBuried(starter))
            starter = stock.pop()
            if log is not None:
                log.append(StarterTurned(starter))
        self.discard.append(starter)
        # Turning over (derange's 3s and 10s): another card onto it while one shows.
        while t.turn_over[starter] and stock:
            starter = stock.pop()
            self.discard.append(starter)
            if log is not None:
                log.append(StarterTurned(starter))
        self.active_suit = SUITS[starter]
        self.match_rank = t.rank_class[starter]
        effect = t.starter_effect[starter]
        if effect is None:
            self.turn = (dealer + 1) % n
            return
        wild, skip, rev, draw, chain, _, penalty, _, _, _, _, _, _, cancel = effect
        if cancel:
            self.cancel = 1  # a starter 3 cancels the first card played on it
        if chain:
            self.chain = chain
            if log is not None:
                log.append(ChainGrew(chain))
        if wild:
            self.phase = SUIT_PHASE  # the dealer names the suit; play starts at the dealer's left
            self.pending = (skip, rev, draw, penalty, 0)
        elif rev and t.starter_reverse_dealer_first:
            self.direction = -1
            if log is not None:
                log.append(DirectionReversed(-1))
        else:
            self._advance(skip, rev, draw, penalty)  # D10: as if the dealer had played it

    def _round_over(self, out: int | None, reason: str) -> None:
        rules = self.rules
        points, winners = round_points(rules, self.t.values, self.hands, out)
        if self.t.teams:
            # D32: if either ally goes out (or holds the fewest cards), the team wins.
            half = self.players // 2
            winners = tuple(sorted({seat for w in winners for seat in (w, (w + half) % self.players)}))
        for seat, p in enumerate(points):
            self.totals[seat] += p
        self.round_index += 1
        event = RoundOver(
            self.round_index,
            reason,
            winners,
            tuple(tuple(h) for h in self.hands),
            points,
            tuple(self.totals),
        )
        self.last_round = event
        if self.log is not None:
            self.log.append(event)
        if match_over(rules, self.players, self.round_index, self.totals):
            final = match_winners(rules, self.round_index, self.totals, winners)
            self.outcome = Outcome(final, tuple(self.totals), self.round_index)
            self.phase = OVER_PHASE
            if self.log is not None:
                self.log.append(GameOver(final, tuple(self.totals)))
            return
        self.dealer = (self.dealer + 1) % self.players  # D1
        self._start_round()

    # ----- copies -------------------------------------------------------------

    def clone(self, log: bool = False, rng: random.Random | None = None) -> Game:
        """An independent copy (without the event log unless asked), for search.

        ``rng`` becomes the copy's random source; by default it gets a copy of this game's,
        in the same state.
        """
        other = self.shallow_copy()
        other.hands = [h[:] for h in self.hands]
        other.stock = self.stock[:]
        other.discard = self.discard[:]
        other.totals = self.totals[:]
        other.queue = self.queue[:]
        other.jack_queue = self.jack_queue[:]
        if rng is None:
            rng = random.Random.__new__(random.Random)  # unseeded: the state is set next
            rng.setstate(self.rng.getstate())
        other.rng = rng
        other.log = list(self.log) if (log and self.log is not None) else ([] if log else None)
        other.actions = list(self.actions) if log else []
        return other

    def shallow_copy(self) -> Game:
        """A new game sharing every field with this one, its lists too: the caller replaces those it changes."""
        other = Game.__new__(Game)
        other.actions = self.actions
        other.active_suit = self.active_suit
        other.armed = self.armed
        other.cancel = self.cancel
        other.chain = self.chain
        other.choose_count = self.choose_count
        other.dealer = self.dealer
        other.direction = self.direction
        other.discard = self.discard
        other.drawn = self.drawn
        other.draws = self.draws
        other.dupes = self.dupes
        other.first_dealer = self.first_dealer
        other.first_deck = self.first_deck
        other.follow_rank = self.follow_rank
        other.hands = self.hands
        other.hoarder = self.hoarder
        other.jack_owner = self.jack_owner
        other.jack_queue = self.jack_queue
        other.last_round = self.last_round
        other.log = self.log
        other.match_rank = self.match_rank
        other.outcome = self.outcome
        other.packs = self.packs
        other.passes = self.passes
        other.pending = self.pending
        other.phase = self.phase
        other.players = self.players
        other.queue = self.queue
        other.resume = self.resume
        other.rng = self.rng
        other.round_actions = self.round_actions
        other.round_index = self.round_index
        other.rules = self.rules
        other.run_len = self.run_len
        other.run_number = self.run_number
        other.seed = self.seed
        other.stock = self.stock
        other.t = self.t
        other.top_player = self.top_player
        other.totals = self.totals
        other.turn = self.turn
        return other

    def events(self, seat: int | None = None) -> Iterable[Event]:
        """The event log as ``seat`` may see it."""
        from eights.engine.events import redact

        return [redact(e, seat) for e in (self.log or [])]
