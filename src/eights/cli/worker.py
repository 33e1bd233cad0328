"""``eights worker``: serve the computer players' decisions from a Redis queue, on any machine
(``eights.web.queue``; docs/deploy.md)."""

from __future__ import annotations

import asyncio
import logging
from typing import Annotated
from urllib.parse import urlsplit

import typer

from eights.cli.common import fail

__all__ = ["worker_command"]


def worker_command(
    redis: Annotated[
        str,
        typer.Option(
            "--redis",
            metavar="URL",
            envvar="EIGHTS_REDIS_URL",
            help="The Redis the servers queue their decisions on, like redis://10.0.0.5:6379/0.",
        ),
    ],
    processes: Annotated[
        int | None,
        typer.Option(
            "--processes", metavar="N", min=1, help="Searches at once, each in a process; default: one per core."
        ),
    ] = None,
    deadline: Annotated[
        float,
        typer.Option("--deadline", metavar="SECONDS", min=0.1, help="Seconds a search may run before it is stopped."),
    ] = 10.0,
) -> None:
    """Serve computer players' decisions from the queue of `eights serve --redis`, until Ctrl-C or SIGTERM."""
    if urlsplit(redis).scheme not in ("redis", "rediss", "unix"):
        fail(f"--redis {redis!r}: give a Redis URL, like redis://HOST:6379/0 (or rediss://, unix://)")
    from eights.web.queue import serve_decisions

    # arq's own log would print a traceback for every search dropped at a stop; the worker says what matters.
    arq = logging.getLogger("arq")
    arq.addHandler(logging.NullHandler())
    arq.propagate = False
    asyncio.run(serve_decisions(redis, processes, deadline, say=typer.echo))
