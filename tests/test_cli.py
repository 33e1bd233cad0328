"""The `eights` command line: rules, score, simulate, replay, watch, and every bad input."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from eights.cli import app
from eights.describe import describe_text
from eights.engine.events import RoundOver
from eights.record import GameRecord
from eights.rules import PRESETS, load_preset, load_rules
from eights.simulate import game_seed, play_game

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def ok(*args: str) -> str:
    code, out, err = run(*args)
    assert code == 0, f"exit {code}: {err}{out}"
    return out


def simulate_json(*args: str) -> dict[str, object]:
    return json.loads(ok("simulate", "--json", *args))


# ----- rules ---------------------------------------------------------------------------


def test_rules_without_a_preset_lists_every_preset_with_its_title():
    out = ok("rules")
    for name in PRESETS:
        assert name in out
        assert load_preset(name).title in out


@pytest.mark.parametrize("preset", PRESETS)
def test_rules_prints_every_section_and_the_notes(preset):
    out = ok("rules", preset)
    rules = load_preset(preset)
    assert rules.title in out
    for title in ("Players and packs", "The deal", "The starter", "A turn", "Special cards", "Scoring"):
        assert title in out
    for note in rules.notes:
        assert note in out


def test_rules_classic_words_follow_section_2():
    out = ok("rules", "classic")
    assert "One 52-card pack, for 2-7 players." in out
    assert "Deal 5 cards to each player." in out
    assert "A starter 8 is buried in the middle of the stock" in out
    assert "8: wild" in out
    assert "There is no reshuffle" in out
    assert "8 = 50; K, Q, J = 10; A = 1; 2-7, 9 and 10 = face value" in out


def test_rules_words_follow_the_effects_table_of_race_and_derange():
    race = ok("rules", "race")
    assert "2: starts or grows a chain: the next player must play a 2 or draw the whole chain" in race
    assert "4: reverses the direction of play." in race
    assert "J: the next player is skipped." in race
    assert "100 for 2" in race and "350 for 7" in race
    derange = ok("rules", "derange")
    assert "8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8" in derange
    assert "3 and 10: follow-me" in derange
    assert "Going out on a 2 still makes the next player draw the whole chain." in derange
    assert "the lowest total wins" in derange


def test_rules_reflect_options():
    plain = ok("rules", "action")
    assert "Off: one card per turn." in plain
    assert "Score keeping is off" in plain
    changed = ok("rules", "action", "--option", "stacking=true", "-o", "score_keeping=true")
    assert "With options: stacking=true, score_keeping=true" in changed
    assert "On: you may lay several cards of one rank" in changed
    assert "every other player adds the value of their own hand" in changed
    assert "until a player's total reaches 500" in changed


def test_rules_save_writes_toml_that_plays_with_rules_file(tmp_path: Path):
    path = tmp_path / "house.toml"
    out = ok("rules", "classic", "-o", "deal=7", "-o", "target=100", "--save", str(path))
    assert f"--rules {path}" in out
    saved = load_rules(path)
    assert saved == load_preset("classic").with_options(["deal=7", "target=100"])
    assert "Deal 7 cards to each player." in ok("rules", "--rules", str(path))
    data = simulate_json("--rules", str(path), "--players", "3", "--games", "3", "--seed", "2")
    assert data["variant"] == "classic"
    assert data["rules_file"] == str(path)
    assert sum(data["wins"]) == pytest.approx(3)
    assert "Winner" in ok("watch", "--rules", str(path), "--players", "2", "--seed", "4")


def test_describe_text_builds_from_fields_not_names():
    rules = load_preset("classic").replace(name="house", effects={"8": ["wild"], "Q": ["skip"], "A": ["draw:3"]})
    text = describe_text(rules)
    assert "Q: the next player is skipped." in text
    assert "A: the next player draws 3 cards and loses the turn." in text
    assert "Two players" in text


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
    assert ok("score", "--variant", preset, *cards.split()) == f"{value}\n"
    data = json.loads(ok("score", "--variant", preset, "--json", *cards.split()))
    assert data == {"variant": preset, "cards": cards.split(), "value": value}


def test_score_reads_symbols_commas_and_any_case():
    assert ok("score", "-v", "classic", "8♥,k♠", "TC") == "70\n"


def test_score_of_action_keeps_its_table_even_with_score_keeping_on():
    assert ok("score", "-v", "action", "-o", "score_keeping=true", "8H", "QH") == "60\n"


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


# ----- bad input -----------------------------------------------------------------------------


@pytest.fixture
def broken_files(tmp_path: Path) -> dict[str, str]:
    files = {
        "bad_toml": ('base = "classic"\ndeal = [\n', "house.toml"),
        "bad_field": ('base = "classic"\nstackingg = true\n', "typo.toml"),
        "bad_record": ('{"format": "something-else"}', "game.json"),
    }
    paths = {}
    for key, (text, name) in files.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        paths[key] = str(path)
    paths["missing"] = str(tmp_path / "missing.toml")
    return paths


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["rules", "nope"], "unknown preset 'nope'"),
        (["simulate", "--variant", "nope", "--games", "1"], "unknown preset 'nope'"),
        (["watch", "--variant", "nope"], "unknown preset 'nope'"),
        (["score", "--variant", "nope", "8H"], "unknown preset 'nope'"),
        (["rules", "classic", "-o", "stacking"], "not KEY=VALUE"),
        (["rules", "classic", "-o", "bogus=1"], "unknown option 'bogus'"),
        (["simulate", "-v", "classic", "-o", "deal=many", "--games", "1"], "'many' is not a whole number"),
        (["simulate", "-v", "classic", "--players", "9", "--games", "1"], "players: 9 cannot play classic"),
        (["watch", "-v", "race", "--players", "1"], "players: 1 cannot play race"),
        (["simulate", "-v", "derange", "-p", "8", "-o", "packs=1", "--games", "1"], "needs 65 cards"),
        (["score", "-v", "classic", "8Z"], "'8Z' is not a card"),
        (["rules", "-o", "stacking=true"], "name a preset"),
    ],
)
def test_bad_input_exits_2_with_one_clear_line(args, message):
    code, out, err = run(*args)
    assert code == 2
    assert message in err
    assert err.strip().count("\n") == 0
    assert "Traceback" not in out + err


@pytest.mark.parametrize(
    ("command", "key", "message"),
    [
        ("simulate", "bad_toml", "is not valid TOML"),
        ("simulate", "bad_field", "unknown rule 'stackingg' (did you mean stacking?)"),
        ("watch", "missing", "cannot read rules file"),
        ("rules", "bad_field", "unknown rule 'stackingg' (did you mean stacking?)"),
        ("score", "bad_toml", "is not valid TOML"),
    ],
)
def test_broken_rules_files_exit_2_naming_the_problem(broken_files, command, key, message):
    args = [command, "--rules", broken_files[key]]
    if command == "score":
        args.append("8H")
    code, _, err = run(*args)
    assert code == 2
    assert message in err
    assert "Traceback" not in err


def test_a_preset_and_a_rules_file_together_are_refused(broken_files):
    code, _, err = run("simulate", "--variant", "classic", "--rules", broken_files["bad_field"])
    assert code == 2
    assert "not both" in err


@pytest.mark.parametrize(("key", "message"), [("bad_record", "not a game record"), ("missing", "cannot read")])
def test_replay_of_a_bad_record_exits_2(broken_files, key, message):
    code, _, err = run("replay", broken_files[key])
    assert code == 2
    assert message in err


def test_replay_of_a_record_that_diverges_exits_2(tmp_path: Path):
    path = tmp_path / "game.json"
    ok("watch", "-v", "classic", "-p", "2", "-s", "3", "--save", str(path))
    data = json.loads(path.read_text(encoding="utf-8"))
    data["result"]["totals"] = [t + 1 for t in data["result"]["totals"]]
    path.write_text(json.dumps(data), encoding="utf-8")
    code, _, err = run("replay", str(path))
    assert code == 2
    assert "the record says" in err


def test_help_names_every_command():
    out = ok("--help")
    for command in ("rules", "score", "simulate", "replay", "watch"):
        assert command in out
    assert "--save-dir" in ok("simulate", "--help")


def test_record_of_a_seeded_game_replays_through_the_record_layer():
    # The records simulate and watch save hold a seed, no deck, and the first dealer the seed drew.
    stats = play_game(load_preset("race"), 3, game_seed(2, 0), log=True)
    record = GameRecord.of(stats.game)
    assert record.deck is None
    game = GameRecord.from_json(record.to_json()).replay()
    assert game.outcome is not None and game.outcome.totals == stats.totals
