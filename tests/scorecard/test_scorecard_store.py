"""Score sheets in the match store (issue 22), on SQLite and on a real PostgreSQL server: saved as
every change happens, a refused change leaving the saved sheet as it was, lists, stats across sheets
worked by hand, remembered names, and sheets or ids that cannot be used."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, text, update

from eights.rules import load_preset
from eights.scorecard import HandError, MatchOverError, PlayerError, RoundNumberError, Sheet
from eights.store import Store, StoreError, database_url
from eights.store.db import _alembic_config
from eights.store.models import Base, SheetRow
from eights.store.sheets import Sheets

DERANGE = load_preset("derange")
CLASSIC = load_preset("classic")
BABY = load_preset("baby-eating")


def saved_data(store: Store, sheet_id: int) -> tuple[object, object]:
    """The stored row as it is in the database: the sheet's data and when it last changed."""
    with store.engine.connect() as connection:
        row = connection.execute(text("SELECT data, updated_at FROM sheets WHERE id = :id"), {"id": sheet_id}).one()
    return row[0], row[1]


def test_the_schema_matches_the_models_after_the_migrations(store: Store) -> None:
    with store.engine.connect() as connection:
        context = MigrationContext.configure(connection)
        assert context.get_current_revision() == "0007"
        assert compare_metadata(context, Base.metadata) == []


def test_a_database_of_the_previous_schema_gains_the_sheets_table_and_keeps_its_rows(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    engine = create_engine(f"sqlite:///{path}")
    with engine.begin() as connection:
        command.upgrade(_alembic_config(connection), "0002")
        connection.execute(text("INSERT INTO settings (key, value) VALUES ('people', '[\"Ann\"]')"))
    engine.dispose()
    store = Store(database_url(str(path)))
    try:
        assert store.people() == ("Ann",)
        sheet_id = Sheets(store).new(Sheet.new(CLASSIC, ["Ann", "Bob"], dealer="Bob"))
        assert Sheets(store).get(sheet_id).players == ("Ann", "Bob")
    finally:
        store.close()
    with sqlite3.connect(path) as connection:
        assert connection.execute("SELECT version_num FROM alembic_version").fetchall() == [("0007",)]


def test_every_change_is_saved_as_it_happens(store: Store) -> None:
    sheets = Sheets(store)
    sheet_id = sheets.new(Sheet.new(DERANGE, ["Ann", "Bob", "Cid"], dealer="Ann"))
    sheets.change(sheet_id, lambda s: s.add_round("Ann", {"Bob": "8H KS", "Cid": 14}))
    sheets.change(sheet_id, lambda s: s.add_round("Bob", {"Ann": "4D", "Cid": "QS"}))
    # Another program opening the same database sees every change.
    other = Store(store.url)
    try:
        again = Sheets(other).get(sheet_id)
    finally:
        other.close()
    assert [r.totals for r in again.rounds] == [(0, 70, 14), (4, 70, 24)]  # 8H 50 + KS 20; 4D 4, QS 10
    sheets.change(sheet_id, lambda s: s.edit_round(1, "Ann", {"Bob": "KS", "Cid": 14}))
    assert sheets.get(sheet_id).totals == (4, 20, 24)
    sheet, said = sheets.change(sheet_id, lambda s: s.undo())
    assert said == "undid the edit of round 1" and sheet.totals == (4, 70, 24)
    sheets.change(sheet_id, lambda s: s.delete_round(1))
    assert sheets.get(sheet_id).totals == (4, 0, 10)
    sheets.change(sheet_id, lambda s: s.finish())
    finished = sheets.get(sheet_id)
    assert finished.over and finished.finished_early and finished.winners == ("Bob",)
    # The undo list is saved too: the finish and the delete are undone from the database.
    sheets.change(sheet_id, lambda s: s.undo())
    sheets.change(sheet_id, lambda s: s.undo())
    assert sheets.get(sheet_id).totals == (4, 70, 24)


def test_save_writes_a_sheet_held_in_memory(store: Store) -> None:
    sheets = Sheets(store)
    sheet = Sheet.new(CLASSIC, ["Ann", "Bob"], dealer="Ann")
    sheet_id = sheets.new(sheet)
    sheet.add_round("Ann", {"Bob": "8H KS"})
    sheets.save(sheet_id, sheet)
    assert sheets.get(sheet_id) == sheet
    (summary,) = sheets.list()
    assert summary.finished and summary.winners == ("Ann",) and summary.totals == (60, 0)  # winner collects 50 + 10


def test_two_programs_changing_one_sheet_keep_both_changes(store: Store) -> None:
    sheet_id = Sheets(store).new(Sheet.new(DERANGE, ["Ann", "Bob"], dealer="Ann"))
    other = Store(store.url)
    try:
        Sheets(store).change(sheet_id, lambda s: s.add_round("Ann", {"Bob": 5}))
        Sheets(other).change(sheet_id, lambda s: s.add_round("Bob", {"Ann": 7}))
    finally:
        other.close()
    assert Sheets(store).get(sheet_id).totals == (7, 5)


@pytest.mark.parametrize(
    ("change", "error", "words"),
    [
        (lambda s: s.add_round("Ann", {"Bob": "8H 8H 8H", "Cid": 1}), HandError, "8H is entered 3 times"),
        (lambda s: s.add_round("Ann", {"Bob": -4, "Cid": 1}), HandError, "negative"),
        (lambda s: s.add_round("Zed", {"Bob": 4, "Cid": 1}), PlayerError, "'Zed' is not a player here"),
        (lambda s: s.edit_round(7, "Ann", {"Bob": 4, "Cid": 1}), RoundNumberError, "the rounds entered are 1"),
        (lambda s: s.delete_round(2), RoundNumberError, "there is no round 2"),
    ],
)
def test_a_refused_change_leaves_the_saved_sheet_unchanged(
    store: Store, change: object, error: type[Exception], words: str
) -> None:
    sheets = Sheets(store)
    sheet_id = sheets.new(Sheet.new(DERANGE, ["Ann", "Bob", "Cid"], dealer="Ann"))
    sheets.change(sheet_id, lambda s: s.add_round("Ann", {"Bob": "8H", "Cid": 1}))
    before = saved_data(store, sheet_id)
    with pytest.raises(error, match=words):
        sheets.change(sheet_id, change)  # type: ignore[arg-type]
    assert saved_data(store, sheet_id) == before


def test_a_round_after_the_end_is_refused_and_nothing_is_written(store: Store) -> None:
    sheets = Sheets(store)
    sheet_id = sheets.new(Sheet.new(CLASSIC, ["Ann", "Bob"], dealer="Ann"))
    sheets.change(sheet_id, lambda s: s.add_round("Bob", {"Ann": 3}))  # classic: one round, the match is over
    before = saved_data(store, sheet_id)
    with pytest.raises(MatchOverError, match="no more rounds can be entered"):
        sheets.change(sheet_id, lambda s: s.add_round("Ann", {"Bob": 3}))
    assert saved_data(store, sheet_id) == before


def test_an_unknown_sheet_id_names_the_sheets_there_are(store: Store) -> None:
    sheets = Sheets(store)
    with pytest.raises(StoreError, match=r"there is no score sheet 4 in .*: it holds no sheets yet; start one"):
        sheets.get(4)
    ids = [sheets.new(Sheet.new(CLASSIC, ["Ann", "Bob"], dealer="Ann")) for _ in range(3)]
    missing = ids[-1] + 10
    with pytest.raises(StoreError, match=rf"no score sheet {missing} in .*; the sheets are {ids[0]}-{ids[-1]}"):
        sheets.change(missing, lambda s: s.finish())
    with pytest.raises(StoreError, match=rf"no score sheet {missing} "):
        sheets.save(missing, Sheet.new(CLASSIC, ["Ann", "Bob"], dealer="Ann"))


def test_a_stored_sheet_that_no_longer_reads_is_reported_listed_and_kept(store: Store) -> None:
    sheets = Sheets(store)
    good = sheets.new(Sheet.new(CLASSIC, ["Ann", "Bob"], dealer="Ann"))
    bad = sheets.new(Sheet.new(CLASSIC, ["Ann", "Bob"], dealer="Ann"))
    data = Sheet.new(CLASSIC, ["Ann", "Bob"], dealer="Ann").to_dict()
    data["rounds"] = [{"out": "Ann", "left": {"Bob": "JK"}}]  # classic has no jokers
    with store.engine.begin() as connection:
        connection.execute(update(SheetRow).where(SheetRow.id == bad).values(data=data))
    with pytest.raises(StoreError, match=rf"score sheet {bad} in .* cannot be read: .*without jokers.*kept as it is"):
        sheets.get(bad)
    listed = {s.id: s for s in sheets.list()}
    assert listed[bad].problem is not None and "cannot be read" in listed[bad].state_text
    assert listed[good].problem is None
    assert sheets.stats() == []  # no rounds on the good one; the bad one is left out


def test_lists_show_the_newest_change_first_and_how_each_sheet_stands(store: Store) -> None:
    sheets = Sheets(store)
    first = sheets.new(Sheet.new(DERANGE.with_options(["short_rounds=true"]), ["Ann", "Bob", "Cid"], dealer="Cid"))
    second = sheets.new(Sheet.new(CLASSIC, ["Dee", "Eve"], dealer="Eve"))
    sheets.change(second, lambda s: s.add_round("Eve", {"Dee": "10S 3C"}))  # classic: Eve collects 10 + 3
    sheets.change(first, lambda s: s.add_round("Ann", {"Bob": "9S", "Cid": 30}))
    summaries = sheets.list()
    assert [s.id for s in summaries] == [first, second]
    newest, older = summaries
    assert newest.rules_text == "derange (short_rounds=true)" and newest.names == ("Ann", "Bob", "Cid")
    assert not newest.finished and newest.rounds == 1 and newest.totals == (0, 9, 30)
    # Short rounds 4,3,2,1,2,3,4; the deal moves one seat clockwise from Cid (D1): Cid, then Ann.
    assert newest.next == (2, "Ann", 3) and newest.state_text == "round 2 next: Ann deals 3"
    assert older.finished and older.winners == ("Eve",) and older.totals == (0, 13)
    assert older.state_text == "Eve won"
    assert [s.id for s in sheets.list(unfinished=True)] == [first]
    assert [s.id for s in sheets.list(limit=1)] == [first]
    data = older.to_dict()
    assert data["players"] == ["Dee", "Eve"] and data["next"] is None and data["winners"] == ["Eve"]


def test_player_stats_across_sheets_match_the_figures_worked_by_hand(store: Store) -> None:
    sheets = Sheets(store)
    # classic, one round, winner collects: Ann out, Bob holds 8H KS = 50 + 10: Ann 60. Ann wins.
    classic = sheets.new(Sheet.new(CLASSIC, ["Ann", "Bob"], dealer="Bob"))
    sheets.change(classic, lambda s: s.add_round("Ann", {"Bob": "8H KS"}))
    # derange, each adds their own hand: (0, 70, 14) then (4, 0, 10); finished early: Ann 4 < Cid 24 < Bob 70.
    derange = sheets.new(Sheet.new(DERANGE, ["Ann", "Bob", "Cid"], dealer="Ann"))
    sheets.change(derange, lambda s: s.add_round("Ann", {"Bob": "8H KS", "Cid": 14}))
    sheets.change(derange, lambda s: s.add_round("Bob", {"Ann": "4D", "Cid": "QS"}))
    sheets.change(derange, lambda s: s.finish())
    # baby-eating keeps no points: one game, won by Bob; "ann" is Ann, whatever the case.
    baby = sheets.new(Sheet.new(BABY, ["ann", "Bob", "Dee"], dealer="Dee"))
    sheets.change(baby, lambda s: s.add_round("Bob"))
    sheets.change(baby, lambda s: s.finish())
    sheets.new(Sheet.new(CLASSIC, ["Eve", "Fay"], dealer="Eve"))  # no round entered: not counted
    stats = {s.name: s for s in sheets.stats()}
    assert list(stats) == ["Ann", "Bob", "Cid", "Dee"]
    figures = {name: (s.sheets, s.finished, s.won, s.rounds, s.points) for name, s in stats.items()}
    assert figures == {
        "Ann": (3, 3, 2, 3, 64),  # rounds 1 + 2; points 60 + 0 + 4
        "Bob": (3, 3, 1, 3, 70),  # points 0 + 70 + 0
        "Cid": (1, 1, 0, 2, 24),  # 14 + 10
        "Dee": (1, 1, 0, 0, 0),  # no points kept
    }
    assert stats["Ann"].points_per_round == pytest.approx(64 / 3)
    assert stats["Dee"].points_per_round is None
    assert stats["Cid"].to_dict() == {
        "name": "Cid",
        "sheets": 1,
        "finished": 1,
        "won": 0,
        "rounds": 2,
        "points": 24,
        "points_per_round": 12.0,
    }


def test_names_from_earlier_sheets_are_remembered_newest_first(store: Store) -> None:
    sheets = Sheets(store)
    assert sheets.names() == () and sheets.last_players() == ()
    sheets.new(Sheet.new(CLASSIC, ["Ann", "Bob"], dealer="Ann"))
    sheets.new(Sheet.new(DERANGE, ["Cid", "bob", "Dee"], dealer="Cid"))
    assert sheets.last_players() == ("Cid", "bob", "Dee")
    assert sheets.names() == ("Cid", "bob", "Dee", "Ann")  # "Bob" and "bob" are one name; the newest spelling
