"""The variant lab: its statistics on hand-computed cases, the same figures whatever the jobs (and on
Ray), a stopped lab's partial report, the charts and page, quick_lab's caps, and the command."""

from __future__ import annotations

import json
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

from eights.bots import make_bot
from eights.cli import app
from eights.lab import LabError, quick_lab, run_lab
from eights.lab.report import _figure, headline, panels, save_plot
from eights.lab.run import (
    FIRST_STAGE,
    KINDS,
    STAGE,
    LabResult,
    TableGame,
    VariantFigures,
    leaders,
    measure,
    table_figures,
)
from eights.rules import PRESETS, RulesError, load_preset
from eights.rules.scoring import match_rounds
from eights.stats import proportion, wilson
from tests.support.extras import need
from tests.support.scripting import scripted

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["lab", *args])
    return result.exit_code, result.stdout, result.stderr


# ----- figures ------------------------------------------------------------------------------------


def game(dealer: int, winners: tuple[int, ...], first: int | None = None, **changes: Any) -> TableGame:
    """A measured game: ``first`` acted first (the dealer's left unless said)."""
    fields: dict[str, Any] = {
        "first_dealer": dealer,
        "first_to_act": (dealer + 1) % 4 if first is None else first,
        "winners": winners,
        "rounds": 1,
        "turns": 10,
        "actions": 12,
        "one_legal": 3,
        "blocked_rounds": 0,
        "cards_drawn": 4,
        "lead_changes": 0,
        "last_round_decided": True,
    }
    return TableGame(**{**fields, **changes})


def test_intervals_hold_at_the_boundary_and_are_cut_to_what_the_figure_can_be() -> None:
    rare = [game(0, (1,), rounds=2, blocked_rounds=int(i == 0), lead_changes=3 * int(i == 0)) for i in range(5)]
    figures, _ = table_figures(rare, 4, None)
    assert figures["lead_changes"].low == 0.0 and figures["lead_changes"].value == pytest.approx(0.6)
    assert figures["blocked_rounds"].low > 0.0 and figures["blocked_rounds"].value == pytest.approx(0.1)
    none = [game(0, (1,)) for _ in range(200)]
    figures, _ = table_figures(none, 4, 1)
    # no blocked round in 200: up to 1.9%, not 0.0-0.0%
    assert (figures["blocked_rounds"].low, figures["blocked_rounds"].high) == pytest.approx((0.0, 0.018845), abs=1e-6)


def test_figures_the_rules_fix_have_no_interval() -> None:
    # the engine's rule for when a match ends: one round, a schedule, or a target the totals reach
    fixed_by = {name: match_rounds(load_preset(name), 4) for name in PRESETS}
    assert fixed_by == {"classic": 1, "action": 1, "race": None, "derange": 15, "baby-eating": 1}
    assert match_rounds(load_preset("action").with_options(["score_keeping=true"]), 4) is None
    assert match_rounds(load_preset("classic").with_options(["hands=3"]), 4) == 3
    games = [game(0, (1,)) for _ in range(10)]
    one_round, _ = table_figures(games, 4, 1)
    for key, value in (("rounds", 1.0), ("lead_changes", 0.0), ("last_round_decides", 1.0)):
        assert one_round[key].fixed and one_round[key].value == value
    fifteen, _ = table_figures([game(0, (1,), rounds=15) for _ in range(10)], 4, 15)
    assert fifteen["rounds"].fixed and fifteen["rounds"].value == 15
    assert not fifteen["last_round_decides"].fixed and not fifteen["lead_changes"].fixed
    to_a_target, _ = table_figures(games, 4, None)
    assert not any(e.fixed for e in to_a_target.values())


def test_leaders_follow_the_rules_direction() -> None:
    assert leaders((10, 30, 30), lowest_wins=False) == {1, 2}
    assert leaders((10, 30, 30), lowest_wins=True) == {0}


def test_seat_rates_count_from_the_first_dealer_and_the_first_to_act_on_its_own() -> None:
    # by position from the dealer, the winners are at 1; 2; 1 and 3 (a shared win: half to each); 0.
    # The first to act wins the first (the dealer's left), the second (two seats on, after a starter
    # skip) and half the third, not the fourth (a starter moved it to the dealer's right)
    games = [game(0, (1,)), game(2, (0,), first=0), game(1, (2, 0)), game(3, (3,), first=2)]
    figures, seats = table_figures(games, 4, 1)
    assert [s.value for s in seats] == pytest.approx([1 / 4, 1.5 / 4, 1 / 4, 0.5 / 4])
    assert figures["dealer_wins"] == seats[0]
    first = figures["first_to_act_wins"]
    assert (first.value, first.low, first.high) == pytest.approx((2.5 / 4, *wilson(2.5, 4)))
    assert figures["one_legal_move"].value == pytest.approx(12 / 48)
    assert figures["cards_drawn_per_turn"].value == pytest.approx(16 / 40)


@pytest.mark.parametrize(("starter", "first"), [("9C", 1), ("QC", 2), ("AC", 3), ("2C", 2)])
def test_the_first_to_act_is_read_from_the_game_when_a_starter_changes_it(starter: str, first: int) -> None:
    """Action, dealer 0: a plain starter leaves the dealer's left to play first; a Q skips it, an A
    reverses play to the dealer's right, a 2 makes the dealer's left draw two and lose its turn."""
    hands = ["3C 4C 5C 6C 7C", "3D 4D 5D 6D 7D", "3H 4H 5H 6H 7H", "3S 4S 5S 6S 7S"]
    stock = "9D 9H 9S 10C 10D 10H 10S JC JD JH JS KC KD KH KS"
    measured = measure(scripted("action", hands, starter, stock), [make_bot("normal", seat) for seat in range(4)])
    assert (measured.first_dealer, measured.first_to_act) == (0, first)
    figures, seats = table_figures([measured], 4, 1)
    won = float(first in measured.winners)
    assert figures["first_to_act_wins"].value == won
    assert seats[1].value == float(1 in measured.winners)


def test_a_lab_of_action_counts_the_seat_that_acted_first() -> None:
    """In action a starter Q, A or 2 moves the first turn off the dealer's left: the first-to-act figure
    and the dealer's left's differ."""
    result = run_lab([load_preset("action")], 4, 40, seed=5, budget=3)
    v = result.variants[0]
    assert v.figures["first_to_act_wins"].value != v.seats[1].value
    data = result.to_dict()["variants"][0]
    assert data["seats"]["first_to_act"]["method"] == "wilson"
    assert data["seats"]["dealer"] == data["seats"]["win_rate"][0]
    assert data["length"]["rounds"] == {"value": 1.0, "low": None, "high": None, "method": "fixed"}


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


def test_precision_plays_each_rule_set_and_kind_until_its_shares_are_that_narrow() -> None:
    rules = [load_preset(name).with_options(["deal=3"]) for name in ("action", "classic")]  # short games
    planned: list[int] = []
    one = run_lab(rules, 3, 1000, seed=2, budget=3, precision=0.06, on_start=planned.append)
    played = [n for v in one.variants for n in v.games.values()]
    for v in one.variants:
        for kind in KINDS:
            assert max(e.half_width for e in v.shares(kind)) <= 0.06
            assert v.games[kind] >= FIRST_STAGE and v.games[kind] % STAGE == 0
    assert len(set(played)) > 1  # each rule set and kind stops on its own
    assert planned == sorted(set(planned)) and len(planned) > 1 and planned[-1] == one.planned == sum(played)
    assert one.to_dict()["precision"] == 0.06
    two = run_lab(rules, 3, 1000, seed=2, budget=3, precision=0.06, jobs=2)
    assert two.to_dict()["variants"] == one.to_dict()["variants"]
    capped = run_lab(rules[:1], 3, 120, seed=2, budget=3, precision=0.01)
    assert capped.variants[0].games == dict.fromkeys(KINDS, 120) and not capped.partial
    with pytest.raises(LabError, match=r"precision: 0.5; give a half-interval between 0 and 0.5"):
        run_lab(rules, 2, 10, precision=0.5)


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
    assert "Luck against skill" in titles and "Who wins" in titles
    seats = next(c for c in data["charts"] if c["title"] == "Who wins")
    assert seats["groups"] == ["first to act", "dealer", "dealer +1", "dealer +2"] and len(seats["series"]) == 2
    assert data["rows"][0]["label"] == "turns per game" and len(data["rows"][0]["cells"]) == 2
    assert any(line.startswith("Power: 4 games can see") for line in data["notes"])
    with pytest.raises(LabError, match="1 to 200"):
        quick_lab(["classic"], 4, games=201)
    with pytest.raises(LabError, match="iterations a move"):
        quick_lab(["classic"], 4, games=4, budget=500)


# ----- the charts ---------------------------------------------------------------------------------


def every_game_alike() -> LabResult:
    """A lab whose games all went the same way, 60 of each kind: the dealer's left winning each, the
    last round deciding each, normal beating easy in every game (a measured 100%, issue 40); in
    matches to a target (two rounds each), and in one-round matches."""
    variants = []
    for name, rounds in (("to a target", None), ("one round", 1)):
        figures, seats = table_figures([game(0, (1,), rounds=rounds or 2) for _ in range(60)], 4, rounds)
        figures["expert_beats_normal"] = proportion(33, 60)
        figures["normal_beats_easy"] = proportion(60, 60)
        variants.append(VariantFigures(name, "Classic", [], 4, dict.fromkeys(KINDS, 60), figures, seats))
    return LabResult(players=4, games=60, seed=3, budget=5, variants=variants)


def test_a_chart_of_a_figure_at_100_percent_is_drawn(tmp_path: Path) -> None:
    """Issue 40: a share of every game had an upper bound a hair under 100%, a negative whisker, and
    ``--plot`` ended in ``ValueError: 'yerr' must not contain negative values``."""
    pytest.importorskip("matplotlib", reason="skipped: matplotlib is the lab extra (pip install -e '.[lab]')")
    result = every_game_alike()
    assert result.variants[0].figures["normal_beats_easy"].high == 1.0
    save_plot(result, tmp_path / "alike.png")
    assert (tmp_path / "alike.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_charts_show_the_intervals_as_whiskers_one_unit_each_and_the_legend_off_the_data() -> None:
    pytest.importorskip("matplotlib", reason="skipped: matplotlib is the lab extra (pip install -e '.[lab]')")
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    result = every_game_alike()
    charts = panels(result)
    assert len({c.unit for c in charts}) == len(charts)  # no two charts share a unit, no chart mixes two
    figure = _figure(charts, 3, headline(result))
    FigureCanvasAgg(figure).draw()
    axes = [ax for ax in figure.axes if ax.get_visible()]
    (legend,) = figure.legends
    assert "whiskers: 95% interval" in [t.get_text() for t in legend.get_texts()]
    box = legend.get_window_extent()
    assert not any(box.overlaps(ax.get_window_extent()) for ax in axes)
    titles = [c.title for c in charts]

    def whiskers(title: str) -> list[float]:
        """The ends of the whiskers of a chart, in its order: low, high, low, high..."""
        bars = [c for c in axes[titles.index(title)].containers if hasattr(c, "has_yerr")]
        return [y for c in bars for _, y in c.lines[2][0].get_segments()[0]]

    intervals = [e for v in result.variants for e in (v.figures["first_to_act_wins"], *v.seats)]
    assert whiskers("Who wins") == pytest.approx([x * 100 for e in intervals for x in (e.low, e.high)])
    # a figure the rules fix: marked, no whisker (the one-round matches' last round decides)
    match = axes[titles.index("How the match goes")]
    assert [t.get_text() for t in match.texts] == ["fixed"] and len(whiskers("How the match goes")) == 2 * 5


def test_a_chart_that_cannot_be_drawn_loses_neither_the_figures_nor_the_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(result: LabResult, path: Path) -> None:
        raise ValueError("'yerr' must not contain negative values")

    monkeypatch.setattr("eights.cli.lab.save_plot", broken)
    page = tmp_path / "lab.html"
    args = ["classic", "--players", "2", "--games", "2", "--budget", "3", "--plot", str(tmp_path / "x.png")]
    code, out, err = run(*args, "--html", str(page), "--json")
    assert code == 1
    assert json.loads(out)["variants"][0]["name"] == "classic"
    assert err.splitlines()[-1] == (
        f"eights: --plot {tmp_path / 'x.png'} was not written: the charts could not be drawn (ValueError: "
        "'yerr' must not contain negative values); the figures are printed all the same."
    )
    assert page.read_text(encoding="utf-8").startswith("<!doctype html>")
    monkeypatch.undo()  # the real drawing, into a folder that is not there
    code, out, err = run(*args[:-2], "--plot", str(tmp_path / "no" / "such" / "dir.png"))
    assert code == 1 and "first to act wins" in out and "Wrote" not in out
    assert "was not written: file error: No such file or directory" in err

    def interrupted(result: LabResult, path: Path) -> None:
        raise KeyboardInterrupt  # Ctrl-C while the charts are drawn

    monkeypatch.setattr("eights.cli.lab.save_plot", interrupted)
    code, out, err = run(*args, "--json")
    assert code == 130 and json.loads(out)["partial"] is False
    assert err.splitlines()[-1] == f"eights: --plot {tmp_path / 'x.png'}: stopped (Ctrl-C) before it was written."


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
    assert text.count("<svg") == 9 and "expert@5" in text and "whiskers: 95% interval" in text
    assert "Power: 3 games can see" in text and "Wilson" in text
    code, _, err = run("classic", "--players", "2", "--games", "2", "--budget", "3", "--plot", str(svg))
    assert code == 0, err
    first = svg.read_bytes()
    run("classic", "--players", "2", "--games", "2", "--budget", "3", "--plot", str(svg))
    assert svg.read_bytes() == first  # the same lab, the same file


def test_lab_command_table() -> None:
    code, out, _ = run("classic", "race", "--players", "2", "--games", "2", "--budget", "3")
    assert code == 0
    assert "first to act wins" in out and "dealer +1 wins" in out and "expert beats normal" in out and "expert@3" in out
    assert "2 games can see no edge (too few games) for a seat" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["clasic"], "unknown preset 'clasic'"),
        (["missing.toml"], "cannot read rules file"),
        (["classic", "--players", "9"], "classic: players: 9"),
        (["classic", "--games", "0"], "games: 0; play at least 1"),
        (["classic", "--precision", "0"], "precision: 0; give a half-interval between 0 and 0.5, like 0.02"),
        (["classic", "--plot", "x.pdf"], "give a file ending in .png or .svg"),
        (["classic", "--cluster", "dask"], "--cluster dask"),
    ],
)
def test_lab_command_refuses_bad_input_in_one_line(args: list[str], message: str) -> None:
    code, out, err = run(*args)
    assert code == 2
    assert message in err
    assert err.count("\n") == 1 and out == ""


def test_ctrl_c_prints_the_partial_report_and_draws_its_charts(tmp_path: Path) -> None:
    """A real SIGINT to the command while its two worker processes play; with --plot and --html, whose
    charts of a few games (shares at 0% and 100% among them) once ended in a ValueError (issue 40)."""
    pytest.importorskip("matplotlib", reason="skipped: matplotlib is the lab extra (pip install -e '.[lab]')")
    png, page = tmp_path / "lab.png", tmp_path / "lab.html"
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
        "--plot",
        str(png),
        "--html",
        str(page),
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
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and "(stopped early: partial)" in page.read_text(
        encoding="utf-8"
    )


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
