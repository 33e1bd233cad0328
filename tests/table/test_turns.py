"""The one turn driver (eights.table.turns): who plays now, and a computer's move at the table's pace."""

from __future__ import annotations

import pytest

from eights.bots import make_bot
from eights.table import Session, build_config
from eights.table.turns import Turn, computer_move, next_turn, pause_left


def test_the_turn_is_the_seat_to_act_played_by_a_person_or_a_computer() -> None:
    session = Session(build_config("classic", players=3, bots="easy", humans=1, seed=2))
    seat = session.game.to_act
    assert next_turn(session) == Turn(seat, seat == 0)
    # a person a computer stands in for (the web table's away person) plays as a computer
    assert next_turn(session, people=()) == Turn(seat, False)
    while not session.game.is_over:
        session.bot_move() if not session.is_human(session.game.to_act) else session.play(session.view(0).legal[0], 0)
    assert next_turn(session) is None


def test_a_computers_move_comes_at_the_tables_pace_and_hides_its_thinking_only_when_asked() -> None:
    hard = make_bot("hard", 1)  # 0.2 s of search a move
    easy = make_bot("easy", 1)
    assert pause_left(easy, 0.7, started=10.0, now=10.1) == pytest.approx(0.6)
    assert pause_left(hard, 0.7, started=10.0, now=10.1) == pytest.approx(0.6)  # a quick move shows quickly
    assert pause_left(hard, 0.7, started=10.0, now=10.1, hide_thinking=True) == pytest.approx(0.8)
    assert pause_left(easy, 0.7, started=10.0, now=11.5) == 0.0


def test_a_computer_move_is_not_played_when_the_table_was_left_during_its_pause() -> None:
    session = Session(build_config("classic", players=2, bots="easy", humans=0, seed=3))
    seat = session.game.to_act
    waited: list[float] = []
    clock = iter([0.0, 0.0]).__next__
    move = computer_move(
        session.bots[seat], session.view(seat), 0.5, wait=lambda s: waited.append(s) or True, clock=clock
    )
    assert move is None and waited == [0.5]
    clock = iter([0.0, 0.0]).__next__
    move = computer_move(session.bots[seat], session.view(seat), 0.5, wait=lambda s: False, clock=clock)
    assert move in session.view(seat).legal
