"""``eights lab``: the variant lab on the command line."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from eights.cli.common import INTERRUPTED, fail, fits, progress_bar, stopped_after
from eights.lab.report import (
    games_words,
    markdown_table,
    matplotlib_missing,
    notes,
    points,
    rows,
    save_html,
    save_plot,
)
from eights.lab.run import DEFAULT_BUDGET, KINDS, LabError, LabResult, ray_missing, run_lab
from eights.rules import PRESETS, RulesError, RuleSet, load_preset, load_rules
from eights.words import count_words

#: Games of each kind per rule set, by default; with --precision, the most, by default.
DEFAULT_GAMES = 200
PRECISION_CAP = 10_000


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
        int | None,
        typer.Option(
            "--games",
            "-g",
            metavar="G",
            help=f"Games of each kind per rule set (normal table, expert-normal, normal-easy): {DEFAULT_GAMES} "
            f"by default; with --precision, the most to play ({PRECISION_CAP} by default).",
            show_default=False,
        ),
    ] = None,
    precision: Annotated[
        float | None,
        typer.Option(
            "--precision",
            metavar="P",
            help="Play in stages until every share's 95% interval reaches at most P on either side "
            "(0.02: +-2 points), each rule set and kind on its own, at most --games games of each.",
        ),
    ] = None,
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
    """Compare rule sets by simulation with computer players: length, who wins (the first to act, the dealer,
    each seat), lead, draws, luck against skill; each figure with a 95% interval."""
    if (plot is not None or html_file is not None) and (missing := matplotlib_missing()):
        fail(missing)
    if plot is not None and plot.suffix.lower() not in (".png", ".svg"):
        fail(f"--plot {plot}: give a file ending in .png or .svg")
    if cluster is not None and cluster != "ray":
        fail(f"--cluster {cluster}: the lab runs on ray (or, without --cluster, in --jobs processes here)")
    if cluster == "ray" and (missing := ray_missing()):
        fail(missing)
    cap = games if games is not None else PRECISION_CAP if precision is not None else DEFAULT_GAMES
    try:
        chosen = [variant_of(text) for text in rulesets]
        description = f"{', '.join(n for n, _ in chosen)}, {players} players"
        # The bar is on standard error (at a terminal only), so it shows with --json and --markdown too.
        with progress_bar(description, cap * len(KINDS) * len(chosen)) as bar:
            result = run_lab(
                [r for _, r in chosen],
                players,
                cap,
                seed,
                names=[n for n, _ in chosen],
                jobs=jobs,
                budget=budget,
                cluster=cluster,
                precision=precision,
                on_game=bar,
                on_start=planning(precision, cap * len(KINDS) * len(chosen), bar.resize if bar else None),
            )
    except (RulesError, LabError) as exc:
        fail(str(exc))
    if result.partial:
        played = sum(sum(v.games.values()) for v in result.variants)
        stopped_after(played, result.planned)
    show_report(result, as_json, markdown)
    written = write_files(result, plot, html_file, say=not (as_json or markdown))
    if result.partial or written is None:
        raise typer.Exit(INTERRUPTED)
    if not written:
        raise typer.Exit(1)


def planning(precision: float | None, most: int, resize: Callable[[int], None] | None) -> Callable[[int], None]:
    """The lab's ``on_start``: say on standard error what it plays (and, with --precision, each later
    stage), and count the bar to the games planned so far."""
    stage = 0

    def on_start(planned: int) -> None:
        nonlocal stage
        stage += 1
        if resize is not None:
            resize(planned)
        if stage > 1:
            said = f"stage {stage}: {count_words(planned, 'game')} planned in all"
        elif precision is None:
            said = f"{count_words(planned, 'game')} to play"
        else:
            said = (
                f"{count_words(planned, 'game')} first, then in stages until every share is within "
                f"+-{points(precision)} points (at most {count_words(most, 'game')})"
            )
        ctrl_c = "; Ctrl-C stops and reports the games played" if stage == 1 else ""
        typer.echo(f"eights lab: {said}{ctrl_c}", err=True)

    return on_start


def write_files(result: LabResult, plot: Path | None, html_file: Path | None, say: bool) -> bool | None:
    """Draw the charts and write the page, after the figures are out: whether every file was written
    (each one that was not is said in a sentence on standard error); None when Ctrl-C stopped it.
    ``say``: print ``Wrote FILE.`` for each (not with --json or --markdown)."""
    written = True
    for option, path, save in (("--plot", plot, save_plot), ("--html", html_file, save_html)):
        if path is None:
            continue
        try:
            save(result, path)
        except KeyboardInterrupt:
            typer.echo(f"eights: {option} {path}: stopped (Ctrl-C) before it was written.", err=True)
            return None
        except OSError as exc:
            problem = f"file error: {exc.strerror or exc}"
        except Exception as exc:  # a chart that cannot be drawn never takes the figures with it
            problem = f"the charts could not be drawn ({type(exc).__name__}: {exc})"
        else:
            if say:
                typer.echo(f"Wrote {path}.")
            continue
        typer.echo(
            f"eights: {option} {path} was not written: {problem}; the figures are printed all the same.", err=True
        )
        written = False
    return written


def show_report(result: LabResult, as_json: bool, markdown: bool) -> None:
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
    out.print(Text(f"{result.players} players, {games_words(result)}, seed {result.seed}", style="bold"))
    figures = rows(result)

    def table_of(kinds: range) -> Table:
        table = Table(show_edge=False, box=None, padding=(0, 1), collapse_padding=False)
        table.add_column("figure (95% interval)", no_wrap=True)
        for k in kinds:
            table.add_column(result.variants[k].name, justify="right", no_wrap=True)
        for label, cells in figures:
            table.add_row(label, *(cells[k] for k in kinds))
        return table

    # As many kinds side by side as the width holds with no cell wrapped; the rest in the tables below.
    first = 0
    while first < len(result.variants):
        last = first + 1
        while last < len(result.variants) and fits(out, table_of(range(first, last + 1))):
            last += 1
        out.print(table_of(range(first, last)))
        first = last
    for line in notes(result):
        out.print(line)
    where = "on Ray" if result.cluster else count_words(result.jobs, "job")
    out.print(f"Time: {result.seconds:.1f} s ({where}).")
