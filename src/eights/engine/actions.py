"""Actions: small frozen values a player gives the engine.

``Play(card)`` lays one card; with stacking, ``Play(card, stack=(...))`` lays the
stacked cards first and ``card`` last, on top. ``Draw()`` draws (one card, or a
pending chain), ``Pass()`` ends a turn with nothing to do, ``NameSuit(suit)``
names the suit after a wild. Text forms, used in logs and game records:
``play 8H``, ``play QS QH`` (the last on top), ``draw``, ``pass``, ``suit H``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from eights.cards import ALL_CARDS, Card, CardError, Suit, format_cards, parse_cards


class ActionError(ValueError):
    """Text that is not an action; names the valid forms."""


class Action:
    """Base of every action: immutable, compared and hashed by kind and value."""

    __slots__ = ("_key",)
    _key: tuple[object, ...]

    def __init__(self, *key: object) -> None:
        object.__setattr__(self, "_key", key)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("actions are immutable")

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._key == other._key

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._key))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(map(repr, self._key))})"

    # An action is rebuilt from its key (``type(self)(*self._key)`` is an equal action), and an
    # interned one (``DRAW``, ``PLAY[card]``, ...) comes back as that very object: the default
    # copy would set the slots one by one, which ``__setattr__`` refuses.
    def __reduce__(self) -> tuple[Callable[[type[Action], tuple[object, ...]], Action], tuple[object, ...]]:
        return (_restore, (type(self), self._key))

    def __copy__(self) -> Action:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Action:
        return self

    def words(self) -> str:
        """The action for people."""
        return str(self)


class Play(Action):
    """Lay ``card`` on the discard pile, after the ``stack`` cards (stacking only).

    The stack is kept sorted: the order of the cards under the top one does not matter.
    """

    __slots__ = ("card", "stack")
    card: Card
    stack: tuple[Card, ...]

    def __init__(self, card: Card | str, stack: tuple[Card, ...] | tuple[str, ...] = ()) -> None:
        c = card if isinstance(card, Card) else Card.parse(card)
        s = tuple(sorted(x if isinstance(x, Card) else Card.parse(x) for x in stack))
        object.__setattr__(self, "card", c)
        object.__setattr__(self, "stack", s)
        super().__init__(c, s)

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card laid, in laying order: the stack, then the top card."""
        return (*self.stack, self.card)

    def __repr__(self) -> str:
        if self.stack:
            return f"Play({self.card!r}, stack={self.stack!r})"
        return f"Play({self.card!r})"

    def __str__(self) -> str:
        return "play " + format_cards(self.cards)

    def words(self) -> str:
        if self.stack:
            return f"plays {len(self.cards)} cards: " + ", ".join(c.pretty() for c in self.cards)
        return f"plays {self.card.pretty()}"


class Draw(Action):
    """Draw from the stock: one card, or the whole pending chain."""

    __slots__ = ()

    def __str__(self) -> str:
        return "draw"

    def words(self) -> str:
        return "draws"


class Pass(Action):
    """End the turn with no card played or drawn."""

    __slots__ = ()

    def __str__(self) -> str:
        return "pass"

    def words(self) -> str:
        return "passes"


class NameSuit(Action):
    """Name the suit the next player must follow, after a wild."""

    __slots__ = ("suit",)
    suit: Suit

    def __init__(self, suit: Suit | int | str) -> None:
        value = Suit.parse(suit) if isinstance(suit, str) else Suit(suit)
        object.__setattr__(self, "suit", value)
        super().__init__(int(value))

    def __repr__(self) -> str:
        return f"NameSuit(Suit.{self.suit.name})"

    def __str__(self) -> str:
        return f"suit {self.suit.letter}"

    def words(self) -> str:
        return f"names {self.suit.name.lower()} {self.suit.symbol}"


class Bury(Action):
    """Four in a row: put ``card`` from your hand under the discard pile."""

    __slots__ = ("card",)
    card: Card

    def __init__(self, card: Card | str) -> None:
        value = card if isinstance(card, Card) else Card.parse(card)
        object.__setattr__(self, "card", value)
        super().__init__(value)

    def __str__(self) -> str:
        return f"bury {self.card}"

    def words(self) -> str:
        return f"buries {self.card.pretty()}"


class ChoosePlayer(Action):
    """Choose a seat: who draws for a 5, whom to swap with for a 7."""

    __slots__ = ("seat",)
    seat: int

    def __init__(self, seat: int) -> None:
        object.__setattr__(self, "seat", int(seat))
        super().__init__(int(seat))

    def __str__(self) -> str:
        return f"choose {self.seat}"

    def words(self) -> str:
        return f"chooses seat {self.seat}"


#: Interned actions, so the engine's hot path builds no objects.
PLAY: Final[tuple[Play, ...]] = tuple(Play(card) for card in ALL_CARDS)
DRAW: Final = Draw()
PASS: Final = Pass()
NAME_SUIT: Final[tuple[NameSuit, ...]] = tuple(NameSuit(suit) for suit in Suit)
BURY: Final[tuple[Bury, ...]] = tuple(Bury(card) for card in ALL_CARDS)
CHOOSE: Final[tuple[ChoosePlayer, ...]] = tuple(ChoosePlayer(seat) for seat in range(16))

_INTERNED: Final[dict[Action, Action]] = {a: a for a in (*PLAY, DRAW, PASS, *NAME_SUIT, *BURY, *CHOOSE)}


def _restore(kind: type[Action], key: tuple[object, ...]) -> Action:
    """The action of ``kind`` with ``key``, the interned one where there is one (for pickle)."""
    action = kind(*key)
    return _INTERNED.get(action, action)


ACTION_FORMS = "play CARD [CARD...], draw, pass, suit C|D|H|S, bury CARD, choose SEAT (or a card alone, like 8H)"


def parse_action(text: str) -> Action:
    """Read an action's text form (``play 8H``, ``8H``, ``draw``, ``pass``, ``suit H``).

    :raises ActionError: naming the text and the valid forms.
    """
    words = text.strip().split()
    if not words:
        raise ActionError(f"empty action; valid: {ACTION_FORMS}")
    verb = words[0].lower()
    try:
        if verb in ("draw", "d") and len(words) == 1:
            return DRAW
        if verb in ("pass", "p") and len(words) == 1:
            return PASS
        if verb in ("suit", "name", "s") and len(words) == 2:
            return NAME_SUIT[Suit.parse(words[1])]
        if verb == "bury" and len(words) == 2:
            return BURY[Card.parse(words[1])]
        if verb in ("choose", "target") and len(words) == 2:
            if not words[1].isdigit() or int(words[1]) >= len(CHOOSE):
                raise ActionError(f"{text!r}: choose takes a seat number 0-{len(CHOOSE) - 1}")
            return CHOOSE[int(words[1])]
        cards = parse_cards(words[1:]) if verb == "play" and len(words) >= 2 else parse_cards(words)
    except CardError as exc:
        raise ActionError(f"{text!r} is not an action ({exc}); valid: {ACTION_FORMS}") from None
    if len(cards) == 1:
        return PLAY[cards[0]]
    return Play(cards[-1], tuple(cards[:-1]))
