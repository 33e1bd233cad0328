"""What the command modules share: the group that imports each command only when it is asked for, the
rule-choosing options, errors in one line, the console, the progress bar and tidy help. Rich is imported
only where it draws, so that ``eights --version`` does not load it."""

from __future__ import annotations

import importlib
import inspect
import re
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, NoReturn

import typer
from typer.core import TyperArgument, TyperGroup, TyperOption

from eights.cards import CardError
from eights.engine import ActionError
from eights.record import RecordError
from eights.rules import PRESETS, RulesError
from eights.words import count_words

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
    typer.echo(f"Stopped after {played} of {count_words(asked, 'game')}.", err=True)


def stopped_before_a_game() -> NoReturn:
    """Ctrl-C before a batch began: one word on standard error, exit status 130."""
    typer.echo("Stopped.", err=True)
    raise typer.Exit(INTERRUPTED)


if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress, Task, TaskID
    from rich.table import Table
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


# ----- help that reads cleanly -------------------------------------------------------------


class TidyHelpGroup(TyperGroup):
    """The ``eights`` command group: help that reads cleanly, and usage errors in one line.

    Each command is tidied (``tidy_help``) as it is looked up (its own ``--help`` included), so the
    commands other modules register are tidied too. A command line that click itself refuses (an
    unknown command or option, a value of the wrong type) ends, like every other bad input, with one
    line on standard error and exit status 2, instead of a framed usage box.
    """

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            tidy_help(command, ctx)
        return command

    def format_help(self, ctx: Any, formatter: Any) -> None:
        tidy_help(self, ctx)
        super().format_help(ctx, formatter)

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        try:
            code = super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        except typer.TyperException as exc:  # click's own errors (Typer carries click within)
            message = plain_words(exc.format_message() if hasattr(exc, "format_message") else str(exc))
            if message:  # (none after the help that a bare `eights` prints)
                context = getattr(exc, "ctx", None)
                where = f" (see `{context.command_path} --help`)" if context is not None else ""
                typer.echo(f"eights: error: {message}{where}", err=True)
            sys.exit(getattr(exc, "exit_code", USAGE_ERROR))
        except typer.Abort:
            typer.echo("Stopped.", err=True)
            sys.exit(INTERRUPTED)
        sys.exit(code if isinstance(code, int) else 0)


class LazyGroup(TidyHelpGroup):
    """A command group whose commands (``lazy``: a name each, and the ``module:attribute`` of its function or
    Typer group) are imported only when one is run or listed in the help: a command that runs loads its own
    module and what that needs, nothing of the others."""

    lazy: ClassVar[dict[str, str]] = {}

    def list_commands(self, ctx: Any) -> list[str]:
        return [*self.lazy, *(name for name in super().list_commands(ctx) if name not in self.lazy)]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name in self.lazy and cmd_name not in self.commands:
            module, _, attribute = self.lazy[cmd_name].partition(":")
            target = getattr(importlib.import_module(module), attribute)
            if not isinstance(target, typer.Typer):
                target, function = typer.Typer(), target
                target.command(cmd_name)(function)
            self.add_command(typer.main.get_command(target), cmd_name)
        return super().get_command(ctx, cmd_name)


#: What the type checks under Typer say, in the player's words.
_TYPE_WORDS = (
    (re.compile(r"Input should be a valid integer.*"), "give a whole number"),
    (re.compile(r"Input should be a valid number.*"), "give a number"),
    (re.compile(r"Input should be a valid boolean.*"), "give true or false"),
)


def plain_words(message: str) -> str:
    """A usage error's message with a type check's words (``Input should be a valid integer, unable to parse
    string as an integer``) put plainly (``give a whole number``)."""
    for pattern, words in _TYPE_WORDS:
        message = pattern.sub(words, message)
    return message


def tidy_help(command: Any, ctx: Any) -> None:
    """Make the help of ``command`` (and of its subcommands) read as one style.

    - A flag shows nothing after it (Typer's rich help would print ``--json <bool>``).
    - An argument shows no Python type (``ID <int>``, ``CARD <list[str]>``): its metavar says it.
    - A default is said in the help's own words, ``(default 100)``, as most options already say it,
      never also as ``[default: 100]``.
    - A paragraph's lines are joined, so that help does not break lines in mid-sentence.
    """
    if getattr(command, "_tidy_help", False):
        return
    params = list(getattr(command, "params", ()))
    help_option = command.get_help_option(ctx) if hasattr(command, "get_help_option") else None
    if help_option is not None:
        params.append(help_option)
    for param in params:
        if getattr(param, "is_flag", False) and getattr(param, "metavar", None) is None:
            param.metavar = ""
        if isinstance(param, TyperArgument):
            param.display_type_rich = _no_type  # type: ignore[method-assign]
        if isinstance(param, TyperOption) and not param.is_flag and param.show_default:
            if param.default is not None and "default" not in (param.help or ""):
                param.help = f"{param.help} (default {_default_words(param.default)})"
            param.show_default = False
        if getattr(param, "help", None):
            param.help = joined(param.help)
    if getattr(command, "help", None):
        command.help = joined(command.help)
    if getattr(command, "short_help", None):
        command.short_help = joined(command.short_help)
    for sub in getattr(command, "commands", {}).values():
        tidy_help(sub, ctx)
    command._tidy_help = True


def _no_type(ctx: Any) -> None:
    """What an argument shows for its type in help: nothing (its metavar names it)."""
    return None


def _default_words(value: object) -> str:
    if isinstance(value, list | tuple):
        return ",".join(str(v) for v in value)
    return str(value)


def joined(text: str) -> str:
    """``text`` with each paragraph's lines joined into one (paragraphs stay apart)."""
    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(" ".join(line.strip() for line in paragraph.splitlines()) for paragraph in paragraphs)


# ----- tables that fit -----------------------------------------------------------------------


def fit_words(table: Table) -> Table:
    """``table`` with no word cut: each column is at least as wide as the longest word in it.

    Rich shrinks a table to the console (80 columns in a pipe) by wrapping cells at spaces and, where a
    word is wider than its column, cutting it short with an ellipsis (``compute…``, ``Points/…``). With
    every column at least as wide as its longest word, only the wrapping at spaces is left.
    """
    for column in table.columns:
        texts = [column.header, *column.cells]
        words = (word for text in texts for word in str(getattr(text, "plain", text)).split())
        column.min_width = max((len(word) for word in words), default=0)
    return table


def fits(out: Console, table: Table) -> bool:
    """Whether ``table`` fits ``out``'s width with no cell wrapped or cut (else the caller shows it otherwise)."""
    from rich.measure import Measurement

    unbounded = out.options.update(width=10_000)  # measured as wide as it wants, then compared
    return Measurement.get(out, unbounded, table).maximum <= out.width


def packed(items: list[str], width: int, first: str, then: str) -> list[str]:
    """``items`` joined by ", " into lines of at most ``width`` (``first`` and ``then`` begin them), breaking
    only between items (an item wider than a line has one to itself)."""
    lines, line = [], first
    for index, item in enumerate(items):
        piece = item + ("," if index < len(items) - 1 else "")
        if line.strip() and len(line) + 1 + len(piece) > width:
            lines.append(line.rstrip())
            line = then
        line += ("" if line.endswith(" ") or not line.strip() else " ") + piece
    lines.append(line)
    return lines


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
        return "time left: not known yet"
    return f"about {clock(elapsed / done * (total - done))} left"


def _time_left_column() -> Any:
    from rich.progress import ProgressColumn
    from rich.table import Column
    from rich.text import Text

    class TimeLeftColumn(ProgressColumn):
        """Time left from the whole run's pace. Rich's own estimate reads only the last 30 s, so
        with games slower than that (a search level at 1 s a move) it never shows a figure."""

        def render(self, task: Task) -> Text:
            return Text(time_left(task.elapsed, task.completed, task.total), style="progress.remaining")

    return TimeLeftColumn(table_column=Column(no_wrap=True))


class Bar:
    """A progress bar's handle: called (with anything), it counts one more; ``resize`` changes the
    total it counts to (a run that plans more as it goes)."""

    def __init__(self, progress: Progress, task: TaskID) -> None:
        self.progress = progress
        self.task = task

    def __call__(self, _: object) -> None:
        self.progress.advance(self.task)

    def resize(self, total: int) -> None:
        self.progress.update(self.task, total=total)


@contextmanager
def progress_bar(
    description: str, total: int, show: bool = True, console: Console | None = None
) -> Iterator[Bar | None]:
    """A bar counting to ``total`` with the time spent and the time left, gone when done; gives the
    callback that advances it by one (a ``Bar``).

    The bar goes to standard error (``console`` for tests), so the output stays clean when piped.
    The callback is ``None`` (no bar) unless ``show`` and that console is a terminal.
    """
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.table import Column

    out = console if console is not None else Console(stderr=True)
    if not (show and out.is_terminal):
        yield None
        return
    room = 2 * len(str(total)) + 1 + len("0:00:00") + len(time_left(None, 0, total)) + 4  # the columns but the bar
    # One line at any width: the counts and the times never wrap, the bar takes the room left (none if need
    # be), and only the description is cut short, last, where the line would not fit otherwise.
    with Progress(
        TextColumn(
            "[progress.description]{task.description}",
            table_column=Column(no_wrap=True, overflow="ellipsis", max_width=max(12, out.width - room)),
        ),
        BarColumn(bar_width=None, table_column=Column(ratio=1, min_width=0)),
        MofNCompleteColumn(table_column=Column(no_wrap=True)),
        TimeElapsedColumn(table_column=Column(no_wrap=True)),
        _time_left_column(),
        console=out,
        transient=True,
        expand=True,
    ) as progress:
        yield Bar(progress, progress.add_task(description, total=total))


JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of text.")]


class UsageError(ValueError):
    """A command line that asks for something impossible."""


@contextmanager
def clear_errors() -> Iterator[None]:
    """Turn the package's errors about bad input into one line and exit status 2."""
    try:
        yield
    except (RulesError, CardError, RecordError, ActionError, UsageError) as exc:
        fail(str(exc))
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        fail(f"file error: {where}{exc.strerror or exc}")


def console() -> Console:
    """A console on stdout; no wrapping and no colour when stdout is not a terminal."""
    from rich.console import Console

    out = Console(highlight=False)
    if not out.is_terminal:
        out.soft_wrap = True
    return out


RED_CARD = r"(?:10|[2-9AJQK])[♥♦]|[♥♦]"
BLACK_CARD = r"(?:10|[2-9AJQK])[♣♠]|[♣♠]"
JOKER_CARD = r"\b(?:GJ|JK)\b"


def styled(text: str, style: str = "") -> Text:
    """Text with every card and suit symbol coloured: hearts and diamonds red, clubs and spades bold."""
    from rich.text import Text

    out = Text(text, style=style)
    out.highlight_regex(RED_CARD, "bold red")
    out.highlight_regex(BLACK_CARD, "bold")
    out.highlight_regex(JOKER_CARD, "bold magenta")
    return out
