"""Per-client limits of the web table: rooms made, reviews asked for, room codes guessed, sockets held open.

Rates are ``limits``' moving windows (its memory storage here; the same limiter runs on Redis for many
instances); the count of open sockets is a plain counter, since a socket is held, not spent.
"""

from __future__ import annotations

from collections import Counter

from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from eights.web.settings import Limits

__all__ = ["Guard"]


class Guard:
    """What each client (by address) has used of the limits."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._window = MovingWindowRateLimiter(MemoryStorage())
        self._rooms = limits.rate("rooms_per_client")
        self._sheets = limits.rate("sheets_per_client")
        self._misses = limits.rate("misses_per_client")
        self._reviews = limits.rate("reviews_per_client")
        self.sockets: Counter[str] = Counter()

    def make_room(self, client: str) -> bool:
        """Count a room made by ``client``; False when it has made its share for now."""
        return self._window.hit(self._rooms, "rooms", client)

    def make_sheet(self, client: str) -> bool:
        """Count a score sheet started by ``client``; False when it has started its share for now."""
        return self._window.hit(self._sheets, "sheets", client)

    def make_review(self, client: str) -> bool:
        """Count a review asked for by ``client``; False when it has asked for its share for now."""
        return self._window.hit(self._reviews, "reviews", client)

    def may_look_up(self, client: str) -> bool:
        """False while ``client`` has guessed too many codes that led nowhere."""
        return self._window.test(self._misses, "misses", client)

    def missed(self, client: str) -> None:
        """``client`` looked up a room that does not exist."""
        self._window.hit(self._misses, "misses", client)

    def open_socket(self, client: str) -> bool:
        """Count a socket of ``client``'s; False (and nothing counted) when it holds its share already."""
        if self.sockets[client] >= self.limits.connections_per_client:
            return False
        self.sockets[client] += 1
        return True

    def close_socket(self, client: str) -> None:
        self.sockets[client] -= 1
        if self.sockets[client] <= 0:
            del self.sockets[client]
