"""The phone's scoring (static/scoring.js, run in the real Chromium) agrees with the scorecard core's, which
scores with the engine's own functions, for every preset and some options, on many random rounds (issue 30).

The JS gets only what ``/api/scoring`` serves (generated from the rules by ``eights.scorecard.scoring``); each
random sheet is entered in a Python ``Sheet`` round by round, the rounds it accepts are given to the JS, and
every figure the page shows (each round's hand values, points, totals and winners, the standings, the end of
the match and its winners, what is next) must be the same.
"""

from __future__ import annotations

import json
import random
import urllib.request
from typing import Any

import pytest

from eights.rules import PRESETS, load_preset
from eights.scorecard import MAX_ROUNDS, Sheet, SheetError, next_words, sheet_json
from eights.scorecard.scoring import scoring_data

#: (preset, options): every preset as it comes, and options that change the scoring or the end of the match.
CASES: list[tuple[str, dict[str, str]]] = [
    *((name, {}) for name in PRESETS),
    ("classic", {"target": "200"}),
    ("action", {"score_keeping": "true", "target": "150"}),
    ("race", {"target_per_player": "20"}),
    ("derange", {"short_rounds": "true"}),
    ("derange", {"rounds": "3,2,1"}),
    ("baby-eating", {"teams": "true"}),
]
SHEETS_PER_CASE = 20


def random_hand(rng: random.Random, pack: list[dict[str, Any]], taken: dict[str, int], room: int) -> list[str]:
    cards = []
    for _ in range(rng.randint(1, min(6, room))):
        card = rng.choice(pack)
        if taken.get(card["card"], 0) < card["copies"]:
            taken[card["card"]] = taken.get(card["card"], 0) + 1
            cards.append(card["card"])
    return cards


def random_sheet(rng: random.Random, preset: str, options: dict[str, str], data: dict[str, Any]) -> dict[str, Any]:
    """A sheet entered at random into the core: what the JS is given, and the core's figures."""
    rules = load_preset(preset).with_options(options) if options else load_preset(preset)
    count = rng.choice([int(n) for n in data["tables"]])
    table = data["tables"][str(count)]
    players = [f"P{seat}" for seat in range(count)]
    sheet = Sheet.new(rules, players, rng.choice(players))
    entered = []
    for _ in range(rng.randint(1, 18)):
        if sheet.over:
            break
        out = None if rng.random() < 0.25 else rng.choice(players)
        taken: dict[str, int] = {}
        left: dict[str, Any] = {}
        for name in players:
            if name == out or (not data["keeps_points"] and out is not None and rng.random() < 0.5):
                continue
            points_allowed = data["keeps_points"] and not (out is None and data["blocked"] == "fewest_cards")
            if points_allowed and rng.random() < 0.4:
                left[name] = rng.choice([0, rng.randint(0, 40), rng.randint(40, 200)])
            else:
                hand = random_hand(rng, table["pack"], taken, 20)
                if hand:  # no cards at all is no hand given, on the phone (scoring.js) as in the core
                    left[name] = hand
        try:
            sheet.add_round(out, left)
        except SheetError:
            continue
        entered.append({"out": out, "left": left})
    finished = bool(entered) and not sheet.over and rng.random() < 0.2
    if finished:
        sheet.finish()
    core = sheet_json(0, sheet)
    core["next_words"] = next_words(sheet)
    kept = {
        "players": players,
        "first_dealer": core["sheet"]["first_dealer"],
        "rounds": entered,
        "finished": finished,
        "undo": [],
    }
    return {"sheet": kept, "core": core}


SCORE_IN_JS = """async ([rules, sheets]) => {
  const scoring = await import("/static/scoring.js");
  return sheets.map((s) => scoring.view(rules, s.sheet));
}"""

#: The figures compared, as the server's sheet view names them.
SHEET_KEYS = (
    "totals",
    "standings",
    "over",
    "finished_early",
    "winners",
    "next",
    "next_words",
    "scoring",
    "keeps_points",
)
ROUND_KEYS = ("round", "dealer", "hand_size", "out", "blocked", "worth", "points", "totals", "winners")


@pytest.mark.parametrize(("preset", "options"), CASES, ids=[f"{p}{'-' if o else ''}{','.join(o)}" for p, o in CASES])
def test_the_phones_scoring_agrees_with_the_cores(
    chromium: Any, live_server: Any, preset: str, options: dict[str, str]
) -> None:
    query = "&".join([f"preset={preset}", *(f"option={k}={v}" for k, v in options.items())])
    with urllib.request.urlopen(f"{live_server.base}/api/scoring?{query}") as answer:
        assert answer.headers["Content-Type"] == "application/json"
        data = json.load(answer)
    rules = load_preset(preset).with_options(options) if options else load_preset(preset)
    assert data == json.loads(json.dumps(scoring_data(rules)))
    rng = random.Random(f"{preset}{options}")
    sheets = [random_sheet(rng, preset, options, data) for _ in range(SHEETS_PER_CASE)]
    assert sum(len(s["sheet"]["rounds"]) for s in sheets) >= SHEETS_PER_CASE, "too few rounds were accepted"
    page = chromium.new_page()
    try:
        page.goto(f"{live_server.base}/scorecard")
        shown = page.evaluate(SCORE_IN_JS, [data, sheets])
    finally:
        page.close()
    for kept, phone in zip(sheets, shown, strict=True):
        core = kept["core"]
        for key in SHEET_KEYS:
            assert phone[key] == core[key], (key, kept["sheet"])
        assert len(phone["rounds"]) == len(core["rounds"])
        for mine, theirs in zip(phone["rounds"], core["rounds"], strict=True):
            for key in ROUND_KEYS:
                assert mine[key] == theirs[key], (key, mine["round"], kept["sheet"])


def test_the_scoring_of_unknown_rules_is_refused_in_one_line(live_server: Any) -> None:
    try:
        urllib.request.urlopen(f"{live_server.base}/api/scoring?preset=poker")
    except urllib.error.HTTPError as exc:
        assert exc.code == 400
        assert json.load(exc)["error"].startswith("unknown preset 'poker'; valid: classic")
    else:
        raise AssertionError("an unknown preset was scored")


REFUSED_IN_JS = """async ([rules, sheet, entry]) => {
  const scoring = await import("/static/scoring.js");
  try {
    scoring.addRound(rules, sheet, entry);
  } catch (problem) {
    return problem.message;
  }
  return null;
}"""


def test_the_phone_refuses_a_round_past_what_a_sheet_holds_in_the_cores_words(chromium: Any, live_server: Any) -> None:
    """A sheet kept offline holds as many rounds as the server's: the next is refused on the phone, as the core
    refuses it."""
    with urllib.request.urlopen(f"{live_server.base}/api/scoring?preset=baby-eating") as answer:
        data = json.load(answer)
    sheet = Sheet.new(load_preset("baby-eating"), ["Ann", "Bob"], "Ann")
    for _ in range(MAX_ROUNDS):
        sheet.add_round("Ann")
    with pytest.raises(SheetError) as core:
        sheet.add_round("Bob")
    kept = {**sheet.to_dict(), "rounds": [{"out": "Ann", "left": {}}] * MAX_ROUNDS}
    page = chromium.new_page()
    try:
        page.goto(f"{live_server.base}/scorecard")
        below = {**kept, "rounds": kept["rounds"][1:]}
        assert page.evaluate(REFUSED_IN_JS, [data, below, {"out": "Bob", "left": {}}]) is None
        assert page.evaluate(REFUSED_IN_JS, [data, kept, {"out": "Bob", "left": {}}]) == str(core.value)
    finally:
        page.close()


DELETED_IN_JS = """async ([rules, sheet, number]) => {
  const scoring = await import("/static/scoring.js");
  const after = scoring.deleteRound(rules, sheet, number);
  return [after, scoring.view(rules, after)];
}"""


def test_a_round_deleted_on_the_phone_leaves_the_later_rounds_their_deals_as_the_core_does(
    chromium: Any, live_server: Any
) -> None:
    """Issue 40, item 11: deleting a round gave the later rounds that slot's dealer and hand size; on the phone
    (a sheet kept offline) as in the core, they keep the deal they were played with, and the sheet the phone
    keeps says so ("deal") for the server to score again."""
    with urllib.request.urlopen(f"{live_server.base}/api/scoring?preset=derange") as answer:
        data = json.load(answer)
    sheet = Sheet.new(load_preset("derange"), ["Ann", "Bob", "Cid"], "Ann")
    for out in ("Ann", "Bob", "Cid", "Ann"):
        sheet.add_round(out, {name: 3 for name in sheet.players if name != out})
    kept = sheet.to_dict()
    sheet.delete_round(2)
    core = sheet_json(0, sheet)
    page = chromium.new_page()
    try:
        page.goto(f"{live_server.base}/scorecard")
        after, phone = page.evaluate(DELETED_IN_JS, [data, kept, 2])
    finally:
        page.close()
    assert [(r["dealer"], r["hand_size"]) for r in phone["rounds"]] == [("Ann", 8), ("Cid", 6), ("Ann", 5)]
    for mine, theirs in zip(phone["rounds"], core["rounds"], strict=True):
        for key in ROUND_KEYS:
            assert mine[key] == theirs[key], key
    assert phone["next"] == core["next"] == {"round": 4, "dealer": "Bob", "hand_size": 4}
    assert after["rounds"][1]["deal"] == sheet.to_dict()["rounds"][1]["deal"] == 3
    again = Sheet.new(load_preset("derange"), ["Ann", "Bob", "Cid"], "Ann")  # what the server does with it
    for kept_round in after["rounds"]:
        again.add_round(kept_round["out"], kept_round["left"], kept_round.get("deal"))
    assert sheet_json(0, again)["rounds"] == core["rounds"]
