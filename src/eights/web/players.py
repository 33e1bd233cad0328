"""Where a room's computer players think (a ``Pool``): on the server, its worker processes and threads
(``eights.web.workers.BotPool``) or the worker tier on Redis (``eights.web.queue.QueuePool``); in a browser
with no server, in the page's own Python (``eights.web.offline``)."""

from __future__ import annotations

from typing import Protocol

from eights.bots import Bot, Hint
from eights.engine import Action, View


class PoolClosed(RuntimeError):
    """A decision asked of a pool after ``close``."""


class Pool(Protocol):
    """Where a server's computer players think."""

    async def choose(self, bot: Bot, view: View, owner: str) -> tuple[Action, Bot]: ...

    async def hint(self, bot: Bot, view: View) -> Hint | None: ...

    def stats(self) -> dict[str, int | float]: ...

    def close(self) -> None: ...

    async def aclose(self) -> None: ...
