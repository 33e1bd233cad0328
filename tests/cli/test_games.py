"""The games of `eights` that no person plays (eights.cli.games): score, simulate, replay and watch. Bad input
to every command: tests/cli/test_bad_input.py."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from eights.cards import Card
from eights.cli import app
from eights.engine.events import RoundOver
from eights.record import GameRecord
from eights.rules import PRESETS, load_preset
from eights.runs.simulate import play_game
from eights.seeds import game_seed
from tests.support.command import ok, run, runner, simulate_json

# ----- score ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "cards", "value"),
    [
        ("classic", "8H KH 10H AH 5H", 76),
        ("action", "2C QC AC 8C 9C 10C", 119),
        ("race", "10D 2D AD", 13),
        ("derange", "8S 2S 10S KS AS QS 7S", 162),
    ],
)
def test_score_gives_the_worked_values_of_section_8(preset, cards, value):
    assert re.search(rf"^Total\s+{value}\s*$", ok("score", "--variant", preset, *cards.split()), re.M)
    data = json.loads(ok("score", "--variant", preset, "--json", *cards.split()))
    values = load_preset(preset).value_table()
    assert data == {
        "variant": preset,
        "cards": [{"card": c, "points": values[Card(c)]} for c in cards.split()],
        "value": value,
    }
    assert sum(c["points"] for c in data["cards"]) == value


def test_score_shows_each_cards_points_and_the_total():
    out = ok("score", "-v", "classic", "8H", "KS", "AD")
    assert out.splitlines()[0] == "Classic Crazy Eights (classic): 3 cards"
    for card, points in (("8♥", 50), ("K♠", 10), ("A♦", 1)):
        assert re.search(rf"^{card}\s+{points}\s*$", out, re.M), out
    assert re.search(r"^Total\s+61\s*$", out, re.M)


def test_score_reads_symbols_commas_and_any_case():
    assert re.search(r"^Total\s+70\s*$", ok("score", "-v", "classic", "8♥,k♠", "TC"), re.M)


def test_score_of_action_keeps_its_table_even_with_score_keeping_on():
    out = ok("score", "-v", "action", "-o", "score_keeping=true", "8H", "QH")
    assert re.search(r"^Total\s+60\s*$", out, re.M)
    assert "(action with score_keeping=true)" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["-v", "classic", "JK"],
            "JK cannot be in a hand: classic's pack holds no JK (one pack of 52 cards, no jokers)",
        ),
        (["-v", "classic", "8H", "8♥", "8h"], "8♥ is given three times, but classic's pack holds only one"),
        (["-v", "derange", "8H", "8H", "8H"], "derange's pack holds only two (two packs of 52 cards)"),
        (["-v", "action", "-p", "3", "8H", "8H"], "8♥ is given twice, but action's pack for 3 players holds only one"),
        (["-v", "classic", ","], "the hand has no cards"),
    ],
)
def test_score_refuses_a_hand_that_cannot_exist_saying_what_the_pack_holds(args, message):
    code, out, err = run("score", *args)
    assert code == 2
    assert err.startswith("eights: error: ") and err.count("\n") == 1
    assert message in err
    assert out == ""


def test_score_accepts_what_a_larger_pack_holds():
    assert re.search(r"^Total\s+120\s*$", ok("score", "-v", "action", "8H", "8H", "8H"), re.M)  # three packs


def test_score_refuses_a_bad_card_naming_it_and_the_valid_forms():
    code, out, err = run("score", "--variant", "classic", "8H", "11H")
    assert code == 2
    assert "'11H' is not a card" in err
    assert "8H, 10C" in err
    assert out == ""


def test_score_says_a_rule_set_without_a_table_keeps_no_score(tmp_path: Path):
    path = tmp_path / "noscore.toml"
    path.write_text('base = "classic"\nscore_keeping = false\nscore_values = {}\n', encoding="utf-8")
    code, _, err = run("score", "--rules", str(path), "8H")
    assert code == 2
    assert "keeps no score" in err


def test_score_of_baby_eating_says_it_keeps_no_score():
    if "baby-eating" not in PRESETS:
        pytest.skip("baby-eating is not a preset yet")
    code, _, err = run("score", "--variant", "baby-eating", "8H")
    assert code == 2
    assert "baby-eating keeps no score" in err


# ----- simulate -----------------------------------------------------------------------------


def test_simulate_json_has_the_documented_shape():
    data = simulate_json("--variant", "race", "--players", "3", "--games", "5", "--seed", "3")
    for key in (
        "variant",
        "players",
        "games",
        "wins",
        "rounds",
        "actions",
        "blocked_rounds",
        "seconds",
        "games_per_second",
        "actions_per_second",
        "seed",
        "options",
    ):
        assert key in data
    assert data["variant"] == "race"
    assert data["players"] == 3 and data["games"] == 5 and data["seed"] == 3
    assert len(data["wins"]) == 3
    assert sum(data["wins"]) == pytest.approx(5)
    assert sum(data["outright_wins"]) + data["shared_games"] == 5
    assert data["rounds"] >= 5
    assert data["actions"] > 0


def test_simulate_json_is_deterministic_for_a_seed():
    args = ("--variant", "action", "--players", "4", "--games", "8", "--seed", "11", "-o", "stacking=true")
    first, second = simulate_json(*args), simulate_json(*args)
    for key in ("wins", "outright_wins", "rounds", "actions", "blocked_rounds", "options"):
        assert first[key] == second[key]
    assert first["options"] == ["stacking=true"]


def test_simulate_prints_wins_rounds_and_speed():
    out = ok("simulate", "--variant", "classic", "--players", "3", "--games", "6", "--seed", "1")
    assert "6 games, 3 players, seed 1" in out
    assert "Wins" in out and "Share" in out
    assert "blocked:" in out
    assert "games/s" in out and "actions/s" in out


def test_simulate_fast_path_plays_exactly_as_random_bots_on_views():
    for number, preset in enumerate(PRESETS):
        rules = load_preset(preset)
        if rules.short_schedule:
            rules = rules.with_options(["short_rounds=true"])
        players = 2 + number % 3
        for index in range(3):
            seed = game_seed(5, index)
            fast = play_game(rules, players, seed)
            bots = play_game(rules, players, seed, log=True, fast=False)
            assert (fast.winners, fast.totals, fast.actions, fast.blocked_rounds) == (
                bots.winners,
                bots.totals,
                bots.actions,
                bots.blocked_rounds,
            )


def test_simulate_counts_blocked_rounds_as_the_log_does():
    rules = load_preset("classic")
    logged_total = counted_total = 0
    for index in range(12):
        stats = play_game(rules, 2, game_seed(1, index), log=True)
        assert stats.game.log is not None
        logged = sum(1 for e in stats.game.log if isinstance(e, RoundOver) and e.reason == "blocked")
        assert stats.blocked_rounds == logged
        logged_total += logged
        counted_total += play_game(rules, 2, game_seed(1, index)).blocked_rounds
    assert counted_total == logged_total
    assert logged_total > 0  # random players block classic rounds often: the count is exercised


def test_simulate_save_dir_does_not_change_the_games(tmp_path: Path):
    args = ("--variant", "race", "--players", "3", "--games", "3", "--seed", "8")
    plain = simulate_json(*args)
    saved = simulate_json(*args, "--save-dir", str(tmp_path))
    assert (plain["wins"], plain["actions"]) == (saved["wins"], saved["actions"])
    assert len(list(tmp_path.glob("game-*.json"))) == 3


def test_simulate_save_dir_records_replay_to_the_same_result(tmp_path: Path):
    ok("simulate", "--variant", "action", "--players", "3", "--games", "3", "--seed", "6", "--save-dir", str(tmp_path))
    files = sorted(tmp_path.glob("game-*.json"))
    assert len(files) == 3
    for index, path in enumerate(files):
        record = GameRecord.load(path)
        assert record.seed == game_seed(6, index)
        out = ok("replay", str(path))
        assert "The replay matches the record." in out
        winners = " and ".join(f"Seat {s}" for s in record.winners or ())
        assert winners in out


# ----- replay and watch ----------------------------------------------------------------------


def test_watch_narrates_a_game_to_its_winners_and_totals():
    out = ok("watch", "--variant", "race", "--players", "3", "--seed", "12")
    assert "Race Crazy Eights (race): 3 random players, seed 12" in out
    assert "Round 1: Seat" in out
    assert "The starter is" in out
    assert "Game over:" in out
    assert "Winner" in out and "Total" in out
    assert out == ok("watch", "--variant", "race", "--players", "3", "--seed", "12")


def test_watch_plays_the_game_simulate_plays_for_the_same_seed():
    rules = load_preset("classic")
    seed = game_seed(1, 0)
    stats = play_game(rules, 2, seed)
    out = ok("watch", "--variant", "classic", "--players", "2", "--seed", str(seed))
    names = " and ".join(f"Seat {s}" for s in stats.winners)
    assert f"Winner{'s' if len(stats.winners) > 1 else ''}: {names}" in out
    for seat, total in enumerate(stats.totals):
        assert re.search(rf"Seat {seat}\s+{total}\b", out)


def test_watch_save_then_replay_verbose_tells_the_same_game(tmp_path: Path):
    path = tmp_path / "game.json"
    watched = ok("watch", "-v", "derange", "-p", "3", "-s", "9", "-o", "short_rounds=true", "--save", str(path))
    record = GameRecord.load(path)
    assert record.names == ("Seat 0", "Seat 1", "Seat 2")
    replayed = ok("replay", str(path), "--verbose")
    assert "The replay matches the record." in replayed
    narration = [line for line in watched.splitlines() if line.startswith("  Seat") or line.startswith("Round")]
    assert narration and all(line in replayed for line in narration)


def test_record_of_a_seeded_game_replays_through_the_record_layer():
    # The records simulate and watch save hold a seed, no deck, and the first dealer the seed drew.
    stats = play_game(load_preset("race"), 3, game_seed(2, 0), log=True)
    record = GameRecord.of(stats.game)
    assert record.deck is None
    game = GameRecord.from_json(record.to_json()).replay()
    assert game.outcome is not None and game.outcome.totals == stats.totals


# ----- issue 23: headlines and preset names -------------------------------------------------------


@pytest.mark.parametrize("given", ["Classic", "CLASSIC", " classic "])
def test_preset_names_are_accepted_in_any_case_by_every_command(given):
    assert "Classic Crazy Eights" in ok("rules", given)
    assert re.search(r"^Total\s+50\s*$", ok("score", "-v", given, "8H"), re.M)
    assert simulate_json("-v", given, "-g", "1")["variant"] == "classic"
    assert "Classic Crazy Eights (classic): 2 random players" in ok("watch", "-v", given, "-p", "2", "-s", "1")


def test_the_simulate_headline_names_the_rule_changes_from_the_preset():
    out = ok("simulate", "-v", "classic", "-o", "deal=7", "-o", "target=100", "-p", "3", "-g", "2")
    assert out.splitlines()[0] == "Classic Crazy Eights (classic with deal=7, target=100): 2 games, 3 players, seed 0"
    data = simulate_json("-v", "classic", "-o", "deal=7", "-p", "3", "-g", "1")
    assert data["changes"] == ["deal=7"]
    assert ok("simulate", "-v", "race", "-g", "1").splitlines()[0] == (
        "Race Crazy Eights (race): 1 game, 4 players, seed 0"
    )


def test_the_simulate_headline_names_the_rules_file_and_its_changes(tmp_path: Path):
    path = tmp_path / "house.toml"
    ok("rules", "race", "-o", "deal=6", "--save", str(path))
    out = ok("simulate", "--rules", str(path), "-o", "stacking=true", "-p", "3", "-g", "1")
    headline = f"Race Crazy Eights ({path}: race with deal=6, stacking=true): 1 game, 3 players, seed 0"
    assert out.splitlines()[0] == headline


def test_watch_seats_any_computer_levels_not_only_random_players():
    result = runner.invoke(
        app, ["watch", "--variant", "race", "--players", "3", "--bots", "normal,hard@20,easy", "--seed", "4"]
    )
    assert result.exit_code == 0, result.output
    assert "3 computer players (Seat 0: normal, Seat 1: hard@20, Seat 2: easy), seed 4" in result.stdout
    refused = runner.invoke(app, ["watch", "--players", "3", "--bots", "easy,normal"])
    assert refused.exit_code == 2 and "2 levels for 3 seats" in refused.stderr
