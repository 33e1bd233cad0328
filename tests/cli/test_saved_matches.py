"""Saved matches from the outside: ``eights play`` in a real process, killed and taken up again;
``--plain`` quit and resume; ``eights history`` and ``eights stats`` against the matches played;
two processes on one database; and the table layer free of front ends."""

from __future__ import annotations

import json
import os
import queue
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

from eights.engine import view
from eights.store import Store, database_url
from eights.table import Session, build_config
from eights.table.prompts import state_lines
from eights.table.saved import resume_saved, start_saved

ROOT = Path(__file__).resolve().parents[2]
#: How long a child process may take to print what a test waits for (a bound, not a timing).
PATIENCE = 120.0


def eights(*args: str, db: Path, **kwargs: object) -> subprocess.Popen[str]:
    env = {**os.environ, "EIGHTS_DATABASE_URL": str(db), "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(
        [sys.executable, "-m", "eights.cli", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
        **kwargs,  # type: ignore[call-overload]
    )


def run(*args: str, db: Path, given: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "EIGHTS_DATABASE_URL": str(db)}
    return subprocess.run(
        [sys.executable, "-m", "eights.cli", *args],
        input=given,
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=PATIENCE,
        check=False,
    )


def read_until(proc: subprocess.Popen[str], marker: str) -> str:
    """What the process prints, up to and including the line holding ``marker``."""
    lines = _lines(proc)
    seen = []
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=1.0)
        except queue.Empty:
            continue
        if line is None:
            break
        seen.append(line)
        if marker in line:
            return "".join(seen)
    raise AssertionError(f"the process never printed {marker!r}; it printed:\n{''.join(seen)[-2000:]}")


def read_rest(proc: subprocess.Popen[str]) -> str:
    """Everything else the process prints, to its end (from the same reader as ``read_until``, which owns
    its output once it has begun: ``communicate`` would find it read already)."""
    lines = _lines(proc)
    rest = []
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=1.0)
        except queue.Empty:
            continue
        if line is None:
            return "".join(rest)
        rest.append(line)
    raise AssertionError(f"the process did not end; it printed:\n{''.join(rest)[-2000:]}")


_readers: dict[int, queue.Queue[str | None]] = {}


def _lines(proc: subprocess.Popen[str]) -> queue.Queue[str | None]:
    """The process's output lines as they come (None at the end), read by a thread of its own."""
    if proc.pid not in _readers:
        lines: queue.Queue[str | None] = queue.Queue()

        def pump() -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                lines.put(line)
            lines.put(None)

        threading.Thread(target=pump, daemon=True).start()
        _readers[proc.pid] = lines
    return _readers[proc.pid]


def expected_after(config_args: dict[str, object], moves: int) -> Session:
    """The same table played in this process: the person takes their first listed move ``moves`` times."""
    session = Session(build_config(**config_args))  # type: ignore[arg-type]
    made = 0
    while True:
        seat = session.game.to_act
        if session.is_human(seat):
            if made == moves:
                return session
            session.play(session.view(seat).legal[0], seat)
            made += 1
        else:
            session.bot_move()


TABLE = {"variant": "derange", "players": 3, "bots": "normal", "seed": 7}
ARGS = ("play", "--plain", "--variant", "derange", "--players", "3", "--bots", "normal", "--seed", "7")


def test_sigkill_mid_round_then_resume_restores_every_seats_view(tmp_path: Path) -> None:
    db = tmp_path / "killed.db"
    proc = eights(*ARGS, db=db)
    assert proc.stdin is not None
    read_until(proc, "You, your move:")
    for _ in range(3):
        proc.stdin.write("1\n")
        proc.stdin.flush()
        read_until(proc, "You, your move:")
    proc.send_signal(signal.SIGKILL)
    proc.wait(PATIENCE)
    assert proc.returncode == -signal.SIGKILL

    expected = expected_after(TABLE, 3)
    assert expected.game.round_index == 0  # killed mid-round: the first of fifteen
    store = Store(database_url(str(db)))
    resumed = resume_saved(store, store.last_unfinished())  # type: ignore[arg-type]
    store.close()
    for seat in (None, 0, 1, 2):
        assert view(resumed.game, seat) == view(expected.game, seat)

    # And `eights play --resume` shows the person the same table.
    shown = run("play", "--resume", "--plain", db=db, given="quit\ny\n").stdout
    for line in state_lines(expected, view(expected.game, 0)):
        assert line in shown


def test_plain_play_three_moves_quit_resume_and_finish(tmp_path: Path) -> None:
    db = tmp_path / "plain.db"
    first = run(*ARGS, db=db, given="1\n1\n1\nquit\nn\nquit\ny\n")
    assert first.returncode == 0, first.stderr
    assert first.stdout.count("Leave the match? The match is saved (match 1 in ") == 2
    assert "take it up again with `eights play --resume`" in first.stdout
    store = Store(database_url(str(db)))
    assert store.summary(1).actions == len(expected_after(TABLE, 3).game.actions)
    store.close()

    finish = run("play", "--resume", "--plain", db=db, given="1\n" * 3000)
    assert finish.returncode == 0, finish.stderr
    assert "Game over:" in finish.stdout
    listed = json.loads(run("history", "--json", db=db).stdout)["matches"]
    assert [(m["id"], m["finished"]) for m in listed] == [(1, True)]
    assert run("play", "--resume", "--plain", db=db).returncode == 2


def test_history_and_stats_json_report_what_was_played(tmp_path: Path) -> None:
    db = tmp_path / "figures.db"
    outcomes = []
    store = Store(database_url(str(db)))
    for seed in (1, 2, 3):
        session = start_saved(store, build_config("race", players=3, humans=1, bots="easy", seed=seed, names="Ann"))
        while not session.game.is_over:
            seat = session.game.to_act
            if session.is_human(seat):
                session.play(session.view(seat).legal[-1], seat)
            else:
                session.bot_move()
        outcomes.append(session.game.outcome)
    store.close()

    history = json.loads(run("history", "--json", db=db).stdout)
    assert [m["id"] for m in history["matches"]] == [3, 2, 1]
    for match, outcome in zip(reversed(history["matches"]), outcomes, strict=True):
        assert match["variant"] == "race" and match["finished"]
        assert match["winners"] == list(outcome.winners) and match["totals"] == list(outcome.totals)
        assert match["rounds"] == outcome.rounds
        assert [p["name"] for p in match["players"]] == ["Ann", "Bram", "Cleo"]

    stats = {(p["kind"], p["who"]): p for p in json.loads(run("stats", "--json", db=db).stdout)["players"]}
    ann = stats[("person", "Ann")]
    wins = sum(0 in o.winners for o in outcomes)
    assert (ann["matches"], ann["wins"]) == (3, wins)
    assert ann["win_rate"] == round(wins / 3, 4)
    easy = stats[("computer", "easy")]
    assert easy["matches"] == 6  # two seats a match
    assert easy["wins"] == sum(len({1, 2} & set(o.winners)) for o in outcomes)

    shown = run("history", "show", "2", "--export", str(tmp_path / "two.json"), db=db)
    assert shown.returncode == 0, shown.stderr
    assert "Match 2: race" in shown.stdout and "Round 1:" in shown.stdout
    replayed = run("replay", str(tmp_path / "two.json"), db=db)
    assert "The replay matches the record." in replayed.stdout


def test_two_processes_on_one_database_do_not_corrupt_it(tmp_path: Path) -> None:
    db = tmp_path / "shared.db"
    args = ("play", "--plain", "--variant", "derange", "--players", "4", "--humans", "0", "--bots", "easy")
    writer = eights(*args, "--option", "short_rounds=true", "--seed", "5", db=db)
    readings = 0
    while writer.poll() is None:
        result = run("stats", "--json", db=db)
        assert result.returncode == 0, result.stderr
        readings += 1
    assert writer.returncode == 0, writer.stderr.read() if writer.stderr else ""
    assert readings >= 1
    with sqlite3.connect(db) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    store = Store(database_url(str(db)))
    (match,) = store.matches()
    assert match.finished
    assert store.record(match.id).replay().outcome is not None
    store.close()


def test_the_table_layer_imports_no_front_end_or_database() -> None:
    blocked = ("textual", "rich", "fastapi", "starlette", "uvicorn", "sqlalchemy", "alembic", "typer")
    code = (
        "import sys\n"
        f"blocked = {blocked!r}\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in blocked:\n"
        "            raise ImportError(f'{name} is blocked')\n"
        "sys.meta_path.insert(0, Block())\n"
        "import eights.table, eights.table.narrator, eights.table.session\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd=ROOT)
    assert done.stdout.strip() == "ok", done.stderr


def test_play_without_a_terminal_falls_back_to_plain_text(tmp_path: Path) -> None:
    done = run("play", "--variant", "classic", "--seed", "2", db=tmp_path / "p.db", given="quit\ny\n")
    assert done.returncode == 0
    assert "not a terminal: playing in plain text (--plain)" in done.stderr
    assert "Your hand" in done.stdout


def test_ctrl_c_in_plain_play_says_the_match_is_saved_and_resume_says_it_is_taking_it_up(tmp_path: Path) -> None:
    """Issue 40, item 11: Ctrl-C in `--plain` said "Stopped." alone, and `--resume` never said it was resuming."""
    db = tmp_path / "stopped.db"
    proc = eights(*ARGS, db=db)
    try:
        read_until(proc, "Your turn")
        proc.send_signal(signal.SIGINT)
        rest = read_rest(proc)
        proc.wait(timeout=PATIENCE)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130
    assert f"Stopped: the match is saved (match 1 in {db}); take it up again with `eights play --resume`." in rest
    resumed = run("play", "--resume", "--plain", db=db, given="quit\ny\n")
    assert resumed.stdout.startswith(f"Taking up match 1 in {db} (derange, round 1) where it stopped.\n")
