"""What idle rooms and silent sockets cost ``eights serve``: its CPU with many rooms nobody is in, and its
memory per room and per silent socket.

Run from the repository root::

    python bench/idle.py                       # 2,000 rooms, 500 silent sockets, 30 s windows
    python bench/idle.py --rooms 500 --seconds 10

The server is ``eights serve`` in a process of its own on a new SQLite database (bench/server.py's
``start_server``; as that bench, the clients come from addresses of their own in 127.0.0.0/8, so the
per-client limits see families, not one client). In turn:

1. ``--rooms`` rooms, each a person against three ``normal`` computers, started at once; the person says
   ``hello`` with the seat token, then leaves: each room is a match in play that nobody is at.
   ``rooms_cpu``: the server's CPU (user + system over the window, 1.0 = a core) over ``--seconds``
   after a settling pause, and ``per_room_kb`` the resident set's growth over the room count.
2. The server is stopped and started again on the same database: ``restored_cpu`` is its CPU over the
   next window, the rooms taken up again with nobody in them.
3. ``--sockets`` WebSockets that each say ``hello`` (as a spectator of one of the rooms, every room looked
   at first, so that a server that takes rooms up when asked has them in memory) and then nothing:
   ``per_silent_socket_kb`` is the resident set's growth over their count, and ``silent_open_after``
   how many the server still held open at the end of the window (a server that closes silent sockets
   after ``silent_seconds``, 150 s by default, still holds them; ``--silent-limit S`` passes
   ``--set-limit silent_seconds=S`` to show them closed).

Stdout gets one JSON object; stderr a line per step.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

import server as server_bench
from server import address_of, cpu_seconds, free_port, progress, rss_kb, start_server, stop_server


async def make_rooms(base: str, count: int) -> list[str]:
    """``count`` started rooms, each left by its person after a hello; their codes."""
    ws = base.replace("http", "ws", 1) + "/ws"
    codes: list[str] = []
    gate = asyncio.Semaphore(50)

    async def one(index: int) -> None:
        async with gate:
            address = address_of(index)
            transport = httpx.AsyncHTTPTransport(local_address=address, verify=False)  # plain HTTP
            async with httpx.AsyncClient(base_url=base, timeout=30, transport=transport) as http:
                answer = await http.post(
                    "/api/rooms",
                    json={"name": "Host", "seats": ["me", "normal", "normal", "normal"], "start": True},
                )
            answer.raise_for_status()
            made = answer.json()
            async with connect(ws, local_addr=(address, 0), open_timeout=60) as socket:
                await socket.send(json.dumps({"type": "hello", "room": made["code"], "token": made["token"]}))
                while json.loads(await socket.recv())["type"] != "state":
                    pass
            codes.append(made["code"])

    await asyncio.gather(*(one(i) for i in range(count)))
    return codes


async def hold_silent(base: str, codes: list[str], count: int, seconds: float, pid: int) -> dict[str, Any]:
    """``count`` sockets that say hello and then nothing, held for ``seconds``."""
    ws = base.replace("http", "ws", 1) + "/ws"
    rng = random.Random(7)
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:  # every room in memory first
        for code in codes:
            (await http.get(f"/api/rooms/{code}")).raise_for_status()
    await asyncio.sleep(2)
    before = rss_kb(pid)
    sockets: list[ClientConnection] = []
    for index in range(count):
        socket = await connect(ws, local_addr=(address_of(100_000 + index), 0), open_timeout=60)
        await socket.send(json.dumps({"type": "hello", "room": rng.choice(codes), "token": None}))
        sockets.append(socket)
    for socket in sockets:
        while json.loads(await socket.recv())["type"] != "state":
            pass
    await asyncio.sleep(2)
    loaded = rss_kb(pid)
    await asyncio.sleep(seconds)
    still = 0
    for socket in sockets:
        try:
            await asyncio.wait_for(socket.ping(), 5)
            still += 1
        except Exception:  # closed by the server
            pass
        await socket.close()
    return {
        "sockets": count,
        "per_silent_socket_kb": round((loaded - before) / count, 1),
        "silent_open_after": still,
        "held_seconds": seconds,
    }


def cpu_over(pid: int, seconds: float) -> float:
    start = cpu_seconds(pid)
    time.sleep(seconds)
    return round((cpu_seconds(pid) - start) / seconds, 3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", type=int, default=2000, help="idle rooms (default 2000)")
    parser.add_argument("--sockets", type=int, default=500, help="silent sockets (default 500)")
    parser.add_argument("--seconds", type=float, default=30.0, help="each measured window (default 30)")
    parser.add_argument("--settle", type=float, default=10.0, help="seconds to wait before measuring (default 10)")
    parser.add_argument("--silent-limit", type=float, default=None, help="pass --set-limit silent_seconds=S")
    args = parser.parse_args()
    server_bench.PATIENCE = 600.0  # a server that takes every room up at its start may take minutes
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    folder = Path(tempfile.mkdtemp(prefix="eights-idle-"))
    db = folder / "idle.sqlite"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    extra = ["--set-limit", f"silent_seconds={args.silent_limit}"] if args.silent_limit else []
    result: dict[str, Any] = {"command": "python bench/idle.py " + " ".join(sys.argv[1:]), "rooms": args.rooms}
    server = start_server(port, db, 0, extra)
    try:
        empty = rss_kb(server.pid)
        progress(f"making {args.rooms} rooms")
        codes = asyncio.run(make_rooms(base, args.rooms))
        time.sleep(args.settle)
        result["per_room_kb"] = round((rss_kb(server.pid) - empty) / args.rooms, 1)
        progress(f"measuring the server's CPU over {args.seconds:g} s")
        result["rooms_cpu"] = cpu_over(server.pid, args.seconds)
    finally:
        stop_server(server)
    server = start_server(port, db, 0, extra)
    try:
        time.sleep(args.settle)
        progress(f"restarted: measuring the server's CPU over {args.seconds:g} s")
        result["restored_cpu"] = cpu_over(server.pid, args.seconds)
        progress(f"holding {args.sockets} silent sockets")
        result.update(asyncio.run(hold_silent(base, codes, args.sockets, args.seconds, server.pid)))
    finally:
        stop_server(server)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
