"""A sheet as text and data: CSV (one row per round), a plain table for people, and the JSON the commands' ``--json``
and the web scorecard give. No I/O."""

from __future__ import annotations

import csv
import io
from typing import Any

from eights.scorecard.sheet import RoundResult, Sheet, describe_entry
from eights.words import and_list, count_words

#: What a spreadsheet takes for the start of a formula (or, for tab and carriage return, hides one behind).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(text: str) -> str:
    """A cell a spreadsheet shows as text: one that would start a formula (a name like ``=HYPERLINK(...)``)
    gets a leading apostrophe, which spreadsheets read as "this is text" and do not show."""
    if text.startswith(FORMULA_STARTS) and not text.lstrip("-").isdigit():
        return "'" + text
    return text


def to_csv(sheet: Sheet) -> str:
    """A header, one row per round (the dealer, the cards dealt, who went out, and each player's
    cards left where they were entered, points and running total), then a row of the final totals.

    In a sheet that keeps no points the columns are each player's games won: 1 for the round's
    winners, and the running count. Every cell that a spreadsheet would run as a formula is written
    as text (``safe_cell``).
    """
    players = sheet.players
    each, running = ("won", "games won") if not sheet.keeps_points else ("points", "total")
    header = ["round", "dealer", "cards", "out"]
    for name in players:
        header += [f"{name} cards left", f"{name} {each}", f"{name} {running}"]
    rows = [header]
    for result in sheet.rounds:
        out = "blocked" if result.out is None else players[result.out]
        row = [str(result.number), players[result.dealer], str(result.hand_size), out]
        for seat, left in enumerate(result.entry.left):
            cards = "" if left is None or isinstance(left, int) else " ".join(str(card) for card in left)
            row += [cards, str(result.points[seat]), str(result.totals[seat])]
        rows.append(row)
    label = "final" if sheet.over else "so far"
    won = "won: " + and_list(list(sheet.winners)) if sheet.over else ""
    last = [label, "", "", won]
    for total in sheet.totals:
        last += ["", "", str(total)]
    rows.append(last)
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows([[safe_cell(cell) for cell in row] for row in rows])
    return buffer.getvalue()


def to_text(sheet: Sheet) -> str:
    """The sheet for people: how it scores, each round, the totals and the standings."""
    lines = [f"{sheet.rules.title}: {and_list(list(sheet.players))}", sheet.describe_scoring()]
    if sheet.setup.teams:
        lines.append("teams: " + ", ".join(sheet.setup.team_name(team) for team in sheet.setup.teams))
    for result in sheet.rounds:
        totals = ", ".join(f"{name} {total}" for name, total in zip(sheet.players, result.totals, strict=True))
        lines.append(f"{describe_entry(sheet, result)} -> {totals}")
    lines.append("standings: " + "; ".join(f"{s.place}. {s.name} {s.total}" for s in sheet.standings()))
    if sheet.over:
        early = " (finished early)" if sheet.finished_early else ""
        label = "winner" if len(sheet.winners) == 1 else "winners"
        lines.append(f"{label}: {and_list(list(sheet.winners))}{early}")
    else:
        lines.append(f"next: round {sheet.next_round}, {sheet.dealer} deals {sheet.hand_size}")
    return "\n".join(lines) + "\n"


def next_words(sheet: Sheet) -> str:
    """``Next: round 3, Cid deals 6 cards each.``, or how the match ended."""
    if sheet.over:
        winners = and_list(list(sheet.winners))
        how = "was finished" if sheet.finished_early else "is over"
        verb = "win" if len(sheet.winners) > 1 else "wins"
        return f"The match {how} after {count_words(len(sheet.rounds), 'round')}: {winners} {verb}."
    cards = "card" if sheet.hand_size == 1 else "cards"
    return f"Next: round {sheet.next_round}, {sheet.dealer} deals {sheet.hand_size} {cards} each."


def totals_words(sheet: Sheet) -> str:
    """``Totals: Ann 32, Bob 70.`` in seat order (``Games won:`` where no points are kept)."""
    word = "Games won" if not sheet.keeps_points else "Totals"
    return f"{word}: " + ", ".join(f"{n} {t}" for n, t in zip(sheet.players, sheet.totals, strict=True)) + "."


def standings_words(sheet: Sheet) -> str:
    """``Standings: 1. Ann 32; 2. Bob 70.``, best first, ties sharing a place."""
    return "Standings: " + "; ".join(f"{s.place}. {s.name} {s.total}" for s in sheet.standings()) + "."


def scored_words(sheet: Sheet, result: RoundResult, seat: int) -> str:
    """``scores 70, total 102``; ``wins, games won 2`` where no points are kept."""
    if sheet.keeps_points:
        return f"scores {result.points[seat]}, total {result.totals[seat]}"
    won = "wins" if result.points[seat] else "does not win"
    return f"{won}, games won {result.totals[seat]}"


def sheet_json(sheet_id: int, sheet: Sheet) -> dict[str, Any]:
    """The sheet as the commands' ``--json`` give it: each round scored, the totals, the standings, what is next."""
    players = sheet.players
    rounds = []
    for result in sheet.rounds:
        rounds.append(
            {
                "round": result.number,
                # Past a deleted round: the deal it was played with (its number), as Sheet.to_dict keeps it.
                **({"deal": result.entry.deal + 1} if result.entry.deal is not None else {}),
                "dealer": players[result.dealer],
                "hand_size": result.hand_size,
                "out": None if result.out is None else players[result.out],
                "blocked": result.blocked,
                "left": {
                    players[seat]: (value if isinstance(value, int) else [str(card) for card in value])
                    for seat, value in enumerate(result.entry.left)
                    if value is not None
                },
                "worth": list(result.worth),
                "points": list(result.points),
                "totals": list(result.totals),
                "winners": [players[seat] for seat in result.winners],
            }
        )
    following = None
    if not sheet.over:
        following = {"round": sheet.next_round, "dealer": sheet.dealer, "hand_size": sheet.hand_size}
    return {
        "id": sheet_id,
        "variant": sheet.rules.name,
        "title": sheet.rules.title,
        "options": list(sheet.rules.changes()[1]),
        "players": list(players),
        "scoring": sheet.describe_scoring(),
        "keeps_points": sheet.keeps_points,
        "rounds": rounds,
        "totals": list(sheet.totals),
        "standings": [{"place": s.place, "name": s.name, "total": s.total} for s in sheet.standings()],
        "over": sheet.over,
        "finished_early": sheet.finished_early,
        "winners": list(sheet.winners),
        "next": following,
        "can_undo": sheet.can_undo,
        "sheet": sheet.to_dict(),
    }
