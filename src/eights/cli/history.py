"""The commands on saved matches: ``eights history`` (and ``history show``) and ``eights stats``;
and the ``--db`` option that every command which saves or reads matches shares."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from eights.cli.common import JsonOption, console, fail, fit_words, fits, packed
from eights.cli.database import DbOption, open_store
from eights.engine import Event
from eights.engine.events import RoundOver, RoundStarted
from eights.record import RecordError
from eights.store import MatchSummary, StoreError
from eights.words import count_words

history_app = typer.Typer(
    name="history",
    help="List the saved matches, newest first; `eights history show ID` tells one round by round.",
    no_args_is_help=False,
    invoke_without_command=True,
)


@history_app.callback()
def history_command(
    ctx: typer.Context,
    limit: Annotated[
        int | None, typer.Option("--limit", "-n", metavar="N", min=1, help="Show only the newest N matches.")
    ] = None,
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """List the saved matches, newest first: date, rules, players, result and rounds."""
    if ctx.invoked_subcommand is not None:
        return
    store = open_store(db, reading=True)
    try:
        matches = store.matches(limit)
    except StoreError as exc:
        fail(str(exc))
    finally:
        store.close()
    if as_json:
        typer.echo(json.dumps({"database": store.label, "matches": [m.to_dict() for m in matches]}))
        return
    out = console()
    if not matches:
        out.print(f"No saved matches yet in {store.label}. Play one with `eights play`.")
        return
    table = Table(show_edge=False, box=None, padding=(0, 1), header_style="bold")
    for column in ("ID", "Started", "Rules", "Players", "Result", "Rounds"):
        table.add_column(column, justify="right" if column in ("ID", "Rounds") else "left", no_wrap=True)
    rows = [
        (
            str(match.id),
            match.started_at.astimezone().strftime("%Y-%m-%d %H:%M"),
            match.rules_text,
            ", ".join(match.seat_label(s) for s in range(len(match.names))),
            match.result_text,
            str(match.rounds_dealt),
        )
        for match in matches
    ]
    for row in rows:
        table.add_row(*row)
    if fits(out, table):
        out.print(table)
    else:  # narrower than the table: each match in two lines, the players on the second, broken between them
        for match, (number, started, rules, _, result, _) in zip(matches, rows, strict=True):
            rounds = f" after {count_words(match.rounds, 'round')}" if match.finished else ""
            out.print(Text(f"{number:>3}  {started}  {rules}  {result}{rounds}"))
            seats = [match.seat_label(s) for s in range(len(match.names))]
            for line in packed(seats, out.width, "     ", "     "):
                out.print(Text(line), no_wrap=True, crop=False)
    out.print(f"{len(matches)} match{'es' if len(matches) != 1 else ''} in {store.label}.")
    out.print("Show one with `eights history show ID`; take up an unfinished one with `eights play --resume ID`.")


@history_app.command("show")
def show_command(
    match_text: Annotated[str, typer.Argument(metavar="ID", help="The match's number, as `eights history` lists it.")],
    export: Annotated[
        Path | None,
        typer.Option("--export", metavar="FILE", help="Save the match's record (JSON), as `eights replay` reads it."),
    ] = None,
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Tell one saved match round by round: the deal, who went out, points and totals."""
    if not (match_text.isascii() and match_text.isdigit()):
        fail(f"ID: {match_text!r} is not a match's number; `eights history` lists the saved matches with theirs")
    match_id = int(match_text)
    store = open_store(db, reading=True)
    try:
        summary = store.summary(match_id)
        record = store.record(match_id)
    except StoreError as exc:
        store.close()
        fail(str(exc))
    store.close()
    if export is not None:
        try:
            record.save(export)
        except OSError as exc:
            fail(f"cannot write {export}: {exc.strerror}")
    try:
        game = record.replay()
        problem = None
    except RecordError as exc:
        game, problem = None, str(exc)
    rounds = _rounds(game.log or []) if game is not None else []
    if as_json:
        data = summary.to_dict()
        data["rounds_played"] = rounds
        data["problem"] = problem
        if export is not None:
            data["exported"] = str(export)
        typer.echo(json.dumps(data))
    else:
        _print_match(console(), summary, rounds)
        if export is not None:
            typer.echo(f"Saved the record to {export}; replay it with `eights replay {export}`.")
    if problem is not None:
        fail(
            f"match {match_id}'s saved actions no longer replay ({problem}); it is kept as it is"
            + ("" if export is not None else f": `eights history show {match_id} --export FILE` saves its record")
        )


def _rounds(events: Sequence[Event]) -> list[dict[str, object]]:
    """Each round's deal and end, from a replayed match's events."""
    rounds: list[dict[str, object]] = []
    for event in events:
        if isinstance(event, RoundStarted):
            rounds.append({"round": event.round, "dealer": event.dealer, "hand_size": event.hand_size})
        elif isinstance(event, RoundOver) and rounds:
            rounds[-1].update(
                reason=event.reason,
                winners=list(event.winners),
                points=list(event.points),
                totals=list(event.totals),
                hands=[[str(c) for c in hand] for hand in event.hands],
            )
    return rounds


def _print_match(out: Console, summary: MatchSummary, rounds: list[dict[str, object]]) -> None:
    names = summary.names
    out.print(Text(f"Match {summary.id}: {summary.rules_text}", style="bold"))
    started = summary.started_at.astimezone().strftime("%Y-%m-%d %H:%M")
    out.print(f"Started {started}; " + ", ".join(f"seat {s} {summary.seat_label(s)}" for s in range(len(names))) + ".")
    how = {"out": "went out", "blocked": "won the blocked round", "cap": "won a round stopped by the safety cap"}
    for entry in rounds:
        dealer = names[int(entry["dealer"])]  # type: ignore[call-overload]
        line = f"Round {entry['round']}: {dealer} dealt {entry['hand_size']} each"
        if "reason" not in entry:
            out.print(line + "; in play.")
            continue
        winners = entry["winners"]
        assert isinstance(winners, list)
        who = " and ".join(names[s] for s in winners) or "nobody"
        out.print(line + f"; {who} {how[str(entry['reason'])]}.")
        if summary.score_keeping:
            points, totals = entry["points"], entry["totals"]
            assert isinstance(points, list) and isinstance(totals, list)
            out.print("   " + "; ".join(f"{names[s]} {points[s]:+d} (total {totals[s]})" for s in range(len(names))))
    out.print(Text(f"Result: {summary.result_text}.", style="bold"))
    if summary.finished and summary.score_keeping:
        out.print("Final totals: " + ", ".join(f"{names[s]} {t}" for s, t in enumerate(summary.totals)) + ".")


def stats_command(as_json: JsonOption = False, db: DbOption = None) -> None:
    """Per person and per computer level, over finished matches: matches, wins, win rate, average points
    per round, best and worst match."""
    store = open_store(db, reading=True)
    try:
        stats = store.stats()
    except StoreError as exc:
        fail(str(exc))
    finally:
        store.close()
    if as_json:
        typer.echo(json.dumps({"database": store.label, "players": [s.to_dict() for s in stats]}))
        return
    out = console()
    if not stats:
        out.print(f"No finished matches yet in {store.label}. Play one with `eights play`.")
        return
    table = Table(show_edge=False, box=None, padding=(0, 1), header_style="bold")
    for column in ("Player", "Matches", "Wins", "Win rate", "Points per round", "Best match", "Worst match"):
        table.add_column(column, justify="left" if column == "Player" else "right")
    for entry in stats:
        who = entry.who if entry.kind == "person" else f"computer: {entry.who}"
        per_round = entry.points_per_round
        table.add_row(
            who,
            str(entry.matches),
            str(entry.wins),
            f"{100 * entry.win_rate:.0f}%",
            "-" if per_round is None else f"{per_round:.1f}",
            "-" if entry.best is None else f"#{entry.best[0]}: {entry.best[1]}",
            "-" if entry.worst is None else f"#{entry.worst[0]}: {entry.worst[1]}",
        )
    out.print(fit_words(table))
    out.print("Points per round as the rules count them; best and worst by final total, match number first.")
