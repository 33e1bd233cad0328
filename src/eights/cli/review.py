"""``eights review ID``: a finished match's decisions, each against the strongest computer player's choice,
with what it cost (``eights.runs.review``); kept in the match store, so a second look is instant."""

from __future__ import annotations

import json
import os
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from eights.cli.common import fail, progress_bar
from eights.cli.database import DbOption, open_store
from eights.runs.review import MISTAKE, Review, ReviewSettings, count_decisions, review_match, seats_to_review
from eights.store import StoreError
from eights.store.reviews import Reviews
from eights.table.session import YOU


def review_command(
    match_id: Annotated[int, typer.Argument(metavar="ID", help="The match's number, as `eights history` lists it.")],
    seat: Annotated[
        list[int] | None,
        typer.Option("--seat", metavar="N", help="Review this seat (0 = the first; repeat it). Default: the people."),
    ] = None,
    deals: Annotated[
        int, typer.Option("--deals", min=4, max=2000, metavar="N", help="Deals tried per decision: more is surer.")
    ] = ReviewSettings.deals,
    iterations: Annotated[
        int,
        typer.Option("--iterations", min=50, max=100_000, metavar="N", help="The expert's search per decision."),
    ] = ReviewSettings.iterations,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", min=0, metavar="N", help="Worker processes (0, the default: one per core).")
    ] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the review as JSON.")] = False,
    again: Annotated[bool, typer.Option("--again", help="Review anew, even if a review was kept.")] = False,
    db: DbOption = None,
) -> None:
    """Go through a finished match's decisions: what the strongest computer plays there, and what each
    choice cost in winning chances (or points, where points decide), with the biggest mistakes.

    Each decision is judged from what its seat could see then, never from the hidden cards.
    """
    store = open_store(db)
    try:
        try:
            summary = store.summary(match_id)
            chosen = seats_to_review(summary, tuple(seat) if seat else None)
            record = store.record(match_id)
        except (StoreError, ValueError) as exc:
            fail(str(exc))
        settings = ReviewSettings(deals=deals, iterations=iterations)
        key = f"{','.join(map(str, chosen))}|{settings.deals}|{settings.iterations}"
        reviews = Reviews(store)
        kept = None if again else reviews.get(match_id, key)
        if kept is not None:
            review = Review.from_dict(kept)
        else:
            total = count_decisions(record, chosen)
            try:
                with progress_bar(f"Reviewing match {match_id}", total) as step:
                    review = review_match(
                        summary,
                        record,
                        seats=chosen,
                        settings=settings,
                        jobs=jobs or os.cpu_count() or 1,
                        progress=step,
                    )
            except KeyboardInterrupt:
                typer.echo("eights: review stopped; nothing kept (run it again to finish it)", err=True)
                raise typer.Exit(130) from None
            reviews.keep(match_id, key, review.to_dict())
    finally:
        store.close()
    if as_json:
        typer.echo(json.dumps(review.to_dict(), ensure_ascii=False, indent=2))
        return
    show(review)


def show(review: Review) -> None:
    out = Console()
    unit = "win" if review.unit == "wins" else "point"  # a cost of 1 win: a round's win lost
    who = " and ".join(review.names[s] for s in review.seats)
    whose = "Your" if who == YOU else f"{who}'s"
    out.print(Text(f"Match {review.match_id}: {whose} decisions, each with its cost in {unit}s", style="bold"))
    table = Table(box=None, pad_edge=False)
    for header in ("Round", "Turn", "Played", "Best", "Cost", ""):
        table.add_column(header, no_wrap=header in ("Round", "Turn", "Cost"))
    for d in review.decisions:
        same = d.played == d.best
        cost = "—" if same else f"{d.cost:+.2f} ± {d.spread:.2f}"
        table.add_row(
            str(d.round),
            str(d.turn),
            d.played_words,
            "" if same else d.best_words,
            cost,
            "mistake" if d.mistake else "",
        )
    out.print(table)
    out.print(Text("Per round: " + ", ".join(f"round {r} {c:+.2f}" for r, c in review.rounds().items())))
    mistakes = review.mistakes[:5]
    if mistakes:
        out.print(Text("Biggest mistakes:", style="bold"))
        for d in mistakes:
            out.print(
                f"  round {d.round}, turn {d.turn}: {d.played_words}; better {d.best_words} ({d.cost:+.2f} {unit}s)"
            )
    else:
        out.print(f"No mistakes: no choice clearly cost more than {MISTAKE} {unit}s.")
    out.print(
        Text(
            f"Judged from what each seat saw: the expert's choice ({review.settings.iterations} search iterations), "
            f"each move played out on {review.settings.deals} deals of the hidden cards.",
            style="dim",
        )
    )
