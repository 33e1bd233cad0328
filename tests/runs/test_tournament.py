"""Tournaments: seating, duplicate deals, the statistics on hand-computed cases, and the command."""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

from eights.bots import LEVELS
from eights.bots.spec import BotSpecError
from eights.bots.spec import parse_bot as parse_spec
from eights.cli import app
from eights.engine import View
from eights.rules import RulesError, load_preset
from eights.runs.tournament import (
    GameResult,
    TournamentError,
    entrant_names,
    lineup,
    parse_bot,
    play_one,
    rotations,
    run_tournament,
    tally,
    wilson,
)
from eights.stats import fit_elo

runner = CliRunner()
Z = 1.96


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["tournament", *args])
    return result.exit_code, result.stdout, result.stderr


# ----- the Wilson interval ---------------------------------------------------------------------


def test_wilson_matches_hand_computed_intervals():
    # 0 of 10: [0, z^2 / (n + z^2)]; 10 of 10: [n / (n + z^2), 1].
    assert wilson(0, 10, Z) == pytest.approx((0.0, 0.277540), abs=1e-6)
    assert wilson(10, 10, Z) == pytest.approx((0.722460, 1.0), abs=1e-6)
    # 5 of 10: 0.5 +- (z / (1 + z^2/n)) * sqrt(0.25/n + z^2 / (4 n^2)).
    assert wilson(5, 10, Z) == pytest.approx((0.236590, 0.763410), abs=1e-6)
    # 1 of 4, at the default z (the exact 95% value).
    low, high = wilson(1, 4)
    assert (low, high) == pytest.approx((0.045587, 0.699358), abs=1e-6)
    # A fractional win count (shared wins) is allowed, and an empty record knows nothing.
    assert wilson(2.5, 5, Z) == pytest.approx((0.170420, 0.829580), abs=1e-6)
    assert wilson(0, 0) == (0.0, 1.0)


def test_wilson_is_symmetric_and_narrows_with_more_games():
    for wins, games in [(3, 10), (7, 20), (1, 3)]:
        low, high = wilson(wins, games)
        flip_low, flip_high = wilson(games - wins, games)
        assert low == pytest.approx(1 - flip_high) and high == pytest.approx(1 - flip_low)
        assert low < wins / games < high
    assert wilson(50, 100)[1] - wilson(50, 100)[0] < wilson(5, 10)[1] - wilson(5, 10)[0]


# ----- Elo by Bradley-Terry --------------------------------------------------------------------


# ----- tally: shared wins, seats, scores ----------------------------------------------------------


def test_tally_splits_shared_wins_and_fits_elo_to_the_pairwise_results():
    results = [
        GameResult(0, (0, 1, 2), winners=(0,), totals=(10, 0, 0), rounds=1),  # A wins
        GameResult(1, (1, 2, 0), winners=(0, 1), totals=(4, 4, 0), rounds=1),  # B and C share
        GameResult(2, (2, 0, 1), winners=(2,), totals=(0, 0, 30), rounds=1),  # B wins
    ]
    a, b, c = tally(["A", "B", "C"], 3, results)
    assert [x.games for x in (a, b, c)] == [3, 3, 3]
    assert (a.wins, b.wins, c.wins) == (1.0, 1.5, 0.5)
    assert a.win_rate == pytest.approx(1 / 3) and b.win_rate == pytest.approx(0.5)
    assert a.seats == b.seats == c.seats == [1, 1, 1]
    assert a.mean_score == pytest.approx(10 / 3)  # 10 at seat 0, 0 at seat 2, 0 at seat 1
    assert b.mean_score == pytest.approx((0 + 4 + 30) / 3)
    assert c.mean_score == pytest.approx((0 + 4 + 0) / 3)
    # Pairwise, by hand: each pair scores 1/2 + (share_a - share_b) / 2 per game.
    scores = [[0.0, 1.25, 1.75], [1.75, 0.0, 2.0], [1.25, 1.0, 0.0]]
    counts = [[0.0, 3.0, 3.0], [3.0, 0.0, 3.0], [3.0, 3.0, 0.0]]
    assert [a.elo, b.elo, c.elo] == pytest.approx(fit_elo(scores, counts))
    assert b.elo > a.elo > c.elo
    row = a.to_dict()
    assert row["ci_low"] == pytest.approx(wilson(1, 3)[0], abs=1e-6)
    assert row["ci_high"] == pytest.approx(wilson(1, 3)[1], abs=1e-6)


def test_tally_counts_an_entrant_once_per_game_and_a_team_win_whole():
    # Two entrants at four seats (A B A B): seats 0 and 2 are allies, both A.
    results = [
        GameResult(0, (0, 1, 0, 1), winners=(0, 2), totals=(0, 0, 0, 0), rounds=1),
        GameResult(1, (1, 0, 1, 0), winners=(0, 2), totals=(0, 0, 0, 0), rounds=1),
        GameResult(2, (0, 1, 0, 1), winners=(1, 3), totals=(0, 0, 0, 0), rounds=1),
        GameResult(3, (1, 0, 1, 0), winners=(0, 2), totals=(0, 0, 0, 0), rounds=1),
    ]
    a, b = tally(["A", "B"], 4, results)
    assert (a.games, b.games) == (4, 4)
    assert (a.wins, b.wins) == (1.0, 3.0)
    assert a.seats == b.seats == [2, 2, 2, 2]
    assert b.elo - a.elo == pytest.approx(400 * math.log10(3.5 / 1.5), abs=1e-6)


def test_entrant_names_number_repeated_specs():
    assert entrant_names(["hard", "Easy", "hard"]) == ["hard#1", "easy", "hard#2"]
    assert entrant_names(["expert", "normal"]) == ["expert", "normal"]


# ----- seats and deals ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("entrants", "players", "period"),
    [(1, 2, 1), (2, 2, 2), (2, 3, 3), (2, 4, 2), (3, 3, 3), (3, 4, 4), (2, 6, 2), (3, 6, 3), (4, 6, 6)],
)
def test_every_entrant_plays_every_seat_equally_often_over_the_rotations(entrants, players, period):
    assert rotations(entrants, players) == period
    assert lineup(entrants, players, 0) == [s % entrants for s in range(players)]
    for multiple in (1, 3):
        counts = [[0] * players for _ in range(entrants)]
        for index in range(period * multiple):
            seats = lineup(entrants, players, index)
            assert sorted(seats) == sorted(lineup(entrants, players, 0))  # a rotation of the base lineup
            for seat, e in enumerate(seats):
                counts[e][seat] += 1
        for e in range(entrants):
            assert len(set(counts[e])) == 1, (e, counts[e])  # the same number of games at every seat
    assert len({tuple(lineup(entrants, players, i)) for i in range(2 * period)}) == period


@pytest.mark.parametrize(("entrants", "players"), [(2, 4), (2, 6), (3, 6), (2, 8), (2, 10)])
def test_in_a_team_game_both_allies_are_one_entrant(entrants, players):
    half = players // 2
    period = rotations(entrants, players, teams=True)
    counts = [[0] * players for _ in range(entrants)]
    for index in range(period):
        seats = lineup(entrants, players, index, teams=True)
        assert all(seats[s] == seats[s + half] for s in range(half))
        for seat, e in enumerate(seats):
            counts[e][seat] += 1
    for e in range(entrants):
        assert len(set(counts[e])) == 1, (e, counts[e])


def test_a_team_tournament_at_six_seats_tells_the_bots_apart():
    result = run_tournament(load_preset("baby-eating").with_options(["teams=true"]), 6, ["normal", "easy"], 6, seed=1)
    wins = {b.name: b.wins for b in result.bots}
    assert wins["normal"] + wins["easy"] == 6
    assert all(w == int(w) for w in wins.values())  # a team's win is one entrant's, never split


class Recorder:
    """Plays the first legal action and records every view it is handed."""

    name = "recorder"

    def __init__(self) -> None:
        self.views: list[View] = []

    def choose(self, view):
        assert isinstance(view, View)
        self.views.append(view)
        return view.legal[0]


def test_each_deal_is_played_once_in_every_rotation():
    rules = load_preset("classic")
    hands = []
    for index in range(4):  # two entrants at two seats: games 0 and 1 share a deal, 2 and 3 the next
        bots = [Recorder(), Recorder()]
        result = play_one(rules, 2, ["easy", "normal"], index, seed=5, bots=bots)
        assert result.seats == ((0, 1) if index % 2 == 0 else (1, 0))
        hands.append(tuple(b.views[0].hand for b in bots))
    assert hands[0] == hands[1]
    assert hands[2] == hands[3]
    assert hands[0] != hands[2]


def test_run_tournament_seats_entrants_in_turn_and_rotates_them():
    seen = []
    result = run_tournament(load_preset("classic"), 3, ["easy", "Normal"], 6, seed=2, on_game=seen.append)
    assert [r.index for r in result.results] == list(range(6)) == sorted(r.index for r in seen)
    easy, normal = result.bots
    assert (easy.name, normal.name) == ("easy", "normal")
    assert easy.seats == [4, 4, 4] and normal.seats == [2, 2, 2]  # easy holds two seats of three
    assert easy.games == normal.games == 6
    assert easy.wins + normal.wins == pytest.approx(6)
    for r in result.results:
        assert list(r.seats) == lineup(2, 3, r.index)
        assert r.winners and r.rounds == 1


def test_run_tournament_refuses_what_cannot_be_played():
    classic = load_preset("classic")
    with pytest.raises(
        TournamentError, match=r"it needs at least 2 \(given none\).*levels: easy, normal, learned, hard"
    ):
        run_tournament(classic, 2, [], 2)
    with pytest.raises(
        TournamentError, match="unknown bot 'wizard'; valid levels: easy, normal, learned, hard, expert"
    ):
        run_tournament(classic, 2, ["wizard"], 2)
    with pytest.raises(TournamentError, match="3 bots cannot share 2 seats: give at most 2 bots"):
        run_tournament(classic, 2, ["easy", "normal", "hard"], 2)
    teams = load_preset("baby-eating").with_options(["teams=true"])
    with pytest.raises(TournamentError, match="3 bots cannot share the 2 teams of 4 seats: give at most 2 bots"):
        run_tournament(teams, 4, ["easy", "normal", "normal"], 2)
    with pytest.raises(TournamentError, match="games: 0; play at least 1"):
        run_tournament(classic, 2, ["easy", "normal"], 0)
    with pytest.raises(TournamentError, match="jobs: 0; use at least 1"):
        run_tournament(classic, 2, ["easy", "normal"], 1, jobs=0)
    with pytest.raises(RulesError, match="valid: 2-7"):
        run_tournament(classic, 8, ["easy", "normal"], 1)
    with pytest.raises(RulesError, match="players: 1 cannot play classic"):  # not "2 bots cannot share 1 seats"
        run_tournament(classic, 1, ["easy", "normal"], 1)


def test_a_tournament_of_one_bot_is_refused_not_rated_at_100_percent():
    with pytest.raises(TournamentError) as info:
        run_tournament(load_preset("classic"), 2, ["expert"], 2)
    message = str(info.value)
    assert "a tournament compares bots, so it needs at least 2 (given only 'expert')" in message
    assert "--bots expert,normal" in message and "--bots normal,normal" in message
    code, out, err = run("--bots", "expert", "--games", "2")
    assert code == 2 and out == ""
    assert err.startswith("eights: error: a tournament compares bots") and err.count("\n") == 1
    # One level against itself is two entrants: a control run, and allowed.
    result = run_tournament(load_preset("classic"), 2, ["easy", "easy"], 2, seed=1)
    assert [b.name for b in result.bots] == ["easy#1", "easy#2"]


# ----- bot specs --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "parsed"),
    [
        ("expert", ("expert", {})),
        (" Hard ", ("hard", {})),
        ("hard@500", ("hard", {"iterations": 500})),
        ("expert@2s", ("expert", {"seconds": 2.0})),
        ("expert@0.5s", ("expert", {"seconds": 0.5})),
        ("easy", ("easy", {})),
    ],
)
def test_parse_bot_reads_level_and_budget(spec, parsed):
    assert parse_bot(spec) == parsed
    assert parse_spec(spec) == parsed


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("wizard", "unknown bot 'wizard'; valid levels: easy, normal, learned, hard, expert"),
        ("hard@", "bot 'hard@': '' is not a budget; give a whole number of iterations \\(hard@500\\) or seconds"),
        ("hard@500ms", "'500ms' is not a budget"),
        ("expert@-1s", "'-1s' is not a budget; .* seconds \\(expert@2s or expert@0.5s\\)"),
        ("wizard@5", "unknown bot 'wizard@5'; valid levels"),
        ("", "unknown bot ''"),
        ("easy@5", "the easy level does not search, so it takes no budget"),
        ("normal@1s", "the normal level does not search"),
        ("hard@0", "the iteration budget must be a whole number, 1 or more"),
        ("hard@1.5", "the iteration budget must be a whole number"),
        ("expert@0s", "the time budget must be positive"),
    ],
)
def test_parse_bot_refuses_bad_specs_naming_the_valid_levels(spec, message):
    with pytest.raises(BotSpecError, match=message):
        parse_spec(spec)
    with pytest.raises(TournamentError, match=message):  # the tournament keeps the spec's own words
        parse_bot(spec)


def test_parse_bot_lives_in_bots_spec_with_its_own_error_class():
    assert issubclass(BotSpecError, ValueError)
    assert not issubclass(BotSpecError, TournamentError)
    assert parse_spec("expert@2s") == ("expert", {"seconds": 2.0})
    with pytest.raises(BotSpecError, match="the time budget is too large"):
        parse_spec("expert@" + "9" * 400 + "s")


# ----- the command ----------------------------------------------------------------------------------


def tournament_json(*args: str) -> dict:
    code, out, err = run("--json", *args)
    assert code == 0, err + out
    return json.loads(out)


@pytest.mark.parametrize(
    "bots",
    [
        "hard@20,normal,easy",  # a search on an iteration budget: deterministic
        "normal,easy",
    ],
)
def test_json_output_is_the_same_with_one_or_two_jobs(bots):
    args = ["--variant", "classic", "--players", "3", "--bots", bots, "--games", "6", "--seed", "4"]
    one = tournament_json(*args, "--jobs", "1")
    two = tournament_json(*args, "--jobs", "2")
    assert one.pop("seconds") >= 0 and two.pop("seconds") >= 0
    assert one == two
    names = bots.split(",")
    assert [b["name"] for b in one["bots"]] == names
    assert (one["variant"], one["players"], one["games"], one["seed"]) == ("classic", 3, 6, 4)
    total = 0.0
    for entrant, b in enumerate(one["bots"]):
        assert {"name", "games", "wins", "win_rate", "ci_low", "ci_high", "mean_score", "elo", "seats"} <= set(b)
        assert b["games"] == 6
        assert b["win_rate"] == pytest.approx(b["wins"] / b["games"], abs=1e-6)
        low, high = wilson(b["wins"], b["games"])
        assert (b["ci_low"], b["ci_high"]) == pytest.approx((low, high), abs=1e-6)
        assert sum(b["seats"]) == 6 * lineup(len(names), 3, 0).count(entrant)  # normal,easy: normal holds two seats
        assert len(set(b["seats"])) == 1  # six games are two full rotations
        total += b["wins"]
    assert total == pytest.approx(6)


def test_the_json_matches_run_tournament():
    out = tournament_json("--variant", "race", "--bots", "normal,easy", "--games", "4", "--seed", "9")
    direct = run_tournament(load_preset("race"), 2, ["normal", "easy"], 4, seed=9).to_dict()
    direct.pop("seconds")
    out.pop("seconds")
    assert out == direct
    assert out["players"] == 2  # one seat per bot by default


def test_options_reach_the_rules_and_the_report():
    out = tournament_json("--variant", "action", "--bots", "easy,normal", "--players", "3", "--games", "3")
    assert out["options"] == []
    out = tournament_json(
        "--variant", "action", "--bots", "easy,normal", "--players", "3", "--games", "3", "--option", "stacking=true"
    )
    assert out["options"] == ["stacking=true"]
    assert out["bots"][0]["seats"] == [2, 2, 2]  # easy holds two seats of three, each seat twice in 3 games
    assert out["bots"][1]["seats"] == [1, 1, 1]


def test_the_headline_names_the_rule_changes():
    code, out, err = run("--variant", "Action", "--bots", "easy,normal", "--games", "2", "-o", "stacking=TRUE")
    assert code == 0, err
    assert out.splitlines()[0] == "Action Crazy Eights (action with stacking=true): 2 games, 2 players, seed 0"


def test_a_team_game_seats_a_team_of_two_for_each_bot_by_default():
    out = tournament_json("--variant", "baby-eating", "--option", "teams=true", "--bots", "normal,easy", "--games", "2")
    assert out["players"] == 4
    assert [b["games"] for b in out["bots"]] == [2, 2]


def test_the_table_lists_every_bot():
    code, out, err = run("--variant", "classic", "--bots", "normal,easy", "--games", "2")
    assert code == 0, err
    for word in ("Classic", "normal", "easy", "Win rate", "95% interval", "Elo", "2 games, 2 players, seed 0"):
        assert word.lower() in out.lower()


@pytest.mark.parametrize(
    ("args", "messages"),
    [
        (["--bots", "wizard,normal"], ["unknown bot 'wizard'", *LEVELS]),
        (["--bots", "easy,normal,hard", "--players", "2"], ["3 bots cannot share 2 seats", "at most 2"]),
        (["--bots", "easy,normal", "--option", "foo=bar"], ["unknown option 'foo'", "valid options:", "stacking"]),
        (["--variant", "action", "--option", "stacking=maybe"], ["option stacking: 'maybe' is not true or false"]),
        (["--variant", "nope"], ["unknown preset 'nope'", "classic, action, race, derange, baby-eating"]),
        (["--players", "9", "--bots", "easy,normal"], ["players: 9 cannot play classic", "valid: 2-7"]),
        (["--bots", "easy@5"], ["the easy level does not search"]),
        (["--bots", "hard@0"], ["the iteration budget must be a whole number, 1 or more"]),
        (["--bots", ","], ["a tournament compares bots, so it needs at least 2 (given none)", *LEVELS]),
        (["--bots", "easy"], ["a tournament compares bots, so it needs at least 2 (given only 'easy')"]),
        (["--jobs", "0"], ["jobs: 0; use at least 1"]),
    ],
)
def test_bad_input_exits_2_naming_the_problem_and_the_choices(args, messages):
    code, out, err = run(*args, "--games", "1")
    assert code == 2, (code, out, err)
    assert err.startswith("eights: error: ")
    for message in messages:
        assert message in err
    assert out == ""


def test_ranges_are_checked_in_words_not_by_typer():
    code, out, err = run("--games", "0")
    assert (code, out) == (2, "")
    assert err == "eights: error: games: 0; play at least 1\n"


def test_a_rules_file_and_a_preset_together_are_refused(tmp_path):
    house = tmp_path / "house.toml"
    house.write_text('base = "classic"\n')
    code, _, err = run("--variant", "classic", "--rules", str(house), "--games", "1")
    assert code == 2
    assert "not both" in err
