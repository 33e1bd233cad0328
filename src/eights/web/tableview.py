"""A seat's view of the match as JSON for the browser, and the narration it may read.

Everything here is read from ``view(game, seat)`` (the engine's one redaction) and from
events redacted for the seat; nothing decides a rule or what a seat may see. Cards go out
as cards only for the recipient's own hand, the top card and the card it just drew.
"""

from __future__ import annotations

from math import prod
from typing import Any

from eights.cards import Card
from eights.engine import Action, Draw, NameSuit, Pass, Play, View
from eights.engine.actions import Bury, ChoosePlayer
from eights.engine.events import (
    CardBuried,
    CardPlayed,
    CardsDrawn,
    CardsSwapped,
    DirectionReversed,
    JackDropped,
    Passed,
    PlayerSkipped,
    RoundOver,
    RoundStarted,
    StarterTurned,
    SuitNamed,
)
from eights.rules.ruleset import SCORING_MODES
from eights.rules.scoring import hand_value
from eights.table import Session
from eights.table.narrator import Narrator
from eights.table.phrases import action_words, duty_lines, result_lines, round_lines, sorted_hand
from eights.table.prompts import prompt_words


def card_json(card: Card, playable: bool = False) -> dict[str, Any]:
    suit = card.suit
    return {
        "code": str(card),
        "text": card.pretty(),
        "label": card.words(),
        "suit": suit.letter if suit is not None else None,
        "playable": playable,
    }


def move_json(action: Action, view: View, names: tuple[str, ...]) -> dict[str, Any]:
    """A legal move: its text (what the browser sends back), its words and what it is made of."""
    move: dict[str, Any] = {"action": str(action), "words": action_words(action, view, names)}
    if isinstance(action, Play):
        move["kind"] = "drop" if view.phase == "drop_jacks" else "play"
        move["cards"] = [str(action.card), *(str(c) for c in action.stack)]
    elif isinstance(action, Draw):
        move["kind"] = "draw"
    elif isinstance(action, Pass):
        move["kind"] = "pass"
    elif isinstance(action, NameSuit):
        move.update(kind="suit", suit=action.suit.letter)
    elif isinstance(action, Bury):
        move.update(kind="bury", cards=[str(action.card)])
    elif isinstance(action, ChoosePlayer):
        move.update(kind="choose", target=action.seat)
    return move


def stacks(plays: list[Play]) -> list[tuple[Play, list[tuple[Card, int, int]]]]:
    """The plays of one top card as the fewest ``(least, under)`` that say exactly them: ``least`` the play with
    the fewest cards, ``under`` each card that may go under the top one with the least and the most copies of
    it, in the stack's order; every count of each card between the two is a play, and no other is. Stacking
    gives one (any of the other cards of the rank, or, after a draw, any that holds the card drawn); plays
    that no such box holds go one each."""
    cards = sorted({card for play in plays for card in play.stack})
    held = [[play.stack.count(card) for card in cards] for play in plays]
    least, most = (
        [min(column) for column in zip(*held, strict=True)],
        [max(column) for column in zip(*held, strict=True)],
    )
    if prod(high - low + 1 for low, high in zip(least, most, strict=True)) == len(set(plays)):
        base = Play(plays[0].card, tuple(card for card, low in zip(cards, least, strict=True) for _ in range(low)))
        return [(base, list(zip(cards, least, most, strict=True)))]
    return [
        (play, [(card, n, n) for card, n in zip(cards, counts, strict=True) if n])
        for play, counts in zip(plays, held, strict=True)
    ]


def legal_json(view: View, names: tuple[str, ...]) -> list[dict[str, Any]]:
    """The seat's legal moves, in the engine's order, the plays of one top card as one move: with ``stack``, the
    cards that may go under it (each ``{"card", "least", "most"}``), every count of each a way to play it."""
    plays: dict[Card, list[Play]] = {}
    for action in view.legal:
        if isinstance(action, Play):
            plays.setdefault(action.card, []).append(action)
    moves = []
    for action in view.legal:
        if not isinstance(action, Play):
            moves.append(move_json(action, view, names))
        elif action.card in plays:
            for least, under in stacks(plays.pop(action.card)):
                move = move_json(least, view, names)
                if under:
                    move["stack"] = [{"card": str(card), "least": low, "most": high} for card, low, high in under]
                moves.append(move)
    return moves


def last_card_effects(view: View) -> dict[str, Any]:
    """What the last card to reach the pile (played, or turned to start the round) did to the order of play,
    for the page to show: the seats it made lose their turn (``skipped``), and how many times it reversed
    the direction (``reversed``: two stacked reverses turn it twice, and it points the same way again)."""
    skipped: list[int] = []
    reverses = 0
    for event in reversed(view.history):
        if isinstance(event, CardPlayed | StarterTurned):
            return {"skipped": skipped[::-1], "reversed": reverses}
        if isinstance(event, PlayerSkipped):
            skipped.append(event.seat)
        elif isinstance(event, DirectionReversed):
            reverses += 1
    return {"skipped": [], "reversed": 0}


def table_json(session: Session, seat: int | None) -> dict[str, Any]:
    """What ``seat`` (None: a spectator) sees of the match, for the browser."""
    view = session.view(seat)
    names = session.names
    rules = session.rules
    playable = {a.card for a in view.legal if isinstance(a, Play) and not a.stack and view.phase != "drop_jacks"}
    return {
        "seat": seat,
        "names": list(names),
        "round": view.round,
        "rounds": view.rounds,
        "dealer": view.dealer,
        "hand_size": view.hand_size,
        "hand": [card_json(c, c in playable) for c in sorted_hand(view.hand)],
        "counts": list(view.hand_counts),
        "top": card_json(view.top),
        "active_suit": view.active_suit.letter if view.active_suit is not None else None,
        "suit_named": view.suit_named,
        "direction": view.direction,
        "turn": view.turn,
        "to_act": view.to_act,
        "phase": view.phase,
        "stock": view.stock_count,
        "discard_count": view.discard_count,
        "totals": list(view.totals),
        "score_keeping": rules.score_keeping,
        "lowest_wins": rules.lowest_wins,
        "pending": duty_lines(view, names),
        "chain": view.chain,
        **last_card_effects(view),
        "prompt": prompt_words(view, names, keys=False),
        "legal": legal_json(view, names),
        "drawn": card_json(view.drawn) if view.drawn is not None else None,
        "teams": [list(pair) for pair in view.teams],
        "round_end": round_end_json(session),
        "result": result_json(session),
    }


def round_end_json(session: Session) -> dict[str, Any] | None:
    """The last finished round, while the next has seen no move yet (or the match is over)."""
    log = session.game.log or []
    for index in range(len(log) - 1, -1, -1):
        event = log[index]
        if isinstance(event, RoundOver):
            following = next((e for e in log[index + 1 :] if isinstance(e, RoundStarted)), None)
            names = session.names
            values = session.rules.value_table()
            return {
                "round": event.round,
                "reason": event.reason,
                "winners": list(event.winners),
                "hands": [[card_json(c) for c in sorted_hand(hand)] for hand in event.hands],
                "points": list(event.points),
                # each hand's value, which the points come from (the winner's, in "winner collects")
                "values": [hand_value(values, hand) for hand in event.hands],
                "scoring": SCORING_MODES[session.rules.scoring],
                "totals": list(event.totals),
                "lines": round_lines(event, names, following, session.rules.score_keeping),
                "next": {"round": following.round, "hand_size": following.hand_size, "dealer": following.dealer}
                if following is not None
                else None,
            }
        if isinstance(event, MOVES):
            return None  # the next round is under way
    return None


#: Events that a player's own action makes (the deal and the starter's effects make none of these).
MOVES = (CardPlayed, CardsDrawn, Passed, SuitNamed, CardBuried, JackDropped, CardsSwapped)


def result_json(session: Session) -> dict[str, Any] | None:
    outcome = session.game.outcome
    if outcome is None:
        return None
    return {
        "winners": list(outcome.winners),
        "totals": list(outcome.totals),
        "rounds": outcome.rounds,
        "lines": result_lines(session),
    }


class Narration:
    """One seat's narration of one match (or the spectators'), told by the table layer's ``Narrator`` (repeats
    grouped, as in the terminal) once, as the match goes on, for every connection that reads it.

    Lines are numbered from the match's first. It keeps the last lines (``keep`` at least, so that a newcomer
    gets its backlog without the match being told again) and the line still open, which may grow (a
    player's next draw). Every event is fed to its narrator once: ``fed`` counts them.
    """

    def __init__(self, session: Session, seat: int | None, keep: int) -> None:
        self.session = session
        self.seat = seat
        self.narrator = Narrator(session.rules, session.names, seat)
        self.keep = keep
        #: Events of the match's log fed to the narrator, and lines it completed from them.
        self.fed = 0
        self.done = 0
        #: The last completed lines (the first of them is line ``done - len(tail)``), and the open one.
        self.tail: list[str] = []
        self.open: str | None = None

    def update(self) -> None:
        """Tell the events of the match since the last update."""
        log = self.session.game.log or []
        if self.fed == len(log):
            return
        lines = [str(line) for line in self.narrator.feed(log[self.fed :]) if line.kind != "blank"]
        self.fed = len(log)
        self.done += len(lines)
        self.tail += lines
        if len(self.tail) > 2 * self.keep:
            del self.tail[: -self.keep]
        pending = self.narrator.pending
        self.open = str(pending) if pending is not None else None

    def since(self, position: int | None) -> tuple[int, list[str]]:
        """``(start, lines)``: the lines from ``position`` on, the open one last; from None, the last ``keep``.
        A position before the lines kept gets them from the first kept (the browser starts its log again)."""
        self.update()
        first = self.done - len(self.tail)
        lines = self.tail + ([self.open] if self.open is not None else [])
        start = max(first, first + len(lines) - self.keep if position is None else position)
        return start, lines[start - first :]


class Narrations:
    """A room's narrations of its match: one per seat and one for its spectators, each made when first read."""

    def __init__(self, keep: int) -> None:
        self.keep = keep
        self.session: Session | None = None
        self.seats: dict[int | None, Narration] = {}

    def of(self, session: Session, seat: int | None) -> Narration:
        if session is not self.session:  # a new match: the last one's are forgotten
            self.session, self.seats = session, {}
        narration = self.seats.get(seat)
        if narration is None:
            narration = self.seats[seat] = Narration(session, seat, self.keep)
        return narration


class SeatLog:
    """What one connection has been sent of its seat's narration, sent a little at a time.

    ``news()`` gives the position of its first line and the lines since the last call; the first call gives
    the last lines kept (the backlog). The last line may still grow (a player's next draw): the next call
    starts again at that line, and the browser replaces what it holds from that position on.
    """

    def __init__(self, narration: Narration) -> None:
        self.narration = narration
        #: The first line not sent yet, or sent while still open (None: nothing sent).
        self.next: int | None = None

    def news(self) -> tuple[int, list[str]]:
        """``(position, lines)``: the lines from ``position`` on."""
        start, lines = self.narration.since(self.next)
        self.next = self.narration.done
        return start, lines
