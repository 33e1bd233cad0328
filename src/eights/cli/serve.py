"""The web table: ``eights serve`` serves a page that plays in the browser, alone against the
computer or with friends in rooms joined by a link (docs/protocol.md, docs/security.md).

``app`` builds the FastAPI app; ``rooms`` holds every room (its seats, connections and
match, on the table layer); ``tableview`` turns a seat's view into JSON; ``protocol``
validates what browsers send; ``workers`` runs computer players off the event loop;
``settings`` and ``guard`` hold the limits strangers meet; ``static/`` is the page.
FastAPI and uvicorn are imported only by ``eights serve``.
"""

from __future__ import annotations

import ipaddress
import socket
from pathlib import Path
from typing import Annotated

import typer

from eights.cli.common import fail
from eights.cli.database import DbOption, open_store

__all__ = ["serve_command"]


def listening_socket(host: str, port: int, send_buffer: int | None = None) -> socket.socket:
    """A socket bound to ``host``:``port``, before anything is announced; ``send_buffer``: the bytes the system
    may hold for each connection's reader (every socket it accepts has that buffer: without it, the system
    grows a reader's buffer to megabytes).

    :raises OSError: when the address cannot be used (its words say why).
    """
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if send_buffer is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, send_buffer)
        sock.bind(address)
        sock.listen(2048)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def network_address() -> str | None:
    """This machine's address on the network its default route leads to (where other devices on that
    network reach it), or None when it has none but a loopback one. No packet is sent: a UDP socket is only
    pointed at an address of the documentation range, and the system says which of its addresses it would use."""
    for family, far in ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1")):
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as probe:
                probe.connect((far, 9))
                address = str(probe.getsockname()[0])
        except OSError:
            continue
        if not ipaddress.ip_address(address).is_loopback:
            return address
    return None


def default_public_url(host: str, port: int) -> tuple[str, str]:
    """Where people open the table when no ``--public-url`` is given, and a sentence saying whether other
    devices reach it: on every network (0.0.0.0), this machine's address on its network when it has one."""
    if host in ("127.0.0.1", "::1", "localhost"):
        return f"http://localhost:{port}", "room links and QR codes say localhost: they open on this machine only"
    if host in ("0.0.0.0", "::", ""):
        address = network_address()
        if address is None:
            return (
                f"http://localhost:{port}",
                "this machine has no network address other devices can reach: room links and QR codes say "
                "localhost and open on this machine only (give --public-url once it has one)",
            )
        name = f"[{address}]" if ":" in address else address
        return (
            f"http://{name}:{port}",
            f"room links and QR codes use {address}, this machine's address on its network (--public-url changes it)",
        )
    name = f"[{host}]" if ":" in host else host
    return f"http://{name}:{port}", f"room links and QR codes use {host}, the address it listens on"


def serve_command(
    host: Annotated[
        str, typer.Option("--host", metavar="ADDRESS", help="The address to listen on (0.0.0.0: every network).")
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", metavar="PORT", min=1, max=65535, help="The port to listen on.")
    ] = 8000,
    pace: Annotated[
        float,
        typer.Option(
            "--pace", metavar="SECONDS", min=0.0, help="Seconds between computer moves, so people can follow."
        ),
    ] = 0.7,
    public_url: Annotated[
        str | None,
        typer.Option(
            "--public-url",
            metavar="URL",
            envvar="EIGHTS_PUBLIC_URL",
            help="The address people open (room links and QR codes use it), like https://eights.example.org; "
            "default: this machine's name and the port.",
        ),
    ] = None,
    trust_proxy: Annotated[
        list[str] | None,
        typer.Option(
            "--trust-proxy",
            metavar="ADDRESS",
            help="A reverse proxy whose X-Forwarded-For names the client (an address or a network; repeat it).",
        ),
    ] = None,
    limit: Annotated[
        list[str] | None,
        typer.Option(
            "--set-limit",
            metavar="NAME=VALUE",
            help="Change one limit, like max_rooms=500 or rooms_per_client=10/hour (docs/security.md lists them).",
        ),
    ] = None,
    redis: Annotated[
        str | None,
        typer.Option(
            "--redis",
            metavar="URL",
            envvar="EIGHTS_REDIS_URL",
            help="Run as one instance of many sharing this Redis (and one PostgreSQL --db), like "
            "redis://localhost:6379/0: rooms, relays and limits are shared (docs/deploy.md).",
        ),
    ] = None,
    db: DbOption = None,
) -> None:
    """Serve the web table: play in the browser, alone or with friends in rooms joined by a link.

    Every room and match is saved as it goes: a restarted server takes them all up again.
    Stop it with Ctrl-C.
    """
    from eights.web.settings import Limits, Settings, SettingsError, check_proxy, check_public_url

    address, reach = default_public_url(host, port)
    try:
        changes = {}
        for item in limit or []:
            name, sign, value = item.partition("=")
            if not sign:
                raise SettingsError(f"--set-limit {item!r}: give NAME=VALUE, like max_rooms=500")
            changes[name] = value
        settings = Settings(
            limits=Limits().with_changes(changes),
            public_url=check_public_url(public_url or address),
            trusted_proxies=tuple(check_proxy(p) for p in trust_proxy or []),
        )
    except SettingsError as exc:
        fail(str(exc))
    try:
        sock = listening_socket(host, port, settings.limits.send_buffer_bytes)
    except OSError as exc:
        reason = "it is in use (another server?)" if exc.errno == 98 else (exc.strerror or str(exc)).lower()
        fail(f"cannot listen on {host} port {port}: {reason}; choose another with --port or --host")

    import uvicorn

    from eights.cluster.leases import Cluster, ClusterError, check_reachable
    from eights.web.app import create_app, tune_gc

    cluster = None
    if redis is not None:
        try:
            check_reachable(redis)
            cluster = Cluster(redis)
        except ClusterError as exc:
            fail(str(exc))
    from platformdirs import user_cache_path

    from eights.web.site import SiteError, build

    built = user_cache_path("eights") / "site"
    site: Path | None = built
    try:
        build(built)
    except SiteError as exc:
        typer.echo(f"eights: the app that plays with no network is not served at /app/: {exc}.", err=True)
        site = None
    store = open_store(db)
    app = create_app(store, pace=pace, settings=settings, cluster=cluster, site=site)
    tune_gc()
    typer.echo(f"eights: the web table is at {settings.public_url}/ (matches saved in {store.label}); Ctrl-C stops it.")
    if public_url is None:
        typer.echo(f"eights: {reach}.")
    if site is not None:
        typer.echo(f"eights: the app that plays offline installs from {settings.public_url}/app/.")
    if cluster is not None:
        typer.echo(f"eights: instance {cluster.id} of many on Redis at {cluster.url}.")
    config = uvicorn.Config(
        app, log_level="warning", ws_max_size=65536, lifespan="on", proxy_headers=False, server_header=False
    )
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        store.close()
        sock.close()
    typer.echo("eights: the web table stopped; every room is saved and comes back with `eights serve`.")
