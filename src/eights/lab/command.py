"""``eights lab``: the variant lab on the command line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from eights.cli.common import INTERRUPTED, fail, fit_words, progress_bar, stopped_after
from eights.lab.report import markdown_table, matplotlib_missing, notes, rows, save_html, save_plot
from eights.lab.run import DEFAULT_BUDGET, KINDS, LabError, LabResult, ray_missing, run_lab
from eights.rules import PRESETS, RulesError, RuleSet, load_preset, load_rules
from eights.words import count_words


def variant_of(text: str) -> tuple[str, RuleSet]:
    """A rule set named on the command line: a preset, or a house-rules file (a path, or a name ending .toml).

    :raises RulesError: naming the presets, or what is wrong with the file.
    """
    if text.lower().endswith(".toml") or Path(text).is_file():
        return Path(text).name, load_rules(text)
    try:
        return text.strip().lower(), load_preset(text)
    except RulesError as exc:
        raise RulesError(f"{exc}; or a house-rules file (FILE.toml, see `eights rules PRESET --save FILE`)") from None


def lab_command(
    rulesets: Annotated[
        list[str],
        typer.Argument(
            metavar="RULES...",
            help=f"The rule sets to compare: presets ({', '.join(PRESETS)}) or house-rules files (FILE.toml).",
            show_default=False,
        ),
    ],
    players: Annotated[int, typer.Option("--players", "-p", metavar="N", help="Players at the table.")] = 4,
    games: Annotated[
        int,
        typer.Option(
            "--games",
            "-g",
            metavar="G",
            help="Games of each kind per rule set (normal table, expert-normal, normal-easy).",
        ),
    ] = 200,
    seed: Annotated[
        int, typer.Option("--seed", "-s", metavar="S", help="The lab seed: the same seed gives the same figures.")
    ] = 0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", metavar="J", help="Games played in parallel processes.")] = 1,
    budget: Annotated[
        int,
        typer.Option(
            "--budget",
            metavar="ITERATIONS",
            help="The skill figures' expert: search iterations a move (smaller than the expert's 1 s a move).",
        ),
    ] = DEFAULT_BUDGET,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of a table.")] = False,
    markdown: Annotated[
        bool, typer.Option("--markdown", help="Print the table in Markdown (for a README or an issue).")
    ] = False,
    plot: Annotated[
        Path | None, typer.Option("--plot", metavar="FILE", help="Draw the charts side by side: FILE.png or FILE.svg.")
    ] = None,
    html_file: Annotated[
        Path | None, typer.Option("--html", metavar="FILE", help="Write a report page: the figures and charts.")
    ] = None,
    cluster: Annotated[
        str | None,
        typer.Option("--cluster", metavar="ray", help="Play on a Ray cluster (RAY_ADDRESS, or a local one)."),
    ] = None,
) -> None:
    """Compare rule sets by simulation with computer players: length, seats, lead, draws, luck against skill."""
    if (plot is not None or html_file is not None) and (missing := matplotlib_missing()):
        fail(missing)
    if plot is not None and plot.suffix.lower() not in (".png", ".svg"):
        fail(f"--plot {plot}: give a file ending in .png or .svg")
    if cluster is not None and cluster != "ray":
        fail(f"--cluster {cluster}: the lab runs on ray (or, without --cluster, in --jobs processes here)")
    if cluster == "ray" and (missing := ray_missing()):
        fail(missing)
    try:
        chosen = [variant_of(text) for text in rulesets]
        total = games * len(KINDS) * len(chosen)  # for the bar; the lab refuses games < 1 itself
        description = f"{', '.join(n for n, _ in chosen)}, {players} players"
        # The bar is on standard error (at a terminal only), so it shows with --json and --markdown too.
        with progress_bar(description, total) as on_game:
            result = run_lab(
                [r for _, r in chosen],
                players,
                games,
                seed,
                names=[n for n, _ in chosen],
                jobs=jobs,
                budget=budget,
                cluster=cluster,
                on_game=on_game,
                on_start=lambda total: typer.echo(
                    f"eights lab: {count_words(total, 'game')} to play; Ctrl-C stops and reports the games played",
                    err=True,
                ),
            )
    except (RulesError, LabError) as exc:
        fail(str(exc))
    try:
        if plot is not None:
            save_plot(result, plot)
        if html_file is not None:
            save_html(result, html_file)
    except OSError as exc:
        fail(f"file error: {exc.filename + ': ' if exc.filename else ''}{exc.strerror or exc}")
    if result.partial:
        played = sum(sum(v.games.values()) for v in result.variants)
        stopped_after(played, total)
    show_report(result, as_json, markdown, plot, html_file)
    if result.partial:
        raise typer.Exit(INTERRUPTED)


def show_report(result: LabResult, as_json: bool, markdown: bool, plot: Path | None, html_file: Path | None) -> None:
    """The figures on standard output: JSON, Markdown, or a table with its notes."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    if as_json:
        typer.echo(json.dumps(result.to_dict()))
        return
    if markdown:
        typer.echo(markdown_table(result))
        return
    out = Console(highlight=False)
    table = Table(show_edge=False, box=None, padding=(0, 2))
    table.add_column("figure (95% interval)")
    for v in result.variants:
        table.add_column(v.name, justify="right")
    for label, cells in rows(result):
        table.add_row(label, *cells)
    headline = f"{result.players} players, {count_words(result.games, 'game')} of each kind, seed {result.seed}"
    out.print(Text(headline, style="bold"))
    out.print(fit_words(table))
    for line in notes(result):
        out.print(line)
    where = "on Ray" if result.cluster else count_words(result.jobs, "job")
    out.print(f"Time: {result.seconds:.1f} s ({where}).")
    for path in (plot, html_file):
        if path is not None:
            out.print(f"Wrote {path}.")
