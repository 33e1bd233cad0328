"""`eights play --plain` (eights.tui.plain): a match played through standard input and output, a refused
move explained, hot-seat handovers, and lines cut to the terminal's width."""

from __future__ import annotations

import io
import os
import select
import threading
import time

import pytest
from typer.testing import CliRunner

from eights.cards import Card
from eights.cli import app
from eights.rules import load_preset
from eights.table.session import HUMAN, PlayConfig, Session
from eights.tui.plain import MIN_WIDTH, PlainGame, line_width, run_plain, wrapped
from tests.support.scripting import scripted


def test_plain_plays_a_whole_game_from_standard_input():
    result = CliRunner().invoke(
        app,
        ["play", "--plain", "--variant", "derange", "-o", "rounds=2,1", "--players", "3", "--seed", "7"],
        input="1\n" * 400,
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Moves:" in out and "  1. " in out
    assert "Round 1 over" in out and "Round 2 of 2: " in out and " deals 1 card each." in out
    assert "Game over:" in out and "Final totals after 2 rounds (lowest wins):" in out
    assert "Bram (normal)" in out


def test_plain_end_of_input_leaves_cleanly():
    result = CliRunner().invoke(app, ["play", "--plain", "--variant", "classic", "--seed", "1"], input="")
    assert result.exit_code == 0
    assert "End of input." in result.stdout and "Goodbye" in result.stdout


def test_plain_explains_a_refused_move_and_accepts_card_and_suit_texts():
    game = scripted("classic", hands=["8H 2C 3C 4C 5C", "9D 9S 9H 10S KD"], starter="7S", stock="KS QH JH", dealer=1)
    session = Session(PlayConfig(game.rules, (HUMAN, "easy"), seed=0), game)
    out = io.StringIO()
    run_plain(session, io.StringIO("9Z\n2C\n8H\nsuit S\nquit\n"), out)
    text = out.getvalue()
    assert "Not allowed: '9Z' is not an action" in text
    assert "Not allowed: 2C does not match" in text
    assert "You play 8♥ — an 8 is wild" in text and "You name spades ♠." in text
    assert game.hands[0] == [Card("2C"), Card("3C"), Card("4C"), Card("5C")]


def test_plain_plays_a_saved_house_rules_file(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text(load_preset("classic").with_options(["deal=3"]).to_toml(), encoding="utf-8")
    result = CliRunner().invoke(
        app, ["play", "--plain", "--rules", str(path), "--players", "2", "--seed", "2"], input="1\n" * 200
    )
    assert result.exit_code == 0, result.output
    assert "Round 1, 3 cards each" in result.stdout and "Game over:" in result.stdout


def test_plain_rules_hint_and_quit_commands():
    result = CliRunner().invoke(
        app, ["play", "--plain", "--variant", "race", "--players", "2", "--seed", "5"], input="?\nhint\nquit\n"
    )
    assert result.exit_code == 0
    out = result.stdout
    assert "Special cards" in out and "Hint: " in out and "Goodbye" in out


def test_plain_hot_seat_calls_each_person_by_name():
    result = CliRunner().invoke(
        app, ["play", "--plain", "--variant", "classic", "--humans", "2", "--seed", "8"], input="\n1\n" * 6
    )
    assert result.exit_code == 0
    assert "=== Player 1, your turn (others, look away) ===" in result.stdout
    assert "=== Player 2, your turn (others, look away) ===" in result.stdout


def test_plain_hot_seat_shows_a_hand_only_after_an_empty_line():
    # Seed 8: Player 1 plays 5H, then the device passes to Player 2, whose hand holds the 7 of hearts.
    typed_ahead = "\n1\n1\n2\n\n1\nquit\n"
    result = CliRunner().invoke(
        app, ["play", "--plain", "--variant", "classic", "--humans", "2", "--seed", "8"], input=typed_ahead
    )
    assert result.exit_code == 0
    out = result.stdout
    handover = out.index("=== Player 2, your turn (others, look away) ===")
    after = out[handover:]
    assert after.count("Waiting for Player 2: press Enter alone to show your hand.") == 2  # the "1" and the "2"
    assert after.index("Waiting for Player 2") < after.index("Your hand (5 cards): 8♣ 7♥ 9♥ J♥ K♠")
    assert "Player 2 plays 7♥." in after


def test_plain_hot_seat_quit_at_the_handover_leaves_the_game():
    result = CliRunner().invoke(
        app, ["play", "--plain", "--variant", "classic", "--humans", "2", "--seed", "8"], input="\n1\nquit\n"
    )
    assert result.exit_code == 0
    after = result.stdout[result.stdout.index("=== Player 2, your turn (others, look away) ===") :]
    assert "Goodbye: the match is saved (match 1 in " in after
    assert "Waiting for Player 2" not in after and "Your hand" not in after


def test_plain_hot_seat_drops_what_was_typed_at_a_terminal_before_the_handover():
    pty = pytest.importorskip("pty")
    pytest.importorskip("termios")
    master, slave = pty.openpty()
    with os.fdopen(master, "wb", buffering=0) as keys, os.fdopen(slave, "r", encoding="utf-8") as inp:
        out = io.StringIO()
        session = Session(PlayConfig(load_preset("classic"), (HUMAN, HUMAN), seed=0))
        plain = PlainGame(session, inp, out)
        keys.write(b"7H\n\n")  # typed while the computers played: a move, then Enter to hurry them along
        assert select.select([inp], [], [], 5)[0]  # the terminal holds those lines
        answers: list[bool] = []
        person = threading.Thread(target=lambda: answers.append(plain.handed_over("Player 2")), daemon=True)
        person.start()
        for _ in range(500):
            if "press Enter when" in out.getvalue():
                break
            time.sleep(0.01)
        keys.write(b"\n")  # Player 2, after the question
        person.join(5)
        assert answers == [True]
        assert "Waiting for Player 2" not in out.getvalue()  # the "7H" was dropped, not read


def test_plain_watch_with_no_people_runs_to_the_result():
    result = CliRunner().invoke(
        app, ["play", "--plain", "--variant", "classic", "--humans", "0", "--players", "2", "--seed", "4"]
    )
    assert result.exit_code == 0
    assert "Game over:" in result.stdout and "Moves:" not in result.stdout


def test_long_error_lines_in_plain_mode_are_wrapped():
    """Plain mode cuts every line at spaces to the terminal's width (COLUMNS here), later lines indented:
    a refused move's long explanation, the rules, the moves, the table all fit."""
    result = CliRunner().invoke(
        app,
        ["play", "--plain", "--variant", "derange", "--seed", "3"],
        input="play 2C 3C 4C 5C 6C 7C\n?\nquit\ny\n",
        env={"COLUMNS": "50"},
    )
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    too_wide = [line for line in lines if len(line) > 50]
    assert all(" " not in line.strip() for line in too_wide), "only a word wider than the screen (a path) sticks out"
    assert len([line for line in lines if len(line) > 40]) > 10, "lines are cut near the width, not short"
    refusal = next(i for i, line in enumerate(lines) if line.startswith("Not allowed:"))
    assert lines[refusal + 1].startswith("  "), "the refusal goes on, indented, on the next line"
    joined = " ".join(line.strip() for line in lines)
    assert "Leave the match?" in joined and "eights play --resume" in joined


def test_plain_lines_are_cut_at_spaces_and_keep_their_indent():
    text = "  3. play 8♥ and name a suit, which every other player must then follow  [8H]"
    cut = wrapped(text, 40)
    assert all(len(line) <= 40 for line in cut) and len(cut) > 1
    assert cut[0].startswith("  3.") and all(line.startswith("    ") for line in cut[1:])
    assert " ".join(line.strip() for line in cut) == " ".join(text.split())
    assert wrapped("short", 40) == ["short"]
    assert wrapped(text, None) == [text], "into a pipe a sentence stays on one line"


def test_plain_lines_into_a_pipe_are_not_cut_unless_columns_is_set(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    assert line_width(io.StringIO()) is None
    monkeypatch.setenv("COLUMNS", "20")
    assert line_width(io.StringIO()) == MIN_WIDTH
    monkeypatch.setenv("COLUMNS", "120")
    assert line_width(io.StringIO()) == 120
