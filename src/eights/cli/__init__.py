"""The ``eights`` command. Each command lives in a module of its own here (``rules``, ``games``, ``play``,
``serve``, ``worker``, ``tournament``, ``lab``, ``review``, ``history``, ``scorecard``), imported only when it
is run or its help is shown: ``eights --version`` loads none of them, and ``eights rules classic`` only the
rules. This package is the only one that knows the command line (Typer).

Every bad input (an unknown preset, a bad option, a player count the rules cannot
seat, a broken rules file or record, a card that is not a card) ends with one
line on stderr naming the problem, and exit status 2.
"""

from __future__ import annotations

from typing import Annotated, ClassVar

import typer

from eights import BUILD
from eights.cli.common import LazyGroup


class Eights(LazyGroup):
    """The ``eights`` command's group: each command by the module and name it lives at, in the order the help
    lists them."""

    lazy: ClassVar[dict[str, str]] = {
        "rules": "eights.cli.rules:rules_command",
        "score": "eights.cli.games:score_command",
        "simulate": "eights.cli.games:simulate_command",
        "replay": "eights.cli.games:replay_command",
        "watch": "eights.cli.games:watch_command",
        "play": "eights.cli.play:play_command",
        "serve": "eights.cli.serve:serve_command",
        "site": "eights.cli.site:site_command",
        "tournament": "eights.cli.tournament:tournament_command",
        "history": "eights.cli.history:history_app",
        "stats": "eights.cli.history:stats_command",
        "review": "eights.cli.review:review_command",
        "scorecard": "eights.cli.scorecard:scorecard_app",
        "lab": "eights.cli.lab:lab_command",
        "worker": "eights.cli.worker:worker_command",
    }


app = typer.Typer(
    cls=Eights,
    name="eights",
    help="Crazy Eights and its house variants: play in the terminal (play) or the browser (serve, with its "
    "computer players on other machines if need be: worker), read the "
    "rules, score hands, watch, simulate, run tournaments, replay games, look back over saved matches (history, "
    "stats) and keep score of games with real cards (scorecard).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)


def version_text() -> str:
    """What ``eights --version`` prints: ``eights 0.1.0, engine: compiled (mypyc 1.18.2)``, the
    engine's build (``eights._build``) after the version."""
    from importlib.metadata import version

    return f"eights {version('eights')}, engine: {BUILD}"


def _print_version(given: bool) -> None:
    if given:
        typer.echo(version_text())
        raise typer.Exit()


@app.callback()
def eights(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_print_version, is_eager=True, help="Print the version of eights and exit."),
    ] = False,
) -> None:
    """Crazy Eights and its house variants."""


def main() -> None:
    """The console script's entry point."""
    app(prog_name="eights")
