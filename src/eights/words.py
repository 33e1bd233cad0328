"""English for counts and lists, one copy for the whole package: ``2 cards``, ``A, B or C``, ``an 8``."""

from __future__ import annotations

from collections.abc import Sequence

#: Small numbers spelled out, for the start of a sentence.
_SPELLED = ("no", "one", "two", "three", "four")


def count_words(n: int, word: str, plural: str = "") -> str:
    """``1 game``, ``2 games`` (``plural`` for words that take more than an s)."""
    return f"{n} {word if n == 1 else plural or word + 's'}"


def count_spelled(n: int, word: str) -> str:
    """``One 52-card pack``, ``2 packs``: a count spelled for the start of a sentence."""
    text = _SPELLED[n] if n < len(_SPELLED) else str(n)
    return f"{text.capitalize()} {word}{'' if n == 1 else 's'}"


def or_list(items: Sequence[str]) -> str:
    """``A``, ``A or B``, ``A, B or C``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


def and_list(items: Sequence[str]) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def article(words: str) -> str:
    """A card's words with their article: ``an 8``, ``an A``, ``an 11``, ``a 2``."""
    return ("an " if words[:1] in ("8", "A", "E") or words.startswith("11") else "a ") + words
