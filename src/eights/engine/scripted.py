"""Scripted deals: the pack order that deals given hands, for tests and puzzles."""

from __future__ import annotations

from collections.abc import Sequence

from eights.cards import Card, parse_cards


def deck_for(
    dealer: int,
    hands: Sequence[str | Sequence[str]],
    starter: str | Sequence[str],
    stock: str | Sequence[str] = (),
) -> list[Card]:
    """The pack, top card first, that deals ``hands`` (one per seat, equal sizes)
    one card at a time from the dealer's left, turns ``starter`` (several cards
    when the first ones are buried or turned over) and leaves ``stock`` (top first).

    >>> [str(c) for c in deck_for(0, ["AH 2H", "3C 4C"], "5D", "6S")]
    ['3C', 'AH', '4C', '2H', '5D', '6S']
    """
    seats = [parse_cards(h if isinstance(h, str) else list(h)) for h in hands]
    n = len(seats)
    size = len(seats[0])
    if any(len(h) != size for h in seats):
        raise ValueError("scripted hands must all have the same size (the rules deal equal hands)")
    deck: list[Card] = []
    for i in range(size):
        for k in range(1, n + 1):
            deck.append(seats[(dealer + k) % n][i])
    deck += parse_cards(starter if isinstance(starter, str) else list(starter))
    deck += parse_cards(stock if isinstance(stock, str) else list(stock))
    return deck
