"""Playing at the terminal: the ``eights play`` command, a Textual app, and a plain-text mode.

The command is registered by the CLI as ``app.command("play")(play_command)``.
Textual is imported only when the app starts, so other commands stay quick.
"""

from __future__ import annotations

import sys
from typing import Annotated, NoReturn

import typer

from eights.bots import LEVELS
from eights.cards import CardError
from eights.cli_common import OptionsOption, RulesOption, VariantOption
from eights.engine import ActionError
from eights.rules import RulesError
from eights.tui.session import DEFAULT_SPEED, PlayConfig, Session, UsageError, build_config

__all__ = ["PlayConfig", "Session", "build_config", "play_command"]

USAGE_ERROR = 2


def _fail(message: str) -> NoReturn:
    typer.echo(f"eights: error: {message}", err=True)
    raise typer.Exit(USAGE_ERROR)


def play_command(
    variant: VariantOption = None,
    rules_file: RulesOption = None,
    option: OptionsOption = None,
    players: Annotated[
        int | None,
        typer.Option("--players", "-p", metavar="N", help="Players at the table (default: people plus --bots, or 4)."),
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            metavar="LEVELS",
            help=f"Computer levels for the other seats, comma-separated ({', '.join(LEVELS)}); one fills them all.",
        ),
    ] = None,
    humans: Annotated[
        int | None,
        typer.Option("--humans", metavar="N", min=0, help="People taking turns at this device (hot-seat); default 1."),
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", "-s", metavar="S", help="The game's seed: the same seed, the same game.")
    ] = None,
    speed: Annotated[
        int,
        typer.Option(
            "--speed", metavar="1-5", help="Computer pacing: 1 slow ... 4 fast, 5 no pause (+ and - change it in play)."
        ),
    ] = DEFAULT_SPEED,
    plain: Annotated[
        bool,
        typer.Option("--plain", help="Plain text: print the game as lines and read moves from standard input."),
    ] = False,
) -> None:
    """Play Crazy Eights against computer players (or friends, taking turns) in the terminal.

    With no preset, rules, players or bots given, a new-game screen asks for them.
    """
    given = any(x is not None for x in (variant, rules_file, players, bots, humans)) or bool(option)
    try:
        config = build_config(variant, rules_file, option, players, bots, humans, seed, speed)
        session = Session(config) if plain else None
    except (RulesError, UsageError, CardError, ActionError) as exc:
        _fail(str(exc))
    if session is not None:
        from eights.tui.plain import run_plain

        try:
            status = run_plain(session, sys.stdin, sys.stdout)
        except KeyboardInterrupt:
            typer.echo("Stopped.")
            status = 130
        raise typer.Exit(status)
    from eights.tui.app import EightsApp

    app = EightsApp(config) if given else EightsApp(defaults=config)
    app.run()
