"""The `eights` command line: rules, score, simulate, replay, watch, and every bad input."""

from __future__ import annotations

import json
import re
from pathlib import Path

import click
import pytest
from typer.testing import CliRunner

from eights.cards import Card
from eights.cli import app
from eights.engine.events import RoundOver
from eights.record import GameRecord
from eights.rules import PRESETS, load_preset, load_rules
from eights.rules.describe import describe_text
from eights.runs.simulate import play_game
from eights.seeds import game_seed

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
    assert "Changed from action by the options: stacking=true, score_keeping=true." in changed
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


# ----- issue 23: help, headlines, preset names, progress ---------------------------------------


def command_names() -> list[str]:
    import typer.main

    group = typer.main.get_command(app)
    return ["", *sorted(group.list_commands(click.Context(group)))]  # type: ignore[attr-defined]


def test_every_command_is_checked_for_clean_help():
    assert {"rules", "score", "simulate", "replay", "watch", "play", "tournament"} <= set(command_names())


@pytest.mark.parametrize("command", command_names())
def test_help_prints_no_bool_after_flags(command):
    out = ok(*command.split(), "--help")
    assert "<bool>" not in out
    assert "--help" in out


@pytest.mark.parametrize("command", ["rules", "score", "simulate", "replay", "watch", "tournament"])
def test_help_states_ranges_in_words_not_as_x_inequalities(command):
    out = ok(command, "--help")
    assert "x>=" not in out and "x<=" not in out and "x>" not in out


def test_help_says_what_the_default_tournament_does():
    out = " ".join(ok("tournament", "--help").replace("│", " ").split())  # the words, without the panel
    assert "expert@200 against normal" in out
    assert "60 games in about a minute" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "--games", "0"], "games: 0; play at least 1"),
        (["watch", "--delay", "-1"], "delay: -1 seconds; give 0 or more"),
    ],
)
def test_ranges_are_checked_in_the_players_words(args, message):
    code, out, err = run(*args)
    assert (code, out) == (2, "")
    assert err == f"eights: error: {message}\n"


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


def test_rules_save_writes_the_base_and_only_the_options(tmp_path: Path):
    path = tmp_path / "house.toml"
    ok("rules", "Action", "-o", "stacking=true", "-o", "packs=2", "--save", str(path))
    text = path.read_text(encoding="utf-8")
    body = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert body == ['base = "action"', "packs = 2", "stacking = true"]
    assert f"# Play them with `eights play --rules {path}`" in text
    assert load_rules(path) == load_preset("action").with_options(["stacking=true", "packs=2"])


def test_the_progress_bar_shows_time_left_when_each_game_takes_longer_than_rich_measures():
    # Rich's own estimate reads only the last 30 s of progress: with games of 40 s it never shows a figure.
    from rich.progress import Progress, TimeRemainingColumn

    from eights.cli.common import _time_left_column

    now = [0.0]
    progress = Progress(get_time=lambda: now[0])
    task_id = progress.add_task("tournament", total=100)
    for _ in range(2):
        now[0] += 40.0
        progress.advance(task_id)
    task = progress.tasks[0]
    assert str(TimeRemainingColumn().render(task)) == "-:--:--"
    assert str(_time_left_column().render(task)) == "about 1:05:20 left"  # 40 s a game, 98 games to go


def test_time_left_words():
    from eights.cli.common import time_left

    assert time_left(None, 0, 10) == "time left: not known yet"
    assert time_left(10.0, 2, 10) == "about 0:40 left"
    assert time_left(10.0, 10, 10) == "done"


def test_the_progress_bar_goes_to_a_terminal_and_counts_with_time_left():
    import io

    from rich.console import Console

    from eights.cli.common import progress_bar

    screen = io.StringIO()
    terminal = Console(file=screen, force_terminal=True, width=100)
    with progress_bar("games", 3, console=terminal) as advance:
        assert advance is not None
        for _ in range(3):
            advance(None)
    assert "games" in screen.getvalue()
    with progress_bar("games", 3, console=Console(file=io.StringIO())) as advance:
        assert advance is None  # not a terminal: no bar
    with progress_bar("games", 3, show=False, console=terminal) as advance:
        assert advance is None


def test_watch_seats_any_computer_levels_not_only_random_players():
    result = runner.invoke(
        app, ["watch", "--variant", "race", "--players", "3", "--bots", "normal,hard@20,easy", "--seed", "4"]
    )
    assert result.exit_code == 0, result.output
    assert "3 computer players (Seat 0: normal, Seat 1: hard@20, Seat 2: easy), seed 4" in result.stdout
    refused = runner.invoke(app, ["watch", "--players", "3", "--bots", "easy,normal"])
    assert refused.exit_code == 2 and "2 levels for 3 seats" in refused.stderr


def test_rules_from_a_house_rules_file_say_so_and_what_they_change(tmp_path: Path) -> None:
    """Issue 29, item 10: `rules --rules FILE` did not say it was a house-rules file or what it changes."""
    house = tmp_path / "house.toml"
    ok("rules", "action", "--option", "stacking=true", "--save", str(house))
    text = ok("rules", "--rules", str(house))
    assert f"House rules from {house}: changes from action: stacking=true." in text.splitlines()[1]


@pytest.mark.parametrize("option", ["title=Hacked", "name=zzz", "source=me", "max_actions=5"])
def test_fields_that_are_no_rule_are_no_options(option: str) -> None:
    """Issue 29, item 11: --option title=... was accepted and printed; the list of valid options held
    name, title, source and max_actions."""
    code, out, err = run("rules", "classic", "--option", option)
    assert code == 2 and out == ""
    key = option.split("=")[0]
    assert f"unknown option '{key}'" in err
    valid = err.split("valid options: ")[1]
    for internal in ("name", "title", "source", "max_actions"):
        assert internal not in valid.replace("_", " ").split(", ") and f" {internal}," not in f" {valid},"
    assert "stacking" in valid and "packs" in valid


@pytest.mark.parametrize("description", ["Reviewing match 12", "classic, mine, baby-eating, derange, race, 3 players"])
def test_the_progress_line_fits_80_columns_with_its_time_left_whole(description: str) -> None:
    """Issue 40, item 9: the review's and the lab's progress lines wrapped their "time left" at 80 columns."""
    import io

    from rich.console import Console

    from eights.cli.common import progress_bar, time_left

    terminal = Console(file=io.StringIO(), force_terminal=True, width=80, color_system=None)
    for done in (0, 1):
        with progress_bar(description, 1080, console=terminal) as bar:
            assert bar is not None
            for _ in range(done):
                bar(None)
            lines = terminal.render_lines(bar.progress.get_renderable(), terminal.options, pad=False)
            shown = ["".join(segment.text for segment in line) for line in lines]
        assert len(shown) == 1 and len(shown[0]) <= 80, shown
        assert f"{done}/1080" in shown[0]
        assert shown[0].endswith(time_left(None, 0, 1080) if not done else " left"), shown
        assert shown[0].startswith(description[:20])
