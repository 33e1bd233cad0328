"""Bad input through the command line (issue 23): altered record and rules files, and a bad preset, option,
player count or card, command by command; every one ends with exit status 2 and one line
``eights: error: ...`` naming the problem, never a traceback.

Of 38 altered files a new user tried, four ended in a traceback: bytes that are not UTF-8
(UnicodeDecodeError) and 100,000-deep nested brackets (RecursionError), in records and
in rules files alike. These tests alter a real record and a real rules file in many more
ways and feed each to every command that reads it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from eights.record import GameRecord
from eights.rules import load_preset
from eights.runs.simulate import play_game
from eights.seeds import game_seed
from tests.support.command import ok, run

DEEP = 100_000


def assert_one_clear_line(code: int, out: str, err: str, what: str) -> None:
    assert code == 2, f"{what}: exit {code}\n{out}{err}"
    assert "Traceback" not in out + err, what
    assert err.startswith("eights: error: "), f"{what}: {err!r}"
    assert err.count("\n") == 1 and err.endswith("\n"), f"{what}: {err!r}"
    assert len(err) < 2000, f"{what}: a message of {len(err)} characters"


# ----- records ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def record_text() -> str:
    stats = play_game(load_preset("race"), 3, game_seed(4, 0), log=True)
    return GameRecord.of(stats.game, ("Ann", "Bob", "Cy")).to_json()


def edit(change: Callable[[dict[str, Any]], Any]) -> Callable[[str], str]:
    def altered(text: str) -> str:
        data = json.loads(text)
        change(data)
        return json.dumps(data, indent=1, ensure_ascii=False)

    return altered


def nested_actions(text: str) -> str:
    return text.replace('"actions": [', '"actions": ' + "[" * DEEP + "]" * DEEP + ", [", 1)


RECORD_CHANGES: dict[str, Callable[[str], str | bytes]] = {
    "empty": lambda t: "",
    "null": lambda t: "null",
    "a list": lambda t: "[]",
    "an empty object": lambda t: "{}",
    "truncated at a tenth": lambda t: t[: len(t) // 10],
    "truncated at half": lambda t: t[: len(t) // 2],
    "truncated by one character": lambda t: t[:-2],
    "latin-1 name": lambda t: t.replace('"Ann"', '"Zoë"').encode("latin-1"),
    "a stray 0xff byte": lambda t: t.encode()[:40] + b"\xff" + t.encode()[40:],
    "utf-16": lambda t: t.encode("utf-16"),
    "deeply nested actions": nested_actions,
    "deeply nested whole file": lambda t: "[" * DEEP + "]" * DEEP,
    "rules as a list": edit(lambda d: d.update(rules=[])),
    "a number too long to read": lambda t: t.replace('"players": 3', '"players": ' + "9" * 5000, 1),
    "a huge player count": edit(lambda d: d.update(players=10**30)),
    "a huge dealer": edit(lambda d: d.update(dealer=10**30)),
    "negative players": edit(lambda d: d.update(players=-3)),
    "no players": edit(lambda d: d.update(players=0)),
    "one player": edit(lambda d: d.update(players=1)),
    "a negative dealer": edit(lambda d: d.update(dealer=-1)),
    "players as text": edit(lambda d: d.update(players="3")),
    "players as a fraction": edit(lambda d: d.update(players=3.0)),
    "players as true": edit(lambda d: d.update(players=True)),
    "seed as null": edit(lambda d: d.update(seed=None)),
    "actions as text": edit(lambda d: d.update(actions="draw")),
    "actions as numbers": edit(lambda d: d.update(actions=[1, 2, 3])),
    "an unknown card played": edit(lambda d: d["actions"].__setitem__(0, "play 9Z")),
    "an unknown action word": edit(lambda d: d["actions"].__setitem__(1, "shuffle")),
    "an empty action": edit(lambda d: d["actions"].__setitem__(2, "")),
    "an action after the end": edit(lambda d: d["actions"].append("draw")),
    "actions cut short": edit(lambda d: d.update(actions=d["actions"][:3])),
    "an unknown card in the deck": edit(lambda d: d.update(deck=["ZZ"] * 52)),
    "a deck as text": edit(lambda d: d.update(deck="8H 9H")),
    "a deck of one card": edit(lambda d: d.update(deck=["8H"])),
    "a card twice in a one-pack deck": edit(lambda d: d.update(deck=["8H"] * 52)),
    "rules as text": edit(lambda d: d.update(rules="race")),
    "rules with an unknown rule": edit(lambda d: d["rules"].update(colour="red")),
    "rules with a wrong type": edit(lambda d: d["rules"].update(deal="five")),
    "rules that cannot be dealt": edit(lambda d: d["rules"].update(deal=10**6)),
    "a jokers count out of range": edit(lambda d: d["rules"].update(jokers=7)),
    "names as a number": edit(lambda d: d.update(names=5)),
    "result as a list": edit(lambda d: d.update(result=[0])),
    "result winners as text": edit(lambda d: d["result"].update(winners="0")),
    "a different result": edit(lambda d: d["result"].update(totals=[t + 1 for t in d["result"]["totals"]])),
    "another format": edit(lambda d: d.update(format="eights-record/0")),
    "no format": edit(lambda d: d.pop("format")),
    **{f"no {key}": edit(lambda d, key=key: d.pop(key)) for key in ("rules", "players", "seed", "dealer", "actions")},
    "an extra field": edit(lambda d: d.update(colour="red")),
}


@pytest.mark.parametrize("alteration", sorted(RECORD_CHANGES))
def test_altered_records_end_in_one_clear_line_not_a_traceback(tmp_path: Path, record_text: str, alteration: str):
    altered = RECORD_CHANGES[alteration](record_text)
    path = tmp_path / "game.json"
    if isinstance(altered, bytes):
        path.write_bytes(altered)
    else:
        path.write_text(altered, encoding="utf-8")
    assert_one_clear_line(*run("replay", str(path)), alteration)


def test_the_unaltered_record_replays_even_with_a_byte_order_mark(tmp_path: Path, record_text: str):
    path = tmp_path / "game.json"
    path.write_bytes(b"\xef\xbb\xbf" + record_text.encode())
    code, out, err = run("replay", str(path))
    assert code == 0, err
    assert "The replay matches the record." in out


def test_names_in_a_record_are_shown_as_written_not_read_as_markup(tmp_path: Path, record_text: str):
    data = json.loads(record_text)
    data["names"] = ["[bold]", "[/]Bo", "[link=x]"]  # a name holds a letter (eights.names)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = run("replay", str(path))
    assert code == 0, err
    winners = " and ".join(data["names"][seat] for seat in data["result"]["winners"])
    assert winners in out


def test_a_record_error_names_the_file_the_action_number_and_its_line(tmp_path: Path, record_text: str):
    data = json.loads(record_text)
    data["actions"][4] = "shuffle"
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    line = path.read_text(encoding="utf-8").splitlines().index('  "shuffle",') + 1
    code, _, err = run("replay", str(path))
    assert code == 2
    assert err.startswith(f"eights: error: {path}: action 5 (line {line}), 'shuffle', does not replay: ")


def test_a_record_that_is_not_utf8_names_the_line(tmp_path: Path, record_text: str):
    path = tmp_path / "game.json"
    path.write_bytes(record_text.replace('"Ann"', '"Zoë"').encode("latin-1"))
    line = record_text.splitlines().index('  "Ann",') + 1
    code, _, err = run("replay", str(path))
    assert code == 2
    assert f"{path}: line {line} is not UTF-8 text (byte 0xeb)" in err


def test_a_deeply_nested_record_is_refused_in_words(tmp_path: Path, record_text: str):
    path = tmp_path / "game.json"
    path.write_text(nested_actions(record_text), encoding="utf-8")
    code, _, err = run("replay", str(path))
    assert code == 2
    assert "nested too deeply" in err


# ----- rules files ----------------------------------------------------------------------------------


SAVED_RULES = 'base = "race"\ndeal = 6\nstacking = true\n'

RULES_CHANGES: dict[str, str | bytes] = {
    "truncated in a string": SAVED_RULES[:8],
    "truncated in a table": 'base = "race"\n[effects]\n"8" = ["wi',
    "latin-1 text": 'base = "race"\nname = "Zoë"\n'.encode("latin-1"),
    "a stray 0xff byte": b'base = "race"\n\xff\n',
    "utf-16": SAVED_RULES.encode("utf-16"),
    "deeply nested list": "rounds = " + "[" * DEEP + "]" * DEEP + "\n",
    "deeply nested tables": 'base = "race"\nx = ' + "{a = " * DEEP + "1" + "}" * DEEP + "\n",
    "a number too long to read": 'base = "race"\ndeal = ' + "9" * 5000 + "\n",
    "a huge deal": 'base = "classic"\ndeal = 99999999999999999999\n',
    "a huge pack count": 'base = "race"\npacks = 99999999999999999999\n',
    "a negative deal": 'base = "race"\ndeal = -5\n',
    "negative seats": 'base = "race"\nseats = [[1, -2, 7]]\n',
    "a deal as text": 'base = "race"\ndeal = "five"\n',
    "a deal as a fraction": 'base = "race"\ndeal = 5.5\n',
    "a base that is not a preset": 'base = "poker"\n',
    "a base as a number": "base = 3\n",
    "no base": "deal = 6\n",
    "an unknown rule": 'base = "race"\nstackingg = true\n',
    "a rule under a table": 'base = "race"\n[score_values]\n"A" = 1\nstacking = true\n',
    "an unknown card in a table": 'base = "race"\n[effects]\n"ZZ" = ["wild"]\n',
    "an unknown effect": 'base = "race"\n[effects]\n"8" = ["explode"]\n',
    "a points table with text": 'base = "race"\n[score_values]\n"8" = "fifty"\n',
    "an unknown draw rule": 'base = "race"\ndraw = "whenever"\n',
    "an unknown starter effect": 'base = "race"\nstarter_effects = ["explode"]\n',
    "an empty file": "",
    "not TOML": "<rules><deal>5</deal></rules>\n",
}


@pytest.mark.parametrize("alteration", sorted(RULES_CHANGES))
@pytest.mark.parametrize("command", ["rules", "play", "simulate", "score"])
def test_altered_rules_files_end_in_one_clear_line_not_a_traceback(tmp_path: Path, command: str, alteration: str):
    altered = RULES_CHANGES[alteration]
    path = tmp_path / "house.toml"
    if isinstance(altered, bytes):
        path.write_bytes(altered)
    else:
        path.write_text(altered, encoding="utf-8")
    args = [command, "--rules", str(path)]
    if command == "play":
        args += ["--plain", "--seed", "1"]
    elif command == "simulate":
        args += ["--games", "1"]
    elif command == "score":
        args += ["8H"]
    assert_one_clear_line(*run(*args), f"{command} {alteration}")


def test_the_saved_rules_file_itself_plays(tmp_path: Path):
    path = tmp_path / "house.toml"
    path.write_bytes(b"\xef\xbb\xbf" + SAVED_RULES.encode())
    code, out, err = run("simulate", "--rules", str(path), "--games", "2", "--players", "3")
    assert code == 0, err
    assert "(" + str(path) + ": race with deal=6, stacking=true)" in out


def test_random_byte_damage_to_either_file_never_ends_in_a_traceback(tmp_path: Path, record_text: str):
    rng = random.Random(23)
    sources = {"replay": record_text.encode(), "rules": SAVED_RULES.encode()}
    for command, original in sources.items():
        for _ in range(25):
            damaged = bytearray(original)
            for _ in range(rng.randint(1, 4)):
                at = rng.randrange(len(damaged))
                damaged[at] = rng.randrange(256)
            path = tmp_path / ("game.json" if command == "replay" else "house.toml")
            path.write_bytes(bytes(damaged))
            args = [command, str(path)] if command == "replay" else [command, "--rules", str(path)]
            code, out, err = run(*args)
            assert "Traceback" not in out + err
            assert code in (0, 2), (code, err)
            if code == 2:
                assert err.startswith("eights: error: ") and err.count("\n") == 1


# ----- a bad preset, option, player count, card, rules file or record, command by command ---------------------


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
