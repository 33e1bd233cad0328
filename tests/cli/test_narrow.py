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


def test_an_unfinished_match_says_the_round_it_is_in_and_counts_it_dealt() -> None:
    """Issue 40, item 11: history showed "Rounds 0" for a match still in round 1."""
    when = datetime(2026, 1, 1, tzinfo=UTC)
    one = MatchSummary(1, when, None, "classic", (), ("You", "Ada"), ("human", "easy"), False, (), (0, 0), 0, 1, True)
    assert (one.result_text, one.rounds_dealt) == ("unfinished, in round 1", 1)
    third = MatchSummary(**{**one.__dict__, "rounds": 2})
    assert (third.result_text, third.rounds_dealt) == ("unfinished, in round 3", 3)
    done = MatchSummary(**{**one.__dict__, "rounds": 2, "finished": True, "winners": (1,)})
    assert (done.result_text, done.rounds_dealt) == ("Ada won", 2)


def test_at_80_columns_a_four_player_sheet_history_and_the_lab_keep_every_figure_whole(tmp_path: Path) -> None:
    """Issue 40, item 9: `scorecard show` with 4 players wrapped every cell and cut "block…", `history` wrapped
    names and levels, the lab's table wrapped most rows. A table that does not fit goes to lines (or, the lab,
    to tables of fewer kinds) that break between whole figures."""
    db = str(tmp_path / "wide.db")
    players = "Annabel,Bartholomew,Cid,Dorothea"
    ok("scorecard", "new", "--variant", "derange", "--players", players, "--dealer", "Annabel", "--db", db)
    ok("scorecard", "round", "1", "--out", "Annabel", "--cards", "Bartholomew=8H,KS,10C", "--points", "Cid=14",
       "--points", "Dorothea=22", "--db", db)  # fmt: skip
    ok("scorecard", "round", "1", "--blocked", "--cards", "Annabel=2D", "--points", "Bartholomew=5", "--points",
       "Cid=6", "--points", "Dorothea=3", "--db", db)  # fmt: skip
    sheet = ok("scorecard", "show", "1", "--db", db)
    assert "…" not in sheet
    scored = [line for line in sheet.splitlines() if line.lstrip().startswith(("scored:", "Dorothea"))]
    assert scored and all(len(line) <= 80 for line in scored), sheet
    for figure in ("Bartholomew +100 = 100", "Cid +14 = 14", "Dorothea +22 = 22", "Bartholomew +5 = 105"):
        assert any(figure in line for line in scored), (figure, sheet)
    assert "2 (Bartholomew deals 7): blocked" in sheet
    ok("play", "--plain", "--variant", "race", "--players", "4", "--humans", "0", "--bots", "easy,normal,hard@20,easy",
       "--seed", "1", "--db", db)  # fmt: skip
    history = ok("history", "--db", db)
    assert all(len(line) <= 80 for line in history.splitlines() if line.startswith(" ")), history
    for label in ("Bram (normal)", "Cleo (hard@20)", "Dev (easy)"):
        assert any(label in line for line in history.splitlines()), (label, history)
    lab = ok("lab", "classic", "action", "race", "--players", "3", "--games", "2", "--seed", "3", "--jobs", "1")
    rows = [line for line in lab.splitlines() if line.startswith(" ")]
    assert all(len(line) <= 80 for line in rows), lab
    turns = [line for line in rows if line.lstrip().startswith("turns per game")]
    assert sum(line.count("(") for line in turns) == 3, lab  # each kind's figure with its interval, on its row
