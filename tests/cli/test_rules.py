"""`eights rules` (eights.cli.rules): every preset's rules in words, with options, saved as a house-rules file
and read back from one, and the fields that are no option refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from eights.rules import PRESETS, load_preset, load_rules
from eights.rules.describe import describe_text
from tests.support.command import ok, run, simulate_json


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


def test_rules_save_writes_the_base_and_only_the_options(tmp_path: Path):
    path = tmp_path / "house.toml"
    ok("rules", "Action", "-o", "stacking=true", "-o", "packs=2", "--save", str(path))
    text = path.read_text(encoding="utf-8")
    body = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert body == ['base = "action"', "packs = 2", "stacking = true"]
    assert f"# Play them with `eights play --rules {path}`" in text
    assert load_rules(path) == load_preset("action").with_options(["stacking=true", "packs=2"])


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
