"""What the command modules share: the rule-choosing options and the progress bar.

``eights.cli`` registers ``play`` (``eights.tui``) and ``tournament`` (``eights.tournament``),
so those modules cannot import from it; all three import from here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from eights.rules import PRESETS

if TYPE_CHECKING:
    from rich.console import Console


VariantOption = Annotated[
    str | None,
    typer.Option(
        "--variant", "-v", metavar="PRESET", help=f"The preset to play: {', '.join(PRESETS)} (default classic)."
    ),
]
OptionsOption = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        "-o",
        metavar="KEY=VALUE",
        help="Change one rule, like stacking=true, packs=2 or rounds=8,6,4 (repeat for more).",
    ),
]
RulesOption = Annotated[
    Path | None,
    typer.Option(
        "--rules",
        metavar="FILE",
        help="A house-rules TOML file instead of a preset (see `eights rules PRESET --save FILE`).",
    ),
]


@contextmanager
def progress_bar(
    out: Console, description: str, total: int, show: bool = True
) -> Iterator[Callable[[object], None] | None]:
    """A bar on ``out`` counting to ``total``, gone when done; gives the callback that advances it by one.

    The callback is ``None`` (no bar) unless ``show`` and ``out`` is a terminal.
    """
    if not (show and out.is_terminal):
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=out,
        transient=True,
    ) as progress:
        task = progress.add_task(description, total=total)
        yield lambda _: progress.advance(task)
