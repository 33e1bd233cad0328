"""The score sheet in the terminal (``eights scorecard``): choosing or starting a sheet, then the sheet.

``SheetsScreen`` lists the sheets not finished and starts a new one (the rules, the players in seat
order, the first dealer). ``SheetScreen`` shows the round to enter, the cards to deal and the
dealer, every round entered with its points and running totals, the standings and the last round
card by card; its form takes who went out and each other player's cards or points. Rounds can be
edited, deleted and undone; every change is saved in the store at once, and a change the sheet
refuses is shown in one line and changes nothing.

The screens never call the app: they post ``SheetsScreen.Open`` and ``SheetScreen.Leave``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.suggester import Suggester
from textual.widgets import Button, DataTable, Footer, Header, Input, Label, Select, Static

from eights.rules import PRESETS, RulesError, load_preset, resolve_rules
from eights.rules.describe import rules_headline
from eights.scorecard import (
    LeftInput,
    RoundResult,
    Sheet,
    SheetError,
    left_from_text,
    next_words,
    scored_words,
)
from eights.scorecard.entry import Left
from eights.scorecard.sheet import describe_entry
from eights.store import StoreError
from eights.store.sheets import Sheets
from eights.tui.screens.dialogs import ConfirmDialog
from eights.tui.style import styled
from eights.words import and_list

#: The "went out" choice of a blocked round.
BLOCKED = "__blocked__"


class NameSuggester(Suggester):
    """Completes the name being typed last in a list of names (``Ann, C`` to ``Ann, Cid``) from the
    names given on earlier sheets, skipping those already in the list; whatever the case typed."""

    def __init__(self, names: tuple[str, ...]) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.names = names

    async def get_suggestion(self, value: str) -> str | None:
        head, comma, last = value.rpartition(",")
        typed = last.lstrip().casefold()
        if not typed:
            return None
        taken = {name.strip().casefold() for name in head.split(",")} if comma else set()
        space = last[: len(last) - len(last.lstrip())]
        for name in self.names:
            folded = name.casefold()
            if folded.startswith(typed) and folded != typed and folded not in taken:
                return f"{head}{comma}{space}{name}"  # the name as it was given: "a" becomes "Ann"
        return None


class SheetsScreen(Screen[None]):
    """Go on with a sheet not finished, or start a new one."""

    AUTO_FOCUS = "#players"
    DEFAULT_CSS = """
    #sheets { padding: 1 2; }
    #sheets .title { text-style: bold; margin: 0 0 1 0; }
    #sheets .row { height: auto; margin: 0 0 1 0; }
    #sheets .field { width: 24; padding: 0 1 0 0; }
    #sheets Select, #sheets Input { width: 1fr; max-width: 64; }
    #going Button { width: 100%; max-width: 110; content-align: left middle; }
    #going { height: auto; margin: 0 0 1 0; }
    #sheets-error { height: auto; margin: 0 0 1 0; color: $error; }
    #sheets-buttons { height: auto; }
    #sheets-buttons Button { margin: 0 1 0 0; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "start", "Start the sheet"),
        Binding("escape", "app.quit", "Quit"),
    ]

    class Open(Message):
        """Open the saved sheet ``sheet_id``."""

        def __init__(self, sheet_id: int) -> None:
            super().__init__()
            self.sheet_id = sheet_id

    def __init__(self, sheets: Sheets) -> None:
        super().__init__()
        self.sheets = sheets
        self.going = sheets.list(limit=6, unfinished=True)
        self.last = sheets.last_players()

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="sheets"):
            if self.going:
                yield Label("Go on with a sheet", classes="title")
                with Vertical(id="going"):
                    for summary in self.going:
                        words = f"Sheet {summary.id}: {summary.rules_text} with {', '.join(summary.names)}; "
                        yield Button(words + summary.state_text, id=f"sheet-{summary.id}", compact=True)
            yield Label("A new score sheet", classes="title")
            with Horizontal(classes="row"):
                yield Label("Rules", classes="field")
                yield Select(
                    [(f"{name}: {load_preset(name).title}", name) for name in PRESETS],
                    value="derange" if "derange" in PRESETS else PRESETS[0],
                    allow_blank=False,
                    compact=True,
                    id="preset",
                )
            with Horizontal(classes="row"):
                yield Label("Options (optional)", classes="field")
                yield Input(placeholder="like short_rounds=true or target=200", compact=True, id="options")
            with Horizontal(classes="row"):
                yield Label("Players, clockwise", classes="field")
                yield Input(
                    value=", ".join(self.last),
                    placeholder="Ann, Bob, Cid (2 to 8 names; the right arrow completes a known name)",
                    suggester=NameSuggester(self.sheets.names()),
                    compact=True,
                    id="players",
                )
            with Horizontal(classes="row"):
                yield Label("First dealer", classes="field")
                yield Input(placeholder="a player's name; empty: drawn at random", compact=True, id="dealer")
            yield Static(id="sheets-error")
            with Horizontal(id="sheets-buttons"):
                yield Button("Start the sheet (ctrl+s)", id="start", variant="primary")
                yield Button("Quit (esc)", id="quit")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "Score sheets"
        self.sub_title = self.sheets.store.label

    def new_sheet(self) -> Sheet:
        """The sheet the form describes. :raises SheetError: or ``RulesError`` naming the problem."""
        preset = self.query_one("#preset", Select).value
        options = self.query_one("#options", Input).value.replace(",", " ").split()
        rules = resolve_rules(str(preset), None, options or None)
        names = self.query_one("#players", Input).value.split(",")
        dealer = self.query_one("#dealer", Input).value.strip() or None
        return Sheet.new(rules, names, dealer=dealer, rng=None if dealer else random.Random())

    @on(Button.Pressed, "#start")
    @on(Input.Submitted)
    def action_start(self) -> None:
        try:
            sheet_id = self.sheets.new(self.new_sheet())
        except (SheetError, RulesError, StoreError) as exc:
            self.show_error(f"Not started: {exc}")
            return
        self.post_message(self.Open(sheet_id))

    def show_error(self, words: str) -> None:
        self.query_one("#sheets-error", Static).update(Text(words))

    @on(Button.Pressed, "#going Button")
    def go_on(self, event: Button.Pressed) -> None:
        assert event.button.id is not None
        self.post_message(self.Open(int(event.button.id.removeprefix("sheet-"))))

    @on(Button.Pressed, "#quit")
    def quit_pressed(self) -> None:
        self.app.exit()


#: What the rounds table takes, shown under it.
TABLE_HINT = "Rounds: tab here, up and down choose one; Enter or e edits it, d or Delete removes it."


class RoundsTable(DataTable[str | Text]):
    """The rounds entered, one row each; keys to edit or delete the round under the cursor."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("e", "screen.edit", "Edit round"),
        Binding("d,delete", "screen.delete", "Delete round"),
    ]


class SheetScreen(Screen[None]):
    """One score sheet: the round to enter, the rounds entered, the standings and the entry form."""

    DEFAULT_CSS = """
    #sheet-head { height: auto; padding: 0 1; background: $boost; }
    #sheet-main { height: 1fr; }
    #sheet-left { width: 1fr; height: 1fr; padding: 0 1; }
    #rounds { height: 1fr; }
    #table-hint { height: auto; color: $text-muted; }
    #standings { height: auto; padding: 1 0 0 0; }
    #sheet-right { width: 40%; min-width: 40; max-width: 50; height: 1fr; padding: 0 1; border-left: vkey $primary; }
    #form-title { text-style: bold; margin: 0 0 1 0; }
    #sheet-right .row { height: 1; margin: 0; }
    #sheet-right #out-row { margin: 0 0 1 0; }
    #sheet-right .field { width: 14; padding: 0 1 0 0; }
    #sheet-right Select, #sheet-right Input { width: 1fr; }
    #form-buttons { height: auto; margin: 1 0 1 0; }
    #form-buttons Button { margin: 0 1 0 0; min-width: 10; }
    #message { height: auto; margin: 0 0 1 0; }
    #message.-error { color: $error; }
    #last { height: auto; }
    /* Too narrow for the rounds' table beside the form: the form goes under the table. */
    #sheet-main.-stacked { layout: vertical; }
    #sheet-main.-stacked #sheet-right {
        width: 100%; max-width: 100%; height: auto; max-height: 50%; border-left: none; border-top: hkey $primary;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "enter", "Save round"),
        Binding("ctrl+z", "undo", "Undo"),
        Binding("ctrl+f", "finish", "Finish match"),
        Binding("escape", "back", "Cancel edit / sheets"),
        Binding("ctrl+q", "app.quit", "Quit"),
    ]

    class Leave(Message):
        """Back to the list of sheets."""

    def __init__(self, sheets: Sheets, sheet_id: int) -> None:
        super().__init__()
        self.sheets = sheets
        self.sheet_id = sheet_id
        self.sheet = sheets.get(sheet_id)
        #: The round being entered again, or None for the next round.
        self.editing: int | None = None

    # ----- layout -----------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        sheet = self.sheet
        yield Header()
        yield Static(id="sheet-head")
        with Horizontal(id="sheet-main"):
            with Vertical(id="sheet-left"):
                yield RoundsTable(id="rounds", cursor_type="row", zebra_stripes=True)
                yield Static(TABLE_HINT, id="table-hint")
                yield Static(id="standings")
            with VerticalScroll(id="sheet-right"):
                yield Label(id="form-title")
                with Horizontal(classes="row", id="out-row"):
                    yield Label("Went out", classes="field")
                    choices = [(name, name) for name in sheet.players] + [("No one: blocked", BLOCKED)]
                    yield Select(choices, prompt="who went out?", compact=True, id="out")
                for seat, name in enumerate(sheet.players):
                    with Horizontal(classes="row"):
                        yield Label(name, classes="field")
                        yield Input(compact=True, id=f"left-{seat}")
                with Horizontal(id="form-buttons"):
                    yield Button("Save round", id="enter", variant="primary", compact=True)
                    yield Button("Undo", id="undo", compact=True)
                    yield Button("Finish", id="finish", compact=True)
                yield Static(id="message")
                yield Static(id="last")
        yield Footer()

    def on_mount(self) -> None:
        self.title = f"Score sheet {self.sheet_id}"
        self.sub_title = rules_headline(self.sheet.rules)
        self.refresh_sheet()
        self.reset_form()

    # ----- showing the sheet -------------------------------------------------------------------------------

    def refresh_sheet(self) -> None:
        sheet = self.sheet
        head = Text()
        if sheet.over:
            head.append(next_words(sheet), style="bold")
        else:
            cards = "card" if sheet.hand_size == 1 else "cards"
            of = f" of {len(sheet.schedule)}" if sheet.schedule else ""
            head.append(f"Round {sheet.next_round}{of}: ", style="bold")
            head.append(f"{sheet.dealer} deals {sheet.hand_size} {cards} each", style="bold yellow")
        scoring = sheet.describe_scoring()
        head.append(f"\nPlayers, clockwise: {and_list(list(sheet.players))}. {scoring[:1].upper()}{scoring[1:]}.")
        self.query_one("#sheet-head", Static).update(head)
        table = self.query_one("#rounds", DataTable)
        cursor = table.cursor_row
        table.clear(columns=True)
        table.add_column("#", key="round")
        table.add_column("Deal")
        table.add_column("Out")
        for name in sheet.players:
            table.add_column(Text(name, justify="right"))
        for result in sheet.rounds:
            out = "blocked" if result.out is None else sheet.players[result.out]
            deal = f"{sheet.players[result.dealer]} {result.hand_size}"
            cells: list[str | Text] = [str(result.number), deal, out]
            for points, total in zip(result.points, result.totals, strict=True):
                # Points: "+70 = 70". No points kept: the round's winners "won (2)", the others "(1)": games won so far.
                shown = f"+{points} = {total}" if sheet.keeps_points else f"{'won ' if points else ''}({total})"
                cells.append(Text(shown, justify="right"))
            table.add_row(*cells, key=str(result.number))
        if sheet.rounds:
            table.move_cursor(row=min(max(cursor, 0), len(sheet.rounds) - 1))
        self.place_form()
        standings = Text("Standings", style="bold")
        for standing in sheet.standings():
            leader = standing.place == 1 and bool(sheet.rounds)
            if sheet.keeps_points:
                word = "point" if standing.total == 1 else "points"
            else:
                word = "game won" if standing.total == 1 else "games won"
            standings.append(f"\n{standing.place}. {standing.name}: {standing.total} {word}", "bold" if leader else "")
        if sheet.over:
            standings.append(f"\n{next_words(sheet)}", style="bold green")
        self.query_one("#standings", Static).update(standings)

    def on_resize(self) -> None:
        self.place_form()

    def place_form(self) -> None:
        """The form beside the rounds' table where every column of it fits, else under it (a fourth player's
        column is never cut off)."""
        table = self.query_one("#rounds", DataTable)
        need = sum(column.get_render_width(table) for column in table.columns.values()) + 4  # padding, scrollbar
        width = self.size.width
        form = min(50, max(40, width * 40 // 100)) + 1  # #sheet-right's width and its border
        self.query_one("#sheet-main").set_class(need > width - form, "-stacked")

    def show_round(self, result: RoundResult, head: str) -> None:
        """A round card by card, under the form."""
        sheet = self.sheet
        players = sheet.players
        how = "blocked" if result.out is None else f"{players[result.out]} went out"
        text = Text()
        text.append(f"{head} {result.number} ({players[result.dealer]} dealt {result.hand_size}): {how}", "bold")
        for seat, name in enumerate(players):
            text.append(f"\n{name}: ", "bold")
            cards = sheet.breakdown(result.number, name)
            if cards and sheet.keeps_points:
                shown = " + ".join(f"{card.pretty()} {value}" for card, value in cards)
                text.append_text(styled(f"{shown} = {result.worth[seat]}"))
            else:
                text.append_text(styled(sheet.breakdown_text(result.number, name, pretty=True)))
            text.append(f"; {scored_words(sheet, result, seat)}")
        self.query_one("#last", Static).update(text)

    def say(self, words: str, error: bool = False) -> None:
        message = self.query_one("#message", Static)
        message.set_class(error, "-error")
        message.update(Text(words))

    # ----- the form -----------------------------------------------------------------------------------------

    def reset_form(self, result: RoundResult | None = None) -> None:
        """The form for the next round (empty), or filled with ``result`` to enter it again."""
        sheet = self.sheet
        title = self.query_one("#form-title", Label)
        out = self.query_one("#out", Select)
        if result is None:
            self.editing = None
            if sheet.over:
                title.update("The match is over: edit, delete or undo a round")
            else:
                title.update(f"Enter round {sheet.next_round}")
            out.clear()
        else:
            self.editing = result.number
            title.update(f"Editing round {result.number} (esc: back to round {sheet.next_round})")
            out.value = BLOCKED if result.out is None else sheet.players[result.out]
        for seat in range(len(sheet.players)):
            field = self.query_one(f"#left-{seat}", Input)
            field.value = "" if result is None else _left_text(result.entry.left[seat])
        self.update_fields()

    @on(Select.Changed, "#out")
    def update_fields(self) -> None:
        """The player who went out has nothing to enter; every other player's field says what it takes."""
        out = self.query_one("#out", Select).value
        sheet = self.sheet
        optional = not sheet.keeps_points and out != BLOCKED
        for seat, name in enumerate(sheet.players):
            field = self.query_one(f"#left-{seat}", Input)
            if out == name:
                field.value = ""
                field.disabled = True
                field.placeholder = "went out"
            else:
                field.disabled = False
                field.placeholder = "cards (8H 2C) or points" + (" (optional)" if optional else "")

    def entered(self) -> tuple[str | None, dict[str, LeftInput]]:
        """What the form says. :raises SheetError: when no one is chosen as out (nor blocked)."""
        sheet = self.sheet
        chosen = self.query_one("#out", Select)
        out = chosen.value
        if chosen.is_blank():
            raise SheetError(f"choose who went out ({and_list(list(sheet.players))}), or No one: blocked")
        left: dict[str, LeftInput] = {}
        for seat, name in enumerate(sheet.players):
            text = self.query_one(f"#left-{seat}", Input).value
            if name != out and text.strip():
                left[name] = left_from_text(text)
        return (None if out == BLOCKED else str(out)), left

    # ----- changes ----------------------------------------------------------------------------------------

    @on(Button.Pressed, "#enter")
    @on(Input.Submitted)
    def action_enter(self) -> None:
        """Save the round in the form: the next one, or the one being edited."""
        number = self.editing
        try:
            out, left = self.entered()
            if number is None:
                self.sheet, result = self.sheets.change(self.sheet_id, lambda s: s.add_round(out, left))
                said = f"Round {result.number} saved."
            else:
                self.sheet, result = self.sheets.change(self.sheet_id, lambda s: s.edit_round(number, out, left))
                said = f"Round {number} changed; the totals after it follow."
        except (SheetError, StoreError) as exc:
            self.say(f"Not saved: {exc}", error=True)
            return
        self.refresh_sheet()
        self.show_round(result, "Changed round" if number is not None else "Round")
        self.reset_form()
        self.say(said + " ctrl+z undoes it.")
        self.focus_form()

    def focus_form(self) -> None:
        self.query_one("#out", Select).focus()

    def selected_round(self) -> RoundResult | None:
        table = self.query_one("#rounds", DataTable)
        if not self.sheet.rounds:
            self.say("No round has been entered yet.", error=True)
            return None
        row = min(max(table.cursor_row, 0), len(self.sheet.rounds) - 1)
        return self.sheet.rounds[row]

    def action_edit(self) -> None:
        """Fill the form with the round selected in the table, to enter it again."""
        result = self.selected_round()
        if result is None:
            return
        self.reset_form(result)
        self.say(f"Change round {result.number} in the form, then Save round.")
        self.focus_form()

    @on(DataTable.RowSelected, "#rounds")
    def row_chosen(self) -> None:
        self.action_edit()

    def action_delete(self) -> None:
        """Delete the round selected in the table, once the person says so."""
        result = self.selected_round()
        if result is None:
            return
        number = result.number

        def answered(delete: bool | None) -> None:
            if delete:
                self.change(lambda s: s.delete_round(number), "")

        words = f"{describe_entry(self.sheet, result)}. Its points leave every total after it; ctrl+z brings it back."
        self.app.push_screen(ConfirmDialog(f"Delete round {number}?", words, "Delete", "Keep it"), answered)

    @on(Button.Pressed, "#undo")
    def action_undo(self) -> None:
        try:
            self.sheet, said = self.sheets.change(self.sheet_id, lambda s: s.undo())
        except (SheetError, StoreError) as exc:
            self.say(f"Not done: {exc}", error=True)
            return
        self.after_change(f"{said[:1].upper()}{said[1:]}.")

    @on(Button.Pressed, "#finish")
    def action_finish(self) -> None:
        self.change(lambda s: s.finish(), "The match is finished on the totals so far; ctrl+z undoes it.")

    def change(self, make: Callable[[Sheet], object], said: str) -> None:
        """Make a change and say ``said``, or what the change itself says where ``said`` is empty."""
        try:
            self.sheet, told = self.sheets.change(self.sheet_id, make)
        except (SheetError, StoreError) as exc:
            self.say(f"Not done: {exc}", error=True)
            return
        self.after_change(said or f"{str(told)[:1].upper()}{str(told)[1:]}.")

    def after_change(self, said: str) -> None:
        self.refresh_sheet()
        self.reset_form()
        self.query_one("#last", Static).update("")
        self.say(said)

    def action_back(self) -> None:
        if self.editing is not None:
            self.reset_form()
            self.say("Edit cancelled.")
            return
        self.post_message(self.Leave())


def _left_text(value: Left | None) -> str:
    """A player's entry as the form shows it: points, or cards (``8H KS``); empty where nothing was entered."""
    if value is None:
        return ""
    if isinstance(value, int):
        return str(value)
    return " ".join(str(card) for card in value) if value else "0"
