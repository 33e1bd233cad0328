"""A server's rooms in its match store: each room's row saved when it changes (under its owner's fence when
many instances serve the store), its match saved move by move by the session's log, and a saved room made
a room again (its match played again from the store) when a server starts or takes it over. The store is
written off the event loop."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from eights.rules import RulesError, RuleSet
from eights.store import Store, StoreError
from eights.store.recorder import Recorder
from eights.store.rooms import Rooms, SavedRoom
from eights.table import PlayConfig, Session
from eights.table.saved import saved_session, start_saved
from eights.table.session import SPEEDS
from eights.web.rooms.errors import RoomError
from eights.web.rooms.room import Room
from eights.web.rooms.runner import STAND_IN
from eights.web.rooms.seats import DEFAULT_AWAY, SeatState, web_seat
from eights.web.settings import Limits

if TYPE_CHECKING:
    from eights.web.rooms.room import RoomHost

#: A room's state versions count from its server's start (its epoch, one more at every start) times this:
#: a version never goes back across restarts, so a late message from before one cannot match a new state.
EPOCH = 2**32
#: Where the store keeps the server's last epoch.
EPOCH_KEY = "web_epoch"


class Keeping:
    """The rooms of one server in its store."""

    def __init__(self, store: Store, limits: Limits, pace: float) -> None:
        self.store = store
        self.saved = Rooms(store)
        self.limits = limits
        #: The pace of a room saved without one.
        self.pace = pace

    async def deal(self, config: PlayConfig) -> Session:
        """A new match for ``config``, saved from its deal on.

        :raises RulesError: or ``UsageError`` when the rules cannot seat the players.
        """
        return await asyncio.to_thread(start_saved, self.store, config)

    @staticmethod
    def fence(room: Room) -> None:
        """Give the room's match its owner's fence: each of its moves is then saved only while it is the owner."""
        log = room.session.log if room.session is not None else None
        if room.fence is not None and isinstance(log, Recorder):
            log.fence = (room.code, room.fence)

    async def save(self, room: Room) -> None:
        """Write the room to the store if it changed since it was last written.

        :raises Fenced: when another instance has taken the room over.
        """
        saved = (room.phase, room.to_data(), room.match_id)
        if saved != room.saved_as:
            await asyncio.to_thread(self.saved.save, room.code, *saved, fence=room.fence)
            room.saved_as = saved
            room.fresh = False

    async def next_epoch(self) -> int:
        """One more than this store's last server start or takeover, whichever instance asks."""
        return await asyncio.to_thread(self.store.next_epoch, EPOCH_KEY)

    def lifetime(self, phase: str) -> float:
        """Seconds a room in ``phase`` lives unused."""
        limits = self.limits
        return {"lobby": limits.lobby_seconds, "over": limits.over_seconds}.get(phase, limits.abandoned_seconds)

    @staticmethod
    def age(saved: SavedRoom) -> float:
        """Seconds since the saved room was last used."""
        moment = datetime.now(UTC).replace(tzinfo=None)
        return max(0.0, (moment - saved.updated_at) / timedelta(seconds=1))

    def room_of(self, saved: SavedRoom, version: int, host: RoomHost, playing: bool = True) -> Room | None:
        """The saved room as it was, its match played again from the store (unless not ``playing``: only what a
        look from outside needs), or None when it cannot be read back."""
        data = saved.data
        try:
            room = Room(
                saved.code,
                RuleSet.from_dict(data["rules"]),
                [SeatState.from_data(s) for s in data["seats"]],
                host,
                host_seat=int(data.get("host_seat", 0)),
                away_seconds=int(data.get("away_seconds", DEFAULT_AWAY)),
                pace=float(data.get("pace", self.pace)),
                match_id=saved.match_id,
                version=version,
                fence=saved.fence,
            )
            for state in room.seats:
                if state.kind == "computer":
                    state.level = web_seat((state.level or STAND_IN).partition("@")[0])
            if not playing:
                room.saved_phase = saved.phase
            elif saved.match_id is not None:
                room.session = saved_session(self.store, saved.match_id)
                room.session.speed = max(SPEEDS)  # (matches saved before the room set it in their config)
                self.fence(room)
        except (KeyError, TypeError, ValueError, RulesError, StoreError, RoomError):
            return None
        room.saved_as = (saved.phase, room.to_data(), saved.match_id)
        return room
