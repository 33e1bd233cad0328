"""The scorecard (issue 22): scripted sheets for every way of counting, checked against totals
worked by hand from the scoring tables of docs/rules.md sections 2-6 and 8 and the preset files.

Each expected total is a literal number with its arithmetic in a comment, so a wrong value
table or a wrong scoring mode fails here and not only against the code's own arithmetic.
"""

from __future__ import annotations

import csv
import io
import json
import random
from collections.abc import Callable

import pytest

from eights.cards import Card
from eights.rules import load_preset
from eights.scorecard import MAX_ROUNDS, MatchOverError, Sheet, SheetError, to_csv, to_text

DERANGE = load_preset("derange")
CLASSIC = load_preset("classic")
RACE = load_preset("race")
ACTION = load_preset("action")
BABY = load_preset("baby-eating")


def reload(sheet: Sheet) -> Sheet:
    """Through JSON text and back, as storage will do."""
    return Sheet.from_dict(json.loads(json.dumps(sheet.to_dict())))


# ----- derange: own hand, fifteen rounds 8..1..8, lowest wins (section 5) ---------------------------
# Values: 8 = 50; 2, 3, 10 = 30; K = 20; A = 15; Q, J = 10; 4 5 6 7 9 = face.

DERANGE_ROUNDS: list[tuple[str | None, dict[str, int | str]]] = [
    ("Ann", {"Bob": "8H KS", "Cid": "2C 3D 10H"}),  # 1: Bob 50+20 = 70, Cid 30+30+30 = 90
    ("Bob", {"Ann": "AS QH 7C", "Cid": 14}),  # 2: Ann 15+10+7 = 32, Cid 14 (points)
    ("Cid", {"Ann": "4D 5D", "Bob": "JC"}),  # 3: Ann 4+5 = 9, Bob 10
    ("Ann", {"Bob": "9S 6H", "Cid": "KH"}),  # 4: Bob 9+6 = 15, Cid 20
    (None, {"Ann": "3C", "Bob": "7D 2S", "Cid": 5}),  # 5 blocked, all add (D5): Ann 30, Bob 7+30 = 37, Cid 5
    ("Bob", {"Ann": 6, "Cid": "8C"}),  # 6: Ann 6, Cid 50
    ("Cid", {"Ann": "10S", "Bob": "QD"}),  # 7: Ann 30, Bob 10
    ("Ann", {"Bob": "AH", "Cid": "2D"}),  # 8: Bob 15, Cid 30
    ("Bob", {"Ann": "KD", "Cid": "5S"}),  # 9: Ann 20, Cid 5
    ("Cid", {"Ann": "6C 9D", "Bob": "8S"}),  # 10: Ann 6+9 = 15, Bob 50
    ("Ann", {"Bob": "JH QS", "Cid": "4C 4H"}),  # 11: Bob 10+10 = 20, Cid 4+4 = 8
    ("Bob", {"Ann": 25, "Cid": "3H"}),  # 12: Ann 25, Cid 30
    ("Cid", {"Ann": "7H 7S", "Bob": "10C AC"}),  # 13: Ann 7+7 = 14, Bob 30+15 = 45
    ("Ann", {"Bob": "5C", "Cid": "9H JD"}),  # 14: Bob 5, Cid 9+10 = 19
    ("Bob", {"Ann": "2H", "Cid": "KC"}),  # 15: Ann 30, Cid 20
]


def derange_sheet() -> Sheet:
    sheet = Sheet.new(DERANGE, ["Ann", "Bob", "Cid"], dealer="Ann")
    for out, left in DERANGE_ROUNDS:
        sheet.add_round(out, left)
    return sheet


def test_derange_knows_its_fifteen_rounds_the_deal_and_the_dealer() -> None:
    sheet = Sheet.new(DERANGE, ["Ann", "Bob", "Cid"], dealer="Bob")
    assert sheet.schedule == (8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8)
    seen = []
    for out, left in DERANGE_ROUNDS:
        seen.append((sheet.next_round, sheet.dealer, sheet.hand_size))
        sheet.add_round(out, left)
    # D1: one seat clockwise each round, from Bob; hand sizes 8 down to 1 and back.
    assert seen[:4] == [(1, "Bob", 8), (2, "Cid", 7), (3, "Ann", 6), (4, "Bob", 5)]
    assert seen[7] == (8, "Cid", 1)
    assert seen[14] == (15, "Ann", 8)  # (Bob + 14) mod 3 = Ann
    assert sheet.over and sheet.dealer is None and sheet.hand_size is None


def test_derange_full_fifteen_round_sheet() -> None:
    sheet = derange_sheet()
    # Running totals (Ann, Bob, Cid), round by round:
    expected = [
        (0, 70, 90),  # 1
        (32, 70, 104),  # 2: 0+32, 70, 90+14
        (41, 80, 104),  # 3: 32+9, 70+10
        (41, 95, 124),  # 4: 80+15, 104+20
        (71, 132, 129),  # 5 blocked: 41+30, 95+37, 124+5
        (77, 132, 179),  # 6: 71+6, 129+50
        (107, 142, 179),  # 7: 77+30, 132+10
        (107, 157, 209),  # 8: 142+15, 179+30
        (127, 157, 214),  # 9: 107+20, 209+5
        (142, 207, 214),  # 10: 127+15, 157+50
        (142, 227, 222),  # 11: 207+20, 214+8
        (167, 227, 252),  # 12: 142+25, 222+30
        (181, 272, 252),  # 13: 167+14, 227+45
        (181, 277, 271),  # 14: 272+5, 252+19
        (211, 277, 291),  # 15: 181+30, 271+20
    ]
    assert [r.totals for r in sheet.rounds] == expected
    assert sheet.rounds[4].blocked and sheet.rounds[4].points == (30, 37, 5)
    assert sheet.over and not sheet.finished_early
    assert sheet.winners == ("Ann",)  # lowest total wins: 211 < 277 < 291
    standings = [(s.place, s.name, s.total) for s in sheet.standings()]
    assert standings == [(1, "Ann", 211), (2, "Bob", 277), (3, "Cid", 291)]
    with pytest.raises(MatchOverError, match="over after 15 round"):
        sheet.add_round("Ann", {"Bob": 1, "Cid": 1})


def test_derange_breakdown_shows_each_card_from_the_value_table() -> None:
    sheet = derange_sheet()
    assert sheet.breakdown(1, "Cid") == ((Card("2C"), 30), (Card("3D"), 30), (Card("10H"), 30))
    assert sheet.breakdown_text(1, "Bob") == "8H 50 + KS 20 = 70"
    assert sheet.breakdown(2, "Cid") is None  # points were entered
    assert sheet.breakdown_text(2, "Cid") == "14 points"
    assert sheet.breakdown_text(1, "Ann") == "went out"


def test_derange_worked_value_of_section_8() -> None:
    sheet = Sheet.new(DERANGE, ["Ann", "Bob"], dealer="Ann")
    sheet.add_round("Ann", {"Bob": "8H 2C 10D KS AH QC 7D"})
    assert sheet.totals == (0, 162)  # 50 + 30 + 30 + 20 + 15 + 10 + 7


def test_derange_edit_and_delete_early_rounds_then_undo() -> None:
    sheet = derange_sheet()
    sheet.edit_round(1, "Ann", {"Bob": "8H", "Cid": "2C 3D 10H"})  # Bob 70 -> 50
    assert sheet.rounds[0].totals == (0, 50, 90)
    assert sheet.totals == (211, 257, 291)  # Bob 277 - 20 = 257; every total after round 1 follows
    assert sheet.winners == ("Ann",)

    played = [(r.dealer, r.hand_size) for r in sheet.rounds]
    sheet.delete_round(2)  # Ann's 32 and Cid's 14 go
    assert len(sheet.rounds) == 14
    assert sheet.totals == (179, 257, 277)  # 211-32, 257, 291-14
    # Issue 40, item 11: the rounds after it move up one, each keeping the dealer and cards it was played
    # with (not round 2's Bob dealing 7 for the old round 3); the fifteenth deal is played: the match is over.
    assert [(r.dealer, r.hand_size) for r in sheet.rounds] == played[:1] + played[2:]
    assert [r.deal for r in sheet.rounds] == [0, *range(2, 15)]
    assert sheet.over and sheet.next_round == 15 and sheet.dealer is None

    assert sheet.undo() == "undid the deletion of round 2"
    assert sheet.totals == (211, 257, 291) and sheet.over
    assert sheet.undo() == "undid the edit of round 1"
    assert sheet.totals == (211, 277, 291)
    assert sheet == derange_sheet()


def test_derange_short_rounds_one_pack() -> None:
    rules = DERANGE.replace(short_rounds=True, packs=1)
    sheet = Sheet.new(rules, ["Dee", "Eve"], dealer="Eve")
    assert sheet.schedule == (4, 3, 2, 1, 2, 3, 4)
    rounds: list[tuple[str | None, dict[str, int | str]]] = [
        ("Dee", {"Eve": "8D 3S"}),  # 1: Eve 50+30 = 80
        ("Eve", {"Dee": "KS"}),  # 2: Dee 20
        (None, {"Dee": "AC", "Eve": "4S 5S"}),  # 3 blocked: Dee 15, Eve 4+5 = 9
        ("Dee", {"Eve": "10H"}),  # 4: Eve 30
        ("Eve", {"Dee": 12}),  # 5: Dee 12
        ("Eve", {"Dee": "QC JC"}),  # 6: Dee 10+10 = 20
        ("Dee", {"Eve": "2S"}),  # 7: Eve 30
    ]
    dealers = []
    for out, left in rounds:
        dealers.append(sheet.dealer)
        sheet.add_round(out, left)
    assert dealers == ["Eve", "Dee", "Eve", "Dee", "Eve", "Dee", "Eve"]
    # Dee 20+15+12+20 = 67; Eve 80+9+30+30 = 149
    assert sheet.totals == (67, 149)
    assert sheet.over and sheet.winners == ("Dee",)

    sheet.edit_round(2, "Eve", {"Dee": 102})  # Dee 67 - 20 + 102 = 149: a tie
    assert sheet.totals == (149, 149)
    assert list(sheet.winners) == ["Dee", "Eve"]  # ties share the win
    assert [s.place for s in sheet.standings()] == [1, 1]
    sheet.undo()
    assert sheet.totals == (67, 149) and sheet.winners == ("Dee",)


def test_derange_custom_rounds_list() -> None:
    sheet = Sheet.new(DERANGE.with_options(["rounds=3,1"]), ["Ann", "Bob"], dealer="Bob")
    assert sheet.schedule == (3, 1)
    assert sheet.hand_size == 3
    sheet.add_round("Ann", {"Bob": "3C"})  # Bob 30
    assert sheet.hand_size == 1 and sheet.dealer == "Ann"
    sheet.add_round("Ann", {"Bob": "9C"})  # Bob 30 + 9 = 39
    assert sheet.over and sheet.totals == (0, 39) and sheet.winners == ("Ann",)


# ----- classic: winner collects, one round or to a target, highest wins (section 2) -----------------
# Values: 8 = 50; K, Q, J, 10 = 10; A = 1; 2-7 and 9 = pip value.


def classic_sheet() -> Sheet:
    sheet = Sheet.new(CLASSIC.replace(target=100), ["Ann", "Bob", "Cid"], rng=7)
    sheet.add_round("Ann", {"Bob": "8S 5H", "Cid": "KD AC"})  # Ann collects (50+5) + (10+1) = 66
    sheet.add_round("Cid", {"Ann": "QH", "Bob": "3C 4C"})  # Cid collects 10 + (3+4) = 17
    # Blocked: Ann 9, Bob 2+2 = 4, Cid 10; Bob lowest collects (9-4) + (10-4) = 11 (D5)
    sheet.add_round(None, {"Ann": "9D", "Bob": "2H 2S", "Cid": "JS"})
    # Blocked with Ann 5 and Bob 5 tied lowest (Cid 7): a tie scores nothing (D5)
    sheet.add_round(None, {"Ann": "5C", "Bob": 5, "Cid": "7S"})
    sheet.add_round("Ann", {"Bob": 20, "Cid": "8D"})  # Ann collects 20 + 50 = 70: 66 + 70 = 136 >= 100
    return sheet


def test_classic_to_a_target() -> None:
    sheet = classic_sheet()
    assert [r.totals for r in sheet.rounds] == [
        (66, 0, 0),
        (66, 0, 17),
        (66, 11, 17),  # Bob 0 + 11
        (66, 11, 17),  # the tie scores nothing
        (136, 11, 17),  # Ann 66 + 70
    ]
    assert sheet.rounds[2].winners == (1,)
    assert sheet.rounds[3].winners == (0, 1) and sheet.rounds[3].points == (0, 0, 0)
    assert sheet.target == 100
    assert sheet.over and sheet.winners == ("Ann",)


def test_classic_edits_move_the_end_of_the_match() -> None:
    sheet = classic_sheet()
    sheet.edit_round(1, "Ann", {"Bob": "5H", "Cid": "KD AC"})  # Ann collects 5 + 11 = 16
    assert sheet.totals == (86, 11, 17)  # 16 + 70 = 86 < 100: the match goes on
    assert not sheet.over and sheet.leader == ("Ann",) and sheet.next_round == 6
    sheet.add_round("Cid", {"Ann": "8C", "Bob": "8H 10S"})  # Cid collects 50 + 60 = 110: 17 + 110 = 127
    assert sheet.totals == (86, 11, 127)
    assert sheet.over and sheet.winners == ("Cid",)
    sheet.undo()
    sheet.undo()
    assert sheet == classic_sheet()

    # An edit that would end the match at round 2 while rounds 3-5 follow is refused.
    before = sheet.to_dict()
    with pytest.raises(MatchOverError, match="ends after round 2, but 3 more"):
        sheet.edit_round(2, "Ann", {"Bob": "8C 8H", "Cid": 1})  # 66 + 101 = 167
    assert sheet.to_dict() == before


def test_classic_without_a_target_is_one_round() -> None:
    sheet = Sheet.new(CLASSIC, ["Ann", "Bob"], dealer="Ann")
    assert sheet.schedule == () and sheet.target == 0
    sheet.add_round("Bob", {"Ann": "8H KS 10C AD 5S"})  # section 8: 50 + 10 + 10 + 1 + 5 = 76
    assert sheet.totals == (0, 76)
    assert sheet.over and sheet.winners == ("Bob",)


def test_classic_one_blocked_round_tied_is_shared() -> None:
    sheet = Sheet.new(CLASSIC, ["Ann", "Bob", "Cid"], dealer="Ann")
    sheet.add_round(None, {"Ann": "3C", "Bob": "2D AH", "Cid": "KC"})  # 3, 2+1 = 3, 10: Ann and Bob tie
    assert sheet.totals == (0, 0, 0)
    assert sheet.winners == ("Ann", "Bob")


def test_a_drawn_first_dealer_comes_from_the_seed() -> None:
    a = Sheet.new(CLASSIC, ["Ann", "Bob", "Cid", "Dee"], rng=12345)
    b = Sheet.new(CLASSIC, ["Ann", "Bob", "Cid", "Dee"], rng=random.Random(12345))
    assert a.setup.first_dealer == b.setup.first_dealer == random.Random(12345).randrange(4)
    dealers = {Sheet.new(CLASSIC, ["Ann", "Bob", "Cid", "Dee"], rng=seed).dealer for seed in range(40)}
    assert dealers == {"Ann", "Bob", "Cid", "Dee"}


# ----- race: winner collects, to 50 x players, highest wins (section 4) ------------------------------


def race_sheet() -> Sheet:
    sheet = Sheet.new(RACE, ["Ann", "Bob", "Cid"], dealer="Cid")
    sheet.add_round("Ann", {"Bob": "8C 10D 2H", "Cid": "AS"})  # Ann (50+10+2) + 1 = 63
    sheet.add_round("Bob", {"Ann": "JC 9S", "Cid": "8H 8D"})  # Bob (10+9) + (50+50) = 119
    sheet.add_round("Cid", {"Ann": 5, "Bob": "KS QS"})  # Cid 5 + 20 = 25
    sheet.add_round("Bob", {"Ann": "4D", "Cid": "7C"})  # Bob 4 + 7 = 11: 130
    sheet.add_round("Ann", {"Bob": "8S", "Cid": "3H 6H"})  # Ann 50 + 9 = 59: 63 + 59 = 122
    sheet.add_round("Bob", {"Ann": "10C", "Cid": "9H"})  # Bob 10 + 9 = 19: 149, one short of 150
    sheet.add_round("Ann", {"Bob": "2C", "Cid": "QC JD"})  # Ann 2 + 20 = 22: 144
    sheet.add_round("Bob", {"Ann": "AD", "Cid": "5C"})  # Bob 1 + 5 = 6: 155 >= 150
    return sheet


def test_race_target_is_fifty_per_player() -> None:
    names = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus"]
    targets = [Sheet.new(RACE, names[:n], dealer="Ann").target for n in range(2, 8)]
    assert targets == [100, 150, 200, 250, 300, 350]


def test_race_to_the_target() -> None:
    sheet = race_sheet()
    assert [r.totals for r in sheet.rounds] == [
        (63, 0, 0),
        (63, 119, 0),
        (63, 119, 25),
        (63, 130, 25),
        (122, 130, 25),
        (122, 149, 25),  # 149 < 150: not over
        (144, 149, 25),
        (144, 155, 25),
    ]
    assert sheet.over and sheet.winners == ("Bob",)
    assert [(s.place, s.name) for s in sheet.standings()] == [(1, "Bob"), (2, "Ann"), (3, "Cid")]


def test_race_worked_value_of_section_8() -> None:
    sheet = Sheet.new(RACE, ["Ann", "Bob"], dealer="Ann")
    sheet.add_round("Ann", {"Bob": "10H 2C AS"})
    assert sheet.totals == (13, 0)  # 10 + 2 + 1


def test_race_delete_and_undo() -> None:
    sheet = race_sheet()
    sheet.delete_round(2)  # Bob loses the 119 of round 2
    assert sheet.totals == (144, 36, 25)  # Bob 155 - 119
    assert not sheet.over and sheet.leader == ("Ann",)
    assert sheet.rounds[1].totals == (63, 0, 25)  # the old round 3 is now round 2
    sheet.undo()
    assert sheet == race_sheet()
    assert sheet.winners == ("Bob",)


def test_race_csv_export() -> None:
    sheet = Sheet.new(RACE, ["Ann", "Bob"], dealer="Bob")
    sheet.add_round("Ann", {"Bob": "8C 10D 2H"})  # 50 + 10 + 2 = 62
    sheet.add_round("Bob", {"Ann": "JC 9S"})  # 10 + 9 = 19
    sheet.add_round("Ann", {"Bob": 40})  # 62 + 40 = 102 >= 100
    assert to_csv(sheet) == (
        "round,dealer,cards,out,Ann cards left,Ann points,Ann total,Bob cards left,Bob points,Bob total\n"
        "1,Bob,7,Ann,,62,62,8C 10D 2H,0,0\n"
        "2,Ann,7,Bob,JC 9S,0,62,,19,19\n"
        "3,Bob,7,Ann,,40,102,,0,19\n"
        "final,,,won: Ann,,,102,,,19\n"
    )


def test_csv_cells_a_spreadsheet_would_run_are_written_as_text() -> None:
    """Issue 28, item 8: a name like =HYPERLINK(...) stays a name in a spreadsheet."""
    sheet = Sheet.new(RACE, ["=cmd|' /C calc'!A0", "@Bob", "+Cid", "-Dee"], dealer="@Bob")
    sheet.add_round("+Cid", {"@Bob": 5, "=cmd|' /C calc'!A0": 3, "-Dee": 2})
    rows = list(csv.reader(io.StringIO(to_csv(sheet))))
    assert rows[0][4:6] == ["'=cmd|' /C calc'!A0 cards left", "'=cmd|' /C calc'!A0 points"]
    assert rows[1][:4] == ["1", "'@Bob", "5", "'+Cid"]
    assert "'-Dee points" in rows[0]
    for cell in (cell for row in rows for cell in row):
        assert not cell.startswith(("=", "+", "@")), cell
        assert not cell.startswith("-") or cell.lstrip("-").isdigit(), cell


# ----- action with score keeping: own hand, to 500, lowest wins (section 3) --------------------------
# Values: 3-7 and 9 face; 10, J, K = 10; 2, Q, A = 20; 8 = 40.


def action_sheet() -> Sheet:
    sheet = Sheet.new(ACTION.replace(score_keeping=True), ["Ann", "Bob", "Cid", "Dee"], dealer="Dee")
    # Bob: section 8's hand 2 Q A 8 9 10 = 20+20+20+40+9+10 = 119; Cid 3+4 = 7; Dee 60 (points)
    sheet.add_round("Ann", {"Bob": "2S QH AD 8C 9C 10C", "Cid": "3D 4D", "Dee": 60})
    sheet.add_round("Cid", {"Ann": "8H 8S", "Bob": 150, "Dee": "KH JH"})  # Ann 80, Bob 150, Dee 10+10 = 20
    sheet.add_round(None, {"Ann": "5S", "Bob": "6S 7S", "Cid": "AC", "Dee": "2C"})  # blocked: 5, 13, 20, 20
    sheet.add_round("Dee", {"Ann": 30, "Bob": 220, "Cid": "QS"})  # Ann 30, Bob 220, Cid 20
    return sheet


def test_action_with_score_keeping() -> None:
    sheet = action_sheet()
    assert sheet.hand_size is None  # over
    assert [r.totals for r in sheet.rounds] == [
        (0, 119, 7, 60),
        (80, 269, 7, 80),  # 0+80, 119+150, 7, 60+20
        (85, 282, 27, 100),  # +5, +13, +20, +20
        (115, 502, 47, 100),  # +30, +220 (reaches 500), +20
    ]
    assert sheet.target == 500
    assert sheet.over and sheet.winners == ("Cid",)  # lowest total, 47


def test_action_edit_changes_the_winner_then_undo() -> None:
    sheet = action_sheet()
    sheet.edit_round(1, "Ann", {"Bob": "2S QH AD 8C 9C 10C", "Cid": 100, "Dee": 60})  # Cid 7 -> 100
    assert sheet.totals == (115, 502, 140, 100)  # Cid 47 - 7 + 100 = 140
    assert sheet.winners == ("Dee",)  # now the lowest, 100
    assert sheet.undo() == "undid the edit of round 1"
    assert sheet.winners == ("Cid",)


def test_action_deal_follows_the_packs() -> None:
    rules = ACTION.replace(score_keeping=True)
    assert Sheet.new(rules, ["A", "B"], dealer="A").hand_size == 7  # 2 players: 7
    assert Sheet.new(rules, ["A", "B", "C", "D"], dealer="A").hand_size == 5  # one pack, 3-4 players: 5
    assert Sheet.new(rules, ["A", "B", "C", "D", "E"], dealer="A").hand_size == 7  # two packs: 7


def test_action_without_score_keeping_counts_games_won() -> None:
    sheet = Sheet.new(ACTION, ["Ann", "Bob", "Cid"], dealer="Ann")
    assert not sheet.keeps_points
    sheet.add_round("Bob")
    # Blocked: lowest hand value by the action table (D5): Ann 8 = 40, Bob 5, Cid Q = 20: Bob
    sheet.add_round(None, {"Ann": "8C", "Bob": "5D", "Cid": "QH"})
    sheet.add_round("Cid")
    assert sheet.totals == (0, 2, 1)
    assert not sheet.over and sheet.leader == ("Bob",)
    sheet.finish()
    assert sheet.finished_early and sheet.winners == ("Bob",)


# ----- baby-eating: no points, games won per player or team (section 6) ------------------------------


def test_baby_eating_tally() -> None:
    sheet = Sheet.new(BABY, ["Ann", "Bob", "Cid"], dealer="Cid")
    assert not sheet.keeps_points and sheet.schedule == ()
    sheet.add_round("Ann")
    sheet.add_round("Bob", {"Ann": "GJ JK 4D"})  # cards may be entered; both jokers are in the pack
    sheet.add_round("Ann")
    # Blocked: fewest cards wins (D5): Ann 2, Bob 1, Cid 3 cards: Bob
    sheet.add_round(None, {"Ann": "8H KS", "Bob": "3C", "Cid": "JK 4D 5D"})
    assert [r.totals for r in sheet.rounds] == [(1, 0, 0), (1, 1, 0), (2, 1, 0), (2, 2, 0)]
    assert sheet.leader == ("Ann", "Bob")
    # The deal moves one seat every game (D1): Cid, Ann, Bob, Cid dealt games 1-4; Ann deals 6 next.
    assert [r.dealer for r in sheet.rounds] == [2, 0, 1, 2]
    assert not sheet.over and sheet.dealer == "Ann" and sheet.hand_size == 6
    sheet.edit_round(1, "Cid")
    assert sheet.totals == (1, 2, 1)
    assert list(sheet.leader) == ["Bob"]
    sheet.undo()
    sheet.finish()
    assert sheet.over and sheet.finished_early
    assert sheet.winners == ("Ann", "Bob")  # 2 games each: they share the win
    assert [(s.place, s.name, s.total) for s in sheet.standings()] == [(1, "Ann", 2), (1, "Bob", 2), (3, "Cid", 0)]
    assert sheet.undo() == "undid finishing the match"
    assert not sheet.over


def test_baby_eating_blocked_tie_is_shared() -> None:
    sheet = Sheet.new(BABY, ["Ann", "Bob", "Cid"], dealer="Ann")
    sheet.add_round(None, {"Ann": "8H", "Bob": "3C", "Cid": "4D 5D"})  # Ann and Bob 1 card each
    assert sheet.totals == (1, 1, 0)
    # No points are kept: the cards left are shown as cards, not as a sum of zeros.
    assert [sheet.breakdown_text(1, name) for name in sheet.players] == ["1 card: 8H", "1 card: 3C", "2 cards: 4D 5D"]


def test_baby_eating_teams_tally() -> None:
    sheet = Sheet.new(BABY.replace(teams=True), ["Ann", "Bob", "Cid", "Dee"], dealer="Ann")
    assert sheet.setup.teams == ((0, 2), (1, 3))  # allies opposite (D32)
    sheet.add_round("Ann")  # Ann & Cid
    sheet.add_round("Dee")  # Bob & Dee
    sheet.add_round("Cid")  # Ann & Cid
    sheet.add_round(None, {"Ann": "4C 5C", "Bob": "9D", "Cid": "AS KH", "Dee": "2C 3C 7C"})  # Bob: fewest, 1
    sheet.add_round("Cid")  # Ann & Cid
    assert sheet.rounds[3].winners == (1, 3)
    assert sheet.totals == (3, 2, 3, 2)
    assert [(s.place, s.name, s.total) for s in sheet.standings()] == [(1, "Ann & Cid", 3), (2, "Bob & Dee", 2)]
    sheet.delete_round(5)
    assert [(s.place, s.name, s.total) for s in sheet.standings()] == [(1, "Ann & Cid", 2), (1, "Bob & Dee", 2)]
    sheet.undo()
    sheet.finish()
    assert sheet.winners == ("Ann", "Cid")


def test_baby_eating_expanded_deck_holds_two_of_most_cards() -> None:
    names = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
    sheet = Sheet.new(BABY, names, dealer="Ann")  # 6 players: the expanded deck (D43)
    sheet.add_round(None, {"Ann": "8H", "Bob": "8H", "Cid": "KH", "Dee": "AS", "Eve": "GJ", "Fay": "JK"})
    assert sheet.totals == (1, 1, 1, 1, 1, 1)  # one card each: all share the blocked game


# ----- storage and text -----------------------------------------------------------------------------


@pytest.mark.parametrize("make", [derange_sheet, classic_sheet, race_sheet, action_sheet])
def test_to_dict_loads_back_into_an_equal_sheet(make: Callable[[], Sheet]) -> None:
    sheet = make()
    sheet.edit_round(1, "Ann", {name: 0 for name in sheet.players if name != "Ann"})  # every round 1 here: Ann out
    assert sheet.rounds[0].points != make().rounds[0].points
    copy = reload(sheet)
    assert copy == sheet
    assert copy.totals == sheet.totals and copy.winners == sheet.winners
    assert to_csv(copy) == to_csv(sheet)
    # The undo list is stored too: the loaded sheet undoes the same edit.
    assert copy.undo() == "undid the edit of round 1"
    assert copy == make()


def test_a_loaded_sheet_keeps_finishing_early_and_teams() -> None:
    sheet = Sheet.new(BABY.replace(teams=True), ["Ann", "Bob", "Cid", "Dee"], dealer="Bob")
    sheet.add_round("Bob")
    sheet.finish()
    copy = reload(sheet)
    assert copy == sheet and copy.finished_early and copy.winners == ("Bob", "Dee")


def test_text_shows_rounds_standings_and_what_comes_next() -> None:
    sheet = Sheet.new(DERANGE, ["Ann", "Bob"], dealer="Ann")
    sheet.add_round("Ann", {"Bob": "8H KS"})
    text = to_text(sheet)
    assert "round 1 (Ann deals 8): Ann out; Bob 8♥ K♠ (70) -> Ann 0, Bob 70" in text
    assert "standings: 1. Ann 0; 2. Bob 70" in text
    assert "next: round 2, Bob deals 7" in text


def test_tally_csv_counts_games_won() -> None:
    sheet = Sheet.new(BABY.replace(teams=True), ["Ann", "Bob", "Cid", "Dee"], dealer="Dee")
    sheet.add_round("Bob")  # Bob & Dee
    sheet.add_round(None, {"Ann": "3C", "Bob": "4C 5C", "Cid": "6C 7C", "Dee": "9C 10C"})  # Ann: 1 card; Ann & Cid
    sheet.add_round("Cid")  # Ann & Cid
    sheet.finish()
    assert to_csv(sheet) == (
        "round,dealer,cards,out,Ann cards left,Ann won,Ann games won,Bob cards left,Bob won,Bob games won,"
        "Cid cards left,Cid won,Cid games won,Dee cards left,Dee won,Dee games won\n"
        "1,Dee,6,Bob,,0,0,,1,1,,0,0,,1,1\n"
        "2,Ann,6,blocked,3C,1,1,4C 5C,0,1,6C 7C,1,1,9C 10C,0,1\n"
        "3,Bob,6,Cid,,1,2,,0,1,,1,2,,0,1\n"
        "final,,,won: Ann and Cid,,,2,,,1,,,2,,,1\n"
    )
    assert "winners: Ann and Cid (finished early)" in to_text(sheet)
    assert "teams: Ann & Cid, Bob & Dee" in to_text(sheet)


# ----- how many rounds a sheet holds (issue 37) --------------------------------------------------------


def test_a_sheet_holds_the_rounds_its_rules_allow_and_at_most_max_rounds() -> None:
    """Derange ends after its fifteen rounds; where the rules are open-ended (a target no total reaches, a
    sheet without points) the sheet holds MAX_ROUNDS and refuses the next in words, changing nothing."""
    derange = Sheet.new(DERANGE, ["Ann", "Bob"], dealer="Ann")
    for _ in range(15):
        derange.add_round("Ann", {"Bob": 0})
    with pytest.raises(MatchOverError, match="the match is over after 15 rounds"):
        derange.add_round("Ann", {"Bob": 0})
    for rules, left in ((RACE, {"Bob": 0}), (BABY, None)):
        sheet = Sheet.new(rules, ["Ann", "Bob"], dealer="Ann")
        for _ in range(MAX_ROUNDS):
            sheet.add_round("Ann", left)
        before = sheet.to_dict()
        with pytest.raises(MatchOverError) as refused:
            sheet.add_round("Ann", left)
        assert str(refused.value) == (
            f"round {MAX_ROUNDS + 1} cannot be entered: a score sheet holds at most {MAX_ROUNDS} rounds; "
            "finish the match (it is decided on the totals so far) and start a new sheet"
        )
        assert sheet.to_dict() == before and not sheet.over
        sheet.finish()
        assert sheet.over and reload(sheet) == sheet


def test_rules_that_plan_more_rounds_than_a_sheet_holds_are_refused_at_its_start() -> None:
    """A count of hands or a list of hand sizes past MAX_ROUNDS makes no sheet (its schedule alone would be
    millions of rounds); a sheet saved before with such rules still opens (it is its user's own)."""
    hands = CLASSIC.with_options({"hands": str(MAX_ROUNDS + 1)})
    with pytest.raises(SheetError) as refused:
        Sheet.new(hands, ["Ann", "Bob"], dealer="Ann")
    assert str(refused.value) == f"hands: {MAX_ROUNDS + 1} rounds are more than a score sheet holds; give at most 200"
    long = DERANGE.with_options({"rounds": ",".join(["1"] * (MAX_ROUNDS + 1))})
    with pytest.raises(SheetError, match=f"rounds: {MAX_ROUNDS + 1} hand sizes are more rounds than a score sheet"):
        Sheet.new(long, ["Ann", "Bob"], dealer="Ann")
    most = Sheet.new(CLASSIC.with_options({"hands": str(MAX_ROUNDS)}), ["Ann", "Bob"], dealer="Ann")
    assert len(most.schedule) == MAX_ROUNDS
    saved = most.to_dict()
    saved["rules"] = hands.to_dict()
    assert Sheet.from_dict(saved).rules.hands == MAX_ROUNDS + 1
