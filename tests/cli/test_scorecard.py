"""`eights scorecard` (issue 22): every command through the command line, a scripted derange sheet
checked against totals worked by hand, and bad input: one line, exit status 2, and the saved sheet
read back unchanged.

Each test has a database of its own (tests/conftest.py sets EIGHTS_DATABASE_URL).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from eights.cli import app
from eights.rules import load_preset
from eights.scorecard import MAX_ROUNDS, Sheet
from eights.store import Store, database_url
from eights.store.sheets import Sheets

runner = CliRunner()


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    # Wide enough that the tables of `list` and `stats` keep each row on one line.
    result = runner.invoke(app, ["scorecard", *args], input=stdin, env={"COLUMNS": "200"})
    return result.exit_code, result.stdout, result.stderr


def ok(*args: str) -> str:
    code, out, err = run(*args)
    assert code == 0, f"exit {code}: {err}{out}"
    return out


def refused(*args: str) -> str:
    """The one line of a refused command (exit status 2, nothing on standard output)."""
    code, out, err = run(*args)
    assert code == 2, f"exit {code}: {err}{out}"
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("eights: error: "), err
    assert "Traceback" not in err
    return lines[0]


def new_sheet(*args: str) -> int:
    out = ok("new", *args)
    found = re.search(r"^Score sheet (\d+): ", out, re.MULTILINE)
    assert found, out
    return int(found.group(1))


def saved(sheet_id: int) -> tuple[dict[str, object], object]:
    """The sheet as the database holds it, and when it last changed, read with a store of its own."""
    store = Store(database_url())
    try:
        sheets = Sheets(store)
        (summary,) = [s for s in sheets.list() if s.id == sheet_id]
        return sheets.get(sheet_id).to_dict(), summary.updated_at
    finally:
        store.close()


def shown(sheet_id: int) -> dict[str, Any]:
    data = json.loads(ok("show", str(sheet_id), "--json"))
    assert isinstance(data, dict)
    return data


# ----- a whole sheet through the command line ---------------------------------------------------------------
# derange with short rounds (4,3,2,1,2,3,4 cards), Bob dealing first. Values (docs/rules.md section 5):
# 8 = 50; 2, 3, 10 = 30; K = 20; A = 15; Q, J = 10; 4, 5, 6, 7, 9 = face. Each other player adds their own hand.

SCRIPT: list[tuple[list[str], tuple[int, int, int]]] = [
    (["--out", "Cid", "--cards", "Ann=8H,2C", "--cards", "Bob=KS 9D"], (80, 29, 0)),  # 50+30; 20+9
    (["--out", "Ann", "--points", "Bob=12", "--cards", "Cid=3D,10S"], (80, 41, 60)),  # 12; 30+30
    (["--blocked", "--cards", "Ann=AH", "--cards", "Bob=QC,JD", "--points", "Cid=7"], (95, 61, 67)),  # 15; 20; 7
    (["--out", "Bob", "--cards", "Ann=4S", "--cards", "Cid=KH"], (99, 61, 87)),  # 4; 20
    (["--out", "Cid", "--cards", "Ann=5C,6C", "--cards", "Bob=8D"], (110, 111, 87)),  # 5+6; 50
    (["--out", "Ann", "--cards", "Bob=7H,7S", "--cards", "Cid=2H"], (110, 125, 117)),  # 7+7; 30
    (["--out", "Bob", "--cards", "Ann=10D", "--cards", "Cid=9C,AS"], (140, 125, 141)),  # 30; 9+15
]


def test_new_prints_the_sheet_its_first_deal_and_how_to_enter_a_round() -> None:
    code, out, err = run("new", "--variant", "derange", "--option", "short_rounds=true", "--players", "Ann, Bob,Cid")
    assert code == 0, err
    sheet_id = int(re.findall(r"Score sheet (\d+):", out)[0])
    assert "Derange Order of Eight (derange with short_rounds=true)" in out
    assert "Players, clockwise: Ann, Bob and Cid;" in out and "(drawn at random; --dealer NAME chooses)" in out
    assert re.search(r"Next: round 1, (Ann|Bob|Cid) deals 4 cards each\.", out)
    assert f"eights scorecard round {sheet_id} --out NAME --cards NAME=8H,2C --points NAME=35" in out
    data = json.loads(ok("new", "--variant", "classic", "--players", "Dee,Eve", "--dealer", "Eve", "--json"))
    assert data["players"] == ["Dee", "Eve"] and data["next"] == {"round": 1, "dealer": "Eve", "hand_size": 5}
    assert data["id"] == sheet_id + 1


def test_a_scripted_derange_sheet_matches_the_totals_worked_by_hand() -> None:
    sheet_id = new_sheet(
        "--variant", "derange", "--option", "short_rounds=true", "--players", "Ann,Bob,Cid", "--dealer", "Bob"
    )
    dealers = ["Bob", "Cid", "Ann", "Bob", "Cid", "Ann", "Bob"]  # one seat clockwise each round (D1)
    for number, (args, totals) in enumerate(SCRIPT, 1):
        out = ok("round", str(sheet_id), *args)
        size = (4, 3, 2, 1, 2, 3, 4)[number - 1]
        assert f"Round {number} ({dealers[number - 1]} dealt {size} card" in out
        for name, total in zip(("Ann", "Bob", "Cid"), totals, strict=True):
            assert re.search(rf"^  {name}: .*, total {total}\.$", out, re.MULTILINE), (name, total, out)
    data = shown(sheet_id)
    assert [r["totals"] for r in data["rounds"]] == [list(t) for _, t in SCRIPT]
    assert data["over"] is True and data["finished_early"] is False
    assert data["winners"] == ["Bob"]  # lowest total wins: 125 < 140 < 141
    assert data["standings"] == [
        {"place": 1, "name": "Bob", "total": 125},
        {"place": 2, "name": "Ann", "total": 140},
        {"place": 3, "name": "Cid", "total": 141},
    ]
    assert data["rounds"][2]["blocked"] is True and data["rounds"][2]["points"] == [15, 20, 7]
    text = ok("show", str(sheet_id))
    assert "Standings: 1. Bob 125; 2. Ann 140; 3. Cid 141." in text
    assert "The match is over after 7 rounds: Bob wins." in text


def test_round_prints_each_card_with_its_value_and_the_running_totals() -> None:
    sheet_id = new_sheet("--variant", "derange", "--players", "Ann,Bob,Cid", "--dealer", "Ann")
    out = ok("round", str(sheet_id), "--out", "ann", "--cards", "Bob=8H,2C,10D,KS,AH,QC,7D", "--points", "Cid=14")
    # docs/rules.md section 8: 8, 2, 10, K, A, Q, 7 = 50 + 30 + 30 + 20 + 15 + 10 + 7 = 162.
    assert "  Bob: 8♥ 50 + 2♣ 30 + 10♦ 30 + K♠ 20 + A♥ 15 + Q♣ 10 + 7♦ 7 = 162; scores 162, total 162." in out
    assert "  Cid: 14 points; scores 14, total 14." in out
    assert "  Ann: went out; scores 0, total 0." in out
    assert "Round 1 (Ann dealt 8 cards): Ann went out." in out
    assert "Next: round 2, Bob deals 7 cards each." in out


def test_classic_winner_collects_and_the_match_ends_after_one_round() -> None:
    sheet_id = new_sheet("--variant", "classic", "--players", "Ann,Bob", "--dealer", "Ann")
    out = ok("round", str(sheet_id), "--out", "Bob", "--cards", "Ann=8S KH 10C AD 5H")
    # docs/rules.md section 8: 8, K, 10, A, 5 = 50 + 10 + 10 + 1 + 5 = 76, collected by Bob.
    assert "  Bob: went out; scores 76, total 76." in out
    assert "  Ann: 8♠ 50 + K♥ 10 + 10♣ 10 + A♦ 1 + 5♥ 5 = 76; scores 0, total 0." in out
    assert "The match is over after 1 round: Bob wins." in out


def test_edit_delete_undo_and_finish_change_the_saved_sheet() -> None:
    sheet_id = new_sheet("--variant", "derange", "--players", "Ann,Bob,Cid", "--dealer", "Ann")
    ok("round", str(sheet_id), "--out", "Ann", "--cards", "Bob=8H KS", "--points", "Cid=14")  # (0, 70, 14)
    ok("round", str(sheet_id), "--out", "Bob", "--cards", "Ann=4D", "--cards", "Cid=QS")  # (4, 70, 24)
    out = ok("edit", str(sheet_id), "1", "--out", "Cid", "--points", "Ann=3", "--points", "Bob=5")
    assert "Changed round 1 (Ann dealt 8 cards): Cid went out." in out
    assert "Totals: Ann 7, Bob 5, Cid 10." in out  # round 1 (3, 5, 0), then round 2 (4, 0, 10)
    out = ok("delete", str(sheet_id), "1")
    assert (
        "Deleted round 1; round 2 is now round 1, with the dealer and cards it had. Totals: Ann 4, Bob 0, Cid 10."
        in out
    )
    assert "Next: round 2, Cid deals 6 cards each." in out  # the deal after the last round's (Bob dealt 7)
    out = ok("undo", str(sheet_id))
    assert out.startswith("Undid the deletion of round 1. Totals: Ann 7, Bob 5, Cid 10.")
    out = ok("undo", str(sheet_id))
    assert out.startswith("Undid the edit of round 1. Totals: Ann 4, Bob 70, Cid 24.")
    out = ok("finish", str(sheet_id))
    assert "The match was finished after 2 rounds: Ann wins." in out
    assert shown(sheet_id)["finished_early"] is True
    ok("undo", str(sheet_id))
    data = shown(sheet_id)
    assert data["over"] is False and data["totals"] == [4, 70, 24]
    assert data["next"] == {"round": 3, "dealer": "Cid", "hand_size": 6}


def test_list_and_stats_read_every_sheet() -> None:
    first = new_sheet("--variant", "classic", "--players", "Ann,Bob", "--dealer", "Ann")
    ok("round", str(first), "--out", "Ann", "--cards", "Bob=9S")  # classic: Ann collects 9
    second = new_sheet("--variant", "derange", "--players", "Ann,Cid", "--dealer", "Cid")
    ok("round", str(second), "--out", "Cid", "--points", "Ann=20")
    listing = json.loads(ok("list", "--json"))
    assert [s["id"] for s in listing["sheets"]] == [second, first]
    assert listing["sheets"][0]["next"] == {"round": 2, "dealer": "Ann", "hand_size": 7}
    assert listing["sheets"][1]["winners"] == ["Ann"] and listing["sheets"][1]["totals"] == [9, 0]
    text = ok("list")
    assert "Ann won" in text and "round 2 next: Ann deals 7" in text and "2 sheets in" in text
    stats = {p["name"]: p for p in json.loads(ok("stats", "--json"))["players"]}
    assert (stats["Ann"]["sheets"], stats["Ann"]["won"], stats["Ann"]["rounds"], stats["Ann"]["points"]) == (
        2,
        1,
        2,
        29,
    )
    assert stats["Ann"]["points_per_round"] == 14.5  # (9 + 20) / 2
    assert (stats["Bob"]["sheets"], stats["Bob"]["won"], stats["Bob"]["points_per_round"]) == (1, 0, 0.0)
    assert re.search(r"Ann\s+2\s+1\s+1\s+2\s+14\.5", ok("stats"))


def test_empty_lists_say_how_to_start() -> None:
    assert "No score sheets yet" in ok("list") and "eights scorecard new" in ok("list")
    assert "No score sheet with a round entered yet" in ok("stats")


def test_export_writes_csv_and_json_that_loads_back(tmp_path: Path) -> None:
    sheet_id = new_sheet("--variant", "derange", "--players", "Ann,Bob", "--dealer", "Bob")
    ok("round", str(sheet_id), "--out", "Ann", "--cards", "Bob=8H")
    csv_file, json_file = tmp_path / "sheet.csv", tmp_path / "sheet.json"
    out = ok("export", str(sheet_id), "--csv", str(csv_file), "--json", str(json_file))
    assert f"Saved score sheet {sheet_id} to {csv_file} and {json_file}." in out
    assert csv_file.read_text().splitlines() == [
        "round,dealer,cards,out,Ann cards left,Ann points,Ann total,Bob cards left,Bob points,Bob total",
        "1,Bob,8,Ann,,0,0,8H,50,50",
        "so far,,,,,,0,,,50",
    ]
    assert Sheet.from_dict(json.loads(json_file.read_text())).to_dict() == saved(sheet_id)[0]
    assert ok("export", str(sheet_id), "--csv", "-") == csv_file.read_text()


def test_the_plain_sheet_runs_when_input_is_not_a_terminal() -> None:
    sheet_id = new_sheet("--variant", "derange", "--players", "Ann,Bob", "--dealer", "Ann")
    code, out, err = run("--sheet", str(sheet_id), stdin="Bob\n8H KS\nundo\nAnn\n12\nquit\n")
    assert code == 0, err
    assert "standard input or output is not a terminal: the sheet in plain text (--plain)" in err
    assert "Round 1 (Ann dealt 8 cards): Bob went out." in out
    assert "Ann: 8♥ 50 + K♠ 20 = 70; scores 70, total 70." in out
    assert "Undid the entry of round 1." in out
    assert f"score sheet {sheet_id} is saved" in out
    assert shown(sheet_id)["totals"] == [0, 12]


# ----- bad input -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--out", "Ann", "--cards", "Bob=8H,8H", "--cards", "Cid=8H"], "8H is entered 3 times (Bob 2, Cid)"),
        (["--out", "Ann", "--cards", "Bob=JK", "--points", "Cid=1"], "JK is a joker, and derange is played without"),
        (["--out", "Ann", "--cards", "Bob=8X", "--points", "Cid=1"], "Bob: "),
        (["--out", "Zed", "--points", "Bob=1", "--points", "Cid=1"], "'Zed' is not a player here; the players are"),
        (["--out", "Ann", "--points", "Zed=1", "--points", "Cid=1"], "'Zed' is not a player here"),
        (["--out", "Ann", "--points", "Bob=1", "--cards", "bob=8H"], "Bob is given twice"),
        (["--out", "Ann", "--points", "Bob=1", "--points", "Bob=2"], "Bob is given twice"),
        (["--out", "Ann", "--points", "Bob=-5", "--points", "Cid=1"], "-5 points is negative; give 0 or more"),
        (["--out", "Ann", "--points", "Bob=lots", "--points", "Cid=1"], "'lots' is not a whole number"),
        (["--out", "Ann", "--points", "Ann=3", "--points", "Bob=1", "--points", "Cid=1"], "Ann went out, so"),
        (["--out", "Ann", "--points", "Bob=1"], "no points or cards for Cid"),
        (["--blocked", "--out", "Ann", "--points", "Bob=1"], "give one of them"),
        (["--points", "Bob=1"], "--out NAME for the player who went out, or --blocked"),
        (["--out", "Ann", "--points", "Bob"], "give a player's name, = and their points"),
    ],
)
def test_an_impossible_round_is_refused_in_one_line_and_the_saved_sheet_is_unchanged(
    args: list[str], words: str
) -> None:
    sheet_id = new_sheet("--variant", "derange", "--players", "Ann,Bob,Cid", "--dealer", "Ann")
    ok("round", str(sheet_id), "--out", "Ann", "--points", "Bob=3", "--points", "Cid=4")
    before = saved(sheet_id)
    assert words in refused("round", str(sheet_id), *args)
    assert words in refused("edit", str(sheet_id), "1", *args)
    assert saved(sheet_id) == before


def test_a_round_after_the_match_has_ended_is_refused_and_nothing_changes() -> None:
    sheet_id = new_sheet("--variant", "classic", "--players", "Ann,Bob", "--dealer", "Ann")
    ok("round", str(sheet_id), "--out", "Ann", "--points", "Bob=3")
    before = saved(sheet_id)
    line = refused("round", str(sheet_id), "--out", "Bob", "--points", "Ann=3")
    assert "the match is over after 1 round, won by Ann: no more rounds can be entered" in line
    assert "edit or delete a past round, or undo" in line
    finish = refused("finish", str(sheet_id))
    assert "the match is already over, won by Ann: there is nothing to finish" in finish
    assert "round" not in finish  # issue 29, item 8: finishing speaks of the match, not of rounds
    assert saved(sheet_id) == before


@pytest.mark.parametrize(
    ("command", "words"),
    [
        (["edit", "{id}", "5", "--out", "Ann", "--points", "Bob=1"], "there is no round 5: the rounds entered are 1"),
        (["edit", "{id}", "0", "--out", "Ann", "--points", "Bob=1"], "there is no round 0"),
        (["delete", "{id}", "2"], "there is no round 2: the rounds entered are 1"),
    ],
)
def test_a_round_that_does_not_exist_is_refused(command: list[str], words: str) -> None:
    sheet_id = new_sheet("--variant", "derange", "--players", "Ann,Bob", "--dealer", "Ann")
    ok("round", str(sheet_id), "--out", "Ann", "--points", "Bob=3")
    before = saved(sheet_id)
    assert words in refused(*(part.replace("{id}", str(sheet_id)) for part in command))
    assert saved(sheet_id) == before


def test_nothing_to_undo_and_nothing_to_finish_are_refused() -> None:
    sheet_id = new_sheet("--variant", "derange", "--players", "Ann,Bob", "--dealer", "Ann")
    before = saved(sheet_id)
    assert "nothing to undo" in refused("undo", str(sheet_id))
    assert "no round has been entered yet" in refused("finish", str(sheet_id))
    assert "there is no round 1: no round has been entered yet" in refused("delete", str(sheet_id), "1")
    assert saved(sheet_id) == before


@pytest.mark.parametrize(
    "command",
    [
        ["round", "7", "--out", "Ann", "--points", "Bob=1"],
        ["edit", "7", "1", "--out", "Ann", "--points", "Bob=1"],
        ["delete", "7", "1"],
        ["undo", "7"],
        ["finish", "7"],
        ["show", "7"],
        ["export", "7", "--csv", "-"],
        ["--sheet", "7"],
    ],
)
def test_an_unknown_sheet_id_is_refused_naming_the_sheets_there_are(command: list[str]) -> None:
    first = new_sheet("--variant", "derange", "--players", "Ann,Bob", "--dealer", "Ann")
    second = new_sheet("--variant", "derange", "--players", "Ann,Bob", "--dealer", "Ann")
    line = refused(*command)
    assert "there is no score sheet 7 in " in line and f"the sheets are {first} and {second}" in line


def test_an_unknown_sheet_id_in_an_empty_database_says_how_to_start() -> None:
    line = refused("show", "3")
    assert "there is no score sheet 3 in" in line and "start one with `eights scorecard new`" in line


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--variant", "derange"], "--players: give the players in seat order"),
        (["--variant", "derange", "--players", "Ann"], "1 player given: a sheet takes 2 to 8 players"),
        (["--variant", "derange", "--players", ""], "players: no names given; give 2 to 8 names"),
        (["--variant", "derange", "--players", "Ann," + "B" * 200], "too long; give at most 24 characters"),
        (["--variant", "derange", "--players", "Ann,Bob,ann"], "the name 'ann' is given twice"),
        (["--variant", "derange", "--players", "Ann,,Bob"], "player 2 has an empty name"),
        (["--variant", "classic", "--players", "A,B,C,D,E,F,G,H"], "classic"),
        (["--variant", "nope", "--players", "Ann,Bob"], "unknown preset 'nope'; valid presets: classic"),
        (["--variant", "derange", "--option", "packs=9", "--players", "Ann,Bob"], "packs"),
        (["--variant", "derange", "--players", "Ann,Bob", "--dealer", "Cid"], "dealer: 'Cid' is not a player here"),
    ],
)
def test_a_sheet_that_cannot_be_started_is_refused_and_nothing_is_saved(args: list[str], words: str) -> None:
    assert words in refused("new", *args)
    assert json.loads(ok("list", "--json"))["sheets"] == []


def test_export_needs_a_file_and_the_interactive_flags_need_no_command() -> None:
    sheet_id = new_sheet("--variant", "derange", "--players", "Ann,Bob", "--dealer", "Ann")
    assert "say what to write: --csv FILE, --json FILE" in refused("export", str(sheet_id))
    assert "give them without `show`" in refused("--plain", "show", str(sheet_id))


def test_db_before_the_command_is_the_database_used(tmp_path: Path) -> None:
    other = str(tmp_path / "other.db")
    ok("--db", other, "new", "--variant", "derange", "--players", "Ann,Bob", "--dealer", "Ann")
    assert json.loads(ok("list", "--json"))["sheets"] == []  # not in the test's own database
    listed = json.loads(ok("--db", other, "list", "--json"))
    assert listed["database"] == other and [s["players"] for s in listed["sheets"]] == [["Ann", "Bob"]]
    assert json.loads(ok("list", "--json", "--db", other))["sheets"] == listed["sheets"]


def test_new_reads_house_rules_from_a_file(tmp_path: Path) -> None:
    house = tmp_path / "house.toml"
    house.write_text(load_preset("derange").with_options(["short_rounds=true"]).to_toml("derange", str(house)))
    out = ok("new", "--rules", str(house), "--players", "Ann,Bob", "--dealer", "Bob")
    assert f"({house}: derange with short_rounds=true)" in out
    assert "Next: round 1, Bob deals 4 cards each." in out
    assert "give a preset (--variant) or a rules file (--rules), not both" in refused(
        "new", "--variant", "classic", "--rules", str(house), "--players", "Ann,Bob"
    )


def test_a_sheet_or_round_that_is_no_number_is_refused_in_one_line() -> None:
    sheet_id = new_sheet("--variant", "derange", "--players", "Ann,Bob", "--dealer", "Ann")
    ok("round", str(sheet_id), "--out", "Ann", "--points", "Bob=3")
    before = saved(sheet_id)
    line = refused("show", "abc")
    assert line.startswith("eights: error: there is no score sheet 'abc' in ") and f"the sheets are {sheet_id}" in line
    assert "there is no score sheet 'x'" in refused("--sheet", "x")
    assert "there is no round 'two': the rounds entered are 1" in refused("delete", str(sheet_id), "two")
    assert "there is no round '1.5': the rounds entered are 1" in refused(
        "edit", str(sheet_id), "1.5", "--out", "Bob", "--points", "Ann=1"
    )
    assert saved(sheet_id) == before
    assert shown(sheet_id)["id"] == sheet_id and ok("show", f"#{sheet_id}").startswith(f"Score sheet {sheet_id}:")


def test_share_gives_a_sheet_made_here_its_web_links() -> None:
    """`eights scorecard share` prints a read-only link and an edit link; the web scorecard on the same
    database shows the sheet by the first and takes a round by the second; links given before stop working."""
    from fastapi.testclient import TestClient

    from eights.web.app import create_app

    sheet_id = new_sheet("--variant", "classic", "--players", "Ann,Bob", "--dealer", "Ann")
    old = re.search(r"/s/(\S+)#e=(\S+)", ok("share", str(sheet_id)))
    out = ok("share", str(sheet_id), "--url", "http://192.168.1.20:8000/")
    found = re.search(
        r"read-only\): http://192\.168\.1\.20:8000/s/(\S+)\n.*: http://192\.168\.1\.20:8000/s/\1#e=(\S+)", out
    )
    assert old and found, out
    code, token = found.groups()
    store = Store(database_url())
    try:
        with TestClient(create_app(store, pace=0)) as client:
            assert client.get(f"/api/sheets/{code}").json()["players"] == ["Ann", "Bob"]
            assert client.get(f"/api/sheets/{old.group(1)}").status_code == 404
            entered = client.post(
                f"/api/sheets/{code}/rounds",
                json={"token": token, "out": "Ann", "left": {"Bob": 35}},
            )
            assert entered.status_code == 200, entered.text
    finally:
        store.close()
    assert json.loads(ok("show", str(sheet_id), "--json"))["totals"] == [35, 0]
    assert "is not a web address" in refused("share", str(sheet_id), "--url", "localhost:8000")


@pytest.mark.parametrize("points", ["1_000", "+5", " 5", "\u0663", "100000000000000000000000"])
def test_points_are_digits_0_to_9_within_the_pack(points: str) -> None:
    """Issue 29, item 9: numbers written otherwise were read, and 10^23 points were taken."""
    sheet_id = new_sheet("--variant", "derange", "--players", "Ann,Bob", "--dealer", "Ann")
    line = refused("round", str(sheet_id), "--out", "Ann", "--points", f"Bob={points}")
    assert "digits 0-9" in line or "more than the cards of the pack can be worth" in line
    assert saved(sheet_id)[0]["rounds"] == []


def test_points_in_baby_eating_are_refused() -> None:
    sheet_id = new_sheet("--variant", "baby-eating", "--players", "Ann,Bob,Cid,Dee", "--dealer", "Ann")
    assert "baby-eating keeps no points" in refused("round", str(sheet_id), "--out", "Ann", "--points", "Bob=5")


def test_a_round_past_what_a_sheet_holds_is_refused_in_one_line() -> None:
    """The terminal shares the sheet's rule: a sheet without points holds MAX_ROUNDS games, and the next is
    refused in words (the sheet unchanged); rules planning more rounds make no sheet."""
    sheet_id = new_sheet("--variant", "baby-eating", "--players", "Ann,Bob", "--dealer", "Ann")
    store = Store(database_url())
    try:
        Sheets(store).change(sheet_id, lambda sheet: [sheet.add_round("Ann") for _ in range(MAX_ROUNDS)])
    finally:
        store.close()
    before, _ = saved(sheet_id)
    line = refused("round", str(sheet_id), "--out", "Bob")
    assert line == (
        f"eights: error: round {MAX_ROUNDS + 1} cannot be entered: a score sheet holds at most {MAX_ROUNDS} rounds; "
        "finish the match (it is decided on the totals so far) and start a new sheet"
    )
    assert saved(sheet_id)[0] == before
    line = refused("new", "--variant", "classic", "--option", "hands=1000", "--players", "Ann,Bob", "--dealer", "Ann")
    assert line == f"eights: error: hands: 1000 rounds are more than a score sheet holds; give at most {MAX_ROUNDS}"
