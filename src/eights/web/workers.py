"""Computer players off the event loop: a search (``hard``, ``expert``) runs in a pool of worker
processes, so one room's expert never delays another room's moves; the quick levels run in a
thread. The bot goes to the worker with the seat's view and comes back with what it learned."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

from eights.bots import Bot, ISMCTSBot
from eights.engine import Action, View


def think(bot: Bot, view: View) -> tuple[Action, Bot]:
    """In a worker: the bot's choice, and the bot itself (its beliefs moved on)."""
    return bot.choose(view), bot


class BotPool:
    """Where computer players think. Worker processes start at the first search."""

    def __init__(self, processes: int | None = None, deadline: float = 10.0) -> None:
        self.processes = processes or max(1, os.cpu_count() or 1)
        self._pool: ProcessPoolExecutor | None = None

    async def choose(self, bot: Bot, view: View, owner: str = "") -> tuple[Action, Bot]:
        if isinstance(bot, ISMCTSBot):
            if self._pool is None:
                self._pool = ProcessPoolExecutor(self.processes, mp_context=multiprocessing.get_context("spawn"))
            return await asyncio.get_running_loop().run_in_executor(self._pool, think, bot, view)
        return await asyncio.to_thread(think, bot, view)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
