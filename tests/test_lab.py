"""The variant lab: its statistics on hand-computed cases, the same figures whatever the jobs (and on
Ray), a stopped lab's partial report, the charts and page, quick_lab's caps, and the command."""

from __future__ import annotations

import json
import math
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from eights.cli import app
from eights.lab import LabError, quick_lab, run_lab
from eights.lab.run import KINDS, Estimate, TableGame, leaders, mean_of, ratio_of, table_figures
from eights.rules import RulesError, load_preset
from eights.tournament import wilson
from tests.extras import need

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["lab", *args])
    return result.exit_code, result.stdout, result.stderr


# ----- statistics -------------------------------------------------------------------------------


def t(e: Estimate) -> tuple[float, float, float]:
    return (e.value, e.low, e.high)


def test_mean_and_ratio_intervals_on_hand_computed_cases() -> None:
    # 2, 4, 6: mean 4, sample sd 2, half-width 1.959964 * 2 / sqrt(3)
    assert t(mean_of([2, 4, 6])) == pytest.approx((4.0, 4 - 2.263171, 4 + 2.263171), abs=1e-6)
    assert mean_of([5]) == Estimate(5.0, 5.0, 5.0)
    assert math.isnan(mean_of([]).value)
    # (1+3)/(2+2) = 1, residuals 1-2 = -1 and 3-2 = 1: var = 2/1/(2*2*2) = 0.25, half-width 1.959964 * 0.5
    ratio = ratio_of([1, 3], [2, 2])
    assert t(ratio) == pytest.approx((1.0, 1 - 0.979982, 1 + 0.979982), abs=1e-6)
    assert ratio_of([2, 4], [1, 2]) == Estimate(2.0, 2.0, 2.0)  # every game at the same ratio


def test_intervals_are_cut_to_what_the_figure_can_be() -> None:
    rare = [TableGame(0, (1,), 2, 10, 12, 0, int(i == 0), 4, 3 * int(i == 0), True) for i in range(5)]
    assert mean_of([3, 0, 0, 0, 0]).low < 0  # the normal interval alone reaches below 0
    figures, _ = table_figures(rare, 4)
    assert figures["lead_changes"].low == 0.0 and figures["lead_changes"].value == pytest.approx(0.6)
    assert figures["blocked_rounds"].low == 0.0 and figures["blocked_rounds"].value == pytest.approx(0.1)


def test_leaders_follow_the_rules_direction() -> None:
    assert leaders((10, 30, 30), lowest_wins=False) == {1, 2}
    assert leaders((10, 30, 30), lowest_wins=True) == {0}


def test_seat_rates_count_from_the_first_dealer_and_share_ties() -> None:
    def game(dealer: int, winners: tuple[int, ...]) -> TableGame:
        return TableGame(dealer, winners, 1, 10, 12, 3, 0, 4, 0, True)

    games = [game(0, (1,)), game(2, (3,)), game(1, (2, 0))]  # first player wins twice; a shared win
    figures, seats = table_figures(games, 4)
    assert [s.value for s in seats] == pytest.approx([0.0, 2.5 / 3, 0.0, 0.5 / 3])
    low, high = wilson(2.5, 3)
    assert t(figures["first_player_edge"]) == pytest.approx((2.5 / 3 - 0.25, low - 0.25, high - 0.25))
    assert figures["dealer_edge"].value == pytest.approx(-0.25)
    assert figures["one_legal_move"].value == pytest.approx(9 / 36)
    assert figures["cards_drawn_per_turn"].value == pytest.approx(12 / 30)


# ----- the lab ------------------------------------------------------------------------------------


def test_same_seed_same_figures_whatever_the_jobs() -> None:
    rulesets = [load_preset("classic"), load_preset("race").with_options(["target_per_player=10"])]
    one = run_lab(rulesets, 3, 6, seed=7, jobs=1, budget=8)
    two = run_lab(rulesets, 3, 6, seed=7, jobs=2, budget=8)
    assert one.to_dict()["variants"] == two.to_dict()["variants"]
    other = run_lab(rulesets, 3, 6, seed=8, jobs=1, budget=8)
    assert other.to_dict()["variants"] != one.to_dict()["variants"]
    assert not one.partial
    data = one.to_dict()
    race = data["variants"][1]
    assert race["games"] == dict.fromkeys(KINDS, 6)
    assert race["length"]["rounds"]["value"] > 1  # to 30 points takes several rounds
    assert sum(s["value"] for s in race["seats"]["win_rate"]) == pytest.approx(1.0, abs=1e-5)
    assert data["search_budget"]["expert"] == "expert@8"


def test_a_stopped_lab_reports_the_games_played() -> None:
    played: list[object] = []

    def stop_after_five(task: object) -> None:
        played.append(task)
        if len(played) == 5:
            raise KeyboardInterrupt

    result = run_lab([load_preset("classic"), load_preset("action")], 4, 10, seed=1, budget=5, on_game=stop_after_five)
    assert result.partial
    counts = [v.games for v in result.variants]
    # game by game, each rule set and kind in turn: classic's three kinds, then action's first two
    assert counts == [dict.fromkeys(KINDS, 1), {"table": 1, "skill": 1, "base": 0}]
    data = result.to_dict()
    assert data["partial"] is True
    assert data["variants"][1]["skill"]["normal_beats_easy"]["value"] is None  # no game gave it: null, not NaN
    json.dumps(data, allow_nan=False)


def test_bad_labs_are_refused_in_words() -> None:
    classic = load_preset("classic")
    with pytest.raises(LabError, match="at least one rule set"):
        run_lab([], 4, 10)
    with pytest.raises(LabError, match="games: 0; play at least 1"):
        run_lab([classic], 4, 0)
    with pytest.raises(LabError, match="budget: 0"):
        run_lab([classic], 4, 1, budget=0)
    with pytest.raises(LabError, match="cluster: 'dask'; valid: ray"):
        run_lab([classic], 4, 1, cluster="dask")
    with pytest.raises(RulesError, match=r"^classic: players: 9"):
        run_lab([classic], 9, 1)


def test_quick_lab_gives_json_figures_and_charts_within_its_caps() -> None:
    data = quick_lab(["classic", load_preset("race").with_options(["target_per_player=10"])], 3, games=4, budget=5)
    text = json.dumps(data, allow_nan=False)
    assert json.loads(text)["variants"][0]["name"] == "classic"
    titles = [c["title"] for c in data["charts"]]
    assert "Luck against skill" in titles and "Win rate by seat" in titles
    seats = next(c for c in data["charts"] if c["title"] == "Win rate by seat")
    assert len(seats["groups"]) == 3 and len(seats["series"]) == 2
    assert data["rows"][0]["label"] == "turns per game" and len(data["rows"][0]["cells"]) == 2
    with pytest.raises(LabError, match="1 to 200"):
        quick_lab(["classic"], 4, games=201)
    with pytest.raises(LabError, match="iterations a move"):
        quick_lab(["classic"], 4, games=4, budget=500)


# ----- the command -------------------------------------------------------------------------------


def test_lab_command_json_plot_and_page(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="skipped: matplotlib is the lab extra (pip install -e '.[lab]')")
    house = tmp_path / "house.toml"
    house.write_text('base = "action"\nstacking = true\n', encoding="utf-8")
    png, svg, page = tmp_path / "lab.png", tmp_path / "lab.svg", tmp_path / "lab.html"
    code, out, err = run(
        "classic",
        str(house),
        "--players",
        "3",
        "--games",
        "3",
        "--seed",
        "2",
        "--budget",
        "5",
        "--json",
        "--plot",
        str(png),
        "--html",
        str(page),
    )
    assert code == 0, err
    data = json.loads(out)
    assert [v["name"] for v in data["variants"]] == ["classic", "house.toml"]
    assert data["variants"][1]["changes"] == ["stacking=true"]
    for v in data["variants"]:
        assert set(v) >= {"seats", "turns", "skill", "length"}
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = page.read_text(encoding="utf-8")
    assert text.count("<svg") == 6 and "expert@5" in text
    code, _, err = run("classic", "--players", "2", "--games", "2", "--budget", "3", "--plot", str(svg))
    assert code == 0, err
    first = svg.read_bytes()
    run("classic", "--players", "2", "--games", "2", "--budget", "3", "--plot", str(svg))
    assert svg.read_bytes() == first  # the same lab, the same file


def test_lab_command_table() -> None:
    code, out, _ = run("classic", "race", "--players", "2", "--games", "2", "--budget", "3")
    assert code == 0
    assert "first player's edge" in out and "expert beats normal" in out and "expert@3" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["clasic"], "unknown preset 'clasic'"),
        (["missing.toml"], "cannot read rules file"),
        (["classic", "--players", "9"], "classic: players: 9"),
        (["classic", "--games", "0"], "games: 0; play at least 1"),
        (["classic", "--plot", "x.pdf"], "give a file ending in .png or .svg"),
        (["classic", "--cluster", "dask"], "--cluster dask"),
    ],
)
def test_lab_command_refuses_bad_input_in_one_line(args: list[str], message: str) -> None:
    code, out, err = run(*args)
    assert code == 2
    assert message in err
    assert err.count("\n") == 1 and out == ""


def test_ctrl_c_prints_the_partial_report(tmp_path: Path) -> None:
    """A real SIGINT to the command while its two worker processes play."""
    command = [
        sys.executable,
        "-m",
        "eights.cli",
        "lab",
        "derange",
        "baby-eating",
        "--games",
        "500",
        "--jobs",
        "2",
        "--json",
    ]
    env = {**os.environ, "EIGHTS_DATABASE_URL": str(tmp_path / "e.db")}
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) as proc:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        assert "Ctrl-C stops and reports" in line
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err  # as tournament and simulate, stopped by Ctrl-C
    data: dict[str, Any] = json.loads(out)
    assert data["partial"] is True
    played = sum(sum(v["games"].values()) for v in data["variants"])
    assert played < 2 * 3 * 500
    assert f"Stopped after {played} of 3000 games." in err


# ----- Ray ---------------------------------------------------------------------------------------

#: The test cluster's ports (this machine's share: 18200-18299), all but its workers' one each.
RAY_PORTS = {
    "--port": 18240,
    "--node-manager-port": 18241,
    "--object-manager-port": 18242,
    "--runtime-env-agent-port": 18243,
    "--dashboard-agent-grpc-port": 18244,
    "--dashboard-agent-listen-port": 18245,
    "--metrics-export-port": 18246,
    "--ray-client-server-port": 18247,
    "--min-worker-port": 18250,
    "--max-worker-port": 18290,
}


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[str]:
    """A local Ray head on loopback, without its dashboard, on fixed ports; stopped after the module."""
    need("ray", "ray")
    temp = tempfile.mkdtemp(prefix="ray-", dir="/tmp")  # Ray's socket paths must stay short
    command = [
        str(Path(sys.executable).parent / "ray"),
        "start",
        "--head",
        "--block",
        "--disable-usage-stats",
        "--include-dashboard=false",
        "--node-ip-address=127.0.0.1",
        "--num-cpus=2",
        f"--temp-dir={temp}",
        *(f"{flag}={port}" for flag, port in RAY_PORTS.items()),
    ]
    log = Path(temp) / "start.log"
    # Ray 2.5x turns on token authentication for a cluster started by `ray start`; this one listens on
    # loopback only, for this test's processes, so it runs without.
    env = {**os.environ, "RAY_AUTH_MODE": "disabled"}
    with log.open("w") as out:
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, start_new_session=True, env=env)
    try:
        for _ in range(600):
            if "Ray runtime started" in log.read_text(errors="replace"):
                break
            if proc.poll() is not None:
                pytest.fail(f"ray start ended: {log.read_text(errors='replace')[-2000:]}")
            time.sleep(0.1)
        else:
            pytest.fail(f"ray start did not start a head: {log.read_text(errors='replace')[-2000:]}")
        yield f"127.0.0.1:{RAY_PORTS['--port']}"
    finally:
        proc.terminate()  # --block: the head stops its own processes on SIGTERM
        proc.wait(timeout=120)
        shutil.rmtree(temp, ignore_errors=True)


def test_ray_gives_the_figures_of_jobs(ray_cluster: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import ray

    monkeypatch.setenv("RAY_ADDRESS", ray_cluster)
    rulesets = [load_preset("classic"), load_preset("action")]
    local = run_lab(rulesets, 3, 5, seed=4, jobs=2, budget=6)
    on_ray = run_lab(rulesets, 3, 5, seed=4, budget=6, cluster="ray")
    assert on_ray.to_dict()["variants"] == local.to_dict()["variants"]
    assert on_ray.cluster == "ray"
    assert not ray.is_initialized()  # the lab let go of the cluster


def test_lab_command_on_ray(ray_cluster: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAY_ADDRESS", ray_cluster)
    code, out, err = run("classic", "--players", "2", "--games", "4", "--budget", "4", "--cluster", "ray", "--json")
    assert code == 0, err
    same = run("classic", "--players", "2", "--games", "4", "--budget", "4", "--jobs", "2", "--json")
    assert json.loads(out)["variants"] == json.loads(same[1])["variants"]


def lab_in_subprocess(
    args: list[str], env: dict[str, str], *, block_ray: bool = False
) -> subprocess.CompletedProcess[str]:
    """``eights lab ARGS`` in a fresh interpreter; with ``block_ray``, one where ``import ray`` fails as
    it does where Ray is not installed (``sys.modules['ray'] = None``)."""
    blocked = "import sys; sys.modules['ray'] = None; " if block_ray else "import sys; "
    code = blocked + f"sys.argv = ['eights', 'lab', *{args!r}]; from eights.cli import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env={**os.environ, **env}, timeout=120
    )


def test_cluster_ray_without_ray_says_how_to_get_it(tmp_path: Path) -> None:
    env = {"EIGHTS_DATABASE_URL": str(tmp_path / "e.db")}
    done = lab_in_subprocess(["classic", "--games", "2", "--cluster", "ray"], env, block_ray=True)
    assert done.returncode == 2
    assert done.stderr == (
        "eights: error: --cluster ray needs Ray, the ray extra: pip install 'eights[ray]' "
        "(or pip install -e '.[ray]' here)\n"
    )
    assert done.stdout == ""


def test_cluster_ray_at_an_address_where_nothing_listens_says_so_in_one_line(tmp_path: Path) -> None:
    """RAY_ADDRESS naming a port that is bound but not listening: one line, at once; Ray's own ``init``
    retried there for minutes, printing its warnings."""
    need("ray", "ray")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        address = f"127.0.0.1:{taken.getsockname()[1]}"
        env = {"EIGHTS_DATABASE_URL": str(tmp_path / "e.db"), "RAY_ADDRESS": address}
        done = lab_in_subprocess(["classic", "--games", "2", "--budget", "3", "--cluster", "ray"], env)
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        f"eights: error: cannot reach the Ray cluster at RAY_ADDRESS={address} (Connection refused): "
        "start its head there (ray start --head), or unset RAY_ADDRESS for a local Ray\n"
    )
    assert done.stdout == ""
