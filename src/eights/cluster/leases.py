"""Many instances of the web table on one Redis and one store (``eights serve --redis URL``).

Any instance accepts any browser. A room is played by one instance at a time, its owner, which applies
every message (the hub's rules, unchanged) and sends each connection its own redacted state. The other
instances relay: a browser's messages go to the owner, and what the owner sends that browser comes back,
over Redis pub/sub (a channel per instance). Redaction stays per recipient, at the owner.

Ownership is a lease in Redis (``eights:lease:CODE`` holding the owner's id), set with ``NX`` and kept
alive by the owner's heartbeat (every ``beat`` seconds, for ``lease`` seconds). A room with no lease is
taken up by the first instance asked for it, from the store. Because a lease can lapse while its holder
still believes in it (a process paused, Redis restarted and emptied), the store has the last word: taking
a room up gives it a new fence (``Store.next_epoch``, larger than every fence and every server start
before), and every write of the owner's (the room's row, each action of its match) checks it in the same
transaction; a write carrying an older fence is refused (``eights.store.Fenced``) and its instance lets
the room go. A room's state versions count from its fence (``fence × 2**32``): they never go back across
takeovers and restarts.

Every beat an instance also says it is alive (``eights:alive:ID``), drops the remote connections of
instances that stopped saying so (their browsers reconnect elsewhere), and closes its own relayed
connections whose room has another owner now (code 4012: the browser reconnects by itself, to any
instance, and says hello again). While Redis cannot be reached, an owner goes on playing its rooms for
the browsers connected to it (the fences keep that safe), relays close, and everything is taken up again
once Redis answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError

log = logging.getLogger("eights.web")

__all__ = ["BEAT", "LEASE", "Cluster", "ClusterError"]

#: Seconds between heartbeats, and seconds a lease (or an instance's life sign) lasts without one.
BEAT = 1.0
LEASE = 5.0
PREFIX = "eights:"
#: Connections to Redis at once; more callers wait for one (at most a lease's time).
CONNECTIONS = 64

#: Renew this instance's leases (KEYS) to ARGV[1] for ARGV[2] ms; one Redis lost (restarted) is set again
#: (the store's fence tells whether the room is still ours). The places (1-based) of those held by another.
RENEW = """
local lost = {}
for i, key in ipairs(KEYS) do
  local holder = redis.call('GET', key)
  if holder == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
  elseif not holder then
    redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
  else
    table.insert(lost, i)
  end
end
return lost
"""
#: Delete the lease KEYS[1] if ARGV[1] holds it.
RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

Envelope = dict[str, Any]


class ClusterError(RuntimeError):
    """Redis cannot be reached (its words say why)."""


def check_url(url: str) -> str:
    """A Redis URL as given, checked.

    :raises ClusterError: for text that is not one.
    """
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise ClusterError(f"--redis {url!r}: give a Redis URL, like redis://localhost:6379/0")
    try:
        aioredis.Redis.from_url(url)
    except ValueError as exc:
        raise ClusterError(f"--redis {url!r}: {exc}") from None
    return url


def check_reachable(url: str) -> None:
    """:raises ClusterError: when the Redis at ``url`` does not answer."""
    import redis

    client = redis.Redis.from_url(check_url(url), socket_timeout=LEASE, socket_connect_timeout=LEASE)
    try:
        client.ping()
    except (RedisError, OSError) as exc:
        raise ClusterError(f"cannot reach Redis at {url}: {str(exc).rstrip('.')}; start it, or check --redis") from None
    finally:
        client.close()


class Cluster:
    """This instance among the others on one Redis: its leases, life sign and channel."""

    def __init__(self, url: str, *, beat: float = BEAT, lease: float = LEASE, instance: str | None = None) -> None:
        self.url = check_url(url)
        # A bounded pool whose callers wait for a connection (the default one refuses the 101st at once).
        connections = aioredis.BlockingConnectionPool.from_url(
            url, max_connections=CONNECTIONS, timeout=lease, socket_timeout=lease, socket_connect_timeout=lease
        )
        self.redis: aioredis.Redis = aioredis.Redis(connection_pool=connections)
        self.id = instance or secrets.token_hex(6)
        self.beat = beat
        self.lease = lease
        self._renew = self.redis.register_script(RENEW)
        self._release = self.redis.register_script(RELEASE)
        self._tasks: list[asyncio.Task[None]] = []
        #: Whether Redis answered the last time it was asked (its loss and return are logged once).
        self.up = True

    # ----- keys ----------------------------------------------------------------------------------------------

    @staticmethod
    def lease_key(code: str) -> str:
        return f"{PREFIX}lease:{code}"

    @staticmethod
    def channel(instance: str) -> str:
        return f"{PREFIX}to:{instance}"

    @staticmethod
    def alive_key(instance: str) -> str:
        return f"{PREFIX}alive:{instance}"

    # ----- leases --------------------------------------------------------------------------------------------

    async def acquire(self, code: str) -> bool:
        """Take the lease of room ``code`` if nobody holds it (True), or it is ours already."""
        key = self.lease_key(code)
        if await self.redis.set(key, self.id, nx=True, px=int(self.lease * 1000)):
            return True
        return await self.owner(code) == self.id

    async def owner(self, code: str) -> str | None:
        """The instance holding the lease of room ``code``, if one does."""
        holder = await self.redis.get(self.lease_key(code))
        return holder.decode() if isinstance(holder, bytes) else holder

    async def release(self, code: str) -> None:
        """Let the lease of room ``code`` go, if it is ours."""
        await self._release(keys=[self.lease_key(code)], args=[self.id])

    async def renew(self, codes: Sequence[str]) -> list[str]:
        """Keep the leases of ``codes`` alive; the codes whose lease another instance holds now."""
        if not codes:
            return []
        keys = [self.lease_key(code) for code in codes]
        lost = await self._renew(keys=keys, args=[self.id, int(self.lease * 1000)])
        return [codes[int(place) - 1] for place in lost]

    # ----- instances -----------------------------------------------------------------------------------------

    async def alive(self, instances: Iterable[str]) -> set[str]:
        """Which of ``instances`` said they were alive within a lease's time."""
        asked = sorted(set(instances))
        if not asked:
            return set()
        found = await self.redis.mget([self.alive_key(i) for i in asked])
        return {instance for instance, sign in zip(asked, found, strict=True) if sign is not None}

    async def publish(self, instance: str, envelope: Envelope) -> bool:
        """Send ``envelope`` to ``instance``'s channel; whether it listens there (pub/sub keeps nothing for an
        instance that is not listening: gone, or not subscribed again yet after Redis came back).

        :raises RedisError: when Redis cannot be reached.
        """
        heard = await self.redis.publish(self.channel(instance), json.dumps(envelope, ensure_ascii=False))
        return bool(heard)

    # ----- running -------------------------------------------------------------------------------------------

    def start(self, on_envelope: Callable[[Envelope], Awaitable[None]], on_beat: Callable[[], Awaitable[None]]) -> None:
        """Listen on this instance's channel (``on_envelope`` for each message) and beat (``on_beat`` after
        each life sign), from now until ``close``."""
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen(on_envelope)), loop.create_task(self._beat(on_beat))]

    async def _listen(self, on_envelope: Callable[[Envelope], Awaitable[None]]) -> None:
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel(self.id))
                while True:
                    message = await pubsub.get_message(timeout=self.beat)
                    if message is None or message.get("type") != "message":
                        continue
                    try:
                        envelope = json.loads(message["data"])
                    except ValueError:
                        continue
                    if isinstance(envelope, dict):
                        await on_envelope(envelope)
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as exc:
                self._lost(exc)
                await asyncio.sleep(self.beat)
            finally:
                with contextlib.suppress(RedisError, OSError):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]

    async def _beat(self, on_beat: Callable[[], Awaitable[None]]) -> None:
        while True:
            try:
                await self.redis.set(self.alive_key(self.id), "1", px=int(self.lease * 1000))
                self._back()
            except (RedisError, OSError) as exc:
                self._lost(exc)
            try:
                await on_beat()
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as exc:
                self._lost(exc)
            except Exception as exc:  # one beat's failure is not the next one's
                log.error("eights: the cluster's heartbeat failed (%s)", type(exc).__name__)
            await asyncio.sleep(self.beat)

    def _lost(self, exc: BaseException) -> None:
        if self.up:
            log.warning("eights: Redis at %s cannot be reached (%s); trying again", self.url, exc)
        self.up = False

    def _back(self) -> None:
        if not self.up:
            log.warning("eights: Redis at %s answers again", self.url)
        self.up = True

    async def close(self) -> None:
        """Stop listening and beating, and say this instance is gone."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, RedisError, OSError):
                await task
        with contextlib.suppress(RedisError, OSError):
            await self.redis.delete(self.alive_key(self.id))
        with contextlib.suppress(RedisError, OSError):
            await self.redis.aclose()
