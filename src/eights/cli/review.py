"""``eights review ID``: a finished match's decisions, each against the strongest computer player's choice,
with what it cost (``eights.runs.review``); kept in the match store, so a second look is instant."""

from __future__ import annotations

import json
import os
from collections import Counter
from typing import Annotated

import typer
from rich.console import Console
from rich.padding import Padding
from rich.text import Text

from eights.cli.common import fail, progress_bar
from eights.cli.database import DbOption, open_store
from eights.runs.review import (
    MISTAKE,
    Review,
    ReviewSettings,
    amount_words,
    cost_words,
    count_decisions,
    position_words,
    review_match,
    seats_to_review,
)
from eights.store import StoreError
from eights.store.reviews import Reviews
from eights.table.session import YOU
from eights.words import count_words


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
    show(review, summary.rounds)


def show(review: Review, rounds_played: int = 0) -> None:
    """The review in lines that fit any width: what a cost means, then each decision with its position
    (the card on the pile and the hand), the move played, the expert's and what the choice cost; every
    round's total (``rounds_played``: the match's rounds, each listed even without a decision); the mistakes."""
    out = Console()
    unit = review.unit
    who = " and ".join(review.names[s] for s in review.seats)
    whose = "Your" if who == YOU else f"{who}'s"
    yours = "your" if who == YOU else f"{who}'s"
    out.print(Text(f"Match {review.match_id}: {whose} decisions against the expert's choice", style="bold"))
    measure = "winning chances (100% = a round's win)" if unit == "wins" else "points"
    out.print(
        Text(
            f"Cost: what {yours} move lost against the expert's, in {measure}, each move played out on "
            f"{review.settings.deals} deals of the cards that could not be seen; ± is its standard error. "
            "A cost within twice its error of 0 is no clear cost; a negative one means the move played did "
            "better on those deals than the expert's.",
            style="dim",
        )
    )
    for d in review.decisions:
        out.print(Text(f"Round {d.round}, turn {d.turn}: {position_words(d)}", style="bold"))
        expert = "" if d.played == d.best else f"; the expert: {d.best_words}"
        out.print(Padding(Text(f"played {d.played_words}{expert}; {cost_words(d, unit)}"), (0, 0, 0, 2)))
    out.print(Text("Per round (the costs added up):", style="bold"))
    counts = Counter(d.round for d in review.decisions)
    for number, cost in review.rounds(rounds_played).items():
        if not counts[number]:
            out.print(Text(f"  round {number}: no decision with a choice"))
            continue
        sign = "-" if cost < 0 else "+"
        out.print(
            Text(f"  round {number}: {sign}{amount_words(unit, cost)} over {count_words(counts[number], 'decision')}")
        )
    mistakes = review.mistakes[:5]
    if mistakes:
        out.print(Text("Biggest mistakes:", style="bold"))
        for d in mistakes:
            out.print(
                Text(
                    f"  round {d.round}, turn {d.turn}: {d.played_words}; better {d.best_words}: {cost_words(d, unit)}"
                )
            )
    else:
        limit = amount_words(unit, MISTAKE)
        out.print(f"No mistakes: no choice clearly cost more than {limit}.")
    out.print(
        Text(
            f"Judged from what each seat saw: the expert's choice ({review.settings.iterations} search iterations).",
            style="dim",
        )
    )
