"""The game: one match of any preset, as a deterministic state machine.

``Game(rules, players, seed=...)`` deals the first round; ``legal_actions()``
lists what the player to act may do; ``play(action)`` is the checked door (it
raises an ``IllegalAction`` naming the rule and leaves the game untouched) and
``apply(action)`` the unchecked fast path for search. Rounds follow each other by
themselves: scoring, dealer rotation and the match end happen inside ``apply``.

All randomness (first dealer, shuffles, reshuffles) comes from the game's own
``random.Random``; the same seed and actions replay the same game.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import product

from eights.cards import RANKS, SUITS, Card, Suit, format_cards, rank_text
from eights.engine import errors
from eights.engine.actions import DRAW, NAME_SUIT, PASS, PLAY, Action, Draw, NameSuit, Play
from eights.engine.events import (
    CardPlayed,
    CardsDrawn,
    ChainGrew,
    DirectionReversed,
    Event,
    FollowMe,
    GameOver,
    Passed,
    PlayerSkipped,
    Reshuffled,
    RoundOver,
    RoundStarted,
    StarterBuried,
    StarterTurned,
    SuitNamed,
)
from eights.engine.tables import NAMED, ONE_ENDS_TURN, ONE_MAY_PLAY, UP_TO_N, Tables, tables_for
from eights.match import Outcome, match_over, match_winners, round_points
from eights.rules import RulesError, RuleSet

# Phases of a turn.
PLAY_PHASE = 0  # the player to act plays, draws or passes
SUIT_PHASE = 1  # a wild was laid: its player names a suit
DRAWN_PHASE = 2  # a drawn card is playable: play it or pass (draw one, may play)
FOLLOW_PHASE = 3  # after a 3 or 10: more of its rank, or a follow-me card
FOLLOW_DRAWN_PHASE = 4  # the card drawn to follow does follow: it must be played
OVER_PHASE = 5
PHASES = ("play", "name_suit", "play_drawn", "follow", "follow_drawn", "over")


class Game:
    """A match in progress. See the module docstring."""

    __slots__ = (
        "actions",
        "active_suit",
        "chain",
        "dealer",
        "direction",
        "discard",
        "drawn",
        "draws",
        "first_dealer",
        "first_deck",
        "follow_rank",
        "hands",
        "last_round",
        "log",
        "match_rank",
        "outcome",
        "packs",
        "passes",
        "pending",
        "phase",
        "players",
        "rng",
        "round_actions",
        "round_index",
        "rules",
        "seed",
        "stock",
        "t",
        "totals",
        "turn",
    )

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
    turn: int
    direction: int
    phase: int
    active_suit: int
    match_rank: int
    chain: int
    follow_rank: int
    drawn: int
    draws: int
    passes: int
    pending: tuple[int, int, int]
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
        self.packs = rules.packs_for(players)
        self.rules = rules
        self.players = players
        self.seed = int.from_bytes(os.urandom(6), "big") if seed is None else seed
        self.rng = random.Random(self.seed)
        self.log = [] if log else None
        self.t = tables_for(rules)
        self.totals = [0] * players
        self.outcome = None
        self.last_round = None
        self.round_index = 0
        if dealer is None:
            dealer = self.rng.randrange(players)
        elif not 0 <= dealer < players:
            raise RulesError(f"dealer: {dealer} is not a seat; valid: 0-{players - 1}")
        self.dealer = self.first_dealer = dealer
        self.actions = []
        self.first_deck = None
        if deck is not None:
            deck = self._check_deck(deck)
            self.first_deck = tuple(deck)
        self._start_round(list(deck) if deck is not None else None)

    # ----- reading the state ------------------------------------------------

    @property
    def to_act(self) -> int:
        """The seat that must act now (-1 once the game is over)."""
        return -1 if self.phase == OVER_PHASE else self.turn

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

    def can_draw(self) -> bool:
        return bool(self.stock) or (self.t.reshuffle and len(self.discard) > 1)

    def playable(self, card: int) -> bool:
        """Whether ``card`` matches the top card now (rank, active suit, or wild)."""
        return bool(self.t.match[(self.match_rank + 1) * 5 + self.active_suit][card])

    def legal_actions(self) -> list[Action]:
        """Every action the player to act may take; empty once the game is over."""
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
            if t.stacking or self.packs > 1:
                plays = self._plays([c for c in hand if mask[c]], hand)
            else:
                plays = [PLAY[c] for c in hand if mask[c]]
            can_draw = bool(self.stock) or (t.reshuffle and len(self.discard) > 1)
            if t.policy == UP_TO_N and self.draws >= t.draw_limit:
                can_draw = False
                plays.append(PASS)
                return plays
            if plays:
                if can_draw and (t.draw_at_will or all(t.exempt[p.card] for p in plays if isinstance(p, Play))):
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
                stack_cards = tuple(c for (c, _), k in zip(others, picks, strict=False) for _ in range(k))
                plays.append(Play(top, stack_cards) if stack_cards else PLAY[top])
        return plays

    # ----- the checked door -------------------------------------------------

    def play(self, action: Action | str, seat: int | None = None) -> list[Event]:
        """Apply an action after checking it; returns the events it caused.

        :raises IllegalAction: (a subclass naming the rule) and leaves the game as it was.
        """
        if isinstance(action, str):
            from eights.engine.actions import parse_action

            action = parse_action(action)
        if self.phase == OVER_PHASE:
            raise errors.GameIsOver("the game is over: no more actions")
        if seat is not None and seat != self.turn:
            raise errors.NotYourTurn(f"it is seat {self.turn}'s turn, not seat {seat}'s")
        legal = self.legal_actions()
        if action not in legal:
            raise self._explain(action, legal)
        start = len(self.log) if self.log is not None else 0
        self.apply(action)
        return self.log[start:] if self.log is not None else []

    def _explain(self, action: Action, legal: list[Action]) -> errors.IllegalAction:
        listed = ", ".join(str(a) for a in legal)
        hand = self.hands[self.turn]
        tail = f" Legal now: {listed}."
        if self.phase == SUIT_PHASE and not isinstance(action, NameSuit):
            return errors.MustNameSuit(f"a wild was played: name a suit first (suit C, D, H or S).{tail}")
        if isinstance(action, NameSuit):
            return errors.MustNameSuit(f"there is no wild to name a suit for.{tail}")
        if isinstance(action, Play):
            missing = Counter(action.cards) - Counter(hand)
            if missing:
                card = next(iter(missing))
                return errors.CardNotInHand(
                    f"you do not hold {card} (your hand: {format_cards(sorted(hand)) or 'empty'}).{tail}"
                )
            if action.stack and not self.t.stacking:
                return errors.BadStack(f"stacking is off in these rules: lay one card at a time.{tail}")
            if action.stack and any(RANKS[c] != RANKS[action.card] for c in action.stack):
                return errors.BadStack(f"stacked cards must all share the top card's rank.{tail}")
            if self.phase == FOLLOW_DRAWN_PHASE:
                return errors.MustPlayDrawn(f"you drew {Card(self.drawn)}, which follows: you must play it.{tail}")
            if self.phase == DRAWN_PHASE:
                return errors.MustPlayDrawn(
                    f"after drawing you may play only the card you drew, {Card(self.drawn)}, or pass.{tail}"
                )
            if self.phase == FOLLOW_PHASE:
                top = self.top
                return errors.MustFollow(
                    f"{action.card} does not follow {top}: lay another {rank_text(self.follow_rank)}, "
                    f"or a follow-me card ({Suit(self.active_suit).name.lower()} or an 8).{tail}"
                )
            if self.chain:
                return errors.MustAnswerChain(
                    f"a chain of 2s is pending ({self.chain} cards): play a 2 or draw the chain.{tail}"
                )
            return errors.CardNotPlayable(f"{action.card} does not match: {self._matching_words()}.{tail}")
        if isinstance(action, Draw):
            if self.phase in (DRAWN_PHASE, FOLLOW_DRAWN_PHASE):
                return errors.MustPlayDrawn(f"you have drawn this turn: play the drawn card or pass.{tail}")
            if not self.can_draw():
                return errors.CannotDraw(f"the stock is empty and cannot be refilled.{tail}")
            if self.phase == FOLLOW_PHASE:
                return errors.MustFollow(f"you hold a follow-me card and must play one (D20).{tail}")
            if self.rules.draw == "up_to_n":
                return errors.CannotDraw(f"you have drawn {self.draws} cards, the limit this turn.{tail}")
            return errors.MustPlay(f"you hold a playable card: you may draw only when you cannot play (D9).{tail}")
        return errors.CannotPass(f"you can still play or draw, so you cannot pass.{tail}")

    def _matching_words(self) -> str:
        suit = Suit(self.active_suit).name.lower()
        if self.match_rank == NAMED:
            return f"a wild named {suit}: play a {suit[:-1]} or a wild"
        return f"the top card is {self.top}: play a {suit[:-1]}, a {rank_text(self.match_rank)} or a wild"

    # ----- the unchecked fast path ------------------------------------------

    def apply(self, action: Action) -> None:
        """Apply a legal action without checking it (for search). An illegal one corrupts the game."""
        self.round_actions += 1
        if self.log is not None:
            self.actions.append(action)
        kind = type(action)
        if kind is Play:
            self._play(action)  # type: ignore[arg-type]
        elif kind is Draw:
            self._draw()
        elif kind is NameSuit:
            self._name_suit(action.suit)  # type: ignore[attr-defined]
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
        for c in stack:
            hand.remove(c)
            discard.append(c)
        hand.remove(card)
        discard.append(card)
        self.passes = 0
        if self.log is not None:
            self.log.append(CardPlayed(seat, card, stack))
        self.active_suit = SUITS[card]
        self.match_rank = RANKS[card]
        effect = self.t.effect[card]
        if effect is None:
            if hand:
                self._advance(0, 0, 0)
            else:
                self._round_over(seat, "out")
            return
        wild, skip, rev, draw, chain, follow = effect
        if stack:
            k = len(stack) + 1
            skip, rev, draw, chain = skip * k, rev * k, draw * k, chain * k
        if not hand:
            if follow and self.t.follow_blocks_out:
                self._follow(seat, card)
            elif chain and self.t.chain_survives_out:
                victim = (seat + self.direction) % self.players
                self._give(victim, self.chain + chain, "chain")
                self.chain = 0
                self._round_over(seat, "out")
            else:
                self._round_over(seat, "out")
            return
        if chain:
            self.chain += chain
            if self.log is not None:
                self.log.append(ChainGrew(self.chain))
        if follow:
            self._follow(seat, card)
        elif wild:
            self.phase = SUIT_PHASE
            self.pending = (skip, rev, draw)
        else:
            self._advance(skip, rev, draw)

    def _follow(self, seat: int, card: Card) -> None:
        self.phase = FOLLOW_PHASE
        self.follow_rank = RANKS[card]
        if self.log is not None:
            self.log.append(FollowMe(seat, card))

    def _name_suit(self, suit: int) -> None:
        self.active_suit = suit
        self.match_rank = NAMED
        if self.log is not None:
            self.log.append(SuitNamed(self.turn, Suit(suit)))
        self._advance(*self.pending)

    def _advance(self, skip: int, rev: int, draw: int) -> None:
        """End the turn: reverses, a draw card's victim, skips; then the next player."""
        n = self.players
        cur = self.turn
        log = self.log
        if rev:
            if rev & 1:
                self.direction = -self.direction
            if log is not None:
                for _ in range(rev):
                    log.append(DirectionReversed(self.direction))
        if draw:
            skip += 1
        d = self.direction
        if n == 2 and (skip or rev) and self.t.two_player_extra_turn:
            # D26: with two players any skip or reverse gives the same player another turn.
            if draw:
                self._give(1 - cur, draw, "penalty")
            if log is not None and skip:
                log.append(PlayerSkipped(1 - cur))
            nxt = cur
        elif skip:
            if draw:
                self._give((cur + d) % n, draw, "penalty")
            if log is not None:
                for i in range(1, skip + 1):
                    log.append(PlayerSkipped((cur + d * i) % n))
            nxt = (cur + d * (1 + skip)) % n
        else:
            nxt = (cur + d) % n
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
        card = self._take()
        self.hands[seat].append(card)
        self.passes = 0
        if self.log is not None:
            self.log.append(CardsDrawn(seat, 1, "draw", (card,)))
        phase = self.phase
        if phase == FOLLOW_PHASE:
            if SUITS[card] == self.active_suit or self.t.wild[card]:
                self.phase = FOLLOW_DRAWN_PHASE
                self.drawn = card
            else:
                self._advance(0, 0, 0)
            return
        policy = self.t.policy
        if policy == ONE_MAY_PLAY:
            if self.t.match[(self.match_rank + 1) * 5 + self.active_suit][card]:
                self.phase = DRAWN_PHASE
                self.drawn = card
            else:
                self._advance(0, 0, 0)
        elif policy == ONE_ENDS_TURN:
            self._advance(0, 0, 0)
        else:
            self.draws += 1

    def _pass(self) -> None:
        seat = self.turn
        if self.log is not None:
            self.log.append(Passed(seat))
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
        self.rng.shuffle(rest)
        self.stock.extend(rest)
        if self.log is not None:
            self.log.append(Reshuffled(len(rest)))

    def _give(self, seat: int, count: int, reason: str) -> int:
        """``seat`` draws up to ``count`` cards; fewer when the piles run out. Returns how many."""
        stock = self.stock
        got: list[Card] = []
        for _ in range(count):
            if not stock:
                if not (self.t.reshuffle and len(self.discard) > 1):
                    break
                self._reshuffle()
            got.append(stock.pop())
        self.hands[seat].extend(got)
        if self.log is not None:
            self.log.append(CardsDrawn(seat, len(got), reason, tuple(got)))
        return len(got)

    # ----- rounds and the match ---------------------------------------------

    def _check_deck(self, deck: Sequence[Card | str]) -> list[Card]:
        cards = [c if isinstance(c, Card) else Card.parse(c) for c in deck]
        extra = Counter(cards) - Counter(self.t.pack(self.packs))
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
            deck = t.pack(self.packs)
            self.rng.shuffle(deck)
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
        self.pending = (0, 0, 0)
        self.round_actions = 0
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
        self.match_rank = RANKS[starter]
        effect = t.starter_effect[starter]
        if effect is None:
            self.turn = (dealer + 1) % n
            return
        wild, skip, rev, draw, chain, _ = effect
        if chain:
            self.chain = chain
            if log is not None:
                log.append(ChainGrew(chain))
        if wild:
            self.phase = SUIT_PHASE  # the dealer names the suit; play starts at the dealer's left
            self.pending = (skip, rev, draw)
        elif rev and t.starter_reverse_dealer_first:
            self.direction = -1
            if log is not None:
                log.append(DirectionReversed(-1))
        else:
            self._advance(skip, rev, draw)  # D10: as if the dealer had played it

    def _round_over(self, out: int | None, reason: str) -> None:
        rules = self.rules
        points, winners = round_points(rules, self.t.values, self.hands, out)
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

    def clone(self, log: bool = False) -> Game:
        """An independent copy (without the event log unless asked), for search."""
        other = Game.__new__(Game)
        for name in (
            "rules",
            "players",
            "seed",
            "packs",
            "t",
            "turn",
            "direction",
            "phase",
            "active_suit",
            "match_rank",
            "chain",
            "follow_rank",
            "drawn",
            "draws",
            "passes",
            "pending",
            "round_actions",
            "round_index",
            "dealer",
            "outcome",
            "last_round",
            "first_deck",
            "first_dealer",
        ):
            setattr(other, name, getattr(self, name))
        other.hands = [h[:] for h in self.hands]
        other.stock = self.stock[:]
        other.discard = self.discard[:]
        other.totals = self.totals[:]
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.log = list(self.log) if (log and self.log is not None) else ([] if log else None)
        other.actions = list(self.actions) if log else []
        return other

    def events(self, seat: int | None = None) -> Iterable[Event]:
        """The event log as ``seat`` may see it."""
        from eights.engine.events import redact

        return [redact(e, seat) for e in (self.log or [])]
