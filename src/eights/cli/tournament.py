"""``eights tournament``: computer players against each other, with error bars (``eights.runs.tournament``
plays the games and totals them)."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from eights.bots import LEVELS
from eights.cli.common import (
    INTERRUPTED,
    OptionsOption,
    RulesOption,
    VariantOption,
    fail,
    progress_bar,
    stopped_after,
    stopped_before_a_game,
)
from eights.rules import RulesError, resolve_rules
from eights.rules.describe import rules_headline
from eights.runs.tournament import DEFAULT_BOTS, DEFAULT_GAMES, TournamentError, run_tournament
from eights.words import count_words


def tournament_command(
    variant: VariantOption = None,
    players: Annotated[
        int | None,
        typer.Option(
            "--players",
            "-p",
            metavar="N",
            help="Seats per game (default: one per bot, at least 2; in a team game, a team of two per bot).",
        ),
    ] = None,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            "-b",
            metavar="LEVEL,LEVEL[,...]",
            help=f"Two or more entrants, by level: {', '.join(LEVELS)}; a search level may take a budget, "
            "hard@500 (iterations per decision) or expert@2s (seconds). The default, expert@200 against normal, "
            "searches 200 iterations a move (expert alone searches for 1 s a move, about 10 s a game).",
        ),
    ] = DEFAULT_BOTS,
    games: Annotated[
        int,
        typer.Option(
            "--games",
            "-g",
            metavar="G",
            help="How many games to play, 1 or more. The default bots play 60 games in about a minute "
            "(classic; derange's 15 rounds take longer).",
        ),
    ] = DEFAULT_GAMES,
    seed: Annotated[
        int, typer.Option("--seed", "-s", metavar="S", help="The tournament seed: the same seed deals the same games.")
    ] = 0,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", metavar="J", help="Games played in parallel processes, 1 or more.")
    ] = 1,
    option: OptionsOption = None,
    rules_file: RulesOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of a table.")] = False,
) -> None:
    """Play the computer players against each other and rate them: win rates with 95% intervals, and Elo."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    out = Console(highlight=False)
    specs = [b for b in (x.strip() for x in bots.split(",")) if b]
    try:
        rules = resolve_rules(variant, rules_file, option)
        per = 2 if rules.teams else 1  # seats per bot
        seats = (
            players
            if players is not None
            else min(max(per * len(specs), 2 * per, rules.min_players), rules.max_players)
        )
        description = f"{rules.name}, {seats} players: {', '.join(specs)}"
        # The bar is on standard error, so it shows with --json too.
        with progress_bar(description, games) as on_game:
            result = run_tournament(rules, seats, specs, games, seed, jobs, option, on_game=on_game)
    except (RulesError, TournamentError) as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"file error: {exc.filename + ': ' if exc.filename else ''}{exc.strerror or exc}")
    except KeyboardInterrupt:
        stopped_before_a_game()
    if result.stopped:
        stopped_after(result.played, games)
    if as_json:
        typer.echo(json.dumps(result.to_dict()))
    elif result.played:
        played = (
            count_words(games, "game") if not result.stopped else f"{result.played} of {count_words(games, 'game')}"
        )
        headline = f"{rules_headline(rules, rules_file)}: {played}, {seats} players, seed {seed}"
        out.print(Text(headline, style="bold"))
        table = Table(show_edge=False, box=None, padding=(0, 2))
        for column in ("Bot", "Games", "Wins", "Win rate", "95% interval", "Mean score", "Elo"):
            table.add_column(column, justify="left" if column == "Bot" else "right")
        for b in sorted(result.bots, key=lambda b: -b.elo):
            low, high = b.interval
            table.add_row(
                b.name,
                str(b.games),
                f"{b.wins:g}",
                f"{100 * b.win_rate:.1f}%",
                f"{100 * low:.1f}-{100 * high:.1f}%",
                f"{b.mean_score:.1f}",
                f"{b.elo:.0f}",
            )
        out.print(table)
        out.print(f"Time: {result.seconds:.1f} s.")
    if result.stopped:
        raise typer.Exit(INTERRUPTED)
