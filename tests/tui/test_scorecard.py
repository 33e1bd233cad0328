"""`eights scorecard` in the terminal (issue 22): the Textual sheet driven by the Pilot (two rounds
entered, the totals shown, a refused entry, edit, delete and undo, starting and taking up a sheet),
and the plain-text sheet driven through its input."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update
from textual.pilot import Pilot
from textual.widgets import Button, DataTable, Input, Label, Select, Static

from eights.rules import load_preset
from eights.scorecard import Sheet
from eights.store import Store, database_url
from eights.store.models import SheetRow
from eights.store.sheets import Sheets
from eights.tui.scorecard_app import ScorecardApp
from eights.tui.scorecard_plain import run_plain_sheet
from eights.tui.screens.dialogs import ConfirmDialog
from eights.tui.screens.scorecard import BLOCKED, SheetScreen, SheetsScreen

DERANGE = load_preset("derange")


@pytest.fixture
def sheets(tmp_path: Path) -> Iterator[Sheets]:
    store = Store(database_url(str(tmp_path / "sheets.db")))
    yield Sheets(store)
    store.close()


def run_app(app: ScorecardApp, script: Callable[[Pilot[None]], Coroutine[Any, Any, None]]) -> None:
    async def main() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(main())


def text_of(app: ScorecardApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).content)


def table_rows(app: ScorecardApp) -> list[list[str]]:
    table = app.screen.query_one("#rounds", DataTable)
    return [[str(cell) for cell in table.get_row_at(row)] for row in range(table.row_count)]


async def enter(pilot: Pilot[None], out: str, left: dict[int, str], key: str = "ctrl+s") -> None:
    """Fill the form (who went out, then each seat's cards or points, typed) and save it."""
    screen = pilot.app.screen
    screen.query_one("#out", Select).value = out
    await pilot.pause()
    for seat, text in left.items():
        field = screen.query_one(f"#left-{seat}", Input)
        field.focus()
        field.value = ""
        await pilot.press(*("space" if ch == " " else ch for ch in text))
    await pilot.press(key)
    await pilot.pause()


def test_two_rounds_entered_on_the_sheet_show_the_totals_and_are_saved(sheets: Sheets) -> None:
    sheet_id = sheets.new(Sheet.new(DERANGE, ["Ann", "Bob", "Cid"], dealer="Ann"))
    app = ScorecardApp(sheets, sheet_id)

    async def script(pilot: Pilot[None]) -> None:
        assert "Round 1 of 15: Ann deals 8 cards each" in text_of(app, "#sheet-head")
        # Round 1: Ann out; Bob 8H KS = 50 + 20 = 70; Cid 14 points.
        await enter(pilot, "Ann", {1: "8H KS", 2: "14"})
        assert "Round 2 of 15: Bob deals 7 cards each" in text_of(app, "#sheet-head")
        last = text_of(app, "#last")
        assert "Bob: 8♥ 50 + K♠ 20 = 70; scores 70, total 70" in last and "Cid: 14 points" in last
        # Round 2, saved with Enter in the last field: Bob out; Ann A♠ Q♥ 7♣ = 15 + 10 + 7 = 32; Cid 3D = 30.
        await enter(pilot, "Bob", {0: "AS QH 7C", 2: "3D"}, key="enter")
        assert table_rows(app) == [
            ["1", "Ann 8", "Ann", "+0 = 0", "+70 = 70", "+14 = 14"],
            ["2", "Bob 7", "Bob", "+32 = 32", "+0 = 70", "+30 = 44"],
        ]
        standings = text_of(app, "#standings")
        assert "1. Ann: 32 points" in standings and "2. Cid: 44 points" in standings
        assert "3. Bob: 70 points" in standings
        assert "Round 3 of 15: Cid deals 6 cards each" in text_of(app, "#sheet-head")
        assert text_of(app, "#form-title") == "Enter round 3"

    run_app(app, script)
    assert sheets.get(sheet_id).totals == (32, 70, 44)


def test_a_refused_entry_is_one_line_on_the_sheet_and_changes_nothing(sheets: Sheets) -> None:
    sheet_id = sheets.new(Sheet.new(DERANGE, ["Ann", "Bob", "Cid"], dealer="Ann"))
    app = ScorecardApp(sheets, sheet_id)

    async def script(pilot: Pilot[None]) -> None:
        await enter(pilot, "Ann", {1: "8H 8H 8H", 2: "4"})
        message = app.screen.query_one("#message", Static)
        assert message.has_class("-error")
        assert str(message.content).startswith("Not saved: 8H is entered 3 times (Bob 3)")
        assert "\n" not in str(message.content)
        # What was typed stays, to be put right.
        assert app.screen.query_one("#left-1", Input).value == "8H 8H 8H"
        await enter(pilot, "Ann", {1: "-3"})
        assert "-3 points is negative" in text_of(app, "#message")
        app.screen.query_one("#out", Select).clear()
        await pilot.press("ctrl+s")
        assert "choose who went out (Ann, Bob and Cid), or No one: blocked" in text_of(app, "#message")
        assert table_rows(app) == []

    run_app(app, script)
    assert sheets.get(sheet_id).rounds == ()


def test_edit_delete_and_undo_on_the_sheet(sheets: Sheets) -> None:
    sheet_id = sheets.new(Sheet.new(DERANGE, ["Ann", "Bob"], dealer="Bob"))
    app = ScorecardApp(sheets, sheet_id)

    async def script(pilot: Pilot[None]) -> None:
        await enter(pilot, "Ann", {1: "9S"})  # (0, 9)
        await enter(pilot, BLOCKED, {0: "5", 1: "JC"})  # blocked: both add (5, 10): (5, 19)
        screen = app.screen
        assert isinstance(screen, SheetScreen)
        table = screen.query_one("#rounds", DataTable)
        table.focus()
        table.move_cursor(row=0)
        await pilot.press("e")
        assert text_of(app, "#form-title").startswith("Editing round 1")
        assert screen.query_one("#out", Select).value == "Ann"
        assert screen.query_one("#left-1", Input).value == "9S"
        assert screen.query_one("#left-0", Input).disabled
        await enter(pilot, "Bob", {0: "KD"})  # round 1 again: Bob out, Ann K = 20
        assert [row[3:] for row in table_rows(app)] == [["+20 = 20", "+0 = 0"], ["+5 = 25", "+10 = 10"]]
        assert text_of(app, "#form-title") == "Enter round 3"
        table.focus()
        table.move_cursor(row=0)
        await pilot.press("d")  # issue 40, item 11: Delete asks first; n keeps the round
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        assert str(app.screen.query_one("#dialog-title", Label).render()) == "Delete round 1?"
        await pilot.press("n")
        await pilot.pause()
        assert len(table_rows(app)) == 2
        table.focus()
        await pilot.press("d")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        said = text_of(app, "#message")
        assert "Deleted round 1; round 2 is now round 1, with the dealer and cards it had" in said
        assert [row[3:] for row in table_rows(app)] == [["+5 = 5", "+10 = 10"]]
        await pilot.press("ctrl+z")
        assert text_of(app, "#message") == "Undid the deletion of round 1."
        await pilot.press("ctrl+z")
        assert text_of(app, "#message") == "Undid the edit of round 1."
        assert [row[3:] for row in table_rows(app)] == [["+0 = 0", "+9 = 9"], ["+5 = 5", "+10 = 19"]]

    run_app(app, script)
    assert sheets.get(sheet_id).totals == (5, 19)


def test_a_sheet_is_started_from_the_form_and_taken_up_again(sheets: Sheets) -> None:
    going = sheets.new(Sheet.new(DERANGE, ["Ann", "Bob"], dealer="Ann"))
    app = ScorecardApp(sheets)

    async def script(pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, SheetsScreen)
        assert screen.query_one("#players", Input).value == "Ann, Bob"  # the last sheet's players
        screen.query_one("#preset", Select).value = "classic"
        screen.query_one("#players", Input).value = "Dee, Eve, Dee"
        await pilot.click("#start")
        await pilot.pause()
        assert "the name 'Dee' is given twice" in text_of(app, "#sheets-error")
        screen.query_one("#players", Input).value = "Dee, Eve"
        dealer = screen.query_one("#dealer", Input)
        dealer.value = "Eve"
        dealer.focus()
        await pilot.press("enter")  # Enter in a field starts the sheet too
        await pilot.pause()
        assert isinstance(app.screen, SheetScreen), text_of(app, "#sheets-error")
        assert app.screen.sheet.players == ("Dee", "Eve")
        assert "Eve deals 5 cards each" in text_of(app, "#sheet-head")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, SheetsScreen)
        buttons = [str(b.label) for b in app.screen.query("#going Button").results(Button)]
        assert len(buttons) == 2 and buttons[-1].startswith(f"Sheet {going}: derange with Ann, Bob")
        await pilot.click(f"#sheet-{going}")
        await pilot.pause()
        assert isinstance(app.screen, SheetScreen) and app.screen.sheet_id == going

    run_app(app, script)
    assert sheets.list()[0].names == ("Dee", "Eve")


def test_the_plain_sheet_starts_a_sheet_enters_rounds_and_undoes(sheets: Sheets) -> None:
    lines = [
        "derange short_rounds=true",  # rules
        "Ann, Bob, Cid",  # players
        "Bob",  # first dealer
        "Cid",  # round 1: Cid out
        "8H 2C",  # Ann: 50 + 30 = 80
        "",  # Bob: nothing typed is asked again
        "29",  # Bob: 29 points
        "zed",  # not a player: refused
        "blocked",  # round 2 blocked
        "AH",  # Ann 15
        "QC JD",  # Bob 10 + 10 = 20
        "7",  # Cid 7
        "undo",
        "edit 1",
        "Ann",  # round 1 again: Ann out
        "4",
        "5",
        "show",
    ]
    out = io.StringIO()
    status = run_plain_sheet(sheets, io.StringIO("\n".join(lines) + "\n"), out)
    text = out.getvalue()
    assert status == 0
    assert "Score sheet 1: Derange Order of Eight (derange with short_rounds=true)." in text
    assert "Next: round 1, Bob deals 4 cards each." in text
    assert "  Ann: 8♥ 50 + 2♣ 30 = 80; scores 80, total 80." in text
    assert "Give Bob's cards left or their points: 0 when they had no cards left." in text
    assert "Standings: 1. Cid 0; 2. Bob 29; 3. Ann 80." in text
    assert "Refused: went out: 'zed' is not a player here; the players are Ann, Bob and Cid." in text
    assert "Round 2 (Cid dealt 3 cards): blocked (no one went out)." in text
    assert "Standings: 1. Cid 7; 2. Bob 49; 3. Ann 95." in text  # 0 + 7; 29 + 20; 80 + 15
    assert "Undid the entry of round 2. Standings: 1. Cid 0; 2. Bob 29; 3. Ann 80." in text
    assert "Changed round 1 (Bob dealt 4 cards): Ann went out." in text
    assert "Score sheet 1: Derange Order of Eight: Ann, Bob and Cid" in text  # show
    assert text.rstrip().endswith("take it up again with `eights scorecard --sheet 1`.")
    assert sheets.get(1).totals == (0, 4, 5)


def test_the_plain_sheet_takes_up_an_unfinished_sheet_and_ends_the_match(sheets: Sheets) -> None:
    sheet_id = sheets.new(Sheet.new(load_preset("classic"), ["Ann", "Bob"], dealer="Bob"))
    out = io.StringIO()
    script = f"{sheet_id}\nBob\nKS 10C AD 5H\nAnn\nundo\nquit\n"
    run_plain_sheet(sheets, io.StringIO(script), out)
    text = out.getvalue()
    assert f"  {sheet_id}: classic with Ann, Bob; round 1 next: Bob deals 5" in text
    assert "  Bob: went out; scores 26, total 26." in text  # winner collects 10 + 10 + 1 + 5
    assert "The match is over after 1 round: Bob wins." in text
    assert "'Ann' is not a choice here: undo, edit N, delete N, show, new or quit" in text
    assert "Undid the entry of round 1." in text
    assert sheets.get(sheet_id).rounds == ()


def test_a_saved_sheet_that_no_longer_reads_is_refused_in_words_not_opened(sheets: Sheets) -> None:
    broken = sheets.new(Sheet.new(DERANGE, ["Ann", "Bob"], dealer="Ann"))
    data = Sheet.new(DERANGE, ["Ann", "Bob"], dealer="Ann").to_dict()
    data["rounds"] = [{"out": "Ann", "left": {"Bob": "JK"}}]  # derange has no jokers
    with sheets.store.engine.begin() as connection:
        connection.execute(update(SheetRow).where(SheetRow.id == broken).values(data=data))
    app = ScorecardApp(sheets)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.click(f"#sheet-{broken}")
        await pilot.pause()
        assert isinstance(app.screen, SheetsScreen)
        error = text_of(app, "#sheets-error")
        assert error.startswith(f"Not opened: score sheet {broken} in ") and "cannot be read" in error

    run_app(app, script)


def test_names_from_earlier_sheets_complete_the_name_being_typed(sheets: Sheets) -> None:
    sheets.new(Sheet.new(DERANGE, ["Ann", "Bob"], dealer="Ann"))
    sheets.new(Sheet.new(DERANGE, ["Cid", "Bea"], dealer="Cid"))  # names now: Cid, Bea, Ann, Bob
    app = ScorecardApp(sheets)

    async def script(pilot: Pilot[None]) -> None:
        field = app.screen.query_one("#players", Input)
        assert field.value == "Cid, Bea"  # the last sheet's players, in seat order
        field.focus()
        field.value = ""
        await pilot.press("a")
        await pilot.pause()
        await pilot.press("right")  # takes the suggestion, spelt as given before
        assert field.value == "Ann"
        await pilot.press("comma", "space", "b")
        await pilot.pause()
        await pilot.press("right")  # Bea first (the newest sheet's), then Bob
        assert field.value == "Ann, Bea"
        await pilot.press("comma", "space", "b")
        await pilot.pause()
        await pilot.press("right")
        assert field.value == "Ann, Bea, Bob"  # Bea is already in the list

    run_app(app, script)


def test_the_plain_sheet_asks_again_for_what_was_wrong_only(sheets: Sheets) -> None:
    """Issue 29, item 8: bad players are refused before the dealer question, and a typo in one hand asks
    for that hand again instead of sending the round back to 'who went out?'."""
    lines = [
        "new",
        "derange",
        "",  # no players: refused at once, the dealer is not asked for yet
        "Ann,Bob,Cid",
        "Zed",  # not a player: the dealer alone is asked for again
        "Ann",
        "Ann",  # round 1: Ann went out
        "8X KS",  # a typo in Bob's hand
        "8H KS",
        "+5",  # a number written otherwise
        "99999999999999999999999",  # more than the pack is worth
        "14",
        "quit",
    ]
    out = io.StringIO()
    run_plain_sheet(sheets, io.StringIO("\n".join(lines) + "\n"), out)
    text = out.getvalue()
    players_asked = text.index("Players in seat order")
    refused = text.index("Refused: players: no names given")
    assert players_asked < refused < text.index("Who deals first?")
    assert "Refused: dealer: 'Zed' is not a player here" in text
    assert text.count("Players in seat order") == 2 and text.count("Who deals first?") == 2
    assert "Refused: Bob: " in text and "Type Bob's hand again." in text
    assert "Refused: Cid: '+5' is not points as this sheet reads them" in text
    assert "Refused: Cid: 99999999999999999999999 points is more than the cards of the pack can be worth" in text
    assert text.count("Round 1: who went out?") == 1
    assert sheets.get(1).totals == (0, 70, 14)


def test_at_100_columns_a_four_player_sheet_shows_every_players_column(sheets: Sheets) -> None:
    """Issue 40, item 9: at 100 columns the form beside the rounds' table cut off the fourth player; where the
    table does not fit beside the form, the form goes under it."""
    players = ["Annabel", "Bartholomew", "Cid", "Dorothea"]
    sheet = Sheet.new(DERANGE, players, dealer="Annabel")
    sheet.add_round("Annabel", {"Bartholomew": "8H KS 10C", "Cid": 14, "Dorothea": 22})
    sheet_id = sheets.new(sheet)

    async def main(width: int) -> tuple[int, int, bool]:
        async with ScorecardApp(sheets, sheet_id).run_test(size=(width, 40)) as pilot:
            await pilot.pause()
            table = pilot.app.screen.query_one("#rounds", DataTable)
            need = sum(column.get_render_width(table) for column in table.columns.values())
            stacked = pilot.app.screen.query_one("#sheet-main").has_class("-stacked")
            return need, table.content_region.width, stacked

    need, room, stacked = asyncio.run(main(100))
    assert stacked and need <= room, (need, room)
    need, room, stacked = asyncio.run(main(160))  # wide: the form stays beside the table
    assert not stacked and need <= room, (need, room)


def test_the_plain_sheet_asks_before_deleting_a_round(sheets: Sheets) -> None:
    """Issue 40, item 11: Delete asked no confirmation."""
    sheet = Sheet.new(DERANGE, ["Ann", "Bob"], dealer="Ann")
    sheet.add_round("Ann", {"Bob": 9})
    sheet_id = sheets.new(sheet)
    out = io.StringIO()
    run_plain_sheet(sheets, io.StringIO("delete 1\nn\ndelete 1\ny\n"), out, sheet_id)
    text = out.getvalue()
    assert "Delete round 1 (Ann deals 8): Ann out; Bob 9? Type y to delete it, anything else to keep it:" in text
    assert "Round 1 is kept." in text and "Deleted round 1" in text
    assert sheets.get(sheet_id).rounds == ()
