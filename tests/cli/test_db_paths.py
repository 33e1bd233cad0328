"""Where the match store lives, as a newcomer mistypes it (issue 29, items 5 and 6): a reading command
creates nothing and says there is no database there; a folder given as the database is named a folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from eights.cli import app

runner = CliRunner()

READING = [
    ["history"],
    ["history", "show", "1"],
    ["stats"],
    ["stats", "--json"],
    ["scorecard", "list"],
    ["scorecard", "show", "1"],
    ["scorecard", "stats"],
    ["scorecard", "export", "1", "--csv", "-"],
    ["scorecard", "round", "1", "--blocked"],
    ["scorecard", "finish", "1"],
]


def one_line(args: list[str], env: dict[str, str] | None = None) -> str:
    result = runner.invoke(app, args, env=env)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("eights: error: "), result.stderr
    return lines[0]


@pytest.mark.parametrize("args", READING, ids=" ".join)
def test_a_reading_command_at_a_mistyped_path_creates_nothing_and_says_so(tmp_path: Path, args: list[str]) -> None:
    missing = tmp_path / "typo" / "deeper" / "eights.db"
    line = one_line([*args, "--db", str(missing)])
    assert f"there is no database at {missing}" in line
    assert not (tmp_path / "typo").exists()


def test_the_standing_database_not_made_yet_reads_as_empty_and_stays_unmade(tmp_path: Path) -> None:
    standing = tmp_path / "later" / "eights.db"
    result = runner.invoke(app, ["history"], env={"EIGHTS_DATABASE_URL": str(standing)})
    assert result.exit_code == 0 and "No saved matches yet" in result.stdout
    assert not (tmp_path / "later").exists()


def test_reading_the_default_database_before_any_match_creates_nothing(tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = {"HOME": str(home), "XDG_DATA_HOME": str(home / "data"), "EIGHTS_DATABASE_URL": ""}
    result = runner.invoke(app, ["history"], env=env)
    assert result.exit_code == 0 and "No saved matches yet" in result.stdout
    result = runner.invoke(app, ["stats", "--json"], env=env)
    assert result.exit_code == 0, result.output
    assert not home.exists()


@pytest.mark.parametrize("args", [["history"], ["stats"], ["scorecard", "list"], ["history", "--json"]], ids=" ".join)
def test_a_database_not_made_yet_is_called_by_its_file_not_an_internal_word(tmp_path: Path, args: list[str]) -> None:
    """Issue 40, item 10: on a fresh machine the empty store said "No saved matches yet in :memory:"."""
    home = tmp_path / "home"
    env = {"HOME": str(home), "XDG_DATA_HOME": str(home / "data"), "EIGHTS_DATABASE_URL": ""}
    result = runner.invoke(app, args, env=env)
    assert result.exit_code == 0, result.output
    assert str(home / "data" / "eights" / "eights.db") in result.stdout, result.stdout
    assert "memory" not in result.stdout
    assert not home.exists()


def test_a_writing_command_makes_the_database_and_its_folder(tmp_path: Path) -> None:
    target = tmp_path / "new" / "score.db"
    result = runner.invoke(app, ["scorecard", "new", "--variant", "race", "--players", "Ann,Bob", "--db", str(target)])
    assert result.exit_code == 0, result.output
    assert target.exists()
    assert runner.invoke(app, ["scorecard", "list", "--db", str(target)]).exit_code == 0


@pytest.mark.parametrize("args", [["history"], ["scorecard", "new", "--variant", "race", "--players", "Ann,Bob"]])
def test_a_folder_given_as_the_database_is_called_a_folder(tmp_path: Path, args: list[str]) -> None:
    line = one_line([*args, "--db", str(tmp_path)])
    assert f"the database {tmp_path} is a folder, not a file" in line
    assert f"--db {tmp_path / 'eights.db'}" in line


def test_resume_takes_up_any_unfinished_match_by_its_number(tmp_path: Path) -> None:
    """Issue 29, item 7: only the newest unfinished match could be taken up, though history lists several."""
    db = str(tmp_path / "two.db")
    for variant, seed in (("classic", "1"), ("race", "2")):
        result = runner.invoke(
            app, ["play", "--plain", "--variant", variant, "--seed", seed, "--db", db], input="1\nquit\ny\n"
        )
        assert result.exit_code == 0, result.output
    listed = runner.invoke(app, ["history", "--db", db], env={"COLUMNS": "200"}).stdout
    assert "eights play --resume ID" in listed
    first = runner.invoke(app, ["play", "--plain", "--resume", "1", "--db", db], input="quit\ny\n")
    said = first.stdout.splitlines()
    assert first.exit_code == 0 and said[0].startswith("Taking up match 1 in "), first.output
    assert said[1].startswith("Classic Crazy Eights (classic)"), first.output
    last = runner.invoke(app, ["play", "--plain", "--resume", "--db", db], input="quit\ny\n")
    assert last.exit_code == 0 and last.stdout.splitlines()[1].startswith("Race"), last.output
    assert "there is no match 9" in one_line(["play", "--plain", "--resume", "9", "--db", db])
    assert "give a match's number" in one_line(["play", "--plain", "--resume", "x", "--db", db])
    assert "goes with --resume" in one_line(["play", "--plain", "2", "--db", db])
