"""``eights scorecard``: the score sheet of a game played with real cards, saved in the match store.

``eights scorecard new`` starts a sheet and prints its number; ``round``, ``edit``, ``delete``,
``undo`` and ``finish`` change it (each change saved at once); ``show``, ``list``, ``stats`` and
``export`` read. ``eights scorecard`` alone opens the sheet in the terminal (Textual), or as plain
lines with ``--plain`` (and whenever standard input or output is not a terminal).

Every bad input (an impossible hand, a name that is no player's, negative points, a round after the
match has ended, a round or sheet that does not exist) ends with one line ``eights: error: ...``
naming the problem and the valid choices, exit status 2, and the saved sheet as it was.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, TypeVar

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from eights.cards import CardError
from eights.cli.common import (
    JsonOption,
    OptionsOption,
    RulesOption,
    VariantOption,
    console,
    fail,
    fit_words,
    fits,
    packed,
)
from eights.cli.database import DbOption, open_store
from eights.rules import RulesError, resolve_rules
from eights.rules.describe import rules_headline
from eights.scorecard import (
    LeftInput,
    RoundNumberError,
    RoundResult,
    Sheet,
    SheetError,
    next_words,
    parse_points,
    points_from_text,
    scored_words,
    sheet_json,
    standings_words,
    to_csv,
    totals_words,
)
from eights.scorecard.sheet import describe_entry
from eights.store import StoreError
from eights.store.sheets import SheetPlayerStats, Sheets, SheetSummary
from eights.words import and_list

__all__ = ["scorecard_app"]

T = TypeVar("T")

scorecard_app = typer.Typer(
    name="scorecard",
    help="Keep score of a game played with real cards: `eights scorecard new`, then `round` after each round; "
    "`eights scorecard` alone opens the sheet in the terminal.",
    no_args_is_help=False,
    invoke_without_command=True,
)

SheetId = Annotated[str, typer.Argument(metavar="ID", help="The sheet's number, as `eights scorecard list` lists it.")]
RoundNumber = Annotated[str, typer.Argument(metavar="ROUND", help="The round's number on the sheet (1 is the first).")]
OutOption = Annotated[
    str | None, typer.Option("--out", metavar="NAME", help="The player who went out (emptied their hand).")
]
BlockedOption = Annotated[
    bool,
    typer.Option("--blocked", help="No one went out: the round was blocked (give every player's cards or points)."),
]
CardsOption = Annotated[
    list[str] | None,
    typer.Option(
        "--cards",
        metavar="NAME=CARDS",
        help="A player's cards left in hand, like Bob=8H,2C (NAME= for none); repeat for each player.",
    ),
]
PointsOption = Annotated[
    list[str] | None,
    typer.Option(
        "--points",
        metavar="NAME=N",
        help="A player's points (the value of the cards left), like Cid=35; repeat for each player.",
    ),
]


@contextmanager
def _clear_errors() -> Iterator[None]:
    """The sheet's, the rules' and the store's errors as one line and exit status 2."""
    try:
        yield
    except (SheetError, StoreError, RulesError, CardError) as exc:
        fail(str(exc))


def _given_db(ctx: typer.Context, db: str | None) -> str | None:
    """``--db`` after the command, else before it (``eights scorecard --db FILE list``)."""
    parent = ctx.parent
    while db is None and parent is not None:
        db = parent.params.get("db")
        parent = parent.parent
    return db


@contextmanager
def _sheets(ctx: typer.Context, db: str | None, reading: bool = False) -> Iterator[Sheets]:
    """The sheets in the store the options name; ``reading`` (every command but ``new``: the others
    read or change a sheet that must be there already) creates no database (see ``open_store``)."""
    store = open_store(_given_db(ctx, db), reading)
    try:
        with _clear_errors():
            yield Sheets(store)
    finally:
        store.close()


# ----- reading a round from the command line ---------------------------------------------------------------


def read_round(
    out: str | None, blocked: bool, cards: list[str] | None, points: list[str] | None
) -> tuple[str | None, dict[str, LeftInput]]:
    """``--out``/``--blocked``, ``--cards NAME=CARDS`` and ``--points NAME=N`` as ``Sheet.add_round`` takes them.

    :raises SheetError: for neither or both of --out and --blocked, an item without ``=``, points that
        are not a whole number, or a player given twice.
    """
    if out is None and not blocked:
        raise SheetError("say how the round ended: --out NAME for the player who went out, or --blocked")
    if out is not None and blocked:
        raise SheetError(f"--out {out} and --blocked: a round ends with one player out, or blocked; give one of them")
    left: dict[str, LeftInput] = {}
    given: dict[str, str] = {}
    for flag, items in (("--cards", cards or []), ("--points", points or [])):
        for item in items:
            name, sep, value = item.rpartition("=")
            name = " ".join(name.split())
            if not sep or not name:
                example = "Bob=8H,2C" if flag == "--cards" else "Cid=35"
                raise SheetError(
                    f"{flag} {item!r}: give a player's name, = and their {flag[2:]}, like {flag} {example}"
                )
            key = name.casefold()
            if key in given:
                raise SheetError(
                    f"{name} is given twice ({given[key]} and {flag} {item}): give each player's cards or points once"
                )
            given[key] = f"{flag} {item}"
            if flag == "--cards":
                left[name] = value
                continue
            try:
                left[name] = points_from_text(name, value)
            except SheetError as exc:
                raise SheetError(f"--points {item}: {exc} (--points {name}=35 or --cards {name}=8H,2C)") from None
    return out, left


# ----- printing ---------------------------------------------------------------------------------------------


def print_round(out: Console, sheet: Sheet, result: RoundResult, head: str) -> None:
    """The round in lines: how it ended, then each player's cards left with their values, the points
    and the running total (lines, not a table, so that nothing wraps in a pipe)."""
    players = sheet.players
    how = "blocked (no one went out)" if result.out is None else f"{players[result.out]} went out"
    cards = "card" if result.hand_size == 1 else "cards"
    dealt = f"{players[result.dealer]} dealt {result.hand_size} {cards}"
    out.print(Text(f"{head} {result.number} ({dealt}): {how}.", "bold"))
    for seat, name in enumerate(players):
        out.print(
            f"  {name}: {sheet.breakdown_text(result.number, name, pretty=True)}; {scored_words(sheet, result, seat)}."
        )


def _scored_cell(sheet: Sheet, points: int, total: int) -> str:
    """A round's points and the running total after it: ``+12 = 40`` (``1 = 3``, games won, without points)."""
    return f"{points:+d} = {total}" if sheet.keeps_points else f"{points} = {total}"


def print_sheet(out: Console, sheet_id: int, sheet: Sheet) -> None:
    """The sheet: a table of the rounds where it fits the width (else each round's figures as a line)."""
    out.print(Text(f"Score sheet {sheet_id}: {rules_headline(sheet.rules)}", style="bold"))
    out.print(f"Players, clockwise: {and_list(list(sheet.players))}. {sheet.describe_scoring().capitalize()}.")
    if sheet.setup.teams:
        out.print("Teams: " + ", ".join(sheet.setup.team_name(team) for team in sheet.setup.teams) + ".")
    if sheet.rounds:
        table = Table(show_edge=False, box=None, padding=(0, 2), header_style="bold")
        for column in ("Round", "Dealer", "Cards", "Out"):
            table.add_column(column, justify="right" if column in ("Round", "Cards") else "left", no_wrap=True)
        for name in sheet.players:
            table.add_column(name, justify="right", no_wrap=True)
        for result in sheet.rounds:
            out_name = "blocked" if result.out is None else sheet.players[result.out]
            cells = [str(result.number), sheet.players[result.dealer], str(result.hand_size), out_name]
            cells += [_scored_cell(sheet, p, t) for p, t in zip(result.points, result.totals, strict=True)]
            table.add_row(*cells)
        wide = fits(out, table)
        if wide:
            out.print(table)
        for result in sheet.rounds:
            out.print("  " + describe_entry(sheet, result))
            if not wide:  # the table's row as lines that break between players, never inside a figure
                scored = [
                    f"{name} {_scored_cell(sheet, p, t)}"
                    for name, p, t in zip(sheet.players, result.points, result.totals, strict=True)
                ]
                for line in packed(scored, out.width, "    scored: ", "      "):
                    out.print(Text(line), no_wrap=True, crop=False)
        out.print(standings_words(sheet))
    else:
        out.print("No round entered yet.")
    out.print(next_words(sheet))


# ----- the commands ----------------------------------------------------------------------------------------


@scorecard_app.callback()
def scorecard_command(
    ctx: typer.Context,
    sheet_id: Annotated[
        str | None, typer.Option("--sheet", metavar="ID", help="Open this saved sheet (default: choose or start one).")
    ] = None,
    plain: Annotated[
        bool,
        typer.Option(
            "--plain",
            help="Plain text: print the sheet as lines and read entries from standard input "
            "(the default when standard input or output is not a terminal).",
        ),
    ] = False,
    db: DbOption = None,
) -> None:
    """Keep score of a game played with real cards. Alone, it opens the score sheet in the terminal:
    the round, the cards to deal and the dealer, a form for who went out and every other player's
    cards or points, the running totals and standings, with edit and undo."""
    if ctx.invoked_subcommand is not None:
        if sheet_id is not None or plain:
            fail(f"--sheet and --plain open the sheet in the terminal; give them without `{ctx.invoked_subcommand}`")
        return
    from eights.cli.play import at_a_terminal

    store = open_store(db)
    try:
        sheets = Sheets(store)
        with _clear_errors():
            number = None
            if sheet_id is not None:
                number = sheets.number(sheet_id)
                sheets.get(number)  # an unknown id is refused before anything opens
            if not plain and not at_a_terminal():
                note = "standard input or output is not a terminal: the sheet in plain text (--plain)"
                typer.echo(f"eights: {note}.", err=True)
                plain = True
            if plain:
                from eights.tui.scorecard_plain import run_plain_sheet

                try:
                    status = run_plain_sheet(sheets, sys.stdin, sys.stdout, number)
                except KeyboardInterrupt:
                    typer.echo("Stopped.")
                    status = 130
            else:
                from eights.tui.scorecard_app import ScorecardApp

                ScorecardApp(sheets, number).run()
                status = 0
    finally:
        store.close()
    raise typer.Exit(status)


@scorecard_app.command("new")
def new_command(
    ctx: typer.Context,
    variant: VariantOption = None,
    option: OptionsOption = None,
    rules_file: RulesOption = None,
    players: Annotated[
        str | None,
        typer.Option("--players", "-p", metavar="NAMES", help="The players in seat order, clockwise: Ann,Bob,Cid."),
    ] = None,
    dealer: Annotated[
        str | None,
        typer.Option("--dealer", metavar="NAME", help="Who deals the first round (default: drawn at random)."),
    ] = None,
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Start a score sheet: the rules, the players in seat order and the first dealer. Prints its number."""
    if players is None:
        fail("--players: give the players in seat order, clockwise, like --players Ann,Bob,Cid (2 to 8 names)")
    with _clear_errors():
        rules = resolve_rules(variant, rules_file, option)
        sheet = Sheet.new(rules, players.split(","), dealer=dealer, rng=random.Random() if dealer is None else None)
    with _sheets(ctx, db) as sheets:
        sheet_id = sheets.new(sheet)
    if as_json:
        typer.echo(json.dumps(sheet_json(sheet_id, sheet)))
        return
    out = console()
    out.print(Text(f"Score sheet {sheet_id}: {rules_headline(rules, rules_file)}", style="bold"))
    first = sheet.dealer
    drawn = " (drawn at random; --dealer NAME chooses)" if dealer is None else ""
    out.print(f"Players, clockwise: {and_list(list(sheet.players))}; {first} deals first{drawn}.")
    out.print(sheet.describe_scoring().capitalize() + ".")
    out.print(next_words(sheet))
    out.print(
        f"After each round: eights scorecard round {sheet_id} --out NAME --cards NAME=8H,2C --points NAME=35 "
        "(--blocked when no one went out)."
    )


def _change(ctx: typer.Context, db: str | None, sheet_id: str, make: Callable[[Sheet], T]) -> tuple[Sheet, T]:
    with _sheets(ctx, db, reading=True) as sheets:
        return sheets.change(sheets.number(sheet_id), make)


def round_number(sheet: Sheet, text: str) -> int:
    """A round's number as typed (``2``).

    :raises RoundNumberError: for text that is no number, naming the rounds entered.
    """
    clean = text.strip()
    number = parse_points(clean)
    if number is not None and number >= 0:
        return number
    count = len(sheet.rounds)
    valid = (
        "no round has been entered yet"
        if not count
        else f"the rounds entered are {'1' if count == 1 else f'1-{count}'}"
    )
    raise RoundNumberError(f"there is no round {text!r}: {valid}")


@scorecard_app.command("round")
def round_command(
    ctx: typer.Context,
    sheet_id: SheetId,
    out: OutOption = None,
    blocked: BlockedOption = False,
    cards: CardsOption = None,
    points: PointsOption = None,
    db: DbOption = None,
) -> None:
    """Enter the next round: who went out (or --blocked) and every other player's cards or points.
    Prints the round's points, card by card, and the running totals."""
    with _clear_errors():
        who, left = read_round(out, blocked, cards, points)
    sheet, result = _change(ctx, db, sheet_id, lambda s: s.add_round(who, left))
    screen = console()
    print_round(screen, sheet, result, "Round")
    screen.print(next_words(sheet))


@scorecard_app.command("edit")
def edit_command(
    ctx: typer.Context,
    sheet_id: SheetId,
    number: RoundNumber,
    out: OutOption = None,
    blocked: BlockedOption = False,
    cards: CardsOption = None,
    points: PointsOption = None,
    db: DbOption = None,
) -> None:
    """Enter a past round again (the same flags as `round`); every total after it follows."""
    with _clear_errors():
        who, left = read_round(out, blocked, cards, points)
    sheet, result = _change(ctx, db, sheet_id, lambda s: s.edit_round(round_number(s, number), who, left))
    screen = console()
    print_round(screen, sheet, result, "Changed round")
    screen.print(totals_words(sheet))
    screen.print(next_words(sheet))


def _say_totals(sheet: Sheet, said: str = "") -> None:
    """What a change did (``said``, as a sentence), the totals after it, and what is next."""
    screen = console()
    lead = f"{said[:1].upper()}{said[1:]}. " if said else ""
    screen.print(f"{lead}{totals_words(sheet)}")
    screen.print(next_words(sheet))


@scorecard_app.command("delete")
def delete_command(ctx: typer.Context, sheet_id: SheetId, number: RoundNumber, db: DbOption = None) -> None:
    """Remove a round; the rounds after it move up one, and every total after it follows."""
    sheet, said = _change(ctx, db, sheet_id, lambda s: s.delete_round(round_number(s, number)))
    _say_totals(sheet, said)


@scorecard_app.command("undo")
def undo_command(ctx: typer.Context, sheet_id: SheetId, db: DbOption = None) -> None:
    """Take back the last change still in force: an entry, an edit, a delete or a finish."""
    sheet, said = _change(ctx, db, sheet_id, lambda s: s.undo())
    _say_totals(sheet, said)


@scorecard_app.command("finish")
def finish_command(ctx: typer.Context, sheet_id: SheetId, db: DbOption = None) -> None:
    """End the match now, on the totals so far (`undo` takes it back)."""
    sheet, _ = _change(ctx, db, sheet_id, lambda s: s.finish())
    _say_totals(sheet)


@scorecard_app.command("show")
def show_command(ctx: typer.Context, sheet_id: SheetId, as_json: JsonOption = False, db: DbOption = None) -> None:
    """The whole sheet: each round, its points and the running totals, the standings and what is next."""
    with _sheets(ctx, db, reading=True) as sheets:
        number = sheets.number(sheet_id)
        sheet = sheets.get(number)
    if as_json:
        typer.echo(json.dumps(sheet_json(number, sheet)))
        return
    print_sheet(console(), number, sheet)


@scorecard_app.command("share")
def share_command(
    ctx: typer.Context,
    sheet_id: SheetId,
    url: Annotated[
        str,
        typer.Option(
            "--url", metavar="URL", help="Where `eights serve` (on this database) is reached by phones at the table."
        ),
    ] = "http://localhost:8000",
    db: DbOption = None,
) -> None:
    """Links to the sheet on the web: a read-only one for everyone at the table, and one to enter rounds.

    Links given out before for this sheet stop working. The links open on `eights serve` run on the same
    database.
    """
    if not url.startswith(("http://", "https://")):
        fail(f"--url {url!r} is not a web address; give one like http://localhost:8000 or http://192.168.1.20:8000")
    base = url.rstrip("/")
    with _sheets(ctx, db, reading=True) as sheets:
        number = sheets.number(sheet_id)
        code, token = sheets.share(number)
    screen = console()
    screen.print(f"Everyone at the table follows sheet {number} here (read-only): {base}/s/{code}", soft_wrap=True)
    screen.print(f"Enter rounds here (keep it to yourself): {base}/s/{code}#e={token}", soft_wrap=True)
    screen.print("Links given before for this sheet no longer work.")


@scorecard_app.command("list")
def list_command(
    ctx: typer.Context,
    limit: Annotated[
        int | None, typer.Option("--limit", "-n", metavar="N", min=1, help="Show only the newest N sheets.")
    ] = None,
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """The saved score sheets, the most recently changed first."""
    with _sheets(ctx, db, reading=True) as sheets:
        summaries = sheets.list(limit)
        where = sheets.store.label
    if as_json:
        typer.echo(json.dumps({"database": where, "sheets": [s.to_dict() for s in summaries]}))
        return
    out = console()
    if not summaries:
        out.print(f"No score sheets yet in {where}. Start one with `eights scorecard new` or `eights scorecard`.")
        return
    out.print(_list_table(summaries))
    out.print(f"{len(summaries)} sheet{'s' if len(summaries) != 1 else ''} in {where}.")
    out.print("Show one with `eights scorecard show ID`; open it with `eights scorecard --sheet ID`.")


def _list_table(summaries: list[SheetSummary]) -> Table:
    table = Table(show_edge=False, box=None, padding=(0, 1), header_style="bold")
    for column in ("ID", "Changed", "Rules", "Players", "Rounds", "Totals", "State"):
        # The date over the time leaves the players' names the room.
        narrow = 10 if column == "Changed" else None
        table.add_column(column, justify="right" if column in ("ID", "Rounds") else "left", max_width=narrow)
    for summary in summaries:
        totals = ", ".join(str(t) for t in summary.totals) if summary.rounds else "-"
        table.add_row(
            str(summary.id),
            summary.updated_at.astimezone().strftime("%Y-%m-%d %H:%M"),
            summary.rules_text,
            ", ".join(summary.names),
            str(summary.rounds),
            totals,
            summary.state_text,
        )
    return fit_words(table)


@scorecard_app.command("stats")
def stats_command(ctx: typer.Context, as_json: JsonOption = False, db: DbOption = None) -> None:
    """Per player across the score sheets: sheets played, finished, won, and average points per round."""
    with _sheets(ctx, db, reading=True) as sheets:
        stats = sheets.stats()
        where = sheets.store.label
    if as_json:
        typer.echo(json.dumps({"database": where, "players": [s.to_dict() for s in stats]}))
        return
    out = console()
    if not stats:
        out.print(f"No score sheet with a round entered yet in {where}.")
        return
    out.print(_stats_table(stats))
    out.print(
        "Sheets with a round entered; won: finished sheets won (a shared win counts); "
        "points per round as each sheet's rules count them, on sheets that keep points."
    )


def _stats_table(stats: list[SheetPlayerStats]) -> Table:
    table = Table(show_edge=False, box=None, padding=(0, 1), header_style="bold")
    for column in ("Player", "Sheets", "Finished", "Won", "Rounds", "Points per round"):
        table.add_column(column, justify="left" if column == "Player" else "right")
    for entry in stats:
        per_round = entry.points_per_round
        table.add_row(
            entry.name,
            str(entry.sheets),
            str(entry.finished),
            str(entry.won),
            str(entry.rounds),
            "-" if per_round is None else f"{per_round:.1f}",
        )
    return fit_words(table)


@scorecard_app.command("export")
def export_command(
    ctx: typer.Context,
    sheet_id: SheetId,
    csv_file: Annotated[
        Path | None,
        typer.Option("--csv", metavar="FILE", help="One row per round, each player's points and total (- prints it)."),
    ] = None,
    json_file: Annotated[
        Path | None,
        typer.Option("--json", metavar="FILE", help="The whole sheet as data, its undo list included (- prints it)."),
    ] = None,
    db: DbOption = None,
) -> None:
    """Save a sheet as CSV (for a spreadsheet) or JSON."""
    if csv_file is None and json_file is None:
        fail("export: say what to write: --csv FILE, --json FILE, or both (- for standard output)")
    with _sheets(ctx, db, reading=True) as sheets:
        number = sheets.number(sheet_id)
        sheet = sheets.get(number)
    written = []
    for path, text in (
        (csv_file, to_csv(sheet) if csv_file is not None else ""),
        (json_file, json.dumps(sheet.to_dict(), indent=2) + "\n" if json_file is not None else ""),
    ):
        if path is None:
            continue
        if str(path) == "-":
            typer.echo(text, nl=False)
            continue
        try:
            path.write_text(text, encoding="utf-8")
        except OSError as exc:
            fail(f"cannot write {path}: {exc.strerror or exc}")
        written.append(str(path))
    if written:
        # Beside a sheet printed to standard output, the note goes to standard error.
        printed = Path("-") in (csv_file, json_file)
        typer.echo(f"Saved score sheet {number} to {' and '.join(written)}.", err=printed)
