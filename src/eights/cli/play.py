"""Playing at the terminal: the ``eights play`` command, a Textual app, and a plain-text mode.

The command is registered by the CLI as ``app.command("play")(play_command)``.
Textual is imported only when the app starts, so other commands stay quick.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import Annotated

import typer

from eights.bots import LEVELS
from eights.cards import CardError
from eights.cli.common import OptionsOption, RulesOption, VariantOption, fail
from eights.cli.database import DbOption, open_store
from eights.engine import ActionError
from eights.rules import RulesError
from eights.store import StoreError
from eights.table import RestoreError, Session, UsageError, build_config
from eights.table.saved import (
    kept_words,
    last_setup,
    remember_setup,
    resume_last,
    resume_saved,
    resuming_words,
    start_saved,
)
from eights.table.session import DEFAULT_SPEED

__all__ = ["play_command"]


def at_a_terminal() -> bool:
    """Both ends are a terminal: the full-screen game can draw and read keys."""
    return sys.stdin.isatty() and sys.stdout.isatty()


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
            "-b",
            metavar="LEVELS",
            help=f"Computer players for the other seats, comma-separated ({', '.join(LEVELS)}; a search level "
            "takes a budget: hard@500 deals a move, expert@2s seconds); one fills them all.",
        ),
    ] = None,
    humans: Annotated[
        int | None,
        typer.Option("--humans", metavar="N", help="People taking turns at this device (hot-seat); default 1."),
    ] = None,
    names: Annotated[
        str | None,
        typer.Option(
            "--name",
            metavar="NAMES",
            help="Your name, or the people's names in seat order (Ann,Bob); remembered for the next game.",
        ),
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
        typer.Option(
            "--plain",
            help="Plain text: print the game as lines and read moves from standard input "
            "(the default when standard input or output is not a terminal).",
        ),
    ] = False,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume",
            help="Take up an unfinished match where it stopped: the last one, or match ID (`eights history` "
            "lists them).",
        ),
    ] = False,
    match_text: Annotated[
        str | None,
        typer.Argument(metavar="[ID]", help="With --resume: the unfinished match to take up (default: the last)."),
    ] = None,
    db: DbOption = None,
) -> None:
    """Play Crazy Eights against computer players (or friends, taking turns) in the terminal.

    With no preset, rules, players or bots given, a new-game screen asks for them (prefilled with
    the last game's settings). Every match is saved as it is played: `--resume` takes up the last
    unfinished one, `--resume ID` any one.
    """
    given = any(x is not None for x in (variant, rules_file, players, bots, humans, seed)) or bool(option)
    if resume and (given or names is not None):
        fail("--resume takes up a saved match as it was: give no rules, players, bots, names or seed with it")
    match_id = None
    if match_text is not None:
        if not resume:
            fail(f"{match_text!r}: a match's number goes with --resume, like `eights play --resume {match_text}`")
        if not (match_text.isascii() and match_text.isdigit()):
            fail(f"--resume {match_text!r}: give a match's number; `eights history` lists the unfinished ones")
        match_id = int(match_text)
    if not plain and not at_a_terminal():
        typer.echo("eights: standard input or output is not a terminal: playing in plain text (--plain).", err=True)
        plain = True
    store = open_store(db)
    try:
        session = None
        if resume:
            session = resume_last(store) if match_id is None else resume_saved(store, match_id)
            if session is None:
                raise UsageError("there is no unfinished match to take up; start one with `eights play`")
            config = session.config
        else:
            config = build_config(variant, rules_file, option, players, bots, humans, seed, speed, names)
            if names is None:
                config = replace(config, people=store.people()[: len(config.humans)])
        if plain and session is None:
            remember_setup(store, config)
            session = start_saved(store, config)
    except (RulesError, UsageError, CardError, ActionError, StoreError, RestoreError) as exc:
        store.close()
        fail(str(exc))
    if resume and session is not None:
        typer.echo(resuming_words(session))
    try:
        if session is not None and plain:
            _play_plain(session)
        else:
            from eights.tui.app import EightsApp

            if session is not None:
                app = EightsApp(session=session, store=store)
            elif given:
                app = EightsApp(config, store=store)
            else:
                # The new-game screen, prefilled with the last new game's settings.
                app = EightsApp(defaults=last_setup(store) or config, store=store)
            app.run()
            if app.session is not None:  # the screen is gone: say where the match is
                left = kept_words(app.session)
                typer.echo(f"{left[:1].upper()}{left[1:]}")
    except StoreError as exc:
        fail(str(exc))
    finally:
        store.close()


def _play_plain(session: Session) -> None:
    from eights.tui.plain import run_plain

    try:
        status = run_plain(session, sys.stdin, sys.stdout)
    except KeyboardInterrupt:
        typer.echo(f"Stopped: {kept_words(session)}")
        status = 130
    raise typer.Exit(status)
