"""``eights site OUT``: the app that plays every preset with no network and no server, as static files."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from eights.cli.common import fail

__all__ = ["site_command"]


def site_command(
    out: Annotated[Path, typer.Argument(metavar="OUT", help="The folder to write the app into (made if need be).")],
) -> None:
    """Write the app (the table, its Python on Pyodide, its service worker) into OUT, for any static host: it
    installs from there and plays every preset offline after the first visit. The Pyodide runtime is fetched
    once with npm into the user's cache."""
    from eights.web.site import SiteError, build

    try:
        files = build(out)
    except SiteError as exc:
        fail(str(exc))
    size = sum((out / name).stat().st_size for name in files)
    typer.echo(f"eights: the app is in {out}/ ({len(files)} files, {size / 1e6:.1f} MB): serve the folder and open it.")
