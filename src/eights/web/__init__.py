"""The web table: ``eights serve`` serves a page that plays in the browser, alone against the
computer or with friends in rooms joined by a link (docs/protocol.md).

``app`` builds the FastAPI app; ``rooms`` holds every room (its seats, connections and
match, on the table layer); ``tableview`` turns a seat's view into JSON; ``protocol``
validates what browsers send; ``workers`` runs computer players off the event loop;
``static/`` is the page. FastAPI and uvicorn are imported only by ``eights serve``.
"""

from __future__ import annotations

from typing import Annotated

import typer

from eights.history import DbOption, open_store

__all__ = ["serve_command"]


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
    db: DbOption = None,
) -> None:
    """Serve the web table: play in the browser, alone or with friends in rooms joined by a link.

    Every room and match is saved as it goes: a restarted server takes them all up again.
    Stop it with Ctrl-C.
    """
    import uvicorn

    from eights.web.app import create_app, tune_gc

    store = open_store(db)
    app = create_app(store, pace=pace)
    tune_gc()
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    typer.echo(f"eights: the web table is at http://{shown}:{port}/ (matches saved in {store.label}); Ctrl-C stops it.")
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", ws_max_size=65536, lifespan="on")
    try:
        uvicorn.Server(config).run()
    finally:
        store.close()
    typer.echo("eights: the web table stopped; every room is saved and comes back with `eights serve`.")
