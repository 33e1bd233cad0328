"""What ``eights serve`` lets strangers do, in one place: every limit with its safe default, the public
address that room links are made from, and the proxies whose ``X-Forwarded-For`` is believed
(docs/security.md lists each with its reason).

A limit is changed with ``eights serve --set-limit NAME=VALUE`` (or ``Limits.with_changes``), which refuses
an unknown name or a value of the wrong kind in one sentence naming the valid choices.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field, fields, replace
from urllib.parse import urlsplit

from limits import RateLimitItem, parse

from eights.lab import QUICK_MAX_BUDGET, QUICK_MAX_GAMES

__all__ = ["Limits", "Settings", "SettingsError", "check_public_url"]


#: Limits with a ceiling of their own: a quick lab's games and search budget.
MAXIMA = {"lab_games": QUICK_MAX_GAMES, "lab_budget": QUICK_MAX_BUDGET}


class SettingsError(ValueError):
    """A setting that cannot be used: names it and the valid choices."""


@dataclass(frozen=True)
class Limits:
    """Every resource a client can make has a limit here, and everything it leaves behind an expiry."""

    #: Rooms one client (address) may make, as a rate (``limits``' notation: "20/hour", "5/minute").
    rooms_per_client: str = "30/hour"
    #: Score sheets one client may start on the web, as a rate.
    sheets_per_client: str = "30/hour"
    #: Seconds a score sheet made on the web lives after it was last changed or looked at (30 days: a match
    #: at a real table may go on over weeks). Sheets made at the terminal never expire.
    sheet_seconds: int = 30 * 24 * 3600
    #: Rooms held at once (live, saved and restored); past it new rooms are refused until some expire.
    max_rooms: int = 2000
    #: Seconds a lobby nobody has touched lives (no match started, no message that changed it).
    lobby_seconds: int = 3600
    #: Seconds a finished room lives after its last change.
    over_seconds: int = 3600
    #: Seconds a room whose match is in play lives with no person at the table (abandoned).
    abandoned_seconds: int = 24 * 3600
    #: WebSockets one client may hold open at once (tabs, devices behind one address).
    connections_per_client: int = 24
    #: WebSockets one room may hold at once (its seats and its spectators).
    connections_per_room: int = 40
    #: Seconds a new WebSocket has to say ``hello`` before it is closed.
    hello_seconds: float = 10.0
    #: Seconds a WebSocket may stay silent (the page pings every 25 s, a hidden tab at least once a minute).
    silent_seconds: float = 150.0
    #: Messages a connection may send a second, and in a burst.
    messages_per_second: float = 20.0
    message_burst: int = 40
    #: Refused messages (too fast, malformed or refused by the room) a connection may send in a minute.
    refused_per_minute: int = 120
    #: Bytes of messages waiting for one connection's reader (a newer state replaces the one waiting); past it
    #: the connection is closed, as too slow a reader. Before them, the system holds ``send_buffer_bytes`` for
    #: each socket's reader (Linux counts twice that: its own bookkeeping), and the server 64 KB more.
    outbox_bytes: int = 262_144
    send_buffer_bytes: int = 131_072
    #: Room lookups by code that find nothing, per client (guessing codes), as a rate.
    misses_per_client: str = "30/minute"
    #: Seconds a computer player may think on one decision (the searches' budget; the hard deadline is
    #: this plus a margin, after which the worker is replaced and a quick move is played).
    think_seconds: float = 3.0
    #: Cards dealt to one hand, in any round, in a room or a lab: rules that deal more are refused (the
    #: presets deal 8 at most; the engine itself plays any deal the packs allow).
    max_hand_size: int = 15
    #: "Test these rules" (``POST /api/lab``): games of each kind per rule set, and the search iterations a
    #: move of the skill games' expert (at most ``eights.lab.QUICK_MAX_GAMES`` and ``QUICK_MAX_BUDGET``).
    lab_games: int = 20
    lab_budget: int = 50
    #: Seconds a lab plays before it stops handing out games (its figures are then those of the games
    #: played); one still running ``eights.web.lab.GRACE`` seconds later is stopped with its worker.
    lab_seconds: float = 60.0
    #: The labs' work one client may ask for, as a rate of seconds of the lab worker's processor (a lab is
    #: charged what its games used: heavy rules cost more; an answer the server has kept costs nothing);
    #: and the labs one client may have waiting or running at once.
    lab_work_per_client: str = "300/hour"
    labs_at_once_per_client: int = 1
    #: Labs waiting or running on the server at once, and the worker processes that play them.
    labs_queued: int = 8
    lab_processes: int = 1
    #: Finished labs kept to answer the same rules again (the least recently asked forgotten first).
    lab_cache: int = 128
    #: A match's review (the Review button at its end): deals played out per decision, and the strongest
    #: level's search iterations per decision (a median of 0.28 s a decision on one core: bench/review.py).
    review_deals: int = 16
    review_iterations: int = 400
    #: Seconds a review may run in all; past it, it stops and nothing is kept.
    review_seconds: float = 180.0
    #: Reviews running at once on the server (each in a worker process of its own); past it, a new one is refused.
    reviews_at_once: int = 2
    #: Reviews one client may ask for, as a rate (a kept review, looked at again, is not counted).
    reviews_per_client: str = "10/hour"

    def with_changes(self, changes: dict[str, str]) -> Limits:
        """These limits with ``changes`` (names and values as text).

        :raises SettingsError: naming an unknown limit or a bad value.
        """
        kinds = {f.name: f.type for f in fields(self)}
        values: dict[str, object] = {}
        for name, text in changes.items():
            key = name.strip().replace("-", "_")
            if key not in kinds:
                raise SettingsError(f"unknown limit {name!r}; valid limits: {', '.join(kinds)}")
            kind = str(kinds[key])
            text = text.strip()
            try:
                if kind == "int":
                    value: object = int(text)
                elif kind == "float":
                    value = float(text)
                else:
                    parse(text)
                    value = text
            except ValueError:
                example = {"int": "a whole number", "float": "a number of seconds"}.get(kind, "a rate like 20/hour")
                raise SettingsError(f"limit {key}: {text!r} is not {example}") from None
            if isinstance(value, int | float) and not value > 0:
                raise SettingsError(f"limit {key}: {text!r} must be more than 0")
            if key in MAXIMA and isinstance(value, int) and value > MAXIMA[key]:
                raise SettingsError(f"limit {key}: {text!r} is more than a quick lab plays (at most {MAXIMA[key]})")
            values[key] = value
        return replace(self, **values)  # type: ignore[arg-type]

    def rate(self, name: str) -> RateLimitItem:
        """A rate limit by its field's name, as ``limits`` reads it."""
        text: str = getattr(self, name)
        return parse(text)


def check_public_url(url: str) -> str:
    """A public address for room links: ``http(s)://host[:port][/path]``, without a trailing slash.

    :raises SettingsError: naming what is wrong with it.
    """
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise SettingsError(f"public URL {url!r}: give the address people open, like https://eights.example.org")
    if parts.query or parts.fragment:
        raise SettingsError(f"public URL {url!r}: give it without a query or fragment")
    return url.strip().rstrip("/")


def check_proxy(address: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network:
    """A trusted proxy: an address or a network (``127.0.0.1``, ``10.0.0.0/8``).

    :raises SettingsError: when it is neither.
    """
    try:
        return ipaddress.ip_network(address.strip(), strict=False)
    except ValueError:
        raise SettingsError(
            f"trusted proxy {address!r}: give an address like 127.0.0.1 or a network like 10.0.0.0/8"
        ) from None


def is_address(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def is_loopback(text: str) -> bool:
    try:
        return ipaddress.ip_address(text).is_loopback
    except ValueError:
        return False


def client_key(address: str) -> str:
    """What a client's limits are counted by: its address, or an IPv6 address's /64 network."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        if not ip.is_loopback:
            return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


@dataclass(frozen=True)
class Settings:
    """How the server faces the world: its limits, its public address and the proxies it trusts."""

    limits: Limits = field(default_factory=Limits)
    #: The address people open (room links and QR codes are made from it, never from a request's Host).
    public_url: str = "http://localhost:8000"
    #: Proxies whose ``X-Forwarded-For`` names the client (none: the socket's peer is the client).
    trusted_proxies: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] = ()

    def trusts(self, address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self.trusted_proxies)

    def client(self, peer: str | None, forwarded: list[str]) -> str:
        """The client, as its limits count it: the socket's peer, or, when the peer is a trusted proxy, the last
        address of ``X-Forwarded-For`` (every line of it, in order) that is not a trusted proxy (the one the
        nearest trusted proxy saw). An IPv6 client is its /64 network: one subscriber holds a whole /64."""
        address = peer or "unknown"
        if forwarded and self.trusts(address):
            hops = [hop.strip() for line in forwarded for hop in line.split(",") if hop.strip()]
            for hop in reversed(hops):
                address = hop
                if not self.trusts(hop):
                    break
        return client_key(address)

    def local(self, peer: str | None, forwarded: list[str]) -> bool:
        """Whether a request comes from this machine (or a trusted proxy) itself, not from someone it forwards:
        a loopback or trusted peer with no ``X-Forwarded-For``, or a trusted proxy forwarding a loopback client.
        An untrusted proxy here forwarding anyone is not local."""
        if peer is None:
            return False
        if not forwarded:
            return is_loopback(peer) or self.trusts(peer)
        return self.trusts(peer) and is_loopback(self.client(peer, forwarded))

    def origin_allowed(self, origin: str | None, host: str | None) -> bool:
        """A WebSocket's ``Origin``: none (not a browser), the public address's, or the page's own host where
        that host is an address or ``localhost`` (a page opened by the machine's address on the local
        network); never a host name other than the public one (a name made to point here: DNS rebinding)."""
        if origin is None:
            return True
        parts = urlsplit(origin)
        public = urlsplit(self.public_url)
        if (parts.scheme, parts.netloc) == (public.scheme, public.netloc):
            return True
        if host is None or parts.netloc != host:
            return False
        name = parts.hostname or ""
        return name == "localhost" or is_address(name)
