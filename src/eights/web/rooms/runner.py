"""A room's runner: the task that plays its computers' turns, paced, times a person who is away on their
own turn (one timer, and a computer stands in once their time is up), and waits for the store when it
cannot save; started again if it fails, a few times a minute at most."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from eights.bots import Bot, ISMCTSBot, make_bot
from eights.engine import IllegalAction
from eights.saving import Fenced
from eights.seeds import bot_seed
from eights.table.turns import next_turn, pause_left
from eights.web.rooms.errors import RoomError

if TYPE_CHECKING:
    from eights.web.rooms.room import Room

log = logging.getLogger("eights.web")

#: The computer level that plays for a person who is away.
STAND_IN = "normal"
#: Times a room's task may fail and be started again within ``RESTART_WINDOW`` seconds.
RESTARTS, RESTART_WINDOW = 5, 60.0
#: Seconds the runner waits before asking a store that failed again: doubled at each failure in a row, to
#: at most ``STORE_RETRY_MAX``.
STORE_RETRY, STORE_RETRY_MAX = 0.25, 4.0


def store_retry(failures: int) -> float:
    """Seconds to wait after ``failures`` failures of the store in a row."""
    return min(STORE_RETRY_MAX, STORE_RETRY * 2.0 ** (failures - 1))


class Runner:
    """The runner of one room."""

    def __init__(self, room: Room) -> None:
        self.room = room
        #: Its task, if one runs.
        self.task: asyncio.Task[None] | None = None
        #: Whether it is waiting for an away person's time to run out (a timer to stop if they return).
        self.waiting = False
        #: When its task last failed and was started again (the host's clock).
        self.restarts: list[float] = []
        #: The computers standing in for away people, by seat.
        self.stand_ins: dict[int, Bot] = {}

    def start(self) -> None:
        """Make sure the room's computers' turns are played (and its away person timed)."""
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self.supervise())

    def wake(self) -> None:
        """Stop the wait for an away person (they came back); ``start`` starts the runner again."""
        if self.waiting and self.task is not None and not self.task.done():
            self.task.cancel()
            self.task, self.waiting = None, False

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()

    async def supervise(self) -> None:
        """The runner, started again (a few times a minute at most) if it fails: one room's failure never
        stops its play for good, nor touches another room."""
        room = self.room
        host = room.host
        while True:
            try:
                await self.play()
                return
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # logged without the exception's words, which may name cards
                now = host.clock()
                self.restarts = [t for t in self.restarts if now - t < RESTART_WINDOW] + [now]
                again = "started again" if len(self.restarts) <= RESTARTS else "stopped until someone acts"
                log.error("eights: room %s: its play failed (%s); %s", room.code, type(exc).__name__, again)
                if len(self.restarts) > RESTARTS:
                    return
                await host.sleep(0.5)

    def settle_away(self) -> None:
        """Count the away time of the person to act so far."""
        room = self.room
        if room.away_since is not None and room.session is not None:
            seat = room.seats[room.session.game.to_act]
            seat.away += room.host.clock() - room.away_since
        room.away_since = None

    async def play(self) -> None:
        """Play computer turns, paced, until a person is to act; time an away person on their turn with one
        timer; wait (doing nothing) while no person at the table is connected; and while the store cannot
        save the match, wait for it, trying again less and less often, then go on by itself."""
        room = self.room
        host = room.host
        trouble = 0  # the store's failures in a row
        while True:
            wait: float | None = None
            async with room.lock:
                session = room.session
                if session is None or session.game.is_over or not room.people_here():
                    self.settle_away()
                    return
                settled = await room.settle()
                if settled:
                    if session.game.is_over:
                        continue
                    people = [i for i, s in enumerate(room.seats) if s.kind == "person" and not s.stand_in]
                    turn = next_turn(session, people)
                    assert turn is not None
                    seat, state = turn.seat, room.seats[turn.seat]
                    if turn.person:
                        if state.connection is not None:
                            self.settle_away()
                            return
                        if room.away_since is None:
                            room.away_since = host.clock()
                        left = room.away_seconds - state.away - (host.clock() - room.away_since)
                        if left > 0:
                            wait = left
                        else:
                            self.settle_away()
                            state.stand_in = True
                            room.version += 1
                            await room.broadcast()
                    version = room.version
                    bot, bot_view = self.bot_for(seat), session.view(seat)
            if not settled:
                trouble += 1
                await host.sleep(store_retry(trouble))
                continue
            if wait is not None:
                self.waiting = True
                try:
                    await host.sleep(wait)
                finally:
                    self.waiting = False
                continue
            started = host.clock()
            action, bot = await host.pool.choose(bot, bot_view, room.code)
            if host.on_decision is not None:
                host.on_decision(host.clock() - started)
            rest = pause_left(bot, room.pace, started, host.clock(), hide_thinking=True)
            if rest > 0:
                await host.sleep(rest)
            async with room.lock:
                if room.version != version or room.session is not session:
                    continue  # the table moved on meanwhile (a rematch, a person came back): think again
                self.keep_bot(seat, bot)
                try:
                    await room.keep(session, session.check(action, seat))
                except Fenced:
                    lost = True
                except IllegalAction:
                    return  # cannot happen for a bot's legal choice
                except RoomError:  # the store did not save the move: it is not played; wait for the store
                    lost, trouble = False, trouble + 1
                else:
                    lost, trouble = False, 0
                    if session.game.is_over:
                        room.touch()
                        await room.save()
                    await room.broadcast()
            if lost:  # another instance took the room over
                await host.let_go(room)
                return
            if trouble:
                await host.sleep(store_retry(trouble))

    def bot_for(self, seat: int) -> Bot:
        """The computer for ``seat``, its search held to the server's budget (a room saved before budgets were
        capped may name a longer one)."""
        room = self.room
        session = room.session
        assert session is not None
        if seat in session.bots:
            bot = session.bots[seat]
        else:
            if seat not in self.stand_ins:
                self.stand_ins[seat] = make_bot(STAND_IN, bot_seed(session.game.seed, 2000 + seat))
            bot = self.stand_ins[seat]
        if isinstance(bot, ISMCTSBot):
            cap = room.host.limits.think_seconds
            bot.seconds = cap if bot.seconds is None else min(bot.seconds, cap)
        return bot

    def keep_bot(self, seat: int, bot: Bot) -> None:
        """The bot as it came back from its worker (with what it learned of the game)."""
        session = self.room.session
        assert session is not None
        if seat in session.bots:
            session.bots[seat] = bot
        else:
            self.stand_ins[seat] = bot
