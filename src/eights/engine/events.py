"""Events: what happened, for logs, interfaces and bots.

Every event is a frozen value. Some carry cards only one seat may see (a draw,
a deal); ``redact(event, seat)`` is the one function that strips them, and views
use it for every consumer.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from eights.cards import Card, Suit


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every event."""

    def words(self, names: tuple[str, ...] | None = None) -> str:
        """The event in plain words; ``names`` names the seats."""
        return str(self)


def _name(names: tuple[str, ...] | None, seat: int) -> str:
    return names[seat] if names else f"Seat {seat}"


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    round: int  # 1-based
    dealer: int
    hand_size: int
    #: Each seat's dealt hand; ``None`` where the viewer may not see it.
    hands: tuple[tuple[Card, ...] | None, ...]

    def words(self, names: tuple[str, ...] | None = None) -> str:
        return f"Round {self.round}: {_name(names, self.dealer)} deals {self.hand_size} cards each."


@dataclass(frozen=True, slots=True)
class StarterTurned(Event):
    card: Card

    def words(self, names: tuple[str, ...] | None = None) -> str:
        return f"The starter is {self.card.pretty()}."


@dataclass(frozen=True, slots=True)
class StarterBuried(Event):
    card: Card

    def words(self, names: tuple[str, ...] | None = None) -> str:
        return f"{self.card.pretty()} is buried in the middle of the stock."


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    seat: int
    card: Card
    stack: tuple[Card, ...] = ()

    def words(self, names: tuple[str, ...] | None = None) -> str:
        if self.stack:
            laid = ", ".join(c.pretty() for c in (*self.stack, self.card))
            return f"{_name(names, self.seat)} stacks {len(self.stack) + 1} cards: {laid}."
        return f"{_name(names, self.seat)} plays {self.card.pretty()}."


@dataclass(frozen=True, slots=True)
class CardsDrawn(Event):
    seat: int
    count: int
    #: ``draw`` (a turn's draw), ``chain`` (a chain of 2s), ``penalty`` (a draw card).
    reason: str
    #: The cards, for the drawer only; ``None`` once redacted.
    cards: tuple[Card, ...] | None = None
    #: What a forced draw shows everyone: the drawer held no card of this row of the
    #: engine's match table (less the cards a player may hold back); -1 when the draw
    #: shows nothing (a draw at will, a chain, a penalty).
    lacking: int = -1

    def words(self, names: tuple[str, ...] | None = None) -> str:
        who = _name(names, self.seat)
        what = f"{self.count} card{'s' if self.count != 1 else ''}"
        if self.cards:
            what += " (" + ", ".join(c.pretty() for c in self.cards) + ")"
        if self.reason == "chain":
            return f"{who} draws the chain: {what}."
        if self.reason == "penalty":
            return f"{who} must draw {what}."
        return f"{who} draws {what}."


@dataclass(frozen=True, slots=True)
class Reshuffled(Event):
    count: int

    def words(self, names: tuple[str, ...] | None = None) -> str:
        return f"The discard pile ({self.count} cards) is shuffled into a new stock."


@dataclass(frozen=True, slots=True)
class SuitNamed(Event):
    seat: int
    suit: Suit

    def words(self, names: tuple[str, ...] | None = None) -> str:
        return f"{_name(names, self.seat)} names {self.suit.name.lower()} {self.suit.symbol}."


@dataclass(frozen=True, slots=True)
class DirectionReversed(Event):
    direction: int  # 1 clockwise, -1 counter-clockwise

    def words(self, names: tuple[str, ...] | None = None) -> str:
        way = "clockwise" if self.direction == 1 else "counter-clockwise"
        return f"Play reverses: now {way}."


@dataclass(frozen=True, slots=True)
class PlayerSkipped(Event):
    seat: int

    def words(self, names: tuple[str, ...] | None = None) -> str:
        return f"{_name(names, self.seat)} is skipped."


@dataclass(frozen=True, slots=True)
class ChainGrew(Event):
    total: int  # cards the next player draws if they do not answer

    def words(self, names: tuple[str, ...] | None = None) -> str:
        return f"The chain of 2s stands at {self.total} cards: the next player plays a 2 or draws them."


@dataclass(frozen=True, slots=True)
class FollowMe(Event):
    seat: int
    card: Card

    def words(self, names: tuple[str, ...] | None = None) -> str:
        return (
            f"{_name(names, self.seat)} must follow {self.card.pretty()}: more {self.card.pretty()[:-1]}s, "
            "or a card of its suit or an 8."
        )


@dataclass(frozen=True, slots=True)
class Passed(Event):
    seat: int

    def words(self, names: tuple[str, ...] | None = None) -> str:
        return f"{_name(names, self.seat)} passes."


@dataclass(frozen=True, slots=True)
class RoundOver(Event):
    round: int
    #: ``out`` (a player went out), ``blocked`` (D5) or ``cap`` (the safety cap on actions).
    reason: str
    winners: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]

    def words(self, names: tuple[str, ...] | None = None) -> str:
        who = " and ".join(_name(names, s) for s in self.winners) or "nobody"
        how = {"out": "goes out", "blocked": "wins the blocked round", "cap": "wins a round stopped by the safety cap"}
        scores = ", ".join(
            f"{_name(names, s)} {p:+d} ({t})" for s, (p, t) in enumerate(zip(self.points, self.totals, strict=False))
        )
        return f"Round {self.round} over: {who} {how[self.reason]}. Points: {scores}."


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    winners: tuple[int, ...]
    totals: tuple[int, ...]

    def words(self, names: tuple[str, ...] | None = None) -> str:
        who = " and ".join(_name(names, s) for s in self.winners)
        return f"Game over: {who} win{'s' if len(self.winners) == 1 else ''}."


def redact(event: Event, seat: int | None) -> Event:
    """The event as ``seat`` may see it (``None``: a spectator who sees no hand)."""
    if isinstance(event, CardsDrawn):
        if event.seat != seat and event.cards is not None:
            # Made directly: dataclasses.replace costs ten times as much, and searches redact
            # every draw of every replayed history (tests/engine/test_properties.py: every other field is kept).
            return CardsDrawn(event.seat, event.count, event.reason, None, event.lacking)
    elif isinstance(event, RoundStarted):
        return replace(event, hands=tuple(h if i == seat else None for i, h in enumerate(event.hands)))
    else:
        return redact_cards(event, seat)
    return event


@dataclass(frozen=True, slots=True)
class Cancelled(Event):
    card: Card

    def words(self, names: tuple[str, ...] | None = None) -> str:
        return f"The 3 cancels {self.card.pretty()}: it has no effect."


@dataclass(frozen=True, slots=True)
class JackDropped(Event):
    seat: int
    card: Card

    def words(self, names: tuple[str, ...] | None = None) -> str:
        return f"{_name(names, self.seat)} drops {self.card.pretty()}."


@dataclass(frozen=True, slots=True)
class FourInARow(Event):
    seat: int
    rank: int

    def words(self, names: tuple[str, ...] | None = None) -> str:
        return f"Four in a row! Starting with {_name(names, self.seat)}, everyone buries a card."


@dataclass(frozen=True, slots=True)
class CardBuried(Event):
    seat: int
    card: Card

    def words(self, names: tuple[str, ...] | None = None) -> str:
        return f"{_name(names, self.seat)} buries {self.card.pretty()} under the discard pile."


@dataclass(frozen=True, slots=True)
class CardsSwapped(Event):
    seat: int
    target: int
    #: The card ``seat`` gave and the card it got; ``None`` for anyone but the two players.
    gave: Card | None = None
    got: Card | None = None

    def words(self, names: tuple[str, ...] | None = None) -> str:
        text = f"{_name(names, self.seat)} and {_name(names, self.target)} swap a random card each"
        if self.gave is not None and self.got is not None:
            text += f" ({self.gave.pretty()} for {self.got.pretty()})"
        return text + "."


@dataclass(frozen=True, slots=True)
class SuicideKing(Event):
    seat: int
    #: The new hands; ``None`` where the viewer may not see them.
    hands: tuple[tuple[Card, ...] | None, ...]

    def words(self, names: tuple[str, ...] | None = None) -> str:
        return f"The Suicide King! Every card is shuffled and {_name(names, self.seat)} deals new hands."


@dataclass(frozen=True, slots=True)
class GuaranteeJoker(Event):
    seat: int
    count: int

    def words(self, names: tuple[str, ...] | None = None) -> str:
        return (
            f"The Guarantee Joker! {_name(names, self.seat)} takes the whole draw pile ({self.count} cards); "
            "forced draws now come from that hand, and a player who cannot match is skipped."
        )


@dataclass(frozen=True, slots=True)
class GuaranteeEnded(Event):
    def words(self, names: tuple[str, ...] | None = None) -> str:
        return "The Guarantee Joker's hold ends: draws come from the draw pile again."


def redact_cards(event: Event, seat: int | None) -> Event:
    """Strip the cards of a swap or a Suicide King deal that ``seat`` may not see."""
    if isinstance(event, CardsSwapped):
        if seat not in (event.seat, event.target):
            return replace(event, gave=None, got=None)
    elif isinstance(event, SuicideKing):
        return replace(event, hands=tuple(h if i == seat else None for i, h in enumerate(event.hands)))
    return event
