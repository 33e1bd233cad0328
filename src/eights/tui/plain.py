"""``eights play --plain``: the game as plain lines of text, moves read from standard input.

For screen readers and pipes: no colour, no cursor movement, one sentence per line.
At each of a person's turns it prints the table, their hand and the legal moves,
numbered; a move is a number or an action's text (``8H``, ``draw``, ``pass``,
``suit H``, ``choose 2``, ``bury 7C``). Computer moves and every event are printed
as words. At a terminal (or with ``COLUMNS`` set) long lines are cut at spaces to its
width; into a pipe each sentence stays on one line. The end of the input leaves the game cleanly.
"""

from __future__ import annotations

import os
import shutil
import textwrap
from collections.abc import Sequence
from typing import TextIO

from eights.engine import ActionError, Event, IllegalAction
from eights.rules.describe import describe_text
from eights.table.lines import Line
from eights.table.narrator import Narrator
from eights.table.phrases import action_words, result_lines
from eights.table.prompts import parse_move, prompt_words, state_lines
from eights.table.saved import kept_words
from eights.table.session import Session
from eights.table.turns import next_turn

#: What a person types to leave the game.
QUIT = ("quit", "exit", "q")
HELP = "Type a move's number or its text (8H, draw, pass, suit H, choose 2, bury 7C); ? for the rules, hint, quit."


#: The narrowest width lines are cut to.
MIN_WIDTH = 40


def line_width(out: TextIO) -> int | None:
    """The width to cut lines to: the terminal's when ``out`` is one, else ``COLUMNS`` when set (at least
    ``MIN_WIDTH``); None (never cut) for a pipe or a file."""
    try:
        at_terminal = out.isatty()
    except ValueError:  # a closed stream
        at_terminal = False
    if not at_terminal and not os.environ.get("COLUMNS", "").isdigit():
        return None
    return max(MIN_WIDTH, shutil.get_terminal_size().columns)


def wrapped(line: str, width: int | None) -> list[str]:
    """``line`` cut at spaces into lines of at most ``width`` columns, the later ones indented two
    columns more than the first (a word longer than the width is left whole); None: not cut."""
    if width is None or len(line) <= width:
        return [line]
    indent = line[: len(line) - len(line.lstrip())]
    return textwrap.wrap(
        line,
        width,
        subsequent_indent=indent + "  ",
        break_long_words=False,
        break_on_hyphens=False,
    )


def write_wrapped(out: TextIO, text: str, width: int | None) -> None:
    """Write ``text`` (one line or several) to ``out``, each line cut to ``width`` columns."""
    for line in text.split("\n"):
        for cut in wrapped(line, width) or [""]:
            out.write(cut + "\n")
    out.flush()


class PlainGame:
    """The plain-text loop over one session; lines are cut to ``width`` columns (by default the
    terminal's, see ``line_width``)."""

    def __init__(self, session: Session, inp: TextIO, out: TextIO, width: int | None = None) -> None:
        self.session = session
        self.inp = inp
        self.out = out
        self.width = width or line_width(out)
        humans = session.humans
        #: Whose hidden cards the narration may show: the lone person's (in hot-seat, no one's).
        self.viewer = humans[0] if len(humans) == 1 else None
        self.last_human: int | None = None
        #: The narration: groups repeats and explains each rule the first time it acts.
        self.narrator = Narrator(session.rules, session.names, self.viewer)
        self._blank = True

    def say(self, line: str = "") -> None:
        if not line and self._blank:
            return  # one blank line at a time
        self._blank = not line
        write_wrapped(self.out, line, self.width)

    def tell(self, lines: Sequence[Line]) -> None:
        for line in lines:
            if line.kind != "game_over":  # the result follows
                self.say(line.text)

    def narrate(self, events: Sequence[Event]) -> None:
        """What happened, as the narration's complete lines (the last may wait for more)."""
        self.tell(self.narrator.feed(events))

    def flush(self) -> None:
        """Everything that happened, before a person is asked to move or the game ends."""
        self.tell(self.narrator.flush())

    def run(self) -> int:
        """Play to the end, or until the input ends or the person quits. Returns the exit status (0)."""
        session = self.session
        game = session.game
        rules = session.rules
        people = len(session.humans)
        self.say(f"{rules.title} ({rules.name}): {game.players} players, seed {game.seed}.")
        self.say("Seats: " + "; ".join(f"{seat} {session.label(seat)}" for seat in range(game.players)) + ".")
        if people:
            self.say(HELP)
        self.narrate(game.log or [])
        while (turn := next_turn(session)) is not None:
            if not turn.person:
                self.narrate(session.bot_move())
                continue
            self.flush()
            if not self.turn(turn.seat):
                self.say(f"Goodbye: {self.saved_words()}")
                return 0
        self.flush()
        self.say()
        for line in result_lines(session):
            self.say(line)
        return 0

    def saved_words(self) -> str:
        """Whether the match is kept, and how to take it up again."""
        return kept_words(self.session)

    def leaving(self) -> bool:
        """``quit`` was typed: ask first. True to leave (also when the input ends)."""
        self.say(f"Leave the match? {self.saved_words()[0].upper()}{self.saved_words()[1:]}")
        self.say("Type y to leave, or anything else to keep playing.")
        line = self.inp.readline()
        if not line:
            return True
        return line.strip().lower() in ("y", "yes")

    def handed_over(self, name: str) -> bool:
        """Hot-seat: wait for an empty line before showing ``name``'s hand, so that a move the last
        person typed ahead is not taken as the next person's go-ahead; at a terminal, what was typed
        before this question (an Enter pressed while the computers played) is dropped unread.
        False when the input ended or someone quit."""
        drop_typeahead(self.inp)
        self.say(f"{name}: press Enter when the others cannot see the screen (or type quit).")
        while True:
            line = self.inp.readline()
            if not line:
                self.say("End of input.")
                return False
            command = line.strip().lower()
            if not command:
                return True
            if command in QUIT:
                if self.leaving():
                    return False
                continue
            self.say(f"Waiting for {name}: press Enter alone to show your hand.")

    def turn(self, seat: int) -> bool:
        """One action of the person at ``seat``; False when the input ended or they quit."""
        session = self.session
        names = session.names
        if len(session.humans) > 1 and seat != self.last_human:
            self.say()
            self.say(f"=== {names[seat]}, your turn (others, look away) ===")
            if not self.handed_over(names[seat]):
                return False
        self.last_human = seat
        shown = False
        while True:
            view = session.view(seat)
            if not shown:
                self.say()
                for line in state_lines(session, view):
                    self.say(line)
                self.say("Moves:")
                for number, action in enumerate(view.legal, 1):
                    self.say(f"  {number}. {action_words(action, view, names)}  [{action}]")
                shown = True
            self.say(prompt_words(view, names, keys=False))
            self.say(f"{names[seat]}, your move:")
            line = self.inp.readline()
            if not line:
                self.say("End of input.")
                return False
            text = line.strip()
            command = text.lower()
            if command in QUIT:
                if self.leaving():
                    return False
                shown = False
                continue
            if command in ("", "look", "state"):
                shown = False
                continue
            if command in ("?", "help", "rules"):
                self.say(describe_text(session.rules).rstrip())
                self.say(HELP)
                continue
            if command in ("hint", "h"):
                self.say(self.narrator.hint_words(session.hint(seat), view))
                continue
            try:
                action = parse_move(text, view.legal)
                events = session.play(action, seat)
            except (ActionError, IllegalAction) as exc:
                self.say(f"Not allowed: {exc}")
                continue
            self.narrate(events)
            return True


def drop_typeahead(inp: TextIO) -> None:
    """Discard what was typed at a terminal and not yet read; a file or a pipe keeps its lines."""
    try:
        if not inp.isatty():
            return
        import termios

        termios.tcflush(inp.fileno(), termios.TCIFLUSH)
    except (ImportError, OSError, ValueError):
        pass  # no terminal control here (Windows, a stream without a descriptor): nothing to drop


def run_plain(session: Session, inp: TextIO, out: TextIO) -> int:
    """Play ``session`` in plain text; returns the exit status."""
    return PlainGame(session, inp, out).run()
