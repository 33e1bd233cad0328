"""What the command modules share: the rule-choosing options, the headline, the progress bar and tidy help.

``eights.cli`` registers ``play`` (``eights.tui``) and ``tournament`` (``eights.tournament``),
so those modules cannot import from it; all three import from here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from typer.core import TyperGroup

from eights.rules import PRESETS, RuleSet

#: The exit status of a command refused for bad input.
USAGE_ERROR = 2
#: The exit status of a command stopped by Ctrl-C (128 + SIGINT, as shells report it).
INTERRUPTED = 130


def fail(message: str) -> NoReturn:
    """Refuse bad input: one line on standard error (``eights: error: ...``), exit status 2."""
    typer.echo(f"eights: error: {message}", err=True)
    raise typer.Exit(USAGE_ERROR)


def stopped_after(played: int, asked: int) -> None:
    """Say on standard error that Ctrl-C stopped a batch: ``Stopped after 12 of 40 games.``

    The caller prints what the finished games give, then exits with ``INTERRUPTED``.
    """
    typer.echo(f"Stopped after {played} of {count(asked, 'game')}.", err=True)


def stopped_before_a_game() -> NoReturn:
    """Ctrl-C before a batch began: one word on standard error, exit status 130."""
    typer.echo("Stopped.", err=True)
    raise typer.Exit(INTERRUPTED)


if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Task
    from rich.text import Text


VariantOption = Annotated[
    str | None,
    typer.Option(
        "--variant",
        "-v",
        metavar="PRESET",
        help=f"The preset to play: {', '.join(PRESETS)} (default classic; any case).",
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


def count(n: int, word: str, plural: str = "") -> str:
    """``1 game``, ``2 games`` (``plural`` for words that take more than an s)."""
    return f"{n} {word if n == 1 else plural or word + 's'}"


def rules_headline(rules: RuleSet, rules_file: Path | str | None = None) -> str:
    """The rule set's title with where it comes from and every rule it changes from its preset.

    ``Classic Crazy Eights (classic)``, ``Classic Crazy Eights (classic with deal=7, target=100)``,
    ``House (house.toml: action with stacking=true)``.
    """
    base, changes = rules.changes()
    source = f"{rules_file}: {base}" if rules_file is not None else base
    if changes:
        source += " with " + ", ".join(changes)
    return f"{rules.title} ({source})"


# ----- help that reads cleanly -------------------------------------------------------------


class TidyHelpGroup(TyperGroup):
    """The ``eights`` command group: every command's help shows no value after a flag.

    Typer's rich help panel prints a parameter's type after every option, flags
    included (``--json <bool>``, ``--help <bool>``), though a flag takes no value.
    Each command is tidied as it is looked up (its own ``--help`` included), so the
    commands other modules register are tidied too.
    """

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            tidy_help(command, ctx)
        return command

    def format_help(self, ctx: Any, formatter: Any) -> None:
        tidy_help(self, ctx)
        super().format_help(ctx, formatter)


def tidy_help(command: Any, ctx: Any) -> None:
    """Give every flag of ``command`` (and of its subcommands) an empty metavar: nothing after it in help."""
    if getattr(command, "_tidy_help", False):
        return
    params = list(getattr(command, "params", ()))
    help_option = command.get_help_option(ctx) if hasattr(command, "get_help_option") else None
    if help_option is not None:
        params.append(help_option)
    for param in params:
        if getattr(param, "is_flag", False) and getattr(param, "metavar", None) is None:
            param.metavar = ""
    for sub in getattr(command, "commands", {}).values():
        tidy_help(sub, ctx)
    command._tidy_help = True


# ----- the progress bar -----------------------------------------------------------------------


def clock(seconds: float) -> str:
    """``0:07``, ``2:05``, ``1:02:05``."""
    whole = max(0, round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def time_left(elapsed: float | None, done: float, total: float | None) -> str:
    """The time left at the run's average pace so far, in words for the bar."""
    if total is not None and done >= total:
        return "done"
    if not done or not elapsed or total is None:
        return "time left: after the first one"
    return f"about {clock(elapsed / done * (total - done))} left"


def _time_left_column() -> Any:
    from rich.progress import ProgressColumn
    from rich.text import Text

    class TimeLeftColumn(ProgressColumn):
        """Time left from the whole run's pace. Rich's own estimate reads only the last 30 s, so
        with games slower than that (a search level at 1 s a move) it never shows a figure."""

        def render(self, task: Task) -> Text:
            return Text(time_left(task.elapsed, task.completed, task.total), style="progress.remaining")

    return TimeLeftColumn()


@contextmanager
def progress_bar(
    description: str, total: int, show: bool = True, console: Console | None = None
) -> Iterator[Callable[[object], None] | None]:
    """A bar counting to ``total`` with the time spent and the time left, gone when done; gives the
    callback that advances it by one.

    The bar goes to standard error (``console`` for tests), so the output stays clean when piped.
    The callback is ``None`` (no bar) unless ``show`` and that console is a terminal.
    """
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    out = console if console is not None else Console(stderr=True)
    if not (show and out.is_terminal):
        yield None
        return
    with Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        _time_left_column(),
        console=out,
        transient=True,
    ) as progress:
        task = progress.add_task(description, total=total)
        yield lambda _: progress.advance(task)
