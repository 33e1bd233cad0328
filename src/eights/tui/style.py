"""Colours for cards and suits in the terminal; the symbol is always shown too, so no one depends on the colour."""

from __future__ import annotations

from rich.text import Text

from eights.cards import Card, Suit

#: A four-colour deck: clubs green, diamonds blue, hearts red, spades plain, jokers magenta.
SUIT_STYLE = {Suit.CLUBS: "bold green", Suit.DIAMONDS: "bold #5fafff", Suit.HEARTS: "bold red", Suit.SPADES: "bold"}
JOKER_STYLE = "bold magenta"


def card_style(card: Card) -> str:
    suit = card.suit
    return JOKER_STYLE if suit is None else SUIT_STYLE[suit]


CARD_PATTERNS = (
    (r"(?:10|[2-9AJQK])♥|♥", SUIT_STYLE[Suit.HEARTS]),
    (r"(?:10|[2-9AJQK])♦|♦", SUIT_STYLE[Suit.DIAMONDS]),
    (r"(?:10|[2-9AJQK])♣|♣", SUIT_STYLE[Suit.CLUBS]),
    (r"(?:10|[2-9AJQK])♠|♠", SUIT_STYLE[Suit.SPADES]),
    (r"\b(?:GJ|JK)\b", JOKER_STYLE),
)


def styled(text: str, style: str = "") -> Text:
    """Text with every card and suit symbol in its suit's colour."""
    out = Text(text, style=style)
    for pattern, card_colour in CARD_PATTERNS:
        out.highlight_regex(pattern, card_colour)
    return out
