"""Observations at engine speed, for learners: ``Observer(space, game)`` keeps every seat's observation
(``eights.research.encoding``'s layout) of one game up to date as it is played, reading only what the log
gained and writing only the numbers that changed; ``step_rewards`` says what a step brought the seats, for the
rewards of ``REWARDS``: the match's outcome (``match_rewards``, general-sum or zero-sum) or each round's
points, and whether the rules' safety cap stopped the round; ``Batch`` steps many games with their observers
(``eights.research.batch``). The install compiles this module with the engine; tests hold each observation
equal to ``encode(view(game, seat))`` at every step.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from typing import Final, cast, final

from eights.cards import CARD_COUNT, RANKS, Card
from eights.engine import Action, Game
from eights.engine.events import (
    CardBuried,
    CardPlayed,
    CardsDrawn,
    Event,
    JackDropped,
    Reshuffled,
    RoundStarted,
    StarterBuried,
    StarterTurned,
    SuicideKing,
    SuitNamed,
)
from eights.engine.phases import FOLLOW_DRAWN_PHASE, FOLLOW_PHASE
from eights.engine.tables import NAMED
from eights.research.encoding import ActionSpace, observation_layout
from eights.rules import RuleSet

#: The parts of the observation an ``Observer`` keeps one value of each (a count, or where a one-hot's 1 is),
#: in its component order; then each seat's hand count and total.
_TOP: Final = 0
_SUIT: Final = 1
_NAMED: Final = 2
_PHASE: Final = 3
_DIRECTION: Final = 4
_TO_ACT: Final = 5
_DEALER: Final = 6
_CHAIN: Final = 7
_FOLLOW: Final = 8
_DRAWN: Final = 9
_STOCK: Final = 10
_DISCARD: Final = 11
_ROUND: Final = 12
_ROUNDS: Final = 13
_CANCEL: Final = 14
_RUN_RANK: Final = 15
_RUN_LENGTH: Final = 16
_HOARDER: Final = 17
_COMBO: Final = 18
_SCALARS: Final = 19
#: What a round's journal records of each event the observation counts: a card laid, cards drawn, a suit named.
_LAID: Final = 0
_DREW: Final = 1
_NAMED_SUIT: Final = 2
#: The events an ``Observer`` reads, by type (one lookup, not one per kind): those the journal counts,
#: a new round, and those after which the discard pile is counted afresh.
_PLAYED: Final = 0
_DRAWN_CARDS: Final = 1
_SUIT_NAMED: Final = 2
_DROPPED: Final = 3
_BURIED: Final = 4
_NEW_ROUND: Final = 5
_NEW_PILE: Final = 6
_OTHER: Final = 7
_EVENT_KINDS: Final[dict[type[Event], int]] = {
    CardPlayed: _PLAYED,
    CardsDrawn: _DRAWN_CARDS,
    SuitNamed: _SUIT_NAMED,
    JackDropped: _DROPPED,
    CardBuried: _BURIED,
    RoundStarted: _NEW_ROUND,
    Reshuffled: _NEW_PILE,
    SuicideKing: _NEW_PILE,
    StarterTurned: _NEW_PILE,
    StarterBuried: _NEW_PILE,
}
#: Final names: the compiled build reads them as constants, not as module attributes.
_CARDS: Final = CARD_COUNT
_RANKS: Final = RANKS


@final
class Observer:
    """Every seat's observation of one game, and the mask of the legal actions, kept up to date as it is
    played: after ``refresh(seat)``, row ``seat`` of ``rows`` (``players`` rows of ``size`` float32 numbers)
    holds ``encode(view(game, seat))``, and ``mask`` (a byte per action number) ``space.mask(legal)``.

    ``encode`` reads a view, whose history is the round's whole log redacted for the seat; this reads
    only the events appended since the last call (the public part of each: the seat, the cards laid,
    how many were drawn, the suit named, which no redaction hides), the seat's own hand, and the public
    fields a view shows, and writes only the numbers that changed. ``tests/research/test_encoding.py`` holds it
    equal to ``encode(view(game, seat))`` at every step of random games of every preset, and unchanged
    when only cards the seat cannot see change; the install compiles it with the engine.

    It follows ``game`` through any door (``apply``, ``play``, or ``play`` here); a log replaced by
    another list is read again from its start. A game without a log (``log=False``) has no history:
    the parts read from it stay zero, as in its views.
    """

    def __init__(self, space: ActionSpace, game: Game) -> None:
        n = game.players
        self.space = space
        self.game = game
        self.players = n
        at: dict[str, int] = {}
        size = 0
        for name, length in observation_layout(n):
            at[name] = size
            size += length
        self.size = size
        self._at_hand = at["hand"]
        self._at_top = at["top"]
        self._at_suit = at["active_suit"]
        self._at_named = at["suit_named"]
        self._at_phase = at["phase"]
        self._at_direction = at["direction"]
        self._at_to_act = at["to_act"]
        self._at_dealer = at["dealer"]
        self._at_counts = at["hand_counts"]
        self._at_chain = at["chain"]
        self._at_follow = at["follow_rank"]
        self._at_drawn = at["drawn"]
        self._at_stock = at["stock"]
        self._at_discard = at["discard_count"]
        self._at_round = at["round"]
        self._at_rounds = at["rounds"]
        self._at_totals = at["totals"]
        self._at_cancel = at["cancel_pending"]
        self._at_run_rank = at["run_rank"]
        self._at_run_length = at["run_length"]
        self._at_hoarder = at["hoarder"]
        self._at_combo = at["combo_armed"]
        self._at_played = at["played"]
        self._at_pile = at["discard_pile"]
        self._at_drawn_counts = at["drawn_counts"]
        self._at_named_suits = at["named_suits"]
        schedule = game.rules.schedule
        self._rounds = len(schedule) if schedule else 0
        self._guarantee = game.rules.guarantee_joker
        #: The observations, seat after seat, and the mask of the seat to act.
        self.rows = array("f", bytes(4 * n * size))
        self.mask = bytearray(len(space))
        # Numbers are written and read through a memoryview: twice as fast as the array's own item setter.
        self._out = memoryview(self.rows).cast("B").cast("f")
        self._row_views = [self._out[seat * size : (seat + 1) * size] for seat in range(n)]
        self._zeros = memoryview(array("f", bytes(4 * n * _CARDS))).cast("B").cast("f")
        # Per seat: each component's place (-1: none) and value as last written, its hand as last written,
        # the discard pile's count it last wrote in full, and the round and journal entry its history is read to.
        components = _SCALARS + 2 * n
        self._components = components
        self._place = [-1] * (n * components)
        self._value = [0] * (n * components)
        self._held: list[list[Card]] = [[] for _ in range(n)]
        self._pile_seen = [-1] * n
        self._epoch = [-1] * n
        self._cursor = [0] * n
        self._counts = [0] * _CARDS
        # The game's log as read so far: the round's number, its journal (kind, seat, value) of the events
        # the observation counts, and the discard pile's counts with the number of times it was counted
        # afresh (dealt, reshuffled, taken up); between two, it grows only by the cards the journal lays.
        self._log: list[Event] | None = None
        self._read = 0
        self._round = 0
        self._journal: list[int] = []
        self._pile_counts = [0] * _CARDS
        self._pile_count = 0
        self._pile_stale = True
        # The legal actions, for the state (round, action of the round) they were listed in.
        self._legal_round = -1
        self._legal_action = -1
        self._legal: list[Action] = []
        self._numbers: list[int] = []

    # ----- the legal actions --------------------------------------------------------------------

    def legal(self) -> list[Action]:
        """The legal actions now (``game.legal_actions()``, listed once per state), and ``mask`` set to them."""
        game = self.game
        if game.round_index != self._legal_round or game.round_actions != self._legal_action:
            self._legal_round = game.round_index
            self._legal_action = game.round_actions
            mask = self.mask
            for number in self._numbers:
                mask[number] = 0
            legal = game.legal_actions()
            numbers = [self.space.number(action) for action in legal]
            for number in numbers:
                mask[number] = 1
            self._legal = legal
            self._numbers = numbers
        return self._legal

    def numbers(self) -> list[int]:
        """The legal actions' numbers now, in the order ``legal()`` lists them."""
        self.legal()
        return self._numbers

    def play(self, number: int) -> Action:
        """Apply the action numbered ``number`` for the seat to act; returns it.

        :raises ValueError: naming the number and the legal ones, for a number out of the space or an
            action not legal now (the game is left untouched).
        """
        self.legal()
        space = self.space
        if not 0 <= number < len(space.actions):
            raise ValueError(f"action {number} is not a number 0-{len(space.actions) - 1}")
        if not self.mask[number]:
            listed = ", ".join(f"{k} ({a})" for k, a in zip(self._numbers, self._legal, strict=True))
            raise ValueError(f"action {number} ({space.actions[number]}) is not legal now; legal: {listed or 'none'}")
        action = space.actions[number]
        self.game.apply(action)
        return action

    # ----- the observations ---------------------------------------------------------------------

    def refresh(self, seat: int) -> None:
        """Bring row ``seat`` of ``rows`` up to date with the game, and ``mask`` with its legal actions."""
        self.legal()
        self._read_log()
        game = self.game
        n = self.players
        out = self._out
        base = seat * self.size
        # The seat's own hand: only the cards that came or went since it was last written.
        hand = game.hands[seat]
        held = self._held[seat]
        if hand != held:
            counts = self._counts
            for card in held:
                counts[card] -= 1
            for card in hand:
                counts[card] += 1
            at = base + self._at_hand
            for card in held:
                k = counts[card]
                if k:
                    out[at + card] += float(k)
                    counts[card] = 0
            for card in hand:
                k = counts[card]
                if k:
                    out[at + card] += float(k)
                    counts[card] = 0
            self._held[seat] = hand[:]
        # The table: one place and one value per component.
        slot = seat * self._components
        discard = game.discard
        top = int(discard[-1])
        phase = game.phase
        acting = game.to_act
        self._put(base, slot + _TOP, self._at_top + top, 1)
        suit = game.active_suit
        self._put(base, slot + _SUIT, self._at_suit + (suit if suit < 4 else 4), 1)
        self._put(base, slot + _NAMED, self._at_named, int(game.match_rank == NAMED))
        self._put(base, slot + _PHASE, self._at_phase + phase, 1)
        self._put(base, slot + _DIRECTION, self._at_direction, int(game.direction == 1))
        self._put(base, slot + _TO_ACT, self._at_to_act + (acting - seat) % n if acting >= 0 else -1, 1)
        self._put(base, slot + _DEALER, self._at_dealer + (game.dealer - seat) % n, 1)
        self._put(base, slot + _CHAIN, self._at_chain, game.chain)
        following = phase in (FOLLOW_PHASE, FOLLOW_DRAWN_PHASE)
        self._put(base, slot + _FOLLOW, self._at_follow + (game.follow_rank if following else 0), 1)
        drawn = game.drawn
        self._put(base, slot + _DRAWN, self._at_drawn + drawn if drawn >= 0 and seat == acting else -1, 1)
        self._put(base, slot + _STOCK, self._at_stock, len(game.stock))
        self._put(base, slot + _DISCARD, self._at_discard, len(discard))
        shown = game.round_index - (1 if game.is_over else 0)
        self._put(base, slot + _ROUND, self._at_round, shown + 1)
        self._put(base, slot + _ROUNDS, self._at_rounds, self._rounds)
        self._put(base, slot + _CANCEL, self._at_cancel, int(game.cancel != 0))
        run = game.run_len
        self._put(base, slot + _RUN_RANK, self._at_run_rank + (_RANKS[top] if run else 0), 1)
        self._put(base, slot + _RUN_LENGTH, self._at_run_length, run)
        hoarder = game.hoarder
        self._put(base, slot + _HOARDER, self._at_hoarder + (hoarder - seat) % n if hoarder >= 0 else -1, 1)
        self._put(base, slot + _COMBO, self._at_combo, int(game.armed and self._guarantee))
        hands = game.hands
        totals = game.totals
        for k in range(n):
            other = (seat + k) % n
            self._put(base, slot + _SCALARS + k, self._at_counts + k, len(hands[other]))
            self._put(base, slot + _SCALARS + n + k, self._at_totals + k, totals[other])
        # The discard pile: in full once it was counted afresh, else by the cards laid since (below).
        fresh = self._pile_seen[seat] != self._pile_count
        if fresh:
            self._pile_seen[seat] = self._pile_count
            pile = self._pile_counts
            at = base + self._at_pile
            for i in range(_CARDS):
                out[at + i] = float(pile[i])
        self._read_history(seat, base, not fresh)

    def copy_row(self, seat: int, out: memoryview[float], at: int) -> None:
        """Copy row ``seat`` of ``rows`` (as last refreshed) into ``out`` (float32 numbers) from ``at`` on."""
        out[at : at + self.size] = self._row_views[seat]

    def _put(self, base: int, slot: int, place: int, value: int) -> None:
        """Component ``slot``: ``value`` at ``place`` (-1: none), written where it changed."""
        was = self._place[slot]
        if was == place and self._value[slot] == value:
            return
        if was >= 0:
            self._out[base + was] = 0.0
        if place >= 0:
            self._out[base + place] = float(value)
        self._place[slot] = place
        self._value[slot] = value

    def _clear(self, start: int, length: int) -> None:
        self._out[start : start + length] = self._zeros[:length]

    def _read_history(self, seat: int, base: int, pile: bool) -> None:
        """Add the journal's entries the seat has not counted yet (all of them, in a new round); with
        ``pile``, add the cards laid to the discard pile's counts too."""
        n = self.players
        out = self._out
        if self._epoch[seat] != self._round:
            self._epoch[seat] = self._round
            self._cursor[seat] = 0
            self._clear(base + self._at_played, n * _CARDS)
            self._clear(base + self._at_drawn_counts, 5 * n)
        journal = self._journal
        j = self._cursor[seat]
        end = len(journal)
        while j < end:
            kind = journal[j]
            who = (journal[j + 1] - seat) % n
            value = journal[j + 2]
            j += 3
            if kind == _LAID:
                at = base + self._at_played + who * _CARDS + value
                out[at] += 1.0
                if pile:
                    at = base + self._at_pile + value
                    out[at] += 1.0
            elif kind == _DREW:
                at = base + self._at_drawn_counts + who
                out[at] += float(value)
            else:
                at = base + self._at_named_suits + 4 * who
                for k in range(4):
                    out[at + k] = 1.0 if k == value else 0.0
        self._cursor[seat] = end

    def _read_log(self) -> None:
        """Read the events logged since the last call into the round's journal and the pile's counts."""
        game = self.game
        log = game.log
        if log is None:
            self._pile_stale = True
        else:
            if log is not self._log or len(log) < self._read:
                self._log = log
                self._read = 0
                self._round += 1
                self._journal.clear()
                self._pile_stale = True
            journal = self._journal
            pile = self._pile_counts
            for i in range(self._read, len(log)):
                event = log[i]
                kind = _EVENT_KINDS.get(type(event), _OTHER)
                if kind == _PLAYED:
                    played = cast(CardPlayed, event)
                    seat = played.seat
                    for card in played.stack:
                        journal.append(_LAID)
                        journal.append(seat)
                        journal.append(int(card))
                        pile[card] += 1
                    journal.append(_LAID)
                    journal.append(seat)
                    journal.append(int(played.card))
                    pile[played.card] += 1
                elif kind == _DRAWN_CARDS:
                    drew = cast(CardsDrawn, event)
                    journal.append(_DREW)
                    journal.append(drew.seat)
                    journal.append(drew.count)
                elif kind == _SUIT_NAMED:
                    named = cast(SuitNamed, event)
                    journal.append(_NAMED_SUIT)
                    journal.append(named.seat)
                    journal.append(int(named.suit))
                elif kind == _DROPPED:
                    dropped = cast(JackDropped, event)
                    journal.append(_LAID)
                    journal.append(dropped.seat)
                    journal.append(int(dropped.card))
                    pile[dropped.card] += 1
                elif kind == _BURIED:
                    buried = cast(CardBuried, event)
                    journal.append(_LAID)
                    journal.append(buried.seat)
                    journal.append(int(buried.card))
                    pile[buried.card] += 1
                elif kind == _NEW_ROUND:
                    self._round += 1
                    journal.clear()
                    self._pile_stale = True
                elif kind == _NEW_PILE:
                    self._pile_stale = True
            self._read = len(log)
        if self._pile_stale:
            # The pile was dealt afresh, reshuffled or taken up: counted again from the table.
            pile = self._pile_counts
            for slot in range(_CARDS):
                pile[slot] = 0
            for laid in game.discard:
                pile[laid] += 1
            self._pile_count += 1
            self._pile_stale = log is None


#: The rewards an environment gives (``step_rewards``): the match's outcome, the same as a zero-sum
#: game, or each round's points.
REWARDS = ("outcome", "zero_sum", "points")


def check_reward(kind: str, rules: RuleSet, players: int) -> None:
    """:raises ValueError: for a reward that is not one of ``REWARDS``, or points where they decide nothing."""
    if kind not in REWARDS:
        raise ValueError(f"reward: {kind!r}; valid: {', '.join(REWARDS)}")
    if kind == "points" and not rules.points_decide(players):
        raise ValueError(
            f"reward='points': points do not decide {rules.name} at {players} players; use reward='outcome'"
        )


def match_rewards(winners: tuple[int, ...], players: int, zero_sum: bool = False) -> list[float]:
    """Each seat's reward for a match won by ``winners``: +1 each winner and -1 each other seat (every
    winner of a tie gets +1, so the rewards need not sum to zero). ``zero_sum``: each other seat -1,
    and the winners share what the others lose: (players - k) / k each of k winners, so the rewards
    sum to zero (at two players: +1 and -1, a tie 0 each)."""
    if not zero_sum:
        return [1.0 if seat in winners else -1.0 for seat in range(players)]
    share = (players - len(winners)) / len(winners)
    return [share if seat in winners else -1.0 for seat in range(players)]


def step_rewards(game: Game, rounds: int, kind: str) -> tuple[list[float] | None, bool, bool]:
    """What the step just played brought, for a step begun in round ``rounds`` (``game.round_index``
    then): each seat's rewards (None: no reward), whether the match ended, and whether the rules'
    safety cap stopped the round, which ends the episode without a reward.

    ``kind`` ``outcome`` and ``zero_sum`` pay ``match_rewards`` when the match ends; ``points`` pays
    at every round's end each seat's points less the table's mean, negated where the lowest total
    wins (more is always better; a round's rewards sum to zero).
    """
    ended = game.last_round if game.round_index != rounds else None
    if ended is None:
        return None, False, False
    if ended.reason == "cap":
        return None, False, True
    over = game.outcome is not None
    if kind == "points":
        points = ended.points
        mean = sum(points) / len(points)
        sign = -1.0 if game.rules.lowest_wins else 1.0
        return [sign * (p - mean) for p in points], over, False
    if game.outcome is None:
        return None, False, False
    return match_rewards(game.outcome.winners, game.players, kind == "zero_sum"), True, False


@final
class Batch:
    """Many games stepped together, each seen through its seat to act: the loop of ``eights.research.batch.BatchEnv``,
    which gives it the games (``deal(slot)`` deals the next game of a slot) and the arrays it writes.

    ``observations`` (float32, a row of ``size`` numbers per game), ``masks`` (a byte per action number
    per game), ``seats`` (int64), ``rewards`` (float32, a row of ``players`` per game), ``terminated`` and
    ``truncated`` (bools) are the arrays' memory, written in place: after ``show_all()`` or ``step``, row
    ``i`` holds ``encode(view(game, seat))`` for game ``i``'s seat to act, and the mask of its legal actions.
    """

    def __init__(
        self,
        space: ActionSpace,
        games: list[Game],
        deal: Callable[[int], Game],
        reward: str,
        observations: memoryview[float],
        masks: memoryview[int],
        seats: memoryview[int],
        rewards: memoryview[float],
        terminated: memoryview[bool],
        truncated: memoryview[bool],
    ) -> None:
        self.space = space
        self.observers = [Observer(space, game) for game in games]
        self.deal = deal
        self.reward = reward
        self.players = games[0].players
        self.size = self.observers[0].size
        self.observations = observations
        self.masks = masks
        self.seats = seats
        self.rewards = rewards
        self.terminated = terminated
        self.truncated = truncated

    def show_all(self) -> None:
        """Write every game's row, as after a reset."""
        for slot in range(len(self.observers)):
            self._show(slot)

    def step(self, actions: list[int]) -> None:
        """Play ``actions[i]`` in game ``i``, for every game, and write the arrays; a game that ends is
        replaced by ``deal(i)`` at once. ``rewards``, ``terminated`` and ``truncated`` are written only
        where something happened: the caller clears them first.

        :raises ValueError: naming the game, for an action its mask refuses (the games before it have moved).
        """
        players = self.players
        rewards = self.rewards
        kind = self.reward
        for slot in range(len(self.observers)):
            observer = self.observers[slot]
            game = observer.game
            rounds = game.round_index
            try:
                observer.play(actions[slot])
            except ValueError as exc:
                raise ValueError(f"game {slot}: {exc}") from None
            if game.round_index != rounds:
                paid, over, capped = step_rewards(game, rounds, kind)
                if paid is not None:
                    for seat in range(players):
                        rewards[slot * players + seat] = paid[seat]
                if over or capped:
                    self.terminated[slot] = over
                    self.truncated[slot] = capped
                    self.observers[slot] = Observer(self.space, self.deal(slot))
            self._show(slot)

    def _show(self, slot: int) -> None:
        observer = self.observers[slot]
        seat = observer.game.to_act
        observer.refresh(seat)
        observer.copy_row(seat, self.observations, slot * self.size)
        width = len(observer.mask)
        self.masks[slot * width : (slot + 1) * width] = observer.mask
        self.seats[slot] = seat
