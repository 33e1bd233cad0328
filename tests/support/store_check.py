"""What the players saw, held against what the store kept: every state a seat was sent must be the table
after some number of the stored moves, in order, so that no state shows a move the store lost (a fork, or
a move refused yet played) and none goes back (a move played and then gone)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from eights.engine import Game, parse_action, view
from eights.store import Store, database_url
from eights.store.rooms import Rooms


def stored_match(db: Path | str, code: str) -> tuple[Any, list[str]]:
    """Room ``code``'s match as the store ``db`` (a file or a URL) keeps it: its record and its moves."""
    store = Store(database_url(str(db)))
    try:
        match_id = next(room.match_id for room in Rooms(store).all() if room.code == code)
        assert match_id is not None, f"room {code} has no match"
        record = store.record(match_id)
        return record, list(record.actions)
    finally:
        store.close()


def seen_by(table: dict[str, Any]) -> tuple[Any, ...]:
    """What a state's table shows, reduced to what a move changes (a spectator's hand: none)."""
    return (
        sorted(card["code"] for card in table["hand"]),
        table["counts"],
        table["top"]["code"],
        table["stock"],
        table["to_act"],
        table["round"],
        table["totals"],
    )


def kept_by(game: Game, seat: int | None) -> tuple[Any, ...]:
    """The same of the engine's game, as ``seat`` may see it."""
    shown = view(game, seat)
    return (
        sorted(str(card) for card in shown.hand),
        list(shown.hand_counts),
        str(shown.top),
        shown.stock_count,
        shown.to_act,
        shown.round,
        list(shown.totals),
    )


def check_seen(db: Path | str, code: str, seen: dict[int | None, list[dict[str, Any]]], finished: bool = True) -> int:
    """Hold the states each seat saw (``seen``: seat, or None for a spectator, to its ``state`` messages, in
    the order they came) against room ``code``'s stored match; with ``finished``, the stored match must be
    over. The number of states checked.

    :raises AssertionError: naming the first state that is not the table after a prefix of the stored
        moves at or after the one before it.
    """
    record, moves = stored_match(db, code)
    game = Game(record.rules, record.players, record.seed)
    tables: list[Game] = [game.clone()]
    for move in moves:
        game.play(parse_action(move))
        tables.append(game.clone())
    if finished:
        assert game.is_over, f"room {code}: the stored match is not over after {len(moves)} moves"
    checked = 0
    for seat, states in seen.items():
        kept = [kept_by(table, seat) for table in tables]
        at = 0
        for state in states:
            table = state.get("table")
            if table is None or state["room"]["code"] != code:
                continue
            shown = seen_by(table)
            found = next((k for k in range(at, len(kept)) if kept[k] == shown), None)
            assert found is not None, (
                f"room {code}: seat {seat}'s state version {state['version']} is not the table after any of the "
                f"{len(moves)} stored moves from move {at} on (a fork, a lost move or one played back): {shown}"
            )
            at = found
            checked += 1
    return checked
