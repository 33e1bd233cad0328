"""`eights play` (eights.cli.play): its bad input refused in one line, exit status 2. The games it starts are
tested beside the terminal game (tests/tui)."""

from __future__ import annotations

from typer.testing import CliRunner

from eights.cli import app


def test_play_command_refuses_bad_input_with_one_line_and_status_2():
    runner = CliRunner()
    result = runner.invoke(app, ["play", "--plain", "--bots", "wizard"])
    assert result.exit_code == 2
    assert "wizard" in result.stderr and "easy, normal, learned, hard, expert" in result.stderr
    result = runner.invoke(app, ["play", "--plain", "--variant", "poker"])
    assert result.exit_code == 2 and "unknown preset" in result.stderr
    result = runner.invoke(app, ["play", "--plain", "--players", "3", "--bots", "easy,hard,expert"])
    assert result.exit_code == 2 and "3 levels given for 2 computer seats" in result.stderr
