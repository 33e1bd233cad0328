"""Whose turn it is at a table, and a computer's move at the table's pace: the one turn driver of every front
end. The plain-text mode drives it in a loop, the full-screen game between its screens and threads, the web
table's rooms in their runners; each asks ``next_turn`` what happens next and ``computer_move`` for a
computer's move, so that none decides by itself who plays or how long a computer takes."""

from __future__ import annotations

import time
from collections.abc import Callable, Container
from dataclasses import dataclass

from eights.bots import Bot, ISMCTSBot
from eights.engine import Action, View
from eights.table.session import Session


@dataclass(frozen=True, slots=True)
class Turn:
    """The turn at a table now: the seat to act, and whether a person plays it."""

    seat: int
    person: bool


def next_turn(session: Session, people: Container[int] | None = None) -> Turn | None:
    """The turn at ``session``'s table now, or None once the match is over. ``people``: the seats people play
    now (by default the table's people; the web table leaves out a person a computer stands in for)."""
    game = session.game
    if game.is_over:
        return None
    seat = game.to_act
    return Turn(seat, seat in people if people is not None else session.is_human(seat))


def think_time(bot: Bot) -> float:
    """Seconds a computer of this kind takes on every move, whatever the position: its search's time budget."""
    return float(bot.seconds or 0.0) if isinstance(bot, ISMCTSBot) else 0.0


def pause_left(bot: Bot, pace: float, started: float, now: float, hide_thinking: bool = False) -> float:
    """Seconds still to wait before a computer's move found between ``started`` and ``now`` is played, so that
    it comes at the table's pace. ``hide_thinking`` (a table strangers watch): every move takes the pace and
    the computer's whole think time, however quickly it was found, so that how long a move took does not tell
    whether the computer had a choice."""
    return max(0.0, pace + (think_time(bot) if hide_thinking else 0.0) - (now - started))


def _sleep(seconds: float) -> bool:
    time.sleep(seconds)
    return False


def computer_move(
    bot: Bot,
    view: View,
    pace: float,
    wait: Callable[[float], bool] = _sleep,
    clock: Callable[[], float] = time.monotonic,
) -> Action | None:
    """A computer's move on ``view`` (its own seat's), played at the table's pace (``pause_left``): ``wait``
    waits that long, and says whether the table was left meanwhile (then None: the move is not played)."""
    started = clock()
    action = bot.choose(view)
    rest = pause_left(bot, pace, started, clock())
    if rest > 0 and wait(rest):
        return None
    return action
