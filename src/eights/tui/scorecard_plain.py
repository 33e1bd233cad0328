"""``eights scorecard --plain``: the score sheet as plain lines of text, entries read from standard input.

For screen readers and pipes: no colour, no cursor movement, one sentence per line. It starts a sheet
(or takes one up), then asks round by round who went out and each other player's cards or points,
and prints the round's points card by card and the running totals. Every change is saved as it is
made; ``undo``, ``edit N``, ``delete N``, ``finish``, ``show`` and ``quit`` work at the round's first
question. The end of the input leaves the sheet saved as it stands.
"""

from __future__ import annotations

import random
from typing import TextIO

from eights.rules import PRESETS, RulesError, resolve_rules
from eights.rules.describe import rules_headline
from eights.scorecard import (
    LeftInput,
    RoundResult,
    Sheet,
    SheetError,
    left_from_text,
    next_words,
    read_hand,
    scored_words,
    standings_words,
    to_text,
)
from eights.scorecard.sheet import describe_entry
from eights.store import StoreError
from eights.store.sheets import Sheets
from eights.tui.plain import line_width, write_wrapped
from eights.words import and_list

QUIT = ("quit", "exit", "q")
HELP = (
    "At 'Who went out?': a player's name, or blocked when no one went out; then each other player's cards "
    "left (like 8H 2C) or their points (a number). Also: undo, edit N (enter round N again), delete N, "
    "finish (end the match now), show (the whole sheet), new (another sheet), quit."
)


class EndOfInput(Exception):
    """The input ended (or the person quit): the sheet stays saved as it is."""


class PlainSheet:
    """The plain-text loop over the saved sheets of a store."""

    def __init__(self, sheets: Sheets, inp: TextIO, out: TextIO, width: int | None = None) -> None:
        self.sheets = sheets
        self.inp = inp
        self.out = out
        self.width = width or line_width(out)

    # ----- lines in and out --------------------------------------------------------------------------------

    def say(self, line: str = "") -> None:
        write_wrapped(self.out, line, self.width)

    def ask(self, question: str) -> str:
        """One line of input, stripped. :raises EndOfInput: at the end of the input."""
        self.say(question)
        line = self.inp.readline()
        if not line:
            raise EndOfInput
        return line.strip()

    def refused(self, exc: Exception) -> None:
        self.say(f"Refused: {exc}. The sheet is unchanged.")

    # ----- the whole run -----------------------------------------------------------------------------------

    def run(self, sheet_id: int | None = None) -> int:
        """Open sheet ``sheet_id`` (or choose or start one), then enter rounds until the input ends. Returns 0."""
        current: int | None = sheet_id
        try:
            while True:
                if current is None:
                    current = self.choose()
                current = self.keep(current)
        except EndOfInput:
            if current is not None:
                self.say(
                    f"Goodbye: score sheet {current} is saved; "
                    f"take it up again with `eights scorecard --sheet {current}`."
                )
            else:
                self.say("Goodbye.")
        return 0

    def choose(self) -> int:
        """A sheet to go on with, or a new one."""
        going = self.sheets.list(limit=9, unfinished=True)
        if not going:
            return self.new_sheet()
        self.say("Score sheets not finished:")
        for summary in going:
            self.say(f"  {summary.id}: {summary.rules_text} with {', '.join(summary.names)}; {summary.state_text}")
        while True:
            answer = self.ask("Type a sheet's number to go on with it, or new for a new sheet (quit to leave):")
            if answer.lower() in QUIT:
                raise EndOfInput
            if answer.lower() in ("new", "n", ""):
                return self.new_sheet()
            if answer.isascii() and answer.isdigit():
                try:
                    self.sheets.get(int(answer))
                except StoreError as exc:
                    self.say(f"Refused: {exc}")
                    continue
                return int(answer)
            self.say(
                f"{answer!r} is not a choice: give one of the numbers {', '.join(str(s.id) for s in going)}, or new"
            )

    def new_sheet(self) -> int:
        """Ask for the rules, the players and the first dealer; save the new sheet and return its number."""
        self.say("A new score sheet.")
        while True:
            answer = self.ask(
                f"Rules: a preset ({', '.join(PRESETS)}), and any options after it "
                "(like: derange short_rounds=true) [classic]:"
            )
            if answer.lower() in QUIT:
                raise EndOfInput
            words = answer.split()
            try:
                rules = resolve_rules(words[0].lower() if words else None, None, words[1:] or None)
            except RulesError as exc:
                self.say(f"Refused: {exc}")
                continue
            break
        last = self.sheets.last_players()
        default = f" [{', '.join(last)}]" if last else ""
        while True:
            answer = self.ask(f"Players in seat order, clockwise, separated by commas{default}:")
            if answer.lower() in QUIT:
                raise EndOfInput
            names = answer.split(",") if answer else list(last)
            try:  # the players are checked before the dealer is asked for
                sheet = Sheet.new(rules, names, rng=random.Random())
            except SheetError as exc:
                self.say(f"Refused: {exc}")
                continue
            break
        while True:
            dealer = self.ask("Who deals first? (a name; Enter to draw one at random)")
            if dealer.lower() in QUIT:
                raise EndOfInput
            if not dealer:
                break
            try:
                sheet = Sheet.new(rules, list(sheet.players), dealer=dealer)
            except SheetError as exc:
                self.say(f"Refused: {exc}")
                continue
            break
        sheet_id = self.sheets.new(sheet)
        self.say(f"Score sheet {sheet_id}: {rules_headline(rules)}.")
        self.say(f"Players, clockwise: {and_list(list(sheet.players))}. {sheet.describe_scoring().capitalize()}.")
        self.say(HELP)
        return sheet_id

    # ----- one sheet ---------------------------------------------------------------------------------------

    def keep(self, sheet_id: int) -> int | None:
        """Enter rounds and changes on sheet ``sheet_id``; None when a new sheet is asked for."""
        sheet = self.sheets.get(sheet_id)
        self.say(next_words(sheet))
        while True:
            if sheet.over:
                question = "The match is over: undo, edit N, delete N, show, new or quit?"
            else:
                question = f"Round {sheet.next_round}: who went out? (a name, or blocked; help for more)"
            answer = self.ask(question)
            command, _, rest = answer.partition(" ")
            command = command.lower()
            try:
                if command in QUIT:
                    raise EndOfInput
                if command in ("help", "?"):
                    self.say(HELP)
                elif command == "show":
                    self.say(f"Score sheet {sheet_id}: " + to_text(sheet).rstrip())
                elif command == "new":
                    return None
                elif command == "undo":
                    sheet, said = self.sheets.change(sheet_id, lambda s: s.undo())
                    self.say(f"{said[:1].upper()}{said[1:]}. {standings_words(sheet)}")
                    self.say(next_words(sheet))
                elif command == "finish":
                    sheet, _ = self.sheets.change(sheet_id, lambda s: s.finish())
                    self.say(standings_words(sheet))
                    self.say(next_words(sheet))
                elif command in ("edit", "delete"):
                    sheet = self.past_round(sheet_id, sheet, command, rest.strip())
                elif not answer:
                    self.say(next_words(sheet))
                elif sheet.over:
                    self.say(f"{answer!r} is not a choice here: undo, edit N, delete N, show, new or quit")
                else:
                    sheet = self.enter(sheet_id, sheet, answer)
            except (SheetError, StoreError) as exc:
                self.refused(exc)

    def past_round(self, sheet_id: int, sheet: Sheet, command: str, number_text: str) -> Sheet:
        if not (number_text.isascii() and number_text.isdigit()):
            count = len(sheet.rounds)
            valid = "no round has been entered yet" if not count else f"the rounds entered are 1-{count}"
            raise SheetError(f"{command} needs a round's number, like {command} 2; {valid}")
        number = int(number_text)
        if command == "delete":
            shown = describe_entry(sheet, sheet.result(number))  # a round that does not exist is refused here
            if self.ask(f"Delete {shown}? Type y to delete it, anything else to keep it:").lower() not in ("y", "yes"):
                self.say(f"Round {number} is kept.")
                return sheet
            sheet, said = self.sheets.change(sheet_id, lambda s: s.delete_round(number))
            self.say(f"{said[:1].upper()}{said[1:]}. {standings_words(sheet)}")
            self.say(next_words(sheet))
            return sheet
        sheet.result(number)  # a round that does not exist is refused before any question
        answer = self.ask(f"Round {number} again: who went out? (a name, or blocked)")
        out, left = self.read_hands(sheet, answer)
        sheet, result = self.sheets.change(sheet_id, lambda s: s.edit_round(number, out, left))
        self.tell_round(sheet, result, "Changed round")
        return sheet

    def enter(self, sheet_id: int, sheet: Sheet, answer: str) -> Sheet:
        out, left = self.read_hands(sheet, answer)
        sheet, result = self.sheets.change(sheet_id, lambda s: s.add_round(out, left))
        self.tell_round(sheet, result, "Round")
        return sheet

    def read_hands(self, sheet: Sheet, answer: str) -> tuple[str | None, dict[str, LeftInput]]:
        """Who went out (from ``answer``), then each other player's cards or points, asked one by one."""
        out = None if answer.lower() == "blocked" else sheet.players[sheet.setup.seat(answer, "went out")]
        left: dict[str, LeftInput] = {}
        for name in sheet.players:
            if name == out:
                continue
            optional = not sheet.keeps_points and out is not None
            while True:
                if sheet.keeps_points:
                    text = self.ask(f"{name}: cards left (like 8H 2C) or points (0 for none):")
                else:
                    text = self.ask(f"{name}: cards left (like 8H 2C{'; Enter to leave out' if optional else ''}):")
                if text.lower() in QUIT:
                    raise EndOfInput
                if not text:
                    if optional:
                        break
                    self.say(f"Give {name}'s cards left or their points: 0 when they had no cards left.")
                    continue
                hand = left_from_text(text)
                try:  # each hand is checked as it is typed, so a typo asks for that hand alone again
                    read_hand(sheet.setup, name, hand)
                except SheetError as exc:
                    self.say(f"Refused: {exc}. Type {name}'s hand again.")
                    continue
                left[name] = hand
                break
        return out, left

    def tell_round(self, sheet: Sheet, result: RoundResult, head: str) -> None:
        players = sheet.players
        how = "blocked (no one went out)" if result.out is None else f"{players[result.out]} went out"
        cards = "card" if result.hand_size == 1 else "cards"
        self.say(f"{head} {result.number} ({players[result.dealer]} dealt {result.hand_size} {cards}): {how}.")
        for seat, name in enumerate(players):
            left = sheet.breakdown_text(result.number, name, pretty=True)
            self.say(f"  {name}: {left}; {scored_words(sheet, result, seat)}.")
        self.say(standings_words(sheet))
        self.say(next_words(sheet))


def run_plain_sheet(sheets: Sheets, inp: TextIO, out: TextIO, sheet_id: int | None = None) -> int:
    """The score sheet in plain text; returns the exit status."""
    return PlainSheet(sheets, inp, out).run(sheet_id)
