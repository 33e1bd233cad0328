"""What one seat may know: the single redaction every interface and bot reads (``view``), and the same
views kept up to date as a game is played (``LiveViews``), equal to it at every step."""

from __future__ import annotations

from dataclasses import dataclass

from eights.cards import RANKS, Card, Suit
from eights.engine.actions import Action
from eights.engine.events import Event, RoundStarted, redact
from eights.engine.game import Game
from eights.engine.phases import FOLLOW_DRAWN_PHASE, FOLLOW_PHASE, PHASES
from eights.engine.tables import NAMED
from eights.rules import RuleSet

#: The game's fields every seat at the table knows, kept raw so a seat's view can be
#: turned back into a full game with the hidden cards sampled (``eights.engine.sampling``).
PUBLIC_FIELDS = (
    "packs",
    "dupes",
    "turn",
    "direction",
    "phase",
    "active_suit",
    "match_rank",
    "chain",
    "follow_rank",
    "draws",
    "passes",
    "pending",
    "round_actions",
    "round_index",
    "dealer",
    "cancel",
    "run_number",
    "run_len",
    "top_player",
    "hoarder",
    "armed",
    "resume",
    "jack_owner",
    "choose_count",
    "first_dealer",
)


@dataclass(frozen=True, slots=True)
class PublicState:
    """Raw public fields of the game (see ``PUBLIC_FIELDS``), with its piles' public parts."""

    fields: tuple[tuple[str, object], ...]
    queue: tuple[int, ...]
    jack_queue: tuple[int, ...]
    totals: tuple[int, ...]
    #: A drawn card everyone saw go to a hand is still hidden, so only its owner's view keeps it.
    drawn: int


@dataclass(frozen=True, slots=True)
class View:
    """A seat's knowledge of the game; ``seat`` None is a spectator who sees no hand."""

    seat: int | None
    rules: RuleSet
    players: int
    round: int
    rounds: int | None
    dealer: int
    hand_size: int
    hand: tuple[Card, ...]
    hand_counts: tuple[int, ...]
    top: Card
    #: The discard pile, bottom first (face up: every seat has seen it).
    discard: tuple[Card, ...]
    #: None while a joker on top waits for its suit to be named.
    active_suit: Suit | None
    suit_named: bool
    direction: int
    turn: int
    to_act: int
    phase: str
    chain: int
    follow_rank: int | None
    drawn: Card | None
    stock_count: int
    discard_count: int
    totals: tuple[int, ...]
    legal: tuple[Action, ...]
    history: tuple[Event, ...]
    winners: tuple[int, ...] | None
    #: Baby-eating: a 3 waits to cancel the next card; the run towards four in a row (rank, length);
    #: the Guarantee Joker's victim while its hold lasts, and whether the combo can still happen.
    cancel_pending: bool = False
    run: tuple[int, int] = (0, 0)
    guarantee_hoarder: int | None = None
    combo_armed: bool = False
    #: Teams of two (seat, ally), when playing in teams.
    teams: tuple[tuple[int, int], ...] = ()
    public: PublicState | None = None

    @property
    def is_over(self) -> bool:
        return self.winners is not None


def view(game: Game, seat: int | None) -> View:
    """What ``seat`` may know now: own hand, others' counts, the table, the redacted history."""
    log = game.log or []
    return seen(game, seat, tuple(redact(e, seat) for e in log[round_start(log) :]))


def round_start(log: list[Event]) -> int:
    """Where the round being told of begins in ``log``: its ``RoundStarted`` event (0 before any)."""
    for i in range(len(log) - 1, -1, -1):
        if isinstance(log[i], RoundStarted):
            return i
    return 0


def seen(game: Game, seat: int | None, history: tuple[Event, ...]) -> View:
    """``view(game, seat)`` once the round's events are redacted for ``seat`` (``history``): every
    other field of a view is decided here, for ``view`` and ``LiveViews`` alike."""
    acting = game.to_act
    schedule = game.rules.schedule
    shown = game.round_index - (1 if game.is_over else 0)  # the round told of: the last one once the match is over
    return View(
        seat=seat,
        rules=game.rules,
        players=game.players,
        round=shown + 1,
        rounds=len(schedule) if schedule else None,
        dealer=game.dealer,
        hand_size=game.rules.hand_size(game.players, max(0, shown)),
        hand=tuple(game.hands[seat]) if seat is not None else (),
        hand_counts=tuple(len(h) for h in game.hands),
        top=game.top,
        discard=tuple(game.discard),
        active_suit=Suit(game.active_suit) if game.active_suit < 4 else None,
        suit_named=game.match_rank == NAMED,
        direction=game.direction,
        turn=game.turn,
        to_act=acting,
        phase=PHASES[game.phase],
        chain=game.chain,
        follow_rank=game.follow_rank if game.phase in (FOLLOW_PHASE, FOLLOW_DRAWN_PHASE) else None,
        drawn=Card(game.drawn) if game.drawn >= 0 and seat == acting else None,
        stock_count=len(game.stock),
        discard_count=len(game.discard),
        totals=tuple(game.totals),
        legal=tuple(game.legal_actions()) if seat is not None and seat == acting else (),
        history=history,
        winners=game.outcome.winners if game.outcome else None,
        cancel_pending=bool(game.cancel),
        run=(RANKS[game.top], game.run_len) if game.run_len else (0, 0),
        guarantee_hoarder=game.hoarder if game.hoarder >= 0 else None,
        combo_armed=game.armed and game.rules.guarantee_joker,
        teams=tuple((s, (s + game.players // 2) % game.players) for s in range(game.players // 2))
        if game.rules.teams
        else (),
        public=PublicState(
            fields=tuple((name, getattr(game, name)) for name in PUBLIC_FIELDS),
            queue=tuple(game.queue),
            jack_queue=tuple(game.jack_queue),
            totals=tuple(game.totals),
            drawn=game.drawn if seat == acting else -1,
        ),
    )


class LiveViews:
    """Every seat's view of one game as it is played on: ``live.view(seat)`` equals ``view(game, seat)``
    at every moment, but each event of the log is redacted once per seat that asks, not once per view.

    It follows the game's log: events appended since the last call are read, and a new round starts
    every seat's history afresh. A log replaced by another list (or cut short) is read again from
    its start.
    """

    __slots__ = ("_log", "_read", "_seen", "_start", "game")

    def __init__(self, game: Game) -> None:
        self.game = game
        self._log: list[Event] | None = None
        self._read = 0
        self._start = 0
        #: Per seat that asked: the round's events so far, redacted for it.
        self._seen: dict[int | None, list[Event]] = {}

    def view(self, seat: int | None) -> View:
        return seen(self.game, seat, self.history(seat))

    def history(self, seat: int | None) -> tuple[Event, ...]:
        """The round's events as ``seat`` may see them: ``view(game, seat).history``."""
        log = self.game.log
        if log is None:
            return ()
        if log is not self._log or len(log) < self._read:
            self._log = log
            self._read = 0
            self._start = 0
            self._seen.clear()
        for i in range(self._read, len(log)):
            if isinstance(log[i], RoundStarted):
                self._start = i
                self._seen.clear()
        self._read = len(log)
        mine = self._seen.setdefault(seat, [])
        mine.extend(redact(e, seat) for e in log[self._start + len(mine) :])
        return tuple(mine)
