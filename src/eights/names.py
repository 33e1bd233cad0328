"""The one rule for a person's name, wherever a name is given: the terminal game, the web rooms and the
score sheet (terminal, command line and web).

``clean_name`` accepts a name or says what is wrong with it: Unicode NFC normalisation, white space
collapsed, 1 to ``NAME_LENGTH`` characters, at least one letter or digit, and no character that hides
or rewrites text (control and format characters such as the right-to-left override, zero-width and
other invisible characters like the Hangul filler U+3164, private-use and unassigned code points, or a
pile of combining marks). ``same_name`` tells whether two names would be taken for one another at a
glance: the same letters in any case, compatibility forms (``Ａnn`` for ``Ann``), and look-alikes from
other scripts (a Cyrillic ``А`` for a Latin ``A``), after Unicode's confusables data (UTS #39) as the
``confusable_homoglyphs`` package ships it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from confusable_homoglyphs import confusables  # type: ignore[import-untyped]

#: The longest name a person may take, in characters.
NAME_LENGTH = 24
#: The most combining marks allowed on one character (enough for any language's accents).
MARKS_IN_A_ROW = 3

#: Characters that show as nothing though Unicode files them as letters or marks (their category
#: alone does not catch them): the Hangul fillers, the Braille blank, variation selectors and the
#: other default-ignorable marks.
INVISIBLE = frozenset(
    [0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800, 0x034F, 0x17B4, 0x17B5, *range(0x180B, 0x1810), *range(0xFE00, 0xFE10)]
) | frozenset(range(0xE0100, 0xE01F0))
#: Categories never allowed: controls, format characters (zero-width and bidirectional controls),
#: surrogates, private use, unassigned, line and paragraph separators.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})

#: The seat of a person, where a table lists its players (``human``) beside computer levels (``normal``).
HUMAN = "human"


class BadName(ValueError):
    """A name that cannot be taken; the message names the problem in the player's words."""


def clean_name(name: str) -> str:
    """``name`` normalised (NFC, white space collapsed), or why it cannot be a name.

    :raises BadName: naming the problem and what a name may hold.
    """
    name = " ".join(unicodedata.normalize("NFC", name).split())
    for char in name:
        if ord(char) in INVISIBLE or unicodedata.category(char) in REFUSED_CATEGORIES:
            code = f"U+{ord(char):04X}"
            raise BadName(f"name: {name!r} holds an invisible or control character ({code}); use letters")
    if not any(unicodedata.category(c)[0] in "LN" for c in name):
        raise BadName("name: give a name of at least one letter")
    if len(name) > NAME_LENGTH:
        raise BadName(f"name: {name[:NAME_LENGTH]!r}... is too long; give at most {NAME_LENGTH} characters")
    run = 0
    for char in name:
        run = run + 1 if unicodedata.category(char).startswith("M") else 0
        if run > MARKS_IN_A_ROW:
            raise BadName(f"name: {name!r} piles up accents; give at most {MARKS_IN_A_ROW} on a letter")
    return name


def same_name(first: str, second: str) -> bool:
    """Whether two names would be taken for one another: the same after case folding, compatibility
    normalisation (NFKC) and mapping each character to a look-alike prototype (UTS #39 confusables).

    Each name gets two keys, look-alikes mapped before and after case folding, as the confusables data
    is case-sensitive: a Cyrillic ``М`` is a look-alike of the Latin ``M`` but its small letter is not
    one of ``m``; ``O`` is a look-alike of ``0`` but ``o`` is not.
    """
    return not _keys(first).isdisjoint(_keys(second))


def find_same(name: str, others: Iterable[str]) -> str | None:
    """The first of ``others`` that ``same_name`` takes for ``name``, if any."""
    keys = _keys(name)
    return next((other for other in others if not keys.isdisjoint(_keys(other))), None)


def _keys(name: str) -> frozenset[str]:
    text = unicodedata.normalize("NFKC", name)
    mapped_first = unicodedata.normalize("NFKC", "".join(map(_prototype, text)).casefold())
    folded_first = "".join(map(_prototype, unicodedata.normalize("NFKC", text.casefold())))
    return frozenset((mapped_first, folded_first))


@lru_cache(maxsize=8192)
def _prototype(char: str) -> str:
    """One character standing for every single character the confusables data links ``char`` to,
    directly or through others (the least code point of that group), so look-alikes share it."""
    group = {char}
    todo = [char]
    while todo:
        found = confusables.is_confusable(todo.pop(), greedy=True)
        for glyph in found[0]["homoglyphs"] if found else ():
            if len(glyph["c"]) == 1 and glyph["c"] not in group:
                group.add(glyph["c"])
                todo.append(glyph["c"])
    return min(group)


__all__ = ["NAME_LENGTH", "BadName", "clean_name", "find_same", "same_name"]
