"""Per-client limits of the web table: rooms made, score sheets started, the labs' work, reviews asked for, room
codes guessed, sockets held open.

Rates are ``limits``' moving windows; the count of open sockets is a counter, since a socket is held, not
spent. One instance keeps both in memory. With ``redis_url`` (``eights serve --redis``, many instances
behind one address) they hold across instances:

- **Rates** use ``limits``' Redis storage: one moving window per client, whichever instance counts a hit.
- **Sockets**: each instance keeps its own sockets' count per client, and writes it to Redis in a hash per
  client (``SOCKETS`` and the address; a field per instance). A socket is let in by a script run in Redis
  (one step, so two instances cannot both let in the last one) that sums the counts of the instances alive
  and adds this one. An instance is alive while it beats (``BEAT`` seconds, in a thread): its beat is its
  score in ``GUARDS``, and a count whose instance has not beaten for ``ALIVE`` seconds is ignored and
  dropped. So an instance that dies stops counting against its clients within ``ALIVE`` seconds, when their
  browsers have come back through the others; ``close`` stops counting at once. Every ``REWRITE`` seconds,
  and at its first beat after Redis was lost or emptied, an instance writes all its counts again.

**Redis unreachable** (a restart, a network cut): nothing is refused for it and nothing waits on it. The
first failed call marks Redis down, and until a beat reaches it again the limits are kept in this
instance's memory at its share of each limit: the limit divided by the instances alive when Redis was
last seen (a stranger spread over every instance by a round-robin balancer gets about the limit in all,
as before; a family behind one address keeps room to play). Sockets already open stay open (a client may
then hold, in all, its share on each instance or what it held there before, whichever is more); their
counts come back to Redis at the first beat that reaches it, and the limit holds across instances again.
The windows kept in Redis are lost if Redis loses its data: a client's hits since then count from zero. A
blocked call to Redis (a black-holed host) stalls the caller for ``TIMEOUT`` seconds once, not at every
call: the beat, in its thread, finds when Redis is back.
"""

from __future__ import annotations

import math
import threading
import time
import uuid
from collections import Counter

from limits import RateLimitItem
from limits.errors import StorageError
from limits.storage import MemoryStorage, storage_from_string
from limits.strategies import MovingWindowRateLimiter
from redis import Redis
from redis.client import Pipeline
from redis.exceptions import RedisError

from eights.web.settings import Limits

__all__ = ["ALIVE", "BEAT", "GUARDS", "REWRITE", "SOCKETS", "TIMEOUT", "Bucket", "Guard"]

#: The instances' beats: a sorted set, an instance's id scored by the time of its last beat.
GUARDS = "eights:guards"
#: A client's sockets: a hash per address, the count of each instance's sockets.
SOCKETS = "eights:sockets:"
#: Seconds between an instance's beats; seconds after its last beat that its counts still count.
BEAT = 1.0
ALIVE = 5.0
#: Seconds between rewrites of all an instance's counts; and how long a count written lasts unrewritten.
REWRITE = 30.0
KEPT = 120
#: Seconds a call to Redis may take before Redis is taken for down.
TIMEOUT = 0.5

#: KEYS: the client's hash, GUARDS. ARGV: this instance, its sockets for the client, the limit, the oldest
#: beat alive, the hash's life. 1: the socket is counted; 0: the client holds its share already.
OPEN_SOCKET = """
local mine = tonumber(ARGV[2])
local total = mine
local counts = redis.call('HGETALL', KEYS[1])
for i = 1, #counts, 2 do
  local instance = counts[i]
  if instance ~= ARGV[1] then
    local beat = redis.call('ZSCORE', KEYS[2], instance)
    if beat and tonumber(beat) >= tonumber(ARGV[4]) then
      total = total + tonumber(counts[i + 1])
    else
      redis.call('HDEL', KEYS[1], instance)
    end
  end
end
if total >= tonumber(ARGV[3]) then
  return 0
end
redis.call('HSET', KEYS[1], ARGV[1], mine + 1)
redis.call('EXPIRE', KEYS[1], ARGV[5])
return 1
"""

FAILURES = (RedisError, StorageError, OSError)


class Guard:
    """What each client (by address) has used of the limits; see the module docstring."""

    def __init__(self, limits: Limits, redis_url: str | None = None) -> None:
        self.limits = limits
        self._local = MovingWindowRateLimiter(MemoryStorage())
        self._rooms = limits.rate("rooms_per_client")
        self._sheets = limits.rate("sheets_per_client")
        self._misses = limits.rate("misses_per_client")
        self._lab_work = limits.rate("lab_work_per_client")
        self._reviews = limits.rate("reviews_per_client")
        #: This instance's open sockets, by client.
        self.sockets: Counter[str] = Counter()
        self._lock = threading.Lock()
        self._shared = _Shared(redis_url, self) if redis_url else None

    @property
    def instances(self) -> int:
        """The instances counting with this one, at its last beat that reached Redis (1 without Redis)."""
        return 1 if self._shared is None else self._shared.instances

    def make_room(self, client: str) -> bool:
        """Count a room made by ``client``; False when it has made its share for now."""
        return self._hit(self._rooms, "rooms", client)

    def make_sheet(self, client: str) -> bool:
        """Count a score sheet started by ``client``; False when it has started its share for now."""
        return self._hit(self._sheets, "sheets", client)

    def lab_work_left(self, client: str) -> int:
        """The seconds of the lab worker's processor ``client``'s labs may still use in the window."""
        item = self._lab_work
        shared = self._shared
        if shared is not None and shared.up:
            try:
                return int(shared.window.get_window_stats(item, "lab_work", client).remaining)
            except FAILURES:
                shared.lost()
        return int(self._local.get_window_stats(self._share(item), "lab_work", client).remaining)

    def spend_lab_work(self, client: str, seconds: float) -> None:
        """Count ``seconds`` of the lab worker's processor used by ``client``'s lab (a part second as a
        second), as much of them as its window has left."""
        cost = min(math.ceil(seconds), self.lab_work_left(client))
        if cost > 0:
            self._hit(self._lab_work, "lab_work", client, cost)

    def make_review(self, client: str) -> bool:
        """Count a review asked for by ``client``; False when it has asked for its share for now."""
        return self._hit(self._reviews, "reviews", client)

    def may_look_up(self, client: str) -> bool:
        """False while ``client`` has guessed too many codes that led nowhere."""
        shared = self._shared
        if shared is not None and shared.up:
            try:
                return shared.window.test(self._misses, "misses", client)
            except FAILURES:
                shared.lost()
        return self._local.test(self._share(self._misses), "misses", client)

    def missed(self, client: str) -> None:
        """``client`` looked up a room that does not exist."""
        self._hit(self._misses, "misses", client)

    def _hit(self, item: RateLimitItem, kind: str, client: str, cost: int = 1) -> bool:
        shared = self._shared
        if shared is not None and shared.up:
            try:
                return shared.window.hit(item, kind, client, cost=cost)
            except FAILURES:
                shared.lost()
        return self._local.hit(self._share(item), kind, client, cost=cost)

    def _share(self, item: RateLimitItem) -> RateLimitItem:
        """``item`` alone, or this instance's share of it while Redis is down."""
        if self.instances <= 1:
            return item
        return type(item)(max(1, item.amount // self.instances), item.multiples, item.namespace)

    def open_socket(self, client: str) -> bool:
        """Count a socket of ``client``'s; False (and nothing counted) when it holds its share already."""
        limit = self.limits.connections_per_client
        with self._lock:
            mine = self.sockets[client]
        if mine >= limit:
            return False
        shared = self._shared
        if shared is not None and shared.up:
            try:
                allowed = shared.open_socket(client, mine, limit)
            except FAILURES:
                shared.lost()
            else:
                if allowed:
                    with self._lock:
                        self.sockets[client] += 1
                return allowed
        if mine >= max(1, limit // self.instances):
            return False
        with self._lock:
            self.sockets[client] += 1
        if shared is not None:
            shared.dirty = True
        return True

    def close_socket(self, client: str) -> None:
        with self._lock:
            self.sockets[client] -= 1
            left = self.sockets[client]
            if left <= 0:
                del self.sockets[client]
        if self._shared is not None:
            self._shared.write(client, max(0, left))

    def close(self) -> None:
        """Stop beating and take this instance's counts out of Redis (nothing without Redis)."""
        if self._shared is not None:
            self._shared.close()


class _Shared:
    """A guard's part in Redis: the moving windows, the socket counts and the beat."""

    def __init__(self, url: str, guard: Guard) -> None:
        self.guard = guard
        self.id = uuid.uuid4().hex
        self.redis = Redis.from_url(url, socket_timeout=TIMEOUT, socket_connect_timeout=TIMEOUT)
        self.window = MovingWindowRateLimiter(
            storage_from_string(url, socket_timeout=TIMEOUT, socket_connect_timeout=TIMEOUT)
        )
        self.script = self.redis.register_script(OPEN_SOCKET)
        #: Whether the last call reached Redis; while not, the guard keeps to its share in memory.
        self.up = False
        #: The instances alive at the last beat (this one included).
        self.instances = 1
        #: Whether a count may be missing from Redis (a write failed, or Redis lost its data).
        self.dirty = True
        #: The clients whose count this instance wrote to Redis (to take out when it falls to zero).
        self.written: set[str] = set()
        self._rewritten = 0.0
        self._stop = threading.Event()
        self.beat()
        self._thread = threading.Thread(target=self._beating, name="eights-guard-beat", daemon=True)
        self._thread.start()

    def lost(self) -> None:
        self.up = False
        self.dirty = True

    def open_socket(self, client: str, mine: int, limit: int) -> bool:
        allowed = self.script(keys=[SOCKETS + client, GUARDS], args=[self.id, mine, limit, time.time() - ALIVE, KEPT])
        self.written.add(client)
        return bool(allowed)

    def write(self, client: str, count: int) -> None:
        """Set this instance's count for ``client`` in Redis (a later beat does it if Redis is down)."""
        if not self.up:
            self.dirty = True
            return
        try:
            with self.redis.pipeline(transaction=True) as pipe:
                self._put(pipe, client, count)
                pipe.execute()
        except FAILURES:
            self.lost()

    def _put(self, pipe: Pipeline, client: str, count: int) -> None:
        if count > 0:
            pipe.hset(SOCKETS + client, self.id, str(count))
            pipe.expire(SOCKETS + client, KEPT)
            self.written.add(client)
        else:
            pipe.hdel(SOCKETS + client, self.id)
            self.written.discard(client)

    def beat(self) -> None:
        """Say this instance is alive, count the instances alive, and write every count again when one may be
        missing (or every ``REWRITE`` seconds)."""
        now = time.time()
        try:
            with self.redis.pipeline(transaction=True) as pipe:
                pipe.zscore(GUARDS, self.id)
                pipe.zadd(GUARDS, {self.id: now})
                pipe.zremrangebyscore(GUARDS, "-inf", now - ALIVE)
                pipe.zcard(GUARDS)
                known, _, _, alive = pipe.execute()
            if known is None or self.dirty or now - self._rewritten >= REWRITE:
                self.dirty = False
                with self.guard._lock:
                    counts = dict(self.guard.sockets)
                with self.redis.pipeline(transaction=False) as pipe:
                    for client in set(self.written) | counts.keys():
                        self._put(pipe, client, counts.get(client, 0))
                    pipe.execute()
                self._rewritten = now
                with self.guard._lock:
                    # A socket opened or closed meanwhile may have been written over: again at the next beat.
                    self.dirty = self.dirty or counts != dict(self.guard.sockets)
        except FAILURES:
            self.lost()
            return
        self.instances = max(1, int(alive))
        self.up = True

    def _beating(self) -> None:
        while not self._stop.wait(BEAT):
            self.beat()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(BEAT + 2 * TIMEOUT)
        try:
            with self.redis.pipeline(transaction=True) as pipe:
                pipe.zrem(GUARDS, self.id)
                for client in self.written:
                    pipe.hdel(SOCKETS + client, self.id)
                pipe.execute()
        except FAILURES:
            pass
        self.redis.close()


class Bucket:
    """A token bucket: ``rate`` messages a second, bursts of ``burst``."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens, self.at = float(burst), time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True
