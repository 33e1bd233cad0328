"""Cards, suits, ranks, jokers and packs, and the one text notation used everywhere.

A card is a small immutable integer (``Card`` subclasses ``int``) so the engine can
index tables with it directly; its ``str`` is the notation (``8H``, ``10C``,
``QS``, ``GJ``, ``JK``) and its ``repr`` round-trips (``Card('8H')``).

Card ids: ``(rank - 1) * 4 + suit`` for the 52 ordinary cards, with suits in the
order clubs, diamonds, hearts, spades; 52 is the other joker (``JK``) and 53 the
Guarantee Joker (``GJ``). Packs of several decks hold equal cards more than once.
"""

from __future__ import annotations

from enum import IntEnum
from typing import ClassVar


class Suit(IntEnum):
    """The four suits, in the order used by card ids."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return SUIT_LETTERS[self]

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self]

    def __str__(self) -> str:
        return SUIT_LETTERS[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit from a letter, a symbol or a word (``H``, ``♥``, ``hearts``).

        :raises CardError: when the text is not a suit.
        """
        key = text.strip().upper()
        for suit in cls:
            if key in (suit.letter, suit.symbol, suit.name, suit.name[:-1]):
                return suit
        if key in _SYMBOL_ALIASES:
            return cls(_SYMBOL_ALIASES[key])
        raise CardError(
            f"{text!r} is not a suit: use one of C, D, H, S (or ♣ ♦ ♥ ♠, or clubs, diamonds, hearts, spades)"
        )


SUIT_LETTERS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
_SYMBOL_ALIASES = {"♧": 0, "♢": 1, "♡": 2, "♤": 3}

ACE, JACK, QUEEN, KING = 1, 11, 12, 13
#: The rank given to both jokers; they have no suit (``NO_SUIT``).
JOKER_RANK = 14
NO_SUIT = 4

RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K", 14: "Joker"}
RANK_WORDS = {
    1: "ace",
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
    11: "jack",
    12: "queen",
    13: "king",
    14: "joker",
}


class CardError(ValueError):
    """Text that is not a card, a suit or a rank in the project's notation."""


def rank_text(rank: int) -> str:
    """The notation of a rank: ``A``, ``2`` ... ``10``, ``J``, ``Q``, ``K``."""
    return RANK_NAMES.get(rank, str(rank))


def parse_rank(text: str) -> int:
    """Read a rank (``A``, ``2``-``10``, ``T``, ``J``, ``Q``, ``K``).

    :raises CardError: naming the text and the valid ranks.
    """
    key = text.strip().upper()
    if key in _RANK_KEYS:
        return _RANK_KEYS[key]
    raise CardError(f"{text!r} is not a rank: use one of A, 2, 3, 4, 5, 6, 7, 8, 9, 10 (or T), J, Q, K")


_RANK_KEYS = {"A": 1, "1": 1, "T": 10, "J": 11, "Q": 12, "K": 13, **{str(r): r for r in range(2, 11)}}

JK_ID = 52
GJ_ID = 53
CARD_COUNT = 54


class Card(int):
    """One card. ``Card('8H')``, ``Card('10c')``, ``Card('T♣')``, ``Card('GJ')`` or ``Card(31)``.

    Instances are interned: equal cards are the same object.
    """

    __slots__ = ()
    _interned: ClassVar[list[Card]] = []

    def __new__(cls, value: int | str) -> Card:
        if isinstance(value, str):
            return cls.parse(value)
        if not 0 <= value < CARD_COUNT:
            raise CardError(f"card id {value} is out of range 0-{CARD_COUNT - 1}")
        if cls._interned:
            return cls._interned[value]
        return super().__new__(cls, value)

    @classmethod
    def parse(cls, text: str, jokers: bool = True) -> Card:
        """Read the notation: rank then suit, any case, suit letter or symbol.

        :param jokers: whether the error names the jokers among the valid forms (not where none are played).
        :raises CardError: naming the text and the valid forms.
        """
        key = text.strip().upper()
        if key in _BY_TEXT:
            return _BY_TEXT[key]
        joker_words = "; jokers GJ (the Guarantee Joker) and JK" if jokers else ""
        raise CardError(
            f"{text!r} is not a card: write the rank then the suit, like 8H, 10C (or TC), QS, A♠; "
            f"ranks A 2-10 J Q K, suits C D H S or ♣ ♦ ♥ ♠{joker_words}"
        )

    @classmethod
    def of(cls, rank: int, suit: int) -> Card:
        """The ordinary card of ``rank`` (1-13) and ``suit`` (0-3)."""
        return cls._interned[(rank - 1) * 4 + suit]

    @property
    def rank(self) -> int:
        """1 (ace) to 13 (king); 14 for a joker."""
        return RANKS[self]

    @property
    def suit(self) -> Suit | None:
        """The suit, or None for a joker."""
        return None if self >= JK_ID else Suit(self & 3)

    @property
    def is_joker(self) -> bool:
        return self >= JK_ID

    def __str__(self) -> str:
        return TEXTS[self]

    def __repr__(self) -> str:
        return f"Card({TEXTS[self]!r})"

    def pretty(self) -> str:
        """The card with a suit symbol, for people: ``8♥``, ``10♣``, ``GJ``."""
        return PRETTY[self]

    def words(self) -> str:
        """The card in words: ``eight of hearts``, ``the Guarantee Joker``."""
        if self == GJ_ID:
            return "the Guarantee Joker"
        if self == JK_ID:
            return "the joker"
        return f"{RANK_WORDS[self.rank]} of {Suit(self & 3).name.lower()}"

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))


def _card_text(cid: int) -> str:
    if cid == JK_ID:
        return "JK"
    if cid == GJ_ID:
        return "GJ"
    return rank_text(cid // 4 + 1) + SUIT_LETTERS[cid & 3]


#: Rank and suit of every card id, for the engine's table lookups.
RANKS: tuple[int, ...] = (*tuple(cid // 4 + 1 for cid in range(52)), JOKER_RANK, JOKER_RANK)
SUITS: tuple[int, ...] = (*tuple(cid & 3 for cid in range(52)), NO_SUIT, NO_SUIT)
TEXTS: tuple[str, ...] = tuple(_card_text(cid) for cid in range(CARD_COUNT))
PRETTY: tuple[str, ...] = tuple(t if cid >= JK_ID else t[:-1] + SUIT_SYMBOLS[cid & 3] for cid, t in enumerate(TEXTS))

Card._interned = [Card(cid) for cid in range(CARD_COUNT)]
ALL_CARDS: tuple[Card, ...] = tuple(Card._interned)
JOKER = ALL_CARDS[JK_ID]
GUARANTEE_JOKER = ALL_CARDS[GJ_ID]


def _text_keys() -> dict[str, Card]:
    keys: dict[str, Card] = {}
    for card in ALL_CARDS[:52]:
        rank, suit = card.rank, card.suit
        assert suit is not None
        for r in [k for k, v in _RANK_KEYS.items() if v == rank and k != "1"]:
            keys[r + suit.letter] = card
            keys[r + suit.symbol] = card
    for alias, suit_id in _SYMBOL_ALIASES.items():
        for card in ALL_CARDS[:52]:
            if card & 3 == suit_id:
                keys[rank_text(card.rank) + alias] = card
    keys["JK"] = JOKER
    keys["NGJ"] = JOKER
    keys["GJ"] = GUARANTEE_JOKER
    return keys


_BY_TEXT = _text_keys()


def parse_cards(texts: str | list[str] | tuple[str, ...]) -> list[Card]:
    """Read several cards, from a list or one string separated by spaces or commas.

    :raises CardError: naming the first text that is not a card.
    """
    if isinstance(texts, str):
        texts = texts.replace(",", " ").split()
    return [Card.parse(t) for t in texts]


def format_cards(cards: list[Card] | tuple[Card, ...] | list[int]) -> str:
    """Cards in the notation, separated by spaces."""
    return " ".join(TEXTS[c] for c in cards)


def standard_pack(decks: int = 1, jokers: int = 0) -> list[Card]:
    """``decks`` 52-card decks and the first ``jokers`` of (``JK``, ``GJ``) once each."""
    return list(ALL_CARDS[:52]) * decks + list(ALL_CARDS[52 : 52 + jokers])


def sort_key(card: int) -> tuple[int, int]:
    """Suit then rank, aces low, jokers last: the order a hand is shown in."""
    return (SUITS[card], RANKS[card])
