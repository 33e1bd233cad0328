"""Tables at 80 columns, as in any pipe (issue 29, item 14): no word cut short with an ellipsis, every line
within 80 columns, and counts in words that agree."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from typer.testing import CliRunner

from eights.cli import app
from eights.store.matches import MatchSummary

runner = CliRunner()
NARROW = {"COLUMNS": "80"}


def ok(*args: str, given: str | None = None) -> str:
    result = runner.invoke(app, list(args), input=given, env=NARROW)
    assert result.exit_code == 0, result.output
    return result.stdout


def fits(text: str) -> None:
    """No word cut, and the table's rows (they start with its padding) within 80 columns; the lines of
    prose below a table are not wrapped in a pipe, on purpose."""
    assert "…" not in text, text
    assert all(len(line) <= 80 for line in text.splitlines() if line.startswith(" ")), text


def test_stats_history_and_the_sheets_fit_80_columns_without_cutting_a_word(tmp_path: Path) -> None:
    db = str(tmp_path / "narrow.db")
    for seed in ("1", "2"):
        bots = "easy,normal,hard@20,easy"
        ok("play", "--plain", "--variant", "race", "--players", "4", "--humans", "0", "--bots", bots, "--seed", seed,
           "--db", db)  # fmt: skip
    ok("play", "--plain", "--variant", "classic", "--name", "Annabelle Longname", "--seed", "3", "--db", db,
       given="1\nquit\ny\n")  # fmt: skip
    ok("scorecard", "new", "--variant", "derange", "--players", "Annabelle Longname,Bartholomew Smith,Cid", "--db", db)
    stats = ok("stats", "--db", db)
    fits(stats)
    assert "computer:" in stats and "hard@20" in stats and "Points per" in stats
    history = ok("history", "--db", db)
    fits(history)
    assert "Annabelle Longname" in history and "2 matches" not in history
    listed = ok("scorecard", "list", "--db", db)
    fits(listed)
    assert "Bartholomew" in listed and "Longname," in listed


def test_an_unfinished_match_counts_its_actions_in_words_that_agree() -> None:
    when = datetime(2026, 1, 1, tzinfo=UTC)
    one = MatchSummary(1, when, None, "classic", (), ("You", "Ada"), ("human", "easy"), False, (), (0, 0), 0, 1, True)
    assert one.result_text == "unfinished, after 1 action"
    assert MatchSummary(**{**one.__dict__, "actions": 2}).result_text == "unfinished, after 2 actions"
