"""Every seed the package derives from another: a batch's games, a seat's computer player, a review's deals.

A seed is drawn from a text by a hash, not by arithmetic on the seed it comes from: nearby seeds give
unrelated games, and a game of a batch, or a computer at a seat, can be dealt again alone.
"""

from __future__ import annotations

import hashlib


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` (0-based) of a batch seeded with ``seed``."""
    return derive_seed(f"eights-simulate:{seed}:{index}")


def bot_seed(seed_of_game: int, seat: int) -> int:
    """The seed of the random player at ``seat`` in the game seeded ``seed_of_game``."""
    return derive_seed(f"eights-bot:{seed_of_game}:{seat}")


def derive_seed(text: str) -> int:
    """A seed drawn from ``text`` by a hash (the same text, the same seed)."""
    # A hash, not seed arithmetic: nearby batch seeds give unrelated games.
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=6).digest(), "big")
